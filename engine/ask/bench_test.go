package ask_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/judge"
)

// delayed answers after a fixed delay, as a model would, but exactly.
type delayed struct {
	counting
	d time.Duration
}

func (j *delayed) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	t := time.NewTimer(j.d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
		return judge.Answer{}, ctx.Err()
	}
	return j.counting.Ask(ctx, q)
}

// BenchmarkConcurrency asks N questions of a judge that answers after D,
// C at a time, and reports the efficiency: the ideal ceil(N/C) x D over
// the wall time. 1 means the engine adds nothing to the judge's latency.
//
//	go test ./engine/ask -run '^$' -bench Concurrency -benchtime 5x
func BenchmarkConcurrency(b *testing.B) {
	for _, c := range []struct {
		n, conc int
		d       time.Duration
	}{{90, 6, 50 * time.Millisecond}, {90, 1, 5 * time.Millisecond}, {360, 24, 50 * time.Millisecond}} {
		b.Run(fmt.Sprintf("N=%d/C=%d/D=%s", c.n, c.conc, c.d), func(b *testing.B) {
			r := loadRubric(b)
			reqs := requests(b, r, names(c.n)...)
			ideal := time.Duration((c.n+c.conc-1)/c.conc) * c.d
			var wall time.Duration
			for b.Loop() {
				j := &delayed{d: c.d}
				start := time.Now()
				if _, err := (&ask.Asker{Judge: j, Identity: identity, Rubric: r, Concurrency: c.conc}).Ask(context.Background(), reqs); err != nil {
					b.Fatal(err)
				}
				wall += time.Since(start)
			}
			b.ReportMetric(float64(ideal)*float64(b.N)/float64(wall), "efficiency")
			b.ReportMetric(float64(wall.Milliseconds())/float64(b.N), "wall-ms")
			b.ReportMetric(float64(ideal.Milliseconds()), "ideal-ms")
		})
	}
}

// BenchmarkOverhead is the engine's own time per question, with a judge
// that answers at once: rendering the prompts, validating the answer
// against its schema, and (with the cache) writing it to disk, or reading
// it back.
//
//	go test ./engine/ask -run '^$' -bench Overhead
func BenchmarkOverhead(b *testing.B) {
	r := loadRubric(b)
	reqs := requests(b, r, names(100)...)
	run := func(b *testing.B, store func() *cache.Store) {
		for b.Loop() {
			a := &ask.Asker{Judge: &counting{}, Identity: identity, Rubric: r, Cache: store()}
			if _, err := a.Ask(context.Background(), reqs); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(reqs)), "ns/question")
	}
	b.Run("no-cache", func(b *testing.B) { run(b, func() *cache.Store { return nil }) })
	b.Run("cache-miss", func(b *testing.B) {
		run(b, func() *cache.Store {
			s, err := cache.Open(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			return s
		})
	})
	b.Run("cache-hit", func(b *testing.B) {
		s, err := cache.Open(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		if _, err := (&ask.Asker{Judge: &counting{}, Identity: identity, Rubric: r, Cache: s}).Ask(context.Background(), reqs); err != nil {
			b.Fatal(err)
		}
		run(b, func() *cache.Store { return s })
	})
}
