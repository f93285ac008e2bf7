package hugepages

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// childEnv makes the test binary the child of TestAdviseBacksLaterObjects.
const childEnv = "HUGEPAGES_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(child())
	}
	os.Exit(m.Run())
}

// child advises as rubric's main does, in a process of its own whose
// heap has not grown, then makes 16 MiB of small objects, touching
// each, and prints the advised size and how many of the objects lie in
// a mapping not advised for huge pages ("hg" missing from its VmFlags).
func child() int {
	n, why := Advise()
	keep := make([][]byte, 0, 4096)
	for range 4096 {
		b := make([]byte, 4096)
		b[0] = 1
		keep = append(keep, b)
	}
	maps, err := vmFlags()
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	small := 0
	for _, b := range keep {
		addr := uint64(uintptr(unsafe.Pointer(&b[0])))
		hg := false
		for _, m := range maps {
			if addr >= m.lo && addr < m.hi {
				hg = strings.Contains(" "+m.flags+" ", " hg ")
			}
		}
		if !hg {
			small++
		}
	}
	fmt.Printf("advised %d %q\nsmall %d of %d\n", n, why, small, len(keep))
	return 0
}

// area is a mapping of /proc/self/smaps: its addresses and its VmFlags.
type area struct {
	lo, hi uint64
	flags  string
}

// vmFlags reads every mapping of the process with its VmFlags.
func vmFlags() ([]area, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []area
	var cur area
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) > 1 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			lo, hi, _ := strings.Cut(fields[0], "-")
			l, err1 := strconv.ParseUint(lo, 16, 64)
			h, err2 := strconv.ParseUint(hi, 16, 64)
			if err1 != nil || err2 != nil {
				return nil, fmt.Errorf("smaps line %q", line)
			}
			cur = area{lo: l, hi: h}
			continue
		}
		if rest, ok := strings.CutPrefix(line, "VmFlags:"); ok {
			cur.flags = strings.TrimSpace(rest)
			out = append(out, cur)
		}
	}
	return out, sc.Err()
}

// TestAdviseBacksLaterObjects checks the point of Advise: every object
// made after it lies in a mapping advised for huge pages ("hg"). Without
// it (RUBRIC_HUGEPAGES=0) none does.
func TestAdviseBacksLaterObjects(t *testing.T) {
	if race {
		t.Skip("under the race detector Advise declines")
	}
	b, _ := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if selected(string(b)) != "madvise" {
		t.Skipf("transparent huge pages are %q here, not left to each program", strings.TrimSpace(string(b)))
	}
	for _, tc := range []struct {
		env  string
		want bool
	}{{"", true}, {"0", false}} {
		if limited() {
			t.Skip("this process's address space or data is limited, so Advise declines")
		}
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"=1", Env+"="+tc.env)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s=%s: child: %v\n%s", Env, tc.env, err, out)
		}
		var small, made int
		found := false
		for line := range strings.Lines(string(out)) {
			if _, err := fmt.Sscanf(line, "small %d of %d", &small, &made); err == nil {
				found = true
			}
		}
		switch {
		case !found:
			t.Errorf("%s=%q: the child did not say where its objects lie:\n%s", Env, tc.env, out)
		case tc.want && small != 0:
			t.Errorf("%s=%q: %d of %d objects made after Advise lie on small pages, want none\n%s", Env, tc.env, small, made, out)
		case !tc.want && small != made:
			t.Errorf("%s=%q: %d of %d objects lie in a mapping advised for huge pages, want none without Advise\n%s", Env, tc.env, made-small, made, out)
		}
	}
}

func TestMapping(t *testing.T) {
	const maps = `55d0c0a00000-55d0c0c00000 r--p 00000000 08:01 12 /usr/bin/rubric
c000000000-c004000000 rw-p 00000000 00:00 0
7f1e2c000000-7f1e2c021000 rw-p 00000000 00:00 0 
not a mapping line
7ffd1e8f0000-7ffd1e911000 rw-p 00000000 00:00 0                          [stack]
`
	for _, tc := range []struct {
		addr   uintptr
		lo, hi uintptr
		ok     bool
	}{
		{0xc000000000, 0xc000000000, 0xc004000000, true},
		{0xc001234567, 0xc000000000, 0xc004000000, true},
		{0xc003ffffff, 0xc000000000, 0xc004000000, true},
		{0xc004000000, 0, 0, false}, // one past the end
		{0x7f1e2c020fff, 0x7f1e2c000000, 0x7f1e2c021000, true},
		{0x7ffd1e8f0010, 0x7ffd1e8f0000, 0x7ffd1e911000, true},
		{0x1000, 0, 0, false},
	} {
		lo, hi, ok := mapping(maps, tc.addr)
		if lo != tc.lo || hi != tc.hi || ok != tc.ok {
			t.Errorf("mapping(%#x) = %#x, %#x, %v; want %#x, %#x, %v", tc.addr, lo, hi, ok, tc.lo, tc.hi, tc.ok)
		}
	}
}
