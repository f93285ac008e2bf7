package judgetest

import (
	"fmt"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/surface"
)

// lengths is a rubric of one question per tool, whose answer is a
// number: what a batch run of a judge needs and no more.
const lengths = `
rubric "lengths" {
  version = "1"
  grades  = { A = 0 }
  question "len" {
    kind    = "test.len"
    per     = "tool"
    input   = "{'name': tool.name}"
    system  = "Count."
    user    = "How long is {{ fence \"name\" .name }}?"
    answer_schema = <<-JSON
      {"type": "object", "required": ["n"], "properties": {"n": {"type": "integer"}}}
    JSON
  }
  tool {
    score = "answers.len.n"
  }
  surface {
    score = "sum(tools.map(t, t.score))"
  }
}
`

// LengthRequests loads the rubric "lengths" and makes n requests of its
// question, about the tools tool_0 to tool_{n-1}, as a run's asker gets
// them.
func LengthRequests(t *testing.T, n int) (*rubric.Rubric, []ask.Request) {
	t.Helper()
	r, err := rubric.Load("lengths.hcl", []byte(lengths))
	if err != nil {
		t.Fatal(err)
	}
	reqs := make([]ask.Request, n)
	for i := range reqs {
		name := fmt.Sprintf("tool_%d", i)
		b, _ := lang.MarshalCanonical(map[string]any{"name": name})
		reqs[i] = ask.Request{Question: r.Questions[0], Subject: name, InputJSON: b, InputHash: surface.HashBytes(b)}
	}
	return r, reqs
}
