package rubrics_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/internal/rubrictest"
	"github.com/rubricmcp/rubric/rubrics"
)

// TestRubricTests runs the test blocks of every built-in rubric and of
// every example rubric, as rubric test does: make test runs them all.
func TestRubricTests(t *testing.T) {
	refs := rubrics.Names()
	examples, _ := filepath.Glob("../examples/rubrics/*.hcl")
	for _, e := range examples {
		if !strings.HasSuffix(e, "_test.hcl") {
			refs = append(refs, e)
		}
	}
	for _, ref := range refs {
		t.Run(filepath.Base(ref), func(t *testing.T) {
			r := builtin(t, ref)
			if len(r.Tests) == 0 && filepath.Ext(ref) == "" {
				t.Fatalf("the built-in rubric %s ships no tests", ref)
			}
			for _, res := range rubrictest.Run(context.Background(), r) {
				if res.Err != nil {
					t.Errorf("%s: could not run: %v", res.Test.Name, res.Err)
				}
				for _, f := range res.Failures {
					t.Errorf("%s:%d: %s: %s: want %s, got %s", res.Test.File, f.Line, res.Test.Name, f.Path, f.Want, f.Got)
				}
			}
		})
	}
}
