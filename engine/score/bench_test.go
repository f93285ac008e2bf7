package score_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
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
