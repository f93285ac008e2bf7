package heuristic_test

import (
	"bytes"
	"context"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	engineask "github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
	"github.com/rubricmcp/rubric/internal/cputime"
	"github.com/rubricmcp/rubric/judges/heuristic"
	"github.com/rubricmcp/rubric/rubrics"
)

// BenchmarkTDQSInProcess scores 1,000 corpus tools with TDQS and this
// judge in one process, without the plugin boundary: the engine's and the
// judge's own work per tool. Its B/op and allocs/op do not move with the
// machine's load, which wall time on a shared machine does:
//
//	go test ./judges/heuristic -run '^$' -bench TDQSInProcess -benchmem
func BenchmarkTDQSInProcess(b *testing.B) {
	s := benchSurface(b, 1000)
	r, err := rubrics.Find("tdqs")
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	j := heuristic.New()
	id, err := j.Configure(ctx, judge.Config{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		a := &engineask.Asker{Judge: j, Identity: id, Rubric: r}
		rep, err := score.Run(ctx, r, s, score.Options{Asker: a})
		if err != nil {
			b.Fatal(err)
		}
		if rep.Score == nil {
			b.Fatalf("no score: %s", rep.NoScore)
		}
	}
}

// BenchmarkTDQSJudge answers the questions a TDQS run asks of 5,000
// corpus tools (the surface bench/tdqs-vs-sq.sh scores: the captures in
// turn, notion's first, with numbered names), asked once beforehand and
// kept: only the judge's own work is timed, its answers encoded, without
// the engine or the plugin boundary. It is the judge process's share of
// that script's TDQS run. Besides wall time it reports the process's
// CPU seconds (user and system, the garbage collector's included) per
// answered run, which a busy machine disturbs less:
//
//	go test ./judges/heuristic -run '^$' -bench TDQSJudge -benchmem
func BenchmarkTDQSJudge(b *testing.B) {
	qs := tdqsQuestions(b, 5000)
	ctx := context.Background()
	j := heuristic.New()
	runtime.GC()
	start, ok := cputime.Process()
	for b.Loop() {
		for _, q := range qs {
			if _, err := j.Ask(ctx, q); err != nil {
				b.Fatal(err)
			}
		}
	}
	if end, _ := cputime.Process(); ok {
		b.ReportMetric((end-start).Seconds()/float64(b.N), "cpu-s/op")
	}
}

// tdqsQuestions returns the questions a TDQS run asks of n corpus tools.
func tdqsQuestions(tb testing.TB, n int) []judge.Question {
	tb.Helper()
	s := benchSurface(tb, n)
	r, err := rubrics.Find("tdqs")
	if err != nil {
		tb.Fatal(err)
	}
	ctx := context.Background()
	j := heuristic.New()
	id, err := j.Configure(ctx, judge.Config{})
	if err != nil {
		tb.Fatal(err)
	}
	rec := &recorder{j: j}
	a := &engineask.Asker{Judge: rec, Identity: id, Rubric: r}
	if _, err := score.Run(ctx, r, s, score.Options{Asker: a}); err != nil {
		tb.Fatal(err)
	}
	return rec.qs
}

// recorder keeps every question it passes on to its judge.
type recorder struct {
	j  *heuristic.Judge
	mu sync.Mutex
	qs []judge.Question
}

// Ask keeps q and has the heuristic judge answer it.
func (r *recorder) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	r.mu.Lock()
	r.qs = append(r.qs, q)
	r.mu.Unlock()
	return r.j.Ask(ctx, q)
}

// benchSurface is n corpus tools as bench/tdqs-vs-sq.sh generates them:
// notion's capture first, then the others in name order, repeated with
// numbered names.
func benchSurface(tb testing.TB, n int) *surface.Surface {
	tb.Helper()
	all, _ := filepath.Glob(filepath.Join("..", "..", "engine", "score", "testdata", "corpus", "*.tools.json"))
	notion := filepath.Join("..", "..", "engine", "score", "testdata", "corpus", "notion.tools.json")
	files := []string{notion}
	for _, f := range all {
		if f != notion {
			files = append(files, f)
		}
	}
	var buf bytes.Buffer
	if err := surfacetest.Repeat(&buf, n, files...); err != nil {
		tb.Fatal(err)
	}
	s, err := surface.Parse("big.json", buf.Bytes())
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// BenchmarkTDQSQuestion answers the questions of a TDQS run over 5,000
// corpus tools (BenchmarkTDQSJudge's) one an op, by kind: "tool" asks
// each tool question in turn, so that ns/op, B/op and allocs/op are a tool
// question's on average; "coherence" asks the one coherence question,
// whose input lists all 5,000 tools:
//
//	go test ./judges/heuristic -run '^$' -bench TDQSQuestion -benchmem
func BenchmarkTDQSQuestion(b *testing.B) {
	qs := tdqsQuestions(b, 5000)
	byKind := map[string][]judge.Question{}
	for _, q := range qs {
		byKind[q.Kind] = append(byKind[q.Kind], q)
	}
	if len(byKind[heuristic.KindTool]) != 5000 || len(byKind[heuristic.KindCoherence]) != 1 {
		b.Fatalf("want 5000 tool questions and one coherence question, got %d and %d",
			len(byKind[heuristic.KindTool]), len(byKind[heuristic.KindCoherence]))
	}
	ctx := context.Background()
	j := heuristic.New()
	for _, kind := range []struct{ name, kind string }{{"tool", heuristic.KindTool}, {"coherence", heuristic.KindCoherence}} {
		b.Run(kind.name, func(b *testing.B) {
			qs := byKind[kind.kind]
			runtime.GC()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if _, err := j.Ask(ctx, qs[i]); err != nil {
					b.Fatal(err)
				}
				if i++; i == len(qs) {
					i = 0
				}
			}
		})
	}
}
