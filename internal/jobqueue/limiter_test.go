package jobqueue

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"
)

// fakeClock stands still at now and records the waits asked of it.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	slept []time.Duration
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.slept = append(c.slept, d)
	return ctx.Err()
}

// Two queues on one database, as two workers on two machines, share a
// judge's rate limit: eight concurrent waits at 120 a minute get eight
// distinct slots half a second apart, the first at once. Another key has
// slots of its own.
func TestLimiterSharedAcrossQueues(t *testing.T) {
	for _, s := range stores(t) {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			dsn := s.dsn(t)
			clk := &fakeClock{now: time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)}
			var limiters []*Limiter
			for range 2 {
				q := open(t, dsn)
				q.clock = clk
				limiters = append(limiters, q.Limiter("openai:gpt-5", 120))
			}
			var wg sync.WaitGroup
			for i := range 8 {
				wg.Go(func() {
					if err := limiters[i%2].Wait(t.Context()); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			got := slices.Clone(clk.slept)
			slices.Sort(got)
			var want []time.Duration
			for i := range 8 {
				want = append(want, time.Duration(i)*500*time.Millisecond)
			}
			if !slices.Equal(got, want) {
				t.Errorf("waits %v, want %v", got, want)
			}

			clk.slept = nil
			other := open(t, dsn)
			other.clock = clk
			if err := other.Limiter("anthropic:claude", 60).Wait(t.Context()); err != nil {
				t.Fatal(err)
			}
			if err := other.Limiter("none", 0).Wait(t.Context()); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(clk.slept, []time.Duration{0, 0}) {
				t.Errorf("a fresh key and an unlimited one waited %v, want no wait", clk.slept)
			}
		})
	}
}

// A wait whose context ends returns the context's error.
func TestLimiterWaitCancelled(t *testing.T) {
	q := open(t, sqliteDSN(t))
	l := q.Limiter("k", 1)
	if err := l.Wait(t.Context()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if err := l.Wait(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait with an ended context = %v, want context.Canceled", err)
	}
}
