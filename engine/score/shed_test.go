package score_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
)

// TestLateValuesSeeWhatTheyRead: a tool finished ahead keeps, until its
// late report values (those that read the surface's answers) are
// evaluated, only what they may read; each late value, whatever it
// reads (the tool, its checks, signals, metrics, answers, score, grade,
// a let, the surface), is what it is when the tool is finished once
// everything is asked (a metric that reads the surface's answers keeps
// the tools from being finished ahead).
func TestLateValuesSeeWhatTheyRead(t *testing.T) {
	var tools []string
	for i := range 20 {
		tools = append(tools, fmt.Sprintf(`{"name": "t%d", "description": "tool %d"}`, i, i))
	}
	s, err := surface.Parse("t.json", []byte(`{"tools": [`+strings.Join(tools, ", ")+`]}`))
	if err != nil {
		t.Fatal(err)
	}
	j := scripted(func(q judge.Question) string {
		if q.Kind == "test.all" {
			return `{"n": 100}`
		}
		var in struct{ Name string }
		if err := json.Unmarshal(q.Input, &in); err != nil {
			t.Error(err)
		}
		return fmt.Sprintf(`{"n": %s}`, strings.TrimPrefix(in.Name, "t"))
	})
	const hcl = `
rubric "shed" {
  version = "1"
  grades  = { A = 50, B = 0 }
  let { twice = "answers.tool.n * 2" }
  question "tool" {
    kind   = "test.tool"
    per    = "tool"
    input  = "{'name': tool.name}"
    system = "s"
    user   = "{{ .name }}"
    answer_schema = "{\"type\": \"object\", \"required\": [\"n\"]}"
  }
  question "all" {
    kind   = "test.all"
    per    = "surface"
    input  = "{'count': size(surface.tools)}"
    system = "s"
    user   = "u"
    answer_schema = "{\"type\": \"object\", \"required\": [\"n\"]}"
  }
  check "described" {
    points = 1
    pass   = "size(tool.description) > 0"
    issue  = "none"
  }
  tool {
    signals { words = "tool.description.split(' ')" }
    metric "n" {
      value = %q
    }
    score = "metrics.n"
    report {
      before = "answers.tool.n"
      late   = %q
    }
  }
  surface {
    score = "sum(tools.map(t, t.score))"
  }
}
`
	for _, late := range []string{
		"surface_answers.all.n + size(tool.description)",
		"surface_answers.all.n + size(checks)",
		"surface_answers.all.n + size(signals.words)",
		"surface_answers.all.n + metrics.n",
		"surface_answers.all.n + answers.tool.n",
		"surface_answers.all.n + score",
		"[surface_answers.all.n, grade]",
		"surface_answers.all.n + twice",
		"surface_answers.all.n + size(surface.tools) + size(surface_signals)",
	} {
		var got [2][]string
		for k, metric := range []string{"answers.tool.n", "answers.tool.n + surface_answers.all.n - 100"} {
			r, err := rubric.Load("shed.hcl", []byte(fmt.Sprintf(hcl, metric, late)))
			if err != nil {
				t.Fatalf("%s: %v", late, err)
			}
			rep, err := score.Run(context.Background(), r, s, score.Options{Asker: &ask.Asker{Judge: j, Identity: judge.Identity{Model: "m"}, Rubric: r}})
			if err != nil {
				t.Fatalf("%s: %v", late, err)
			}
			for _, tl := range rep.Tools {
				b, _ := json.Marshal(tl.Fields)
				got[k] = append(got[k], string(b))
			}
		}
		if strings.Join(got[0], "\n") != strings.Join(got[1], "\n") {
			t.Errorf("%s: finished ahead %s, finished at the end %s", late, got[0], got[1])
		}
	}
}
