package deadline

import (
	"context"
	"testing"
	"time"
)

// lateTimer is a context whose deadline is d and whose timer has not
// fired: Err is nil whatever the time.
type lateTimer struct {
	context.Context
	d time.Time
}

func (c lateTimer) Deadline() (time.Time, bool) { return c.d, true }

func TestPassed(t *testing.T) {
	at := time.Unix(1000, 0)
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		now  time.Time
		want bool
	}{
		{"no deadline", context.Background(), at, false},
		{"ended", ended, at, true},
		{"deadline ahead", lateTimer{context.Background(), at.Add(time.Second)}, at, false},
		{"deadline now, its timer not fired", lateTimer{context.Background(), at}, at, true},
		{"deadline past, its timer not fired", lateTimer{context.Background(), at.Add(-time.Second)}, at, true},
	} {
		if got := Passed(tc.ctx, tc.now); got != tc.want {
			t.Errorf("%s: Passed = %v, want %v", tc.name, got, tc.want)
		}
	}
}
