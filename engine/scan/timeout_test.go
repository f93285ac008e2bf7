package scan

import (
	"context"
	"errors"
	"fmt"
	"testing"
)

// TestTimedOut: the reason of a job its --timeout ended names the
// timeout once, then the error of the try that failed before the
// back-off the timeout cut; a context's own error (the timeout seen by
// what was waiting) adds nothing, and the reason still wraps the cause.
func TestTimedOut(t *testing.T) {
	cause := errors.New("the server took longer than --timeout 5s")
	died := errors.New("server exited with status 1 before answering initialize")
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"nothing failed before", nil, "the server took longer than --timeout 5s"},
		{"the wait was cut", context.DeadlineExceeded, "the server took longer than --timeout 5s"},
		{"a wrapped cut", fmt.Errorf("reading tools: %w", context.Canceled), "the server took longer than --timeout 5s"},
		{"a try failed before", died, "the server took longer than --timeout 5s; its last error: server exited with status 1 before answering initialize"},
	} {
		got := timedOut(cause, c.err)
		if got.Error() != c.want || !errors.Is(got, cause) {
			t.Errorf("%s: %q (wraps the cause: %v), want %q", c.name, got, errors.Is(got, cause), c.want)
		}
	}
}
