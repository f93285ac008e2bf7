package explain_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/explain"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/rubrics"
)

// TestToolExplainer: the explanation a freshly scored report gives the
// HTML page for a tool is what rubric explain --tool prints from the
// report's file.
func TestToolExplainer(t *testing.T) {
	const capture = "postgres.tools.json"
	r, data := scored(t, capture, "schema-quality")
	fromFile, err := read(t, data)
	if err != nil {
		t.Fatal(err)
	}
	// The same run, in memory: no embedded surface yet.
	path := filepath.Join("..", "score", "testdata", "corpus", capture)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse(path, raw)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := score.Run(context.Background(), r, s, score.Options{Target: capture})
	if err != nil {
		t.Fatal(err)
	}
	if r, err = rubrics.Find("schema-quality"); err != nil {
		t.Fatal(err)
	}
	explainTool := explain.ToolExplainer(context.Background(), r, fresh)
	for _, tool := range fresh.Tools {
		got, err := explainTool(tool.Name)
		if err != nil {
			t.Fatalf("%s: %v", tool.Name, err)
		}
		var want strings.Builder
		if err := explain.Write(context.Background(), &want, r, fromFile, explain.Request{Tool: tool.Name}); err != nil {
			t.Fatal(err)
		}
		if got != want.String() {
			t.Errorf("%s:\n%s\nwant\n%s", tool.Name, got, want.String())
		}
	}
	if len(fresh.Embedded) != 0 {
		t.Error("explaining embedded the surface in the report itself")
	}
}
