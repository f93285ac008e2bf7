// Package hugepages asks Linux to back rubric's heap with transparent
// huge pages, where the system leaves that to each program (the
// "madvise" setting of /sys/kernel/mm/transparent_hugepage/enabled).
//
// A run that scores thousands of tools grows its heap to hundreds of
// megabytes, and the first touch of every 4 KiB page of it is a page
// fault: on the machines rubric is measured on, 5,000 TDQS tools took
// about 74 thousand of them, a fifth of the run's CPU. A huge page is
// faulted once for 2 MiB.
//
// The Go runtime does not advise its heap itself, and maps it piece by
// piece as it grows. Advise therefore makes the heap map a large block
// at once, before anything else needs it: it allocates the block (fresh
// memory, which the runtime neither zeroes nor touches), advises its
// pages for huge pages, and lets the collector free it at once. The
// runtime hands out its lowest free pages first, so the objects that
// follow fill that block, and its advice, which belongs to the mapping,
// stays with them.
package hugepages
