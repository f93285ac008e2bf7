package hugepages

import (
	"strconv"
	"strings"
)

// Size is the most Advise sets aside: enough for the heap of 5,000 TDQS
// tools, and no memory until touched.
const Size = 512 << 20

// Env turns Advise off when set to 0 (or off, or false).
const Env = "RUBRIC_HUGEPAGES"

// plan decides how many bytes to advise from what the system says:
// enabled is the content of the transparent_hugepage/enabled file,
// overcommit that of /proc/sys/vm/overcommit_memory, meminfo that of
// /proc/meminfo, godebug and env the GODEBUG and Env variables, and
// limited whether the process's address space or data segment is
// limited (RLIMIT_AS, RLIMIT_DATA). It returns 0 and why not when advice
// would do nothing or could hurt.
func plan(enabled, overcommit, meminfo, godebug, env string, limited bool) (int, string) {
	if race {
		return 0, "the race detector shadows the heap"
	}
	switch strings.ToLower(strings.TrimSpace(env)) {
	case "0", "off", "false", "no":
		return 0, Env + " turns it off"
	}
	for _, kv := range strings.Split(godebug, ",") {
		if strings.TrimSpace(kv) == "disablethp=1" {
			return 0, "GODEBUG=disablethp=1 asks for no huge pages"
		}
	}
	switch mode := selected(enabled); mode {
	case "madvise":
	case "":
		return 0, "the kernel offers no transparent huge pages"
	default:
		return 0, "transparent huge pages are " + mode + " for every program"
	}
	if limited {
		// The block counts against such a limit, and a heap that cannot
		// grow ends the process.
		return 0, "the process's address space or data is limited"
	}
	if strings.TrimSpace(overcommit) == "2" {
		// Under strict accounting the block counts against the
		// commit limit as if it were used.
		return 0, "memory overcommit is strict"
	}
	n := Size
	// A block larger than the memory available could be refused, which
	// the Go runtime does not survive: a quarter of it at most.
	if kb, ok := available(meminfo); ok && kb*1024/4 < int64(n) {
		n = int(kb * 1024 / 4)
	}
	const least = 16 << 20
	if n < least {
		return 0, "too little memory is available"
	}
	return n, ""
}

// selected is the bracketed word of a sysfs setting ("always [madvise]
// never" → "madvise"), empty when there is none.
func selected(s string) string {
	i := strings.IndexByte(s, '[')
	j := strings.IndexByte(s, ']')
	if i < 0 || j < i {
		return ""
	}
	return s[i+1 : j]
}

// available is MemAvailable from /proc/meminfo, in KiB.
func available(meminfo string) (int64, bool) {
	for line := range strings.Lines(meminfo) {
		rest, ok := strings.CutPrefix(line, "MemAvailable:")
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			return 0, false
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		return kb, err == nil
	}
	return 0, false
}
