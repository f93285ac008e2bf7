package heuristic_test

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	engineask "github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
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
	files, _ := filepath.Glob(filepath.Join("..", "..", "engine", "score", "testdata", "corpus", "*.tools.json"))
	var buf bytes.Buffer
	if err := surfacetest.Repeat(&buf, 1000, files...); err != nil {
		b.Fatal(err)
	}
	s, err := surface.Parse("big.json", buf.Bytes())
	if err != nil {
		b.Fatal(err)
	}
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
