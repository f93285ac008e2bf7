package html

// SetLazyCardsAbove sets the number of tools above which cards are drawn
// on demand, for a test or benchmark, and returns what undoes it.
func SetLazyCardsAbove(n int) (restore func()) {
	old := lazyCardsAbove
	lazyCardsAbove = n
	return func() { lazyCardsAbove = old }
}
