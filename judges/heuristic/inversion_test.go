package heuristic_test

import (
	"context"
	"encoding/json"
	"testing"

	engineask "github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/judges/heuristic"
	"github.com/rubricmcp/rubric/rubrics"
)

// documents is a small surface whose tools take a "path" that is really
// a document id: with the pattern, a file path does not fit it.
func documents(t *testing.T, pattern bool) *surface.Surface {
	t.Helper()
	path := map[string]any{"type": "string", "description": "The document's id, such as DOC-1042."}
	if pattern {
		path["pattern"] = "^DOC-[0-9]{4}$"
	}
	schema := map[string]any{"type": "object", "properties": map[string]any{"path": path}, "required": []any{"path"}}
	tools := []map[string]any{
		{"name": "read_document", "description": "Read one document of the archive and return its text as JSON.", "inputSchema": schema,
			"annotations": map[string]any{"readOnlyHint": true}},
		{"name": "list_documents", "description": "List the documents of the archive; returns their ids and titles as JSON.",
			"inputSchema": map[string]any{"type": "object", "properties": map[string]any{}}, "annotations": map[string]any{"readOnlyHint": true}},
		{"name": "archive_document", "description": "Move one document to the archive's cold storage; returns the new location as JSON.", "inputSchema": schema,
			"annotations": map[string]any{"readOnlyHint": false, "destructiveHint": false}},
	}
	b, err := json.Marshal(map[string]any{"tools": tools})
	if err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse("documents.tools.json", b)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func gradable(t *testing.T, s *surface.Surface) *report.Report {
	t.Helper()
	r, err := rubrics.Find("gradable")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	j := heuristic.New()
	id, err := j.Configure(ctx, judge.Config{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := score.Run(ctx, r, s, score.Options{Asker: &engineask.Asker{Judge: j, Identity: id, Rubric: r}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Score == nil || rep.Grade == nil {
		t.Fatalf("no score: %s", rep.NoScore)
	}
	return rep
}

// TestPatternDoesNotLowerTheGrade: issue 22 point 2. Declaring a pattern
// on a parameter tells a caller more; it must not lower the Gradable
// score by making the harness's own invented arguments fail the schema
// (it raised the grade from B to A to remove it).
func TestPatternDoesNotLowerTheGrade(t *testing.T) {
	heavytest.Later(t)
	with := gradable(t, documents(t, true))
	without := gradable(t, documents(t, false))
	t.Logf("with the pattern %s %s, without %s %s", *with.Score, *with.Grade, *without.Score, *without.Grade)
	if *with.Exact != *without.Exact {
		t.Errorf("with the pattern the score is %s (%s), without it %s (%s): the pattern moved it", *with.Score, *with.Grade, *without.Score, *without.Grade)
	}
}
