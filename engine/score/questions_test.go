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
	"github.com/rubricmcp/rubric/internal/heavytest"
)

// pickRubric asks for tasks about the surface, then which tool each task
// needs: a question per item of an earlier answer.
const pickRubric = `
rubric "pick" {
  version = "1"
  grades  = { A = 1, F = 0 }
  question "tasks" {
    kind   = "test.tasks"
    per    = "surface"
    input  = "{'names': surface.tools.map(t, t.name)}"
    system = "Make tasks."
    user   = "{{ join \", \" .names }}"
    answer_schema = <<-JSON
      {"type": "object", "required": ["tasks"], "properties": {"tasks": {"type": "array", "items": {
        "type": "object", "required": ["id", "text", "expected"]}}}}
    JSON
  }
  question "pick" {
    kind    = "test.pick"
    per     = "item"
    items   = "answers.tasks.tasks"
    subject = "item.id"
    when    = "item.text != ''"
    input   = "{'task': item.text, 'index': index}"
    system  = "Pick a tool."
    user    = "{{ fence \"task\" .task }}"
    answer_schema = "{\"type\": \"object\", \"required\": [\"tool\"]}"
  }
  tool {
    score = "1"
  }
  surface {
    metric "asked" {
      value = "answers.pick.filter(a, a != null)"
    }
    metric "right" {
      value = "size(answers.pick.filter(a, a != null && a.right))"
    }
    score = "metrics.right / size(metrics.asked)"
  }
}
`

type scripted func(q judge.Question) string

func (f scripted) Ask(_ context.Context, q judge.Question) (judge.Answer, error) {
	return judge.Answer{JSON: []byte(f(q)), Model: "m"}, nil
}

// TestItemsFollowTheirStage asks a question per item of an earlier answer:
// after that answer, once per item, named by the rubric's subject formula,
// and not for an item its when formula rules out.
func TestItemsFollowTheirStage(t *testing.T) {
	r, err := rubric.Load("pick.hcl", []byte(pickRubric))
	if err != nil {
		t.Fatal(err)
	}
	if st := r.Stages(); len(st) != 2 || st[0][0].Name != "tasks" || st[1][0].Name != "pick" {
		t.Fatalf("stages %v", st)
	}
	s, err := surface.Parse("t.json", []byte(`{"tools": [{"name": "read_file"}, {"name": "write_file"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var subjects []string
	j := scripted(func(q judge.Question) string {
		subjects = append(subjects, q.Kind+"/"+q.Subject)
		if q.Kind == "test.tasks" {
			return `{"tasks": [
				{"id": "t1", "text": "show notes.txt", "expected": "read_file"},
				{"id": "t2", "text": "", "expected": "read_file"},
				{"id": "t3", "text": "save a file", "expected": "write_file"}]}`
		}
		var in struct {
			Task  string `json:"task"`
			Index int    `json:"index"`
		}
		if err := json.Unmarshal(q.Input, &in); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf(`{"tool": "read_file", "right": %v}`, in.Index == 0)
	})
	a := &ask.Asker{Judge: j, Identity: judge.Identity{Plugin: "scripted", Model: "m"}, Rubric: r, Concurrency: 1}
	rep, err := score.Run(context.Background(), r, s, score.Options{Asker: a})
	if err != nil {
		t.Fatal(err)
	}
	// The tasks first, then one pick per task with text, each named by
	// its id: t2 has no text and is not asked.
	if got := strings.Join(subjects, " "); got != "test.tasks/surface test.pick/t1 test.pick/t3" {
		t.Errorf("asked %s", got)
	}
	if len(rep.Answers) != 3 || rep.Answers[1].Subject != "t1" || rep.Answers[2].Subject != "t3" {
		t.Errorf("observations %+v", rep.Answers)
	}
	// One right of two asked.
	if rep.Exact == nil || *rep.Exact != "1/2" {
		t.Errorf("score %v", rep.Exact)
	}
}

// TestSurfaceQuestionsSeeEarlierAnswers: a question about the surface
// whose formulas read an earlier surface answer is asked after it.
func TestSurfaceQuestionsSeeEarlierAnswers(t *testing.T) {
	const src = `
rubric "two" {
  version = "1"
  grades  = { A = 0 }
  question "first" {
    kind   = "test.first"
    per    = "surface"
    input  = "{}"
    system = "s"
    user   = "u"
    answer_schema = "{\"type\": \"object\", \"required\": [\"n\"]}"
  }
  question "second" {
    kind   = "test.second"
    per    = "surface"
    when   = "answers.first != null"
    input  = "{'n': answers.first.n}"
    system = "s"
    user   = "u"
    answer_schema = "{\"type\": \"object\", \"required\": [\"n\"]}"
  }
  tool {
    score = "1"
  }
  surface {
    score = "answers.second.n"
  }
}
`
	r, err := rubric.Load("two.hcl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if st := r.Stages(); len(st) != 2 {
		t.Fatalf("%d stages, want the second question in a stage of its own", len(st))
	}
	s, err := surface.Parse("t.json", []byte(`{"tools": [{"name": "a"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	j := scripted(func(q judge.Question) string {
		if q.Kind == "test.first" {
			return `{"n": 20}`
		}
		var in struct{ N int }
		if err := json.Unmarshal(q.Input, &in); err != nil {
			t.Fatal(err)
		}
		return fmt.Sprintf(`{"n": %d}`, in.N+1)
	})
	rep, err := score.Run(context.Background(), r, s, score.Options{Asker: &ask.Asker{Judge: j, Identity: judge.Identity{Model: "m"}, Rubric: r}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Exact == nil || *rep.Exact != "21" || len(rep.Answers) != 2 {
		t.Errorf("score %v after %d answers; want 21, the second question having seen the first's answer", rep.Exact, len(rep.Answers))
	}
}

// TestCostLimitCoversSurfaceAndAnswers: a tool formula that reads the whole
// surface, or an answer a judge sent, is held to the cost limit by the
// size of what it reads, not only by the size of its tool's definition.
func TestCostLimitCoversSurfaceAndAnswers(t *testing.T) {
	heavytest.Later(t)
	s := namedTools(t, 600)
	quadratic := "size(%s.filter(a, %s.exists(b, b == a)))"
	for _, c := range []struct {
		name, metric, question string
	}{
		{"the surface", fmt.Sprintf(quadratic, "surface.tools", "surface.tools"), ""},
		{"an answer", fmt.Sprintf(quadratic, "answers.list.items", "answers.list.items"), `
  question "list" {
    kind   = "test.list"
    per    = "tool"
    when   = "tool.name == 't0'"
    input  = "{}"
    system = "s"
    user   = "u"
    answer_schema = "{\"type\": \"object\"}"
  }`},
	} {
		src := `rubric "quad" {
  version = "1"
  grades  = { A = 0 }` + c.question + `
  tool {
    metric "m" {
      value = "tool.name != 't0' ? 0 : ` + strings.ReplaceAll(c.metric, `"`, `\"`) + `"
    }
    score = "1"
  }
  surface {
    score = "1"
  }
}`
		r, err := rubric.Load("quad.hcl", []byte(src))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		items := make([]string, 3000)
		for i := range items {
			items[i] = fmt.Sprint(i)
		}
		j := scripted(func(judge.Question) string { return `{"items": [` + strings.Join(items, ",") + `]}` })
		_, err = score.Run(context.Background(), r, s, score.Options{Asker: &ask.Asker{Judge: j, Identity: judge.Identity{Model: "m"}, Rubric: r}})
		if err == nil || !strings.Contains(err.Error(), "cost limit") {
			t.Errorf("a quadratic formula over %s ran: %v", c.name, err)
		}
	}
}

// rewriteRubric asks a question per tool, then a question about the
// surface built from those answers: a rewrite of each description.
const rewriteRubric = `
rubric "rewrite" {
  version = "1"
  grades  = { A = 1, F = 0 }
  question "suggest" {
    kind   = "test.suggest"
    per    = "tool"
    input  = "{'name': tool.name}"
    system = "Suggest."
    user   = "{{ .name }}"
    answer_schema = "{\"type\": \"object\", \"required\": [\"text\"]}"
  }
  question "rewritten" {
    kind   = "test.rewritten"
    per    = "surface"
    input  = "{'descriptions': surface.tools.map(t, tool_answers[t.name].suggest.text)}"
    system = "Read."
    user   = "{{ join \", \" .descriptions }}"
    answer_schema = "{\"type\": \"object\"}"
  }
  tool {
    score = "1"
  }
  surface {
    score = "1"
  }
}
`

// TestSurfaceQuestionsSeeToolAnswers: a surface question that reads
// tool_answers waits for every tool's answers and sees them by name.
func TestSurfaceQuestionsSeeToolAnswers(t *testing.T) {
	r, err := rubric.Load("rewrite.hcl", []byte(rewriteRubric))
	if err != nil {
		t.Fatal(err)
	}
	if st := r.Stages(); len(st) != 2 || st[1][0].Name != "rewritten" {
		t.Fatalf("stages %v", st)
	}
	s, err := surface.Parse("t.json", []byte(`{"tools": [{"name": "a"}, {"name": "b"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var got string
	j := scripted(func(q judge.Question) string {
		if q.Kind == "test.suggest" {
			return `{"text": "about ` + q.Subject + `"}`
		}
		got = q.User
		return `{}`
	})
	a := &ask.Asker{Judge: j, Identity: judge.Identity{Plugin: "scripted", Model: "m"}, Rubric: r, Concurrency: 4}
	if _, err := score.Run(context.Background(), r, s, score.Options{Asker: a}); err != nil {
		t.Fatal(err)
	}
	if got != "about a, about b" {
		t.Errorf("the surface question read %q", got)
	}
}

// TestItemsAreAskedInBatches: a question over many items is built and
// asked a batch at a time; every item is asked once, the items the when
// formula rules out are skipped in every batch, and the observations keep
// the items' order whatever the batch sizes.
func TestItemsAreAskedInBatches(t *testing.T) {
	r, err := rubric.Load("pick.hcl", []byte(pickRubric))
	if err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse("t.json", []byte(`{"tools": [{"name": "read_file"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 15, 16, 17, 300, 1000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			tasks := make([]string, n)
			var want []string
			for i := range tasks {
				text := fmt.Sprintf("task %d", i)
				if i%7 == 3 {
					text = "" // not asked
				} else {
					want = append(want, fmt.Sprintf("t%d", i))
				}
				tasks[i] = fmt.Sprintf(`{"id": "t%d", "text": %q, "expected": "read_file"}`, i, text)
			}
			j := scripted(func(q judge.Question) string {
				if q.Kind == "test.tasks" {
					return `{"tasks": [` + strings.Join(tasks, ",") + `]}`
				}
				return `{"tool": "read_file", "right": true}`
			})
			a := &ask.Asker{Judge: j, Identity: judge.Identity{Plugin: "scripted", Model: "m"}, Rubric: r}
			rep, err := score.Run(context.Background(), r, s, score.Options{Asker: a})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, o := range rep.Answers[1:] {
				got = append(got, o.Subject)
			}
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("asked %d items, want %d, in order: %v", len(got), len(want), got)
			}
			if st := a.Stats(); st.Calls != len(want)+1 {
				t.Errorf("%d calls, want %d", st.Calls, len(want)+1)
			}
		})
	}
}

// namedTools is a surface of n tools named t0, t1, ..., with nothing
// but their names.
func namedTools(t *testing.T, n int) *surface.Surface {
	t.Helper()
	tools := make([]string, n)
	for i := range tools {
		tools[i] = fmt.Sprintf(`{"name": "t%d"}`, i)
	}
	s, err := surface.Parse("t.json", []byte(`{"tools": [`+strings.Join(tools, ",")+`]}`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}
