package hugepages

import (
	"os"
	"runtime"
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
	const huge = 2 << 20
	start := uintptr(unsafe.Pointer(unsafe.SliceData(block)))
	from := (start + huge - 1) &^ (huge - 1)
	to := (start + uintptr(n)) &^ (huge - 1)
	if from >= to {
		return 0, "the block holds no whole huge page"
	}
	if err := unix.Madvise(block[from-start:to-start], unix.MADV_HUGEPAGE); err != nil {
		return 0, "the kernel refused the advice: " + err.Error()
	}
	runtime.KeepAlive(block)
	// Freed now, the block's pages are the heap's lowest free ones but
	// for what it held before.
	runtime.GC()
	return int(to - from), ""
}
