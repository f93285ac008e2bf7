package heuristic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/heuristic"
)

// The judge must be servable as a plugin.
var _ judge.Judge = (*heuristic.Judge)(nil)

// toolDims are the TDQS dimensions with their weights, in rubric order.
var toolDims = []struct {
	key    string
	short  string
	weight int
}{
	{"purpose_clarity", "purpose", 25},
	{"usage_guidelines", "usage", 20},
	{"behavioral_transparency", "behaviour", 20},
	{"parameter_semantics", "params", 15},
	{"conciseness_structure", "concise", 10},
	{"contextual_completeness", "complete", 10},
}

var coherenceDims = []string{"disambiguation", "naming_consistency", "tool_count_appropriateness", "completeness"}

// answer is a decoded answer of either kind.
type answer struct {
	Scores map[string]struct {
		Score         int    `json:"score"`
		Justification string `json:"justification"`
	} `json:"scores"`
	AnnotationContradiction bool   `json:"annotation_contradiction"`
	Summary                 string `json:"summary"`
}

func (a answer) score(key string) int { return a.Scores[key].Score }

// ask asks the judge a question built from input and returns the raw
// answer and its decoded form.
func ask(t testing.TB, kind string, input any) ([]byte, answer) {
	t.Helper()
	in, err := json.Marshal(input)
	if err != nil {
		t.Fatal(err)
	}
	return askRaw(t, kind, in)
}

func askRaw(t testing.TB, kind string, in []byte) ([]byte, answer) {
	t.Helper()
	got, err := heuristic.New().Ask(context.Background(), judge.Question{Kind: kind, Input: in})
	if err != nil {
		t.Fatalf("Ask(%s): %v", kind, err)
	}
	if got.Model != heuristic.Model || got.Tokens != (judge.Tokens{}) {
		t.Fatalf("answer model %q tokens %+v, want %q and no tokens", got.Model, got.Tokens, heuristic.Model)
	}
	var a answer
	if err := json.Unmarshal(got.JSON, &a); err != nil {
		t.Fatalf("answer is not JSON: %v\n%s", err, got.JSON)
	}
	return got.JSON, a
}

// tdqsTenths is a tool's TDQS in tenths: the weighted sum over 100,
// rounded half up to one decimal, computed on integers.
func tdqsTenths(a answer) int {
	sum := 0
	for _, d := range toolDims {
		sum += d.weight * a.score(d.key)
	}
	return (sum + 5) / 10
}

// tier returns the TDQS tier of a score in tenths.
func tier(tenths int) string {
	switch {
	case tenths >= 35:
		return "A"
	case tenths >= 30:
		return "B"
	case tenths >= 20:
		return "C"
	case tenths >= 10:
		return "D"
	}
	return "F"
}

func tenths(v int) string { return fmt.Sprintf("%d.%d", v/10, v%10) }

// toolSpec is a tool written for a test; input builds the tdqs.tool
// question input the engine would send for it.
type toolSpec struct {
	name, title, desc string
	noDesc            bool
	params            []paramSpec
	annotations       map[string]any
	output            bool
	siblings          []string
}

// paramSpec is one parameter of a toolSpec: desc "" means no description;
// nested makes it an object with properties of its own.
type paramSpec struct {
	name, desc string
	required   bool
	nested     bool
}

func (s toolSpec) input() map[string]any {
	props := map[string]any{}
	var required []string
	for _, p := range s.params {
		prop := map[string]any{"type": "string"}
		if p.nested {
			prop = map[string]any{"type": "object", "properties": map[string]any{"x": map[string]any{"type": "string"}}}
		}
		if p.desc != "" {
			prop["description"] = p.desc
		}
		props[p.name] = prop
		if p.required {
			required = append(required, p.name)
		}
	}
	schema := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		schema["required"] = required
	}
	tool := map[string]any{"name": s.name, "inputSchema": schema}
	if !s.noDesc {
		tool["description"] = s.desc
	}
	if s.title != "" {
		tool["title"] = s.title
	}
	if s.annotations != nil {
		tool["annotations"] = s.annotations
	}
	if s.output {
		tool["outputSchema"] = map[string]any{"type": "object", "properties": map[string]any{"result": map[string]any{}}}
	}
	siblings := s.siblings
	if siblings == nil {
		siblings = []string{}
	}
	return map[string]any{"tool": tool, "siblings": siblings}
}
