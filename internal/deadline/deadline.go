// Package deadline tells whether a context's time is up before its own
// timer says so.
//
// A context made with a deadline reports it passed (Err) only once a
// timer has fired in this process, and a busy machine runs timers late.
// An error can come back first: gRPC hands a plugin the caller's
// deadline, and the plugin reports it passed. Whoever reads that error
// must tell the caller's time running out from a failure of its own.
package deadline

import (
	"context"
	"time"
)

// Passed reports whether ctx has ended, or its deadline is at or before
// now (the caller's clock, injected in tests).
func Passed(ctx context.Context, now time.Time) bool {
	if ctx.Err() != nil {
		return true
	}
	d, ok := ctx.Deadline()
	return ok && !now.Before(d)
}
