package score

// SetBeforeSignals sets beforeSignals until the test ends.
func SetBeforeSignals(cleanup func(func()), f func(firstChecked <-chan struct{})) {
	beforeSignals = f
	cleanup(func() { beforeSignals = nil })
}
