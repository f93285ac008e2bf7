package score_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/heavytest"
)

// TestHostileBoundsAnswers: a tool's answers are bounded question by
// question, each by its whole answer, so a formula that reads one
// question's answer member by member (answers.tool.why) is bounded by
// the longest string in that answer: a judge's justification walked
// word pair by word pair stops at the cost limit, however the formula
// reaches it. The justification is ten words of 1,400 letters, each
// searched for in each other one; or, for a formula that reaches it
// through an optional (whose strings' lengths the static estimate does
// not take from the data bound), 700 short words, each paired with each.
// Each row fails when Scope.sizeOf answers 0.
func TestHostileBoundsAnswers(t *testing.T) {
	heavytest.Later(t)
	s, err := surface.Parse("t.json", []byte(`{"tools": [{"name": "read", "description": "Reads a file."}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		words string // the justification's words, as the formula reaches them
		many  bool   // 700 short words, not ten long ones
	}{
		{"the answer's member", "answers.tool.why.split(' ')", false},
		{"an optional selection", "answers.tool.?why.orValue('').split(' ')", true},
		{"the answers ranged over", "answers.map(q, answers[q].why)[0].split(' ')", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			why, pairs := score.HostileWords(tt.many)
			walk := pairs(tt.words)
			j := scripted(func(judge.Question) string { return `{"n": 1, "why": "` + why + `"}` })
			r, err := rubric.Load("hostile.hcl", []byte(`rubric "hostile" {
  version = "1"
  grades  = { A = 0 }
  question "tool" {
    kind   = "test.tool"
    per    = "tool"
    input  = "{'name': tool.name}"
    system = "s"
    user   = "{{ .name }}"
    answer_schema = "{\"type\": \"object\", \"required\": [\"n\", \"why\"]}"
  }
  tool {
    metric "walk" { value = "`+walk+` + answers.tool.n" }
    score = "1"
  }
  surface { score = "min(tools.map(t, t.score))" }
}`))
			if err != nil {
				t.Fatal(err)
			}
			a := &ask.Asker{Judge: j, Identity: judge.Identity{Model: "m"}, Rubric: r}
			_, err = score.Run(context.Background(), r, s, score.Options{Asker: a})
			if err == nil || !strings.Contains(err.Error(), "cost limit") {
				t.Fatalf("error %v, want the cost limit", err)
			}
		})
	}
}
