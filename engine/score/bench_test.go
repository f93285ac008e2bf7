package score_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

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
	for b.Loop() {
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseAndScore parses, hashes and scores the same file with
// schema-quality, as `rubric score` does (without writing the report).
func BenchmarkParseAndScore(b *testing.B) {
	data := bigSurface(b, 10000)
	r, err := rubrics.Find("schema-quality")
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		s, err := surface.Parse("big.json", data)
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
