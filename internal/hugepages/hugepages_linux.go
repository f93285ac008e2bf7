package hugepages

import (
	"os"
	"runtime"
	"strconv"
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// limited reports whether the address space or the data segment of the
// process has a limit (ulimit -v, ulimit -d).
func limited() bool {
	for _, res := range []int{unix.RLIMIT_AS, unix.RLIMIT_DATA} {
		var l unix.Rlimit
		if err := unix.Getrlimit(res, &l); err != nil || l.Cur != unix.RLIM_INFINITY {
			return true
		}
	}
	return false
}

// Advise sets aside a block of the heap for the objects to come and
// advises it for transparent huge pages (see the package doc), when the
// system leaves huge pages to each program. Call it first thing in
// main: it needs a heap that has not grown yet, and runs a collection.
// It returns how many bytes it advised, and why none when it did not.
func Advise() (int, string) {
	read := func(path string) string {
		b, _ := os.ReadFile(path)
		return string(b)
	}
	n, why := plan(read("/sys/kernel/mm/transparent_hugepage/enabled"), read("/proc/sys/vm/overcommit_memory"), read("/proc/meminfo"), os.Getenv("GODEBUG"), os.Getenv(Env), limited())
	if n == 0 {
		return 0, why
	}
	block := make([]byte, n)
	start := uintptr(unsafe.Pointer(unsafe.SliceData(block)))
	lo, hi, ok := mapping(read("/proc/self/maps"), start)
	if !ok {
		// Without the map of the process, the block alone, in whole
		// pages.
		page := uintptr(os.Getpagesize())
		lo, hi = (start+page-1)&^(page-1), (start+uintptr(n))&^(page-1)
	}
	if _, _, errno := unix.Syscall(unix.SYS_MADVISE, lo, hi-lo, unix.MADV_HUGEPAGE); errno != 0 {
		return 0, "the kernel refused the advice: " + errno.Error()
	}
	runtime.KeepAlive(block)
	// Freed now, the block leaves its mapping, advised, to the objects
	// to come.
	runtime.GC()
	return int(hi - lo), ""
}

// mapping finds in maps, the text of /proc/self/maps, the mapping that
// holds addr, and returns its first address and the one past its end.
func mapping(maps string, addr uintptr) (lo, hi uintptr, ok bool) {
	for line := range strings.Lines(maps) {
		span, _, _ := strings.Cut(line, " ")
		a, b, found := strings.Cut(span, "-")
		if !found {
			continue
		}
		l, err1 := strconv.ParseUint(a, 16, 64)
		h, err2 := strconv.ParseUint(b, 16, 64)
		if err1 == nil && err2 == nil && uint64(addr) >= l && uint64(addr) < h {
			return uintptr(l), uintptr(h), true
		}
	}
	return 0, 0, false
}
