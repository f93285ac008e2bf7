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
// memory, which the runtime neither zeroes nor touches), advises for
// huge pages the whole mapping that holds it, and lets the collector
// free the block at once. The advice belongs to the mapping, so it stays
// with the objects that follow, wherever in that mapping the runtime
// puts them.
//
// Advising the whole mapping, not the block alone, matters: the runtime
// does not put every later object in the block. In 400 processes that
// each made 4,096 objects of 4 KiB after advising the block alone, every
// process put some of them outside it (among the heap's free pages
// below it, or in the block's head short of a whole huge page), and
// about one in a hundred put the last of them there too; advising the
// mapping left none on small pages.
package hugepages
