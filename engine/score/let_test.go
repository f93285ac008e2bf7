package score_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
)

// TestLetsScoreAsInlined: a rubric whose formulas read lets, each
// computed once for its block, scores every tool and the surface as the
// same rubric with each let written out where it is read, including lets
// over variables that change inside the block (each item, each metric
// after the one before).
func TestLetsScoreAsInlined(t *testing.T) {
	s, err := surface.Parse("s.json", []byte(`[
	  {"name":"a","inputSchema":{"type":"object","properties":{"x":{"type":"string","description":"X"},"y":{"type":"string"}}}},
	  {"name":"b","inputSchema":{"type":"object","properties":{"x":{"type":"string","description":"X"}}}},
	  {"name":"c","description":"C"}]`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ name, let, inlined string }{
		{"a let of the rubric read by checks and the tool",
			`let { names = "params(tool).map(p, p.name)" }
			 check "some" {
			   points = 1
			   pass = "size(names) > 0"
			   issue = "none"
			 }
			 check "first" {
			   points = 1
			   pass = "size(names) > 0 && names[0] == 'x'"
			   issue = "not x"
			 }
			 tool { score = "sum(checks.map(c, c.credit)) + size(names)" }
			 surface { score = "sum(tools.map(t, t.score))" }`,
			`check "some" {
			   points = 1
			   pass = "size(params(tool).map(p, p.name)) > 0"
			   issue = "none"
			 }
			 check "first" {
			   points = 1
			   pass = "size(params(tool).map(p, p.name)) > 0 && params(tool).map(p, p.name)[0] == 'x'"
			   issue = "not x"
			 }
			 tool { score = "sum(checks.map(c, c.credit)) + size(params(tool).map(p, p.name))" }
			 surface { score = "sum(tools.map(t, t.score))" }`},
		{"a let of a check over each item",
			`check "described" {
			   points = 1
			   let { mine = "described(item.schema) ? item.name : ''" }
			   each = "params(tool)"
			   pass = "mine != ''"
			   label = "item.name + '/' + mine"
			   issue = "{items}"
			 }
			 tool { score = "check.described.credit" }
			 surface { score = "sum(tools.map(t, t.score))" }`,
			`check "described" {
			   points = 1
			   each = "params(tool)"
			   pass = "(described(item.schema) ? item.name : '') != ''"
			   label = "item.name + '/' + (described(item.schema) ? item.name : '')"
			   issue = "{items}"
			 }
			 tool { score = "check.described.credit" }
			 surface { score = "sum(tools.map(t, t.score))" }`},
		{"a let of the tool over metrics as they grow",
			`tool {
			   let { seen = "size(metrics)" }
			   metric "a" { value = "seen" }
			   metric "b" { value = "seen" }
			   score = "metrics.a * 10 + metrics.b + seen"
			 }
			 surface {
			   let { n = "size(tools)" }
			   metric "n" { value = "n" }
			   score = "sum(tools.map(t, t.score)) + n + metrics.n"
			 }`,
			`tool {
			   metric "a" { value = "size(metrics)" }
			   metric "b" { value = "size(metrics)" }
			   score = "metrics.a * 10 + metrics.b + size(metrics)"
			 }
			 surface {
			   metric "n" { value = "size(tools)" }
			   score = "sum(tools.map(t, t.score)) + size(tools) + metrics.n"
			 }`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, want := scoreJSON(t, tt.let, s), scoreJSON(t, tt.inlined, s)
			if got != want {
				t.Errorf("with lets:\n%s\nwritten out:\n%s", got, want)
			}
		})
	}
}

// scoreJSON scores s under a rubric of body and returns what the report
// says of the tools and the surface, without what names the rubric.
func scoreJSON(t *testing.T, body string, s *surface.Surface) string {
	t.Helper()
	r, err := rubric.Load("t.hcl", []byte(`rubric "t" {
	  version = "1"
	  grades = { A = 1, F = 0 }
	  `+body+`
	}`))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := score.Run(context.Background(), r, s, score.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(map[string]any{"tools": rep.Tools, "score": rep.Exact, "metrics": rep.Metrics}, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "exact") {
		t.Fatalf("no scores in %s", b)
	}
	return string(b)
}
