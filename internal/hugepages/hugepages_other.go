//go:build !linux

package hugepages

// Advise does nothing where there are no transparent huge pages to ask
// for.
func Advise() (int, string) {
	return 0, "transparent huge pages are a Linux feature"
}
