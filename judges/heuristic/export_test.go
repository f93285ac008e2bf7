package heuristic

import "github.com/rubricmcp/rubric/judges/heuristic/internal/gradable"

// ResetPrepared empties the cache of prepared surfaces, so that a
// benchmark pays for preparing a surface once per run, as a real run
// does.
func ResetPrepared() { gradable.ResetPrepared() }
