package report_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/reporttest"
	"github.com/rubricmcp/rubric/internal/heavytest"
)

func compileSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(report.Schema))
	if err != nil {
		t.Fatalf("report.schema.json is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("report.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("report.schema.json")
	if err != nil {
		t.Fatalf("report.schema.json is not a valid JSON Schema: %v", err)
	}
	return sch
}

// instance marshals rep as report.Marshal does and decodes it for the
// validator (numbers as json.Number).
func instance(t *testing.T, rep *report.Report) any {
	t.Helper()
	b, err := report.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestSchemaAcceptsReports(t *testing.T) {
	heavytest.Later(t)
	sch := compileSchema(t)
	type tc struct {
		name string
		rep  func(t testing.TB) *report.Report
	}
	var cases []tc
	for _, c := range reporttest.Captures {
		cases = append(cases, tc{c, func(t testing.TB) *report.Report { return reporttest.Capture(t, c) }})
	}
	cases = append(cases,
		tc{"synthetic with a stopped check and odd names", func(t testing.TB) *report.Report {
			return reporttest.Testdata(t, "synthetic.tools.json")
		}},
		tc{"no tools", func(t testing.TB) *report.Report {
			rep := reporttest.Empty(t)
			if rep.Score != nil || rep.Exact != nil || rep.Grade != nil || rep.NoScore == "" {
				t.Fatalf("a surface without tools should have null score, exact and grade and say why; got score=%v exact=%v grade=%v no_score=%q",
					rep.Score, rep.Exact, rep.Grade, rep.NoScore)
			}
			return rep
		}},
		tc{"optional fields filled in", func(t testing.TB) *report.Report {
			rep := reporttest.Capture(t, "postgres.tools.json")
			rep.Judge = &report.Judge{Identity: judge.Identity{Plugin: "example", Version: "1.0.0", Provider: "local", Model: "m", Params: map[string]any{"temperature": 0}}}
			rep.Metrics = []report.Metric{
				{Name: "mean", Value: json.Number("70"), Exact: "70"},
				{Name: "worst", Value: "query"},
			}
			rep.Tools[0].Metrics = []report.Metric{{Name: "third", Value: json.Number("0.333333333333"), Exact: "1/3"}}
			rep.Tools[0].Checks[0].Error = "could not evaluate"
			rep.Calls = report.Calls{Model: 3, CacheHits: 1, Tokens: 1200}
			rep.Rubric.Maxima = &report.Maxima{Tool: map[string]string{"scores": "5"}, Surface: map[string]map[string]string{"categories": {"safety": "30", "economics": "41/2"}}}
			rep.Timings.ReadMS = 1.5
			rep.Surface.Server = map[string]any{"url": "http://127.0.0.1:3000/mcp", "name": "pg", "version": "1.0.0", "era": "modern", "protocolVersion": "2026-07-28"}
			return rep
		}},
		tc{"incomplete", reporttest.Incomplete},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := sch.Validate(instance(t, c.rep(t))); err != nil {
				t.Errorf("a report written by report.Marshal fails report.schema.json; fix the schema or the report:\n%v", err)
			}
		})
	}
}

func TestSchemaRejectsBrokenReports(t *testing.T) {
	sch := compileSchema(t)
	base := reporttest.Testdata(t, "synthetic.tools.json")
	if len(base.Tools) == 0 || len(base.Tools[0].Issues) == 0 {
		t.Fatal("the synthetic surface should give the first tool an issue")
	}
	obj := func(v any, path ...any) map[string]any {
		for _, p := range path {
			switch p := p.(type) {
			case string:
				v = v.(map[string]any)[p]
			case int:
				v = v.([]any)[p]
			}
		}
		return v.(map[string]any)
	}
	cases := []struct {
		name   string
		mutate func(m map[string]any)
		at     string // the instance location the error must name
	}{
		{"missing rubric digest", func(m map[string]any) { delete(obj(m, "rubric"), "digest") }, "/rubric"},
		{"missing surface tool_count", func(m map[string]any) { delete(obj(m, "surface"), "tool_count") }, "/surface"},
		{"missing score", func(m map[string]any) { delete(m, "score") }, ""},
		{"missing tools", func(m map[string]any) { delete(m, "tools") }, ""},
		{"missing tool issues", func(m map[string]any) { delete(obj(m, "tools", 0), "issues") }, "/tools/0"},
		{"missing issue params", func(m map[string]any) { delete(obj(m, "tools", 0, "issues", 0), "params") }, "/tools/0/issues/0"},
		{"score as a string", func(m map[string]any) { m["score"] = "57.8" }, "/score"},
		{"exact as a number", func(m map[string]any) { m["exact"] = json.Number("57.8") }, "/exact"},
		{"exact as a decimal", func(m map[string]any) { m["exact"] = "57.8" }, "/exact"},
		{"grade as a number", func(m map[string]any) { m["grade"] = json.Number("4") }, "/grade"},
		{"tool score null", func(m map[string]any) { obj(m, "tools", 0)["score"] = nil }, "/tools/0/score"},
		{"tool name a number", func(m map[string]any) { obj(m, "tools", 1)["name"] = json.Number("1") }, "/tools/1/name"},
		{"params a string", func(m map[string]any) { obj(m, "tools", 0, "issues", 0)["params"] = "q" }, "/tools/0/issues/0/params"},
		{"points not exact", func(m map[string]any) { obj(m, "tools", 0, "checks", 0)["points"] = "ten" }, "/tools/0/checks/0/points"},
		{"top-level member that is not a section", func(m map[string]any) { m["unexpected"] = true }, "/unexpected"},
		{"unknown check field", func(m map[string]any) { obj(m, "tools", 0, "checks", 0)["weight"] = "10" }, "/tools/0/checks/0"},
		{"score null but grade kept", func(m map[string]any) { m["score"] = nil }, "/exact"},
		{"score kept but grade null", func(m map[string]any) { m["grade"] = nil }, "/grade"},
		{"report version 2", func(m map[string]any) { m["report_version"] = json.Number("2") }, "/report_version"},
		{"negative tool count", func(m map[string]any) { obj(m, "surface")["tool_count"] = json.Number("-1") }, "/surface/tool_count"},
		{"digest not sha256", func(m map[string]any) { obj(m, "rubric")["digest"] = "md5:0123" }, "/rubric/digest"},
		{"warnings null", func(m map[string]any) { m["warnings"] = nil }, "/warnings"},
		{"judge a string", func(m map[string]any) { m["judge"] = "gpt" }, "/judge"},
		{"server era not an era", func(m map[string]any) { obj(m, "surface")["server"] = map[string]any{"era": "2026-07-28"} }, "/surface/server/era"},
		{"embedded surface without tools", func(m map[string]any) { delete(obj(m, "embedded_surface"), "tools") }, "/embedded_surface"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			inst := instance(t, base)
			if err := sch.Validate(inst); err != nil {
				t.Fatalf("the unbroken report should pass: %v", err)
			}
			c.mutate(inst.(map[string]any))
			err := sch.Validate(inst)
			if err == nil {
				t.Fatal("report.schema.json accepted a broken report; make the schema stricter")
			}
			if want := "at '" + c.at + "'"; !strings.Contains(err.Error(), want) {
				t.Errorf("the error should point %s, got:\n%v", want, err)
			}
		})
	}
}

// TestSchemaMatchesTypes keeps the schema in step with the Go types: every
// JSON field of every report type is a property of its schema, nothing else
// is, and the fields Marshal always writes (no omitempty) are required.
// Validating real reports cannot see a new omitempty field; this can.
func TestSchemaMatchesTypes(t *testing.T) {
	var schema map[string]any
	if err := json.Unmarshal(report.Schema, &schema); err != nil {
		t.Fatal(err)
	}
	if got, want := schema["$schema"], "https://json-schema.org/draft/2020-12/schema"; got != want {
		t.Errorf("$schema = %v, want %s", got, want)
	}
	defs := schema["$defs"].(map[string]any)
	cases := []struct {
		typ any
		def string // "" for the root
	}{
		{report.Report{}, ""},
		{report.Generator{}, "generator"},
		{report.Rubric{}, "rubric"},
		{report.Surface{}, "surface"},
		{report.Metric{}, "metric"},
		{report.Tool{}, "tool"},
		{report.Check{}, "check"},
		{report.Issue{}, "issue"},
		{report.Judge{}, "judge"},
		{report.Calls{}, "calls"},
		{report.Timings{}, "timings"},
		{report.Observation{}, "observation"},
		{report.Tokens{}, "tokens"},
	}
	for _, c := range cases {
		rt := reflect.TypeOf(c.typ)
		t.Run(rt.Name(), func(t *testing.T) {
			s := schema
			if c.def != "" {
				d, ok := defs[c.def].(map[string]any)
				if !ok {
					t.Fatalf("report.schema.json has no $defs/%s for report.%s", c.def, rt.Name())
				}
				s = d
			}
			// Report and Tool carry the members a rubric's report blocks
			// add (their "-" fields); every other type is closed.
			extended := false
			for _, f := range reflect.VisibleFields(rt) {
				extended = extended || f.Tag.Get("json") == "-"
			}
			if extended {
				if ap, ok := s["additionalProperties"].(map[string]any); !ok || ap["description"] == nil {
					t.Errorf("the schema of report.%s should describe the members rubrics add in additionalProperties", rt.Name())
				}
			} else if s["additionalProperties"] != false {
				t.Errorf("the schema of report.%s should set additionalProperties false", rt.Name())
			}
			var fields, always []string
			for _, f := range reflect.VisibleFields(rt) {
				if !f.IsExported() || f.Anonymous {
					continue
				}
				tag := f.Tag.Get("json")
				name, opts, _ := strings.Cut(tag, ",")
				if name == "-" && extended {
					continue
				}
				if name == "" || name == "-" {
					t.Fatalf("report.%s.%s has no JSON name", rt.Name(), f.Name)
				}
				fields = append(fields, name)
				if !strings.Contains(","+opts+",", ",omitempty,") {
					always = append(always, name)
				}
			}
			var props []string
			for k := range s["properties"].(map[string]any) {
				props = append(props, k)
			}
			var required []string
			for _, r := range s["required"].([]any) {
				required = append(required, r.(string))
			}
			for _, l := range [][]string{fields, always, props, required} {
				sort.Strings(l)
			}
			if !slices.Equal(fields, props) {
				t.Errorf("report.%s has JSON fields %v but the schema has properties %v; update report.schema.json", rt.Name(), fields, props)
			}
			if !slices.Equal(always, required) {
				t.Errorf("report.%s always writes %v but the schema requires %v; update report.schema.json", rt.Name(), always, required)
			}
		})
	}
}
