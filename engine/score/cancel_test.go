package score_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/rubrics"
)

// A run interrupted while it evaluates formulas stops at the next
// formula: the interrupt comes from Observe at a chosen formula (the
// stage reached), and no formula is evaluated after it, whatever the
// number of tools left.
func TestInterruptedBetweenFormulas(t *testing.T) {
	r, err := rubrics.Find("schema-quality")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "corpus", "github.tools.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tools) < 10 {
		t.Fatalf("%s has %d tools; the test wants many", path, len(s.Tools))
	}
	for _, c := range []struct {
		name string
		// at picks the formula at which the run is interrupted.
		at func(tool string, n int) bool
	}{
		{"at the second tool's first formula", func(tool string, n int) bool { return tool == s.Tools[1].Name }},
		{"at the surface's first formula", func(tool string, n int) bool { return tool == "" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			n, after := 0, 0
			observe := func(tool string, _ *lang.Program, _ lang.Vars) {
				n++
				if ctx.Err() != nil {
					after++
					return
				}
				if c.at(tool, n) {
					cancel()
				}
			}
			_, err := score.Run(ctx, r, s, score.Options{Target: path, Workers: 1, Observe: observe})
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("got %v, want the run interrupted", err)
			}
			if ctx.Err() == nil {
				t.Fatal("the run never reached the formula to interrupt at")
			}
			if after != 0 {
				t.Errorf("%d formulas were evaluated after the interrupt", after)
			}
		})
	}
}
