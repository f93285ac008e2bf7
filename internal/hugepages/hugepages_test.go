package hugepages

import (
	"testing"
)

const meminfo = "MemTotal:       24000000 kB\nMemFree:         1000000 kB\nMemAvailable:   20000000 kB\n"

func TestPlan(t *testing.T) {
	if race {
		if n, why := plan("always [madvise] never", "0", meminfo, "", "", false); n != 0 || why != "the race detector shadows the heap" {
			t.Errorf("under the race detector plan = %d, %q; want 0", n, why)
		}
		t.Skip("under the race detector plan always declines")
	}
	for _, tc := range []struct {
		name                                       string
		enabled, overcommit, meminfo, godebug, env string
		limited                                    bool
		want                                       int
		why                                        string
	}{
		{name: "madvise", enabled: "always [madvise] never\n", overcommit: "0\n", meminfo: meminfo, want: Size},
		{name: "heuristic overcommit", enabled: "always [madvise] never", overcommit: "1", meminfo: meminfo, want: Size},
		{name: "always", enabled: "[always] madvise never", meminfo: meminfo, why: "transparent huge pages are always for every program"},
		{name: "never", enabled: "always madvise [never]", meminfo: meminfo, why: "transparent huge pages are never for every program"},
		{name: "no sysfs file", enabled: "", meminfo: meminfo, why: "the kernel offers no transparent huge pages"},
		{name: "ulimit", enabled: "always [madvise] never", meminfo: meminfo, limited: true, why: "the process's address space or data is limited"},
		{name: "strict overcommit", enabled: "always [madvise] never", overcommit: "2\n", meminfo: meminfo, why: "memory overcommit is strict"},
		{name: "small machine", enabled: "always [madvise] never", meminfo: "MemAvailable:     400000 kB\n", want: 400000 * 1024 / 4},
		{name: "tiny machine", enabled: "always [madvise] never", meminfo: "MemAvailable:      60000 kB\n", why: "too little memory is available"},
		{name: "no MemAvailable", enabled: "always [madvise] never", meminfo: "MemTotal: 1 kB\n", want: Size},
		{name: "GODEBUG", enabled: "always [madvise] never", meminfo: meminfo, godebug: "gctrace=1,disablethp=1", why: "GODEBUG=disablethp=1 asks for no huge pages"},
		{name: "GODEBUG other", enabled: "always [madvise] never", meminfo: meminfo, godebug: "disablethp=0", want: Size},
		{name: "turned off", enabled: "always [madvise] never", meminfo: meminfo, env: "off", why: "RUBRIC_HUGEPAGES turns it off"},
		{name: "turned off 0", enabled: "always [madvise] never", meminfo: meminfo, env: "0", why: "RUBRIC_HUGEPAGES turns it off"},
		{name: "on", enabled: "always [madvise] never", meminfo: meminfo, env: "1", want: Size},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n, why := plan(tc.enabled, tc.overcommit, tc.meminfo, tc.godebug, tc.env, tc.limited)
			if n != tc.want || why != tc.why {
				t.Errorf("plan = %d, %q; want %d, %q", n, why, tc.want, tc.why)
			}
		})
	}
}
