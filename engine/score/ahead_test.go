package score_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
)

// aheadRubric asks a question per tool and one about the surface, and
// writes report values around one that reads the surface's answers
// (late); metric is the tool's one metric.
func aheadRubric(metric, late, after string) string {
	return fmt.Sprintf(`
rubric "ahead" {
  version = "1"
  grades  = { A = 0 }
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
  tool {
    metric "n" {
      value = %q
    }
    score = "metrics.n"
    report {
      before = "answers.tool.n * 2"
      late   = %q
      after  = %q
    }
  }
  surface {
    score = "sum(tools.map(t, t.score))"
  }
}
`, metric, late, after)
}

// TestToolsFinishedAhead: tools finished as their answers come (their
// report values before the first that reads the surface's answers) are
// reported as they are when finished once everything is asked, whether
// the rubric allows it or not (a metric that reads the surface's
// answers); and a run whose late value fails for a tool gives its error,
// the first in the formulas' order and in the tools', though a value
// after it fails for the tool too, or a formula finished ahead fails for
// a later tool. A tool finished ahead keeps for its late values only the
// members of its definition they read, or all of it when one reads it
// whole: the values are the same.
func TestToolsFinishedAhead(t *testing.T) {
	var tools []string
	for i := range 40 {
		tools = append(tools, fmt.Sprintf(`{"name": "t%d", "title": "T"}`, i))
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
	for _, tc := range []struct {
		name, metric, late, after string
		wantErr                   string
	}{
		{"ahead", "answers.tool.n", "surface_answers.all.n + answers.tool.n", "metrics.n + 1", ""},
		{"not ahead", "answers.tool.n + surface_answers.all.n - 100", "surface_answers.all.n + answers.tool.n", "metrics.n + 1", ""},
		{"late reads a member", "answers.tool.n", "has(tool.title) && tool.title == 'T' ? surface_answers.all.n + answers.tool.n : 0", "metrics.n + 1", ""},
		{"late reads the tool whole", "answers.tool.n", "canonical_json(tool).contains('title') ? surface_answers.all.n + answers.tool.n : 0", "metrics.n + 1", ""},
		{"late fails first", "answers.tool.n", "tool.name == 't7' ? surface_answers.all.n / 0 : surface_answers.all.n", "tool.name == 't7' ? [1][5] : 1", `report value "late"`},
		{"a later tool fails ahead", "tool.name == 't9' ? [1][5] : answers.tool.n", "tool.name == 't7' ? surface_answers.all.n / 0 : surface_answers.all.n", "1", `report value "late"`},
	} {
		r, err := rubric.Load("ahead.hcl", []byte(aheadRubric(tc.metric, tc.late, tc.after)))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		rep, err := score.Run(context.Background(), r, s, score.Options{Asker: &ask.Asker{Judge: j, Identity: judge.Identity{Model: "m"}, Rubric: r}})
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "t7") {
				t.Errorf("%s: got %v, want the error of %s about t7", tc.name, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for i, tl := range rep.Tools {
			want := report.Fields{
				{Name: "before", Value: json.RawMessage(fmt.Sprint(2 * i))},
				{Name: "late", Value: json.RawMessage(fmt.Sprint(100 + i))},
				{Name: "after", Value: json.RawMessage(fmt.Sprint(i + 1))},
			}
			got, _ := json.Marshal(report.Fields(tl.Fields))
			wantJSON, _ := json.Marshal(want)
			if string(got) != string(wantJSON) || tl.Exact != fmt.Sprint(i) || len(tl.Answers) != 1 {
				t.Errorf("%s: tool %d: fields %s score %s with %d answers, want %s score %d", tc.name, i, got, tl.Exact, len(tl.Answers), wantJSON, i)
			}
		}
		if rep.Exact == nil || *rep.Exact != "780" {
			t.Errorf("%s: surface score %v, want 780", tc.name, rep.Exact)
		}
	}
}
