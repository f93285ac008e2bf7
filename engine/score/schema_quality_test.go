package score_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/rubrics"
)

// Each case is a tool whose Schema Quality score was computed by hand from
// the seven checks: input schema 10, properties 15, required 10,
// descriptions 20, types 15, array items 15, object properties 15.
func TestSchemaQualityTrickySchemas(t *testing.T) {
	tests := []struct {
		name   string
		schema string // the inputSchema member, or "" for none
		exact  string
		grade  string
		issues map[string][]string // check -> params named
	}{
		{
			name: "no inputSchema", schema: "", exact: "0", grade: "F",
			issues: map[string][]string{"input_schema": {}},
		},
		{
			name: "inputSchema not an object", schema: `"string"`, exact: "0", grade: "F",
			issues: map[string][]string{"input_schema": {}},
		},
		{
			// 10 + 0 + 0 + 20 + 15 + 15 + 15: no parameters means full credit
			// for the per-parameter checks.
			name: "empty properties", schema: `{"type":"object","properties":{}}`, exact: "75", grade: "B",
			issues: map[string][]string{"has_properties": {}, "declares_required": {}},
		},
		{
			name:   "everything right",
			schema: `{"type":"object","properties":{"q":{"type":"string","description":"Text to find"}},"required":["q"]}`,
			exact:  "100", grade: "A", issues: map[string][]string{},
		},
		{
			// The $ref resolves to a typed, described object with properties.
			name:   "$ref into $defs",
			schema: `{"type":"object","properties":{"filter":{"$ref":"#/$defs/Filter"}},"required":["filter"],"$defs":{"Filter":{"type":"object","description":"Which rows","properties":{"col":{"type":"string"}}}}}`,
			exact:  "100", grade: "A", issues: map[string][]string{},
		},
		{
			// A description beside the $ref overrides the target, which has none.
			name:   "$ref with a sibling description",
			schema: `{"type":"object","properties":{"id":{"$ref":"#/definitions/Id","description":"The record's id"}},"required":["id"],"definitions":{"Id":{"type":"integer"}}}`,
			exact:  "100", grade: "A", issues: map[string][]string{},
		},
		{
			// A chain of refs: a -> b -> integer.
			name:   "$ref chain",
			schema: `{"type":"object","properties":{"n":{"$ref":"#/$defs/A"}},"required":["n"],"$defs":{"A":{"$ref":"#/$defs/B","description":"A count"},"B":{"type":"integer"}}}`,
			exact:  "100", grade: "A", issues: map[string][]string{},
		},
		{
			// A <-> B never reaches a schema: the parameter stays an unresolved
			// $ref, with no description and no type. 10+15+0+0+0+15+15.
			name:   "$ref cycle",
			schema: `{"type":"object","properties":{"node":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}`,
			exact:  "55", grade: "D",
			issues: map[string][]string{"declares_required": {}, "described_params": {"node"}, "typed_params": {"node"}},
		},
		{
			// A recursive tree type is fine: the guard stops at the second visit.
			name:   "recursive $ref",
			schema: `{"type":"object","properties":{"root":{"$ref":"#/$defs/Node"}},"required":["root"],"$defs":{"Node":{"type":"object","description":"A tree node","properties":{"children":{"type":"array","items":{"$ref":"#/$defs/Node"}}}}}}`,
			exact:  "100", grade: "A", issues: map[string][]string{},
		},
		{
			name:   "anyOf with null",
			schema: `{"type":"object","properties":{"limit":{"anyOf":[{"type":"integer"},{"type":"null"}],"description":"Max rows"}},"required":["limit"]}`,
			exact:  "100", grade: "A", issues: map[string][]string{},
		},
		{
			// One branch has no type, so the parameter is not typed: 100-15.
			name:   "anyOf with an untyped branch",
			schema: `{"type":"object","properties":{"v":{"anyOf":[{"type":"string"},{"description":"anything"}],"description":"A value"}},"required":["v"]}`,
			exact:  "85", grade: "B", issues: map[string][]string{"typed_params": {"v"}},
		},
		{
			// oneOf branches given by $ref, each typed.
			name:   "oneOf of refs",
			schema: `{"type":"object","properties":{"v":{"oneOf":[{"$ref":"#/$defs/S"},{"$ref":"#/$defs/N"}],"description":"A value"}},"required":["v"],"$defs":{"S":{"type":"string"},"N":{"type":"number"}}}`,
			exact:  "100", grade: "A", issues: map[string][]string{},
		},
		{
			// ["array","null"] counts as an array parameter, and it has no items:
			// 100-15. ["string","null"] is typed; [] is not: types 1/3 short.
			name:   "type arrays",
			schema: `{"type":"object","properties":{"a":{"type":["array","null"],"description":"A"},"b":{"type":["string","null"],"description":"B"},"c":{"type":[],"description":"C"}},"required":["a"]}`,
			exact:  "80", grade: "B", issues: map[string][]string{"array_items": {"a"}, "typed_params": {"c"}},
		},
		{
			// prefixItems and a draft-04 items array are both tuple items; an
			// empty items object and a boolean items schema are not.
			// arrays 2/4 of 15.
			name:   "tuple items",
			schema: `{"type":"object","properties":{"p":{"type":"array","prefixItems":[{"type":"string"}],"description":"P"},"q":{"type":"array","items":[{"type":"string"}],"description":"Q"},"r":{"type":"array","items":{},"description":"R"},"s":{"type":"array","items":true,"description":"S"}},"required":["p"]}`,
			exact:  "185/2", grade: "A", issues: map[string][]string{"array_items": {"r", "s"}},
		},
		{
			// additionalProperties as a schema is a map's structure; true and {}
			// are not. patternProperties counts. objects 2/4 of 15.
			name:   "additionalProperties maps",
			schema: `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"},"description":"M"},"n":{"type":"object","additionalProperties":true,"description":"N"},"o":{"type":"object","additionalProperties":{},"description":"O"},"p":{"type":"object","patternProperties":{"^x":{"type":"string"}},"description":"P"}},"required":["m"]}`,
			exact:  "185/2", grade: "A", issues: map[string][]string{"object_properties": {"n", "o"}},
		},
		{
			// enum and const pin the type; an empty enum does not: types 2/3.
			name:   "enum-only and const-only",
			schema: `{"type":"object","properties":{"mode":{"enum":["a","b"],"description":"Mode"},"kind":{"const":"x","description":"Kind"},"none":{"enum":[],"description":"None"}},"required":["mode"]}`,
			exact:  "95", grade: "A", issues: map[string][]string{"typed_params": {"none"}},
		},
		{
			// Partial credit: 1 of 3 described (20/3), 2 of 3 typed (10),
			// blank and non-string descriptions fail. 10+15+0+20/3+10+15+15.
			name:   "partial credit",
			schema: `{"type":"object","properties":{"a":{"type":"string","description":"A"},"b":{"type":"string","description":"   "},"c":{"description":7}}}`,
			exact:  "215/3", grade: "C",
			issues: map[string][]string{"declares_required": {}, "described_params": {"b", "c"}, "typed_params": {"c"}},
		},
		{
			// A required list of non-strings does not declare anything.
			name:   "required without strings",
			schema: `{"type":"object","properties":{"a":{"type":"string","description":"A"}},"required":[1]}`,
			exact:  "90", grade: "A", issues: map[string][]string{"declares_required": {}},
		},
		{
			// A boolean parameter schema has no description and no type.
			name:   "boolean parameter schema",
			schema: `{"type":"object","properties":{"x":true},"required":["x"]}`,
			exact:  "65", grade: "C", issues: map[string][]string{"described_params": {"x"}, "typed_params": {"x"}},
		},
	}
	r, err := rubrics.Find("schema-quality")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			def := `{"name":"t","description":"d"`
			if tt.schema != "" {
				def += `,"inputSchema":` + tt.schema
			}
			def += "}"
			s, err := surface.Parse("case.json", []byte("["+def+"]"))
			if err != nil {
				t.Fatal(err)
			}
			rep, err := score.Run(context.Background(), r, s, score.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := rep.Tools[0]
			if got.Exact != tt.exact || got.Grade != tt.grade {
				t.Errorf("score %s grade %s, want %s %s", got.Exact, got.Grade, tt.exact, tt.grade)
			}
			if issues := issueParams(got.Issues); !reflect.DeepEqual(issues, tt.issues) {
				t.Errorf("issues %v, want %v", issues, tt.issues)
			}
			if *rep.Exact != tt.exact {
				t.Errorf("overall of one tool %s, want %s", *rep.Exact, tt.exact)
			}
		})
	}
}

func issueParams(is []report.Issue) map[string][]string {
	out := map[string][]string{}
	for _, i := range is {
		out[i.Check] = append([]string{}, i.Params...)
	}
	return out
}

func TestStopSkipsLaterChecks(t *testing.T) {
	r, _ := rubrics.Find("schema-quality")
	s, _ := surface.Parse("x", []byte(`[{"name":"t"}]`))
	rep, err := score.Run(context.Background(), r, s, score.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checks := rep.Tools[0].Checks
	if checks[0].Skipped || checks[0].Credit != "0" {
		t.Errorf("first check: %+v", checks[0])
	}
	for _, c := range checks[1:] {
		if !c.Skipped || c.Credit != "0" {
			t.Errorf("check %s after the stop: %+v", c.Name, c)
		}
	}
	if n := len(rep.Tools[0].Issues); n != 1 {
		t.Errorf("%d issues, want one", n)
	}
}

func TestEmptySurfaceHasNoScore(t *testing.T) {
	r, _ := rubrics.Find("schema-quality")
	s, _ := surface.Parse("x", []byte(`{"tools":[]}`))
	rep, err := score.Run(context.Background(), r, s, score.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Score != nil || rep.Exact != nil || rep.Grade != nil || rep.NoScore == "" {
		t.Fatalf("score %v exact %v grade %v reason %q", rep.Score, rep.Exact, rep.Grade, rep.NoScore)
	}
	if !rep.Complete {
		t.Error("an empty surface is scored completely: there is nothing to score")
	}
}

func TestOverallIsExactMean(t *testing.T) {
	r, _ := rubrics.Find("schema-quality")
	// Scores 100, 75 and 0: the mean is 175/3 = 58.333…, shown 58.3, grade D.
	s, _ := surface.Parse("x", []byte(`[
	  {"name":"a","inputSchema":{"type":"object","properties":{"q":{"type":"string","description":"Q"}},"required":["q"]}},
	  {"name":"b","inputSchema":{"type":"object","properties":{}}},
	  {"name":"c"}]`))
	rep, err := score.Run(context.Background(), r, s, score.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprintf("%s %s %s", *rep.Exact, *rep.Score, *rep.Grade); got != "175/3 58.3 D" {
		t.Errorf("overall %s, want 175/3 58.3 D", got)
	}
}

func TestResultDoesNotDependOnWorkers(t *testing.T) {
	r, _ := rubrics.Find("schema-quality")
	var tools string
	for i := range 300 {
		if i > 0 {
			tools += ","
		}
		tools += fmt.Sprintf(`{"name":"t%d","inputSchema":{"type":"object","properties":{"p":{"type":"string"%s}}}}`, i, map[bool]string{true: `,"description":"x"`}[i%3 == 0])
	}
	s, _ := surface.Parse("x", []byte("["+tools+"]"))
	one, err := score.Run(context.Background(), r, s, score.Options{Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	many, err := score.Run(context.Background(), r, s, score.Options{Workers: 7})
	if err != nil {
		t.Fatal(err)
	}
	one.Timings, many.Timings = report.Timings{}, report.Timings{}
	a, _ := report.Marshal(one)
	b, _ := report.Marshal(many)
	if string(a) != string(b) {
		t.Fatal("reports differ between 1 and 7 workers")
	}
}

// TestRunawayFormulaIsStopped scores a tool of 300 parameters with a check
// whose work is cubic in them: the cost limit must end it with an error
// that names the tool and the check.
func TestRunawayFormulaIsStopped(t *testing.T) {
	heavytest.Later(t)
	src := `rubric "runaway" {
  version = "1"
  check "cubic" {
    points = 1
    pass   = "params(tool).all(a, params(tool).all(b, params(tool).all(c, a.name != '' )))"
    issue  = "x"
  }
  tool    { score = "sum(checks.map(c, c.points * c.credit))" }
  surface { score = "mean(tools.map(t, t.score))" }
  grades = { A = 0 }
}`
	r, err := rubric.Load("runaway.hcl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	props := ""
	for i := range 300 {
		if i > 0 {
			props += ","
		}
		props += fmt.Sprintf(`"p%d":{"type":"string"}`, i)
	}
	s, err := surface.Parse("big.json", []byte(`[{"name":"wide","inputSchema":{"type":"object","properties":{`+props+`}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = score.Run(context.Background(), r, s, score.Options{})
	if err == nil || !strings.Contains(err.Error(), "cost limit") || !strings.Contains(err.Error(), `tool "wide"`) || !strings.Contains(err.Error(), `check "cubic"`) {
		t.Fatalf("want a cost limit error naming the tool and check, got %v", err)
	}
}

// TestMetrics checks named values at both levels: each sees the ones before
// it, numbers are exact, and the surface sees the tools' metrics.
func TestMetrics(t *testing.T) {
	src := `rubric "metrics" {
  version = "1"
  round   = 2
  check "described" {
    points = 3
    pass   = "has(tool.description)"
    issue  = "no description"
  }
  tool {
    metric "params"  { value = "size(params(tool))" }
    metric "weight"  { value = "metrics.params / 3" }
    metric "names"   { value = "params(tool).map(p, p.name)" }
    score = "check.described.points * check.described.credit + metrics.weight"
  }
  surface {
    metric "total_params" { value = "sum(tools.map(t, t.params))" }
    metric "share"        { value = "metrics.total_params / size(tools)" }
    score = "max(tools.map(t, t.score)) + metrics.share"
  }
  grades = { A = 0 }
}`
	r, err := rubric.Load("metrics.hcl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse("m.json", []byte(`[
	  {"name":"a","description":"x","inputSchema":{"type":"object","properties":{"p":{},"q":{}}}},
	  {"name":"b","inputSchema":{"type":"object","properties":{"r":{}}}}]`))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := score.Run(context.Background(), r, s, score.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := rep.Tools[0]
	got := fmt.Sprint(a.Metrics[0].Value, " ", a.Metrics[1].Exact, " ", a.Metrics[2].Value, " ", a.Exact, " ", a.Score)
	if want := "2 2/3 [p q] 11/3 3.67"; got != want {
		t.Errorf("tool a: %s, want %s", got, want)
	}
	// Overall: max(11/3, 1/3) + (2+1)/2 = 11/3 + 3/2 = 31/6.
	if got := fmt.Sprint(rep.Metrics[0].Exact, " ", rep.Metrics[1].Exact, " ", *rep.Exact, " ", *rep.Score); got != "3 3/2 31/6 5.17" {
		t.Errorf("surface: %s", got)
	}
}

// TestItemsRaiseTheSizeBound: a check's each can build an item longer
// than anything in a small definition; the formulas that see the item are
// judged by its length, so a cubic walk over a long one is still stopped
// by the cost limit, and one over a short one scores.
func TestItemsRaiseTheSizeBound(t *testing.T) {
	heavytest.Later(t)
	for _, tc := range []struct {
		name    string
		n       int
		wantErr string
	}{
		{"long item stopped", 200, `scoring tool "t": check "cubic": pass (item 0): `},
		{"short item scored", 3, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var items []string
			for i := range tc.n {
				items = append(items, fmt.Sprint(i))
			}
			src := `rubric "grow" {
  version = "1"
  check "cubic" {
    points = 1
    each   = "[[` + strings.Join(items, ",") + `]]"
    pass   = "item.all(a, item.all(b, item.all(c, a + b + c >= 0)))"
    issue  = "x"
  }
  tool    { score = "sum(checks.map(c, c.points * c.credit))" }
  surface { score = "mean(tools.map(t, t.score))" }
  grades = { A = 0 }
}`
			r, err := rubric.Load("grow.hcl", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			s, err := surface.Parse("small.json", []byte(`[{"name":"t"}]`))
			if err != nil {
				t.Fatal(err)
			}
			rep, err := score.Run(context.Background(), r, s, score.Options{})
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if got := rep.Tools[0].Checks[0].Credit; got != "1" {
					t.Fatalf("credit %s, want 1", got)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "cost limit") {
				t.Fatalf("want the cost limit to stop the cubic walk (%s...), got %v", tc.wantErr, err)
			}
		})
	}
}

// TestMetricsRaiseTheSizeBound: a metric can build a list longer than
// anything in a small definition; formulas after it must then be judged by
// that list's length, so a cubic walk over it is still stopped.
func TestMetricsRaiseTheSizeBound(t *testing.T) {
	heavytest.Later(t)
	var items []string
	for i := range 200 {
		items = append(items, fmt.Sprint(i))
	}
	src := `rubric "grow" {
  version = "1"
  tool {
    metric "big" { value = "[` + strings.Join(items, ",") + `]" }
    score = "metrics.big.all(a, metrics.big.all(b, metrics.big.all(c, a + b + c >= 0))) ? 1 : 0"
  }
  surface { score = "mean(tools.map(t, t.score))" }
  grades = { A = 0 }
}`
	r, err := rubric.Load("grow.hcl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse("small.json", []byte(`[{"name":"t"}]`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = score.Run(context.Background(), r, s, score.Options{})
	if err == nil || !strings.Contains(err.Error(), "cost limit") {
		t.Fatalf("want the cost limit to stop the cubic walk, got %v", err)
	}
}
