package score_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
)

// placeRubric has a formula in every place a run evaluates one. Each
// case of TestRuntimeErrorsNamePlaces makes one of them fail on the
// surface of one tool called x, whose name is one character long.
const placeRubric = `rubric "place" {
  version = "1"
  grades  = { A = 0 }
  let {
    z = "LET"
  }
  check "a" {
    points = 1
    each   = "EACH"
    pass   = "PASS"
    label  = "LABEL"
    issue  = cel("ISSUE")
  }
  check "b" {
    points = 1
    pass   = "PASSB"
    issue  = "b fails"
  }
  question "t" {
    kind   = "test.t"
    per    = "tool"
    when   = "WHEN"
    input  = "INPUT"
    shared = "SHARED"
    share  = "SHARE"
    system = "s"
    user   = "u"
    answer_schema = "{\"type\": \"object\"}"
  }
  question "i" {
    kind    = "test.i"
    per     = "item"
    items   = "ITEMS"
    subject = "SUBJECT"
    input   = "{}"
    system  = "s"
    user    = "u"
    answer_schema = "{\"type\": \"object\"}"
  }
  tool {
    signals {
      sig = "SIGNAL"
    }
    metric "m" {
      value = "METRIC"
    }
    score  = "TOOLSCORE"
    issues = "ISSUES"
    report {
      field = "TOOLREPORT"
    }
  }
  surface {
    signals {
      ssig = "SURFACESIGNAL"
    }
    metric "sm" {
      value = "SURFACEMETRIC"
    }
    invalid  = "INVALID"
    warnings = "WARNINGS"
    score    = "SURFACESCORE"
    report "r" {
      field = "SURFACEREPORT"
    }
  }
  gate {
    value = "GATE"
  }
  fixes {
    unit    = "points"
    overall = "the score"
    gain  = "GAIN"
    moves = "MOVES"
  }
}
`

// placeDefaults are the formulas of placeRubric that do not fail.
var placeDefaults = map[string]string{
	"LET": "1", "EACH": "[1]", "PASS": "true", "LABEL": "'item'", "ISSUE": "'issue'", "PASSB": "true",
	"WHEN": "true", "INPUT": "{'n': 1}", "SHARED": "{'all': 1}", "SHARE": "'all'",
	"ITEMS": "['i']", "SUBJECT": "item",
	"SIGNAL": "1", "METRIC": "1", "TOOLSCORE": "1", "ISSUES": "[]", "TOOLREPORT": "1",
	"SURFACESIGNAL": "1", "SURFACEMETRIC": "1", "INVALID": "null", "WARNINGS": "['w']",
	"SURFACESCORE": "1", "SURFACEREPORT": "1", "GATE": "1", "GAIN": "1", "MOVES": "gain",
}

// TestRuntimeErrorsNamePlaces: a formula that fails while scoring names
// its place in the rubric's file, file:line:col first as a load error
// does: the expression that failed (the / of a division by zero), or the
// formula's first character for a value of the wrong type; a let that
// fails, the let's. Every place a run evaluates a formula is here. Tool
// x's name is one character long, so size(tool.name) - 1 is 0.
func TestRuntimeErrorsNamePlaces(t *testing.T) {
	const div = "/ (size(tool.name) - 1)"
	tests := []struct {
		name string
		set  map[string]string
		at   string // where the place is: the first of this text, once in the rubric
		want string // the rest of the message after the place
	}{
		{"check pass", map[string]string{"PASS": "1 " + div + " > 0"}, div,
			`scoring tool "x": check "a": pass (item 0): division by zero`},
		{"check pass without each", map[string]string{"PASSB": "1 " + div + " > 0"}, div,
			`scoring tool "x": check "b": pass: division by zero`},
		{"check pass in a heredoc", map[string]string{"PASSB": "<<-EOT\n      size(tool.name) > 0 &&\n        1 " + div + " > 0\n    EOT"}, div,
			`scoring tool "x": check "b": pass: division by zero: a divisor is 0 here; guard it, such as d == 0 ? 0 : n / d`},
		{"check pass in a heredoc without <<-", map[string]string{"PASSB": "<<EOT\nsize(tool.name) > 0 &&\n  1 " + div + " > 0\nEOT"}, div,
			`scoring tool "x": check "b": pass: division by zero`},
		{"check pass reading no such key", map[string]string{"PASSB": "{'a': 1}[tool.name] == 1"}, "[tool.name]",
			`scoring tool "x": check "b": pass: no such key: x: the value lacks that member here: check the name's spelling (a map such as an element of tools is not type-checked), or, for a member that may be absent, test for it first`},
		{"check each", map[string]string{"EACH": "[1 " + div + "]"}, div,
			`scoring tool "x": check "a": each: division by zero`},
		{"check label", map[string]string{"PASS": "false", "LABEL": "string(1 " + div + ")"}, div,
			`scoring tool "x": check "a": label: division by zero`},
		{"check issue", map[string]string{"PASS": "false", "ISSUE": "string(1 " + div + ")"}, div,
			`scoring tool "x": check "a": issue: division by zero`},
		{"check pass of the wrong type", map[string]string{"PASS": "(item)"}, "(item)",
			`scoring tool "x": check "a": pass (item 0): want true or false, got int`},
		{"a let a check reads", map[string]string{"LET": "1 " + div, "PASS": "z > 0"}, div,
			`scoring tool "x": check "a": pass (item 0): let z: division by zero`},
		{"tool signal", map[string]string{"SIGNAL": "1 " + div}, div,
			`scoring tool "x": signal "sig": division by zero`},
		{"tool metric", map[string]string{"METRIC": "1 " + div}, div,
			`scoring tool "x": metric "m": division by zero`},
		{"tool score", map[string]string{"TOOLSCORE": "1 " + div}, div,
			`scoring tool "x": tool score: division by zero`},
		{"tool score of the wrong type", map[string]string{"TOOLSCORE": "check.a.name"}, "check.a.name",
			`scoring tool "x": tool score: `},
		{"tool issues", map[string]string{"ISSUES": "[1 " + div + "]"}, div,
			`scoring tool "x": tool issues: division by zero`},
		{"tool issues of the wrong shape", map[string]string{"ISSUES": "[{'check': 'c'}]"}, "[{'check': 'c'}]",
			`scoring tool "x": tool issues: issue 0: want a map with a check and a message`},
		{"tool report value", map[string]string{"TOOLREPORT": "1 " + div}, div,
			`scoring tool "x": report value "field": division by zero`},
		{"fixes gain", map[string]string{"PASS": "false", "GAIN": "1 " + div}, div,
			`scoring tool "x": fixes gain: check "a": division by zero`},
		{"fixes moves", map[string]string{"PASS": "false", "MOVES": "gain / (tool_count - 1)"}, "/ (tool_count - 1)",
			`scoring tool "x": fixes moves: division by zero`},
		{"question when", map[string]string{"WHEN": "1 " + div + " > 0"}, div,
			`scoring tool "x": question "t": when: division by zero`},
		{"question input", map[string]string{"INPUT": "{'n': 1 " + div + "}"}, div,
			`scoring tool "x": question "t": input: division by zero`},
		{"question share", map[string]string{"SHARE": "string(1 " + div + ")"}, div,
			`scoring tool "x": question "t": share: division by zero`},
		{"question share naming nothing", map[string]string{"SHARE": "'none'"}, "'none'",
			`scoring tool "x": question "t": share: "none" names no entry of the shared value`},
		{"question shared", map[string]string{"SHARED": "{'all': 1 / (size(surface.tools) - 1)}"}, "/ (size(surface.tools) - 1)",
			`scoring the surface: question "t" shared: division by zero`},
		{"question items", map[string]string{"ITEMS": "[1 / (size(surface.tools) - 1)]"}, "/ (size(surface.tools) - 1)",
			`scoring the surface: question "i" items: division by zero`},
		{"question subject", map[string]string{"SUBJECT": "string(1 / index)"}, "/ index",
			`scoring the surface: question "i" subject: division by zero`},
		{"surface signal", map[string]string{"SURFACESIGNAL": "1 / (size(surface.tools) - 1)"}, "/ (size(surface.tools) - 1)",
			`scoring the surface: surface signal "ssig": division by zero`},
		{"surface metric", map[string]string{"SURFACEMETRIC": "1 / (size(tools) - 1)"}, "/ (size(tools) - 1)",
			`scoring the surface: metric "sm": division by zero`},
		{"surface invalid", map[string]string{"INVALID": "1 / (size(tools) - 1)"}, "/ (size(tools) - 1)",
			`scoring the surface: surface invalid: division by zero`},
		{"surface invalid of the wrong type", map[string]string{"INVALID": "size(tools)"}, "size(tools)",
			`scoring the surface: surface invalid: want null or a string saying why, got int`},
		{"surface warnings", map[string]string{"WARNINGS": "[string(1 / (size(tools) - 1))]"}, "/ (size(tools) - 1)",
			`scoring the surface: surface warnings: division by zero`},
		{"surface score", map[string]string{"SURFACESCORE": "1 / (size(tools) - 1)"}, "/ (size(tools) - 1)",
			`scoring the surface: surface score: division by zero`},
		{"surface report value", map[string]string{"SURFACEREPORT": "1 / (size(tools) - 1)"}, "/ (size(tools) - 1)",
			`scoring the surface: report value "field": division by zero`},
		{"gate value", map[string]string{"GATE": "1 / (size(tools) - 1)"}, "/ (size(tools) - 1)",
			`scoring the surface: gate value: division by zero`},
	}
	s, err := surface.Parse("t.json", []byte(`[{"name": "x"}]`))
	if err != nil {
		t.Fatal(err)
	}
	j := scripted(func(judge.Question) string { return `{}` })
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := placeRubric
			for k, v := range placeDefaults {
				if x, ok := tt.set[k]; ok {
					v = x
				}
				if !strings.HasPrefix(v, "<<") {
					v = `"` + v + `"`
				}
				src = strings.Replace(src, `"`+k+`"`, v, 1)
			}
			if n := strings.Count(src, tt.at); n != 1 {
				t.Fatalf("%q is %d times in the rubric, want once", tt.at, n)
			}
			r, err := rubric.Load("place.hcl", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			a := &ask.Asker{Judge: j, Identity: judge.Identity{Plugin: "scripted", Model: "m"}, Rubric: r, Concurrency: 1}
			_, err = score.Run(context.Background(), r, s, score.Options{Asker: a})
			var se *score.Error
			if !errors.As(err, &se) {
				t.Fatalf("err = %v, want a formula's error", err)
			}
			want := placeOf(src, tt.at) + ": " + tt.want
			if got := err.Error(); !strings.HasPrefix(got, want) {
				t.Errorf("got  %s\nwant %s...", got, want)
			}
		})
	}
}

// placeOf is where the first of text is in src, as place.hcl:line:col.
func placeOf(src, text string) string {
	before := src[:strings.Index(src, text)]
	line := strings.Count(before, "\n") + 1
	col := len(before) - strings.LastIndex(before, "\n")
	return "place.hcl:" + strconv.Itoa(line) + ":" + strconv.Itoa(col)
}
