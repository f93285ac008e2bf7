package scan

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestTimedOut: the reason of a job whose --timeout had passed when it
// failed is the error that fired first. A try that failed in time, then
// the timeout cutting the back-off or the next try (cutShort): that
// try's error, then the timeout. Tries that ended in time on their own:
// their error alone. The timeout cutting the first try: the timeout
// once, then that try's error if it is more than the cut itself (a
// context's own error adds nothing); the reason still wraps the cause.
func TestTimedOut(t *testing.T) {
	cause := errors.New("the server took longer than --timeout 5s")
	died := errors.New("server exited with status 1 before answering initialize")
	slow := errors.New("no answer to tools/list within 1s")
	for _, c := range []struct {
		name string
		err  error
		want string
	}{
		{"nothing failed before", nil, "the server took longer than --timeout 5s"},
		{"the first try cut", &cutShort{err: context.Canceled}, "the server took longer than --timeout 5s"},
		{"a wrapped cut", &cutShort{err: fmt.Errorf("reading tools: %w", context.DeadlineExceeded)}, "the server took longer than --timeout 5s"},
		{"the first try cut, saying more", &cutShort{err: died}, "the server took longer than --timeout 5s; its last error: server exited with status 1 before answering initialize"},
		{"a try failed in time, the back-off cut", &cutShort{last: died, err: context.Canceled}, "server exited with status 1 before answering initialize; then, before another try could pass, the server took longer than --timeout 5s"},
		{"the request's timeout, the next try cut", &cutShort{last: slow, err: context.DeadlineExceeded}, "no answer to tools/list within 1s; then, before another try could pass, the server took longer than --timeout 5s"},
		{"the request's timeout on the last try", slow, "no answer to tools/list within 1s"},
		{"the wait was cut, outside the tries", context.DeadlineExceeded, "the server took longer than --timeout 5s"},
	} {
		got := timedOut(cause, c.err)
		if got.Error() != c.want || !errors.Is(got, cause) && strings.Contains(c.want, "--timeout") {
			t.Errorf("%s: %q (wraps the cause: %v), want %q", c.name, got, errors.Is(got, cause), c.want)
		}
	}
}
