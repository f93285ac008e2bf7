package jobqueue

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
)

// slotClock stands still at now and records when each wait let a call
// go: now plus the wait.
type slotClock struct {
	mu      sync.Mutex
	now     time.Time
	allowed []time.Time
}

func (c *slotClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *slotClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.allowed = append(c.allowed, c.now.Add(d))
	return ctx.Err()
}

// callCount is a judge that counts its calls and answers nothing.
type callCount struct {
	mu sync.Mutex
	n  int
}

func (j *callCount) Ask(context.Context, judge.Question) (judge.Answer, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.n++
	return judge.Answer{}, nil
}

// Two workers, each its own queue on one database as on two machines,
// do the jobs of one scan, each job asking a judge paced by the limit
// of its own queue under one key: the calls of both are allowed at most
// six a minute in all, one every ten seconds, never two in one slot.
func TestJudgeRateSharedByWorkers(t *testing.T) {
	const jobs, callsPerJob, perMinute = 8, 3, 6
	for _, s := range stores(t) {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			dsn := s.dsn(t)
			var list []Job
			for i := range jobs {
				list = append(list, Job{Key: fmt.Sprintf("server-%d", i)})
			}
			if _, err := open(t, dsn).Enqueue(ctx, list); err != nil {
				t.Fatal(err)
			}
			start := time.Date(2026, 12, 2, 8, 0, 0, 0, time.UTC)
			clk := &slotClock{now: start}
			var byWorker [2]callCount
			// Each job waits until both workers have one, so that the
			// first to start cannot take the whole queue.
			both := make(chan struct{})
			var bothOnce sync.Once
			var started [2]bool
			var mu sync.Mutex
			var wg sync.WaitGroup
			errs := make([]error, 2)
			for w := range 2 {
				q := open(t, dsn)
				q.clock = clk
				paced := ask.Paced(&byWorker[w], q.Limiter("openai:gpt-5", perMinute))
				wg.Go(func() {
					errs[w] = q.Work(ctx, Options{Workers: 2, Drain: true}, func(ctx context.Context, j Job) error {
						mu.Lock()
						started[w] = true
						if started[0] && started[1] {
							bothOnce.Do(func() { close(both) })
						}
						mu.Unlock()
						<-both
						for range callsPerJob {
							if _, err := paced.Ask(ctx, judge.Question{Subject: j.Key}); err != nil {
								return err
							}
						}
						return nil
					})
				})
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			calls := byWorker[0].n + byWorker[1].n
			if calls != jobs*callsPerJob || byWorker[0].n == 0 || byWorker[1].n == 0 {
				t.Fatalf("calls by worker: %d and %d, want %d in all, some by each", byWorker[0].n, byWorker[1].n, jobs*callsPerJob)
			}
			allowed := slices.Clone(clk.allowed)
			slices.SortFunc(allowed, time.Time.Compare)
			if len(allowed) != calls {
				t.Fatalf("%d calls allowed, %d made", len(allowed), calls)
			}
			// Each call has a slot of its own, ten seconds after the one
			// before, the first at once.
			for i, at := range allowed {
				if want := start.Add(time.Duration(i) * time.Minute / perMinute); !at.Equal(want) {
					t.Errorf("call %d allowed at +%s, want +%s", i+1, at.Sub(start), want.Sub(start))
				}
			}
			// So each minute allows six, whichever worker asks.
			perMin := map[int]int{}
			for _, at := range allowed {
				perMin[int(at.Sub(start)/time.Minute)]++
			}
			if want := map[int]int{0: 6, 1: 6, 2: 6, 3: 6}; !maps.Equal(perMin, want) {
				t.Errorf("calls allowed in each minute: %v, want %v", perMin, want)
			}
		})
	}
}
