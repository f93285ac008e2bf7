package score_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
	"github.com/rubricmcp/rubric/internal/cputime"
	"github.com/rubricmcp/rubric/rubrics"
)

// bigSurface builds a capture of n tools from the corpus, renamed apart.
func bigSurface(b *testing.B, n int) []byte {
	files, _ := filepath.Glob("testdata/corpus/*.tools.json")
	var buf bytes.Buffer
	if err := surfacetest.Repeat(&buf, n, files...); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkDecodeJSON is the baseline: decoding the file with encoding/json.
// Compare it with BenchmarkParseAndScore in the same run:
//
//	go test ./engine/score -run '^$' -bench . -benchmem
func BenchmarkDecodeJSON(b *testing.B) {
	data := bigSurface(b, 10000)
	b.SetBytes(int64(len(data)))
	peak := watchHeap(b)
	for b.Loop() {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
		runtime.KeepAlive(v)
	}
	peak()
}

// watchHeap samples the heap's objects while the benchmark runs; the
// function it returns stops and reports the most seen, less what was
// there before (the file itself), as peak-heap-MB: how much the work
// held at once, garbage not yet collected included.
func watchHeap(b *testing.B) func() {
	runtime.GC()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	read := func() uint64 { metrics.Read(sample); return sample[0].Value.Uint64() }
	base := read()
	var most uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(2 * time.Millisecond)
		defer t.Stop()
		for {
			most = max(most, read())
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	return func() {
		close(done)
		wg.Wait()
		b.ReportMetric(float64(most-min(most, base))/(1<<20), "peak-heap-MB")
	}
}

// BenchmarkParseAndScore parses (lean, as the host does), hashes and
// scores the same file with schema-quality, as `rubric score` does
// (without writing the report).
func BenchmarkParseAndScore(b *testing.B) { benchParseAndScore(b, surface.ParseLean) }

// BenchmarkParseWholeAndScore is BenchmarkParseAndScore with every tool's
// tree built at once and kept (surface.Parse), as the host read surfaces
// before ParseLean: the two side by side show what keeping them costs.
func BenchmarkParseWholeAndScore(b *testing.B) { benchParseAndScore(b, surface.Parse) }

func benchParseAndScore(b *testing.B, parse func(string, []byte) (*surface.Surface, error)) {
	data := bigSurface(b, 10000)
	r, err := rubrics.Find("schema-quality")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	peak := watchHeap(b)
	defer peak()
	for b.Loop() {
		s, err := parse("big.json", data)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := score.Run(context.Background(), r, s, score.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(10000*b.N)/b.Elapsed().Seconds(), "tools/s")
}

// BenchmarkScore scores an already parsed surface: the rubric's work alone.
func BenchmarkScore(b *testing.B) {
	data := bigSurface(b, 10000)
	r, err := rubrics.Find("schema-quality")
	if err != nil {
		b.Fatal(err)
	}
	s, err := surface.Parse("big.json", data)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := score.Run(context.Background(), r, s, score.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(10000*b.N)/b.Elapsed().Seconds(), "tools/s")
}

// fixedJudge answers every TDQS question with the same scores, at once:
// a judge that costs nothing, so that a benchmark measures the host's
// own work (inputs, prompts measured, answers read, formulas, report).
type fixedJudge struct{}

const (
	fixedRated = `{"score": 3, "justification": "It names what the tool does, in plain words."}`
	fixedTool  = `{"scores": {"purpose_clarity": ` + fixedRated + `, "usage_guidelines": ` + fixedRated +
		`, "behavioral_transparency": ` + fixedRated + `, "parameter_semantics": ` + fixedRated +
		`, "conciseness_structure": ` + fixedRated + `, "contextual_completeness": ` + fixedRated +
		`}, "annotation_contradiction": false, "summary": "An ordinary description."}`
	fixedCoherence = `{"scores": {"disambiguation": ` + fixedRated + `, "naming_consistency": ` + fixedRated +
		`, "tool_count_appropriateness": ` + fixedRated + `, "completeness": ` + fixedRated +
		`}, "shadowing_risks": [], "summary": "An ordinary set."}`
)

// Ask implements judge.Judge: the fixed answer of the question's kind.
func (fixedJudge) Ask(_ context.Context, q judge.Question) (judge.Answer, error) {
	a := fixedTool
	if q.Kind == "tdqs.coherence" {
		a = fixedCoherence
	}
	return judge.Answer{JSON: []byte(a), Model: "fixed"}, nil
}

// BenchmarkScoreTDQS scores 1,000 corpus tools with TDQS and a judge that
// answers at once, as `rubric score` does with a judge that reads the
// structured input alone (the prompts measured, not kept), and writes the
// JSON report: the host's work per tool, without the judge's.
//
//	go test ./engine/score -run '^$' -bench TDQS -benchmem
func BenchmarkScoreTDQS(b *testing.B) {
	const n = 1000
	data := bigSurface(b, n)
	r, err := rubrics.Find("tdqs")
	if err != nil {
		b.Fatal(err)
	}
	peak := watchHeap(b)
	defer peak()
	cpu, _ := cputime.Process()
	for b.Loop() {
		s, err := surface.ParseLean("big.json", data)
		if err != nil {
			b.Fatal(err)
		}
		a := &ask.Asker{Judge: fixedJudge{}, Identity: judge.Identity{Model: "fixed"}, Rubric: r, StructuredOnly: true}
		rep, err := score.Run(context.Background(), r, s, score.Options{Asker: a})
		if err != nil {
			b.Fatal(err)
		}
		if err := report.Write(io.Discard, rep); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "tools/s")
	// CPU time, less swayed than the wall clock by what else the machine
	// runs: an old and a new build compared on a busy machine.
	end, _ := cputime.Process()
	b.ReportMetric((end-cpu).Seconds()*1000/float64(b.N), "cpu-ms/op")
}
