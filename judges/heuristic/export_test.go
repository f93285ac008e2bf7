package heuristic

// ResetPrepared empties the cache of prepared surfaces, so that a
// benchmark pays for preparing a surface once per run, as a real run
// does.
func ResetPrepared() {
	prepared.Lock()
	defer prepared.Unlock()
	clear(prepared.m)
	prepared.order = nil
}
