package score

// SetEarlyHooks sets the hooks of the checks made beside the surface's
// signals (testHookBeforeSignals, testHookCheckedEarly) for a test, and
// returns what unsets them.
func SetEarlyHooks(before func(), checked func(i int)) (unset func()) {
	testHookBeforeSignals, testHookCheckedEarly = before, checked
	return func() { testHookBeforeSignals, testHookCheckedEarly = nil, nil }
}
