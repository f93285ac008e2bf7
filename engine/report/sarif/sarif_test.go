package sarif

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/reporttest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// sarifSchemaPath is the official SARIF 2.1.0 schema, installed from npm by
// `npm ci --prefix testdeps` at the repository root (it is not committed).
const sarifSchemaPath = "../../../testdeps/node_modules/@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json"

func write(t *testing.T, rep *report.Report) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, rep); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	b, err := os.ReadFile(sarifSchemaPath)
	if errors.Is(err, fs.ErrNotExist) {
		msg := "the SARIF 2.1.0 schema is not installed: run `npm ci --prefix testdeps` at the repository root (" + sarifSchemaPath + ")"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s is not JSON: %v", sarifSchemaPath, err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif-2.1.0-rtm.5.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif-2.1.0-rtm.5.json")
	if err != nil {
		t.Fatalf("compile the SARIF schema: %v", err)
	}
	return sch
}

func decode(t *testing.T, b []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("Write wrote invalid JSON: %v", err)
	}
	return v
}

func TestWriteValidSARIF(t *testing.T) {
	sch := sarifSchema(t)
	type tc struct {
		name string
		rep  func(t testing.TB) *report.Report
	}
	var cases []tc
	for _, c := range reporttest.Captures {
		cases = append(cases, tc{c, func(t testing.TB) *report.Report { return reporttest.Capture(t, c) }})
	}
	cases = append(cases,
		tc{"synthetic", func(t testing.TB) *report.Report {
			return reporttest.Testdata(t, "synthetic.tools.json")
		}},
		tc{"no tools", reporttest.Empty},
		tc{"incomplete", reporttest.Incomplete},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := sch.Validate(decode(t, write(t, c.rep(t)))); err != nil {
				t.Errorf("Write's output is not valid SARIF 2.1.0:\n%v", err)
			}
		})
	}
}

// TestSARIFSchemaRejects makes sure the schema check above can fail.
func TestSARIFSchemaRejects(t *testing.T) {
	sch := sarifSchema(t)
	good := write(t, reporttest.Capture(t, "everything.tools.json"))
	firstResult := func(m map[string]any) map[string]any {
		return m["runs"].([]any)[0].(map[string]any)["results"].([]any)[0].(map[string]any)
	}
	cases := []struct {
		name   string
		mutate func(m map[string]any)
	}{
		{"level fatal", func(m map[string]any) { firstResult(m)["level"] = "fatal" }},
		{"result without message", func(m map[string]any) { delete(firstResult(m), "message") }},
		{"version 2.0.0", func(m map[string]any) { m["version"] = "2.0.0" }},
		{"unknown result property", func(m map[string]any) { firstResult(m)["severity"] = "high" }},
		{"driver without name", func(m map[string]any) {
			delete(m["runs"].([]any)[0].(map[string]any)["tool"].(map[string]any)["driver"].(map[string]any), "name")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := decode(t, good)
			if err := sch.Validate(v); err != nil {
				t.Fatalf("the unbroken log should pass: %v", err)
			}
			c.mutate(v.(map[string]any))
			if err := sch.Validate(v); err == nil {
				t.Error("the SARIF schema accepted a broken log, so the validity test proves nothing")
			}
		})
	}
}

func TestWriteContent(t *testing.T) {
	var log sarifLog
	if err := json.Unmarshal(write(t, reporttest.Testdata(t, "synthetic.tools.json")), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 1 {
		t.Fatalf("want one run, got %d", len(log.Runs))
	}
	run := log.Runs[0]
	if d := run.Tool.Driver; d.Name != "rubric" || d.Version != "0.0.0-test" {
		t.Errorf("driver = %q %q, want rubric 0.0.0-test", d.Name, d.Version)
	}
	// Rules in the order results first name them: the fix list's.
	wantRules := []struct{ id, title, level string }{
		{"input_schema", "Has an inputSchema", "warning"},
		{"described_params", "Every property has a description", "error"},
		{"array_items", "Array properties define items", "warning"},
		{"object_properties", "Object properties define nested properties", "warning"},
		{"declares_required", "Declares required fields", "warning"},
		{"typed_params", "Every property has an explicit type", "warning"},
	}
	if len(run.Tool.Driver.Rules) != len(wantRules) {
		t.Fatalf("got %d rules, want %d: %+v", len(run.Tool.Driver.Rules), len(wantRules), run.Tool.Driver.Rules)
	}
	for i, w := range wantRules {
		r := run.Tool.Driver.Rules[i]
		if r.ID != w.id || r.ShortDescription.Text != w.title || r.DefaultConfiguration.Level != w.level {
			t.Errorf("rule %d = %s %q %s, want %s %q %s", i, r.ID, r.ShortDescription.Text, r.DefaultConfiguration.Level, w.id, w.title, w.level)
		}
	}
	// Results in the fix list's order: the largest gain first, then by
	// tool, then by check.
	wantResults := []struct {
		rule, level, message, fqn string
		params                    []string
		gain, moves               string
	}{
		{"input_schema", "warning", "no_schema: the tool has no inputSchema object, so a model may send anything; scoring stops here", "synthetic/no_schema", []string{}, "100", "25"},
		{"described_params", "error", "line\nbreak\x1b[31m: parameters without a description: q", "synthetic/line\nbreak\x1b[31m", []string{"q"}, "20", "5"},
		{"array_items", "warning", "pipe|name: array parameters without items: list", "synthetic/pipe|name", []string{"list"}, "15", "15/4"},
		{"object_properties", "warning", "pipe|name: object parameters without nested properties: opts", "synthetic/pipe|name", []string{"opts"}, "15", "15/4"},
		{"declares_required", "warning", "pipe|name: inputSchema has no required list, so a model cannot tell which parameters are mandatory", "synthetic/pipe|name", []string{}, "10", "5/2"},
		{"described_params", "error", "pipe|name: parameters without a description: a|b", "synthetic/pipe|name", []string{"a|b"}, "5", "5/4"},
		{"typed_params", "warning", "pipe|name: parameters without an explicit type: `tick`", "synthetic/pipe|name", []string{"`tick`"}, "15/4", "15/16"},
	}
	if len(run.Results) != len(wantResults) {
		t.Fatalf("got %d results, want %d", len(run.Results), len(wantResults))
	}
	for i, w := range wantResults {
		r := run.Results[i]
		loc := r.Locations[0].LogicalLocations[0]
		if r.RuleID != w.rule || r.Level != w.level || r.Message.Text != w.message || loc.FullyQualifiedName != w.fqn || loc.Kind != "function" {
			t.Errorf("result %d = %s %s %q at %q (%s), want %s %s %q at %q (function)", i, r.RuleID, r.Level, r.Message.Text, loc.FullyQualifiedName, loc.Kind, w.rule, w.level, w.message, w.fqn)
		}
		if run.Tool.Driver.Rules[r.RuleIndex].ID != r.RuleID {
			t.Errorf("result %d: ruleIndex %d names rule %s, not %s", i, r.RuleIndex, run.Tool.Driver.Rules[r.RuleIndex].ID, r.RuleID)
		}
		if strings.Join(r.Properties.Params, ",") != strings.Join(w.params, ",") || r.Properties.Params == nil {
			t.Errorf("result %d: params %q, want %q", i, r.Properties.Params, w.params)
		}
		if r.Properties.Gain != w.gain || r.Properties.Moves != w.moves {
			t.Errorf("result %d: gain %q moves %q, want %q %q", i, r.Properties.Gain, r.Properties.Moves, w.gain, w.moves)
		}
	}
	if u := run.Properties.FixUnit; u != "points of the tool's score" {
		t.Errorf("fixUnit %q", u)
	}
	p := run.Properties
	if p.Rubric.Name != "schema-quality" || p.Rubric.Version != "1.1.0" || !strings.HasPrefix(p.Rubric.Digest, "sha256:") {
		t.Errorf("rubric properties = %+v", p.Rubric)
	}
	if !strings.HasPrefix(p.Surface.Hash, "sha256:") || p.Surface.ToolCount != 4 {
		t.Errorf("surface properties = %+v", p.Surface)
	}
	if p.Grade == nil || *p.Grade != "D" || p.Exact == nil || *p.Exact != "925/16" {
		t.Errorf("score properties: grade %v exact %v, want D 925/16", p.Grade, p.Exact)
	}
	if len(run.Invocations) != 1 || !run.Invocations[0].ExecutionSuccessful {
		t.Errorf("invocations = %+v, want one successful", run.Invocations)
	}
}

func TestWriteNoIssues(t *testing.T) {
	out := write(t, reporttest.Empty(t))
	var log map[string]any
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatal(err)
	}
	run := log["runs"].([]any)[0].(map[string]any)
	// An empty results array says "analysed, nothing found"; a missing or
	// null one would say the tool did not look.
	if res, ok := run["results"].([]any); !ok || len(res) != 0 {
		t.Errorf("results = %#v, want []", run["results"])
	}
	if rules, ok := run["tool"].(map[string]any)["driver"].(map[string]any)["rules"].([]any); !ok || len(rules) != 0 {
		t.Errorf("rules = %#v, want []", rules)
	}
	props := run["properties"].(map[string]any)
	for _, k := range []string{"score", "exact", "grade"} {
		if _, ok := props[k]; ok {
			t.Errorf("a report without a score should leave %q out of the properties", k)
		}
	}
	n := run["invocations"].([]any)[0].(map[string]any)["toolExecutionNotifications"].([]any)
	if len(n) != 1 || !strings.Contains(n[0].(map[string]any)["message"].(map[string]any)["text"].(string), "no tools") {
		t.Errorf("the no-score warning should be a notification, got %v", n)
	}
}

func TestLevelOf(t *testing.T) {
	cases := []struct {
		points, want string
	}{
		{"0", "note"},
		{"5", "note"},
		{"9.99", "note"},
		{"199/20", "note"},
		{"10", "warning"},
		{"15", "warning"},
		{"39/2", "warning"},
		{"20", "error"},
		{"41/2", "error"},
		{"100", "error"},
	}
	for _, c := range cases {
		got, err := levelOf(c.points)
		if err != nil || got != c.want {
			t.Errorf("levelOf(%q) = %q, %v; want %q", c.points, got, err, c.want)
		}
	}
	for _, bad := range []string{"", "ten"} {
		if _, err := levelOf(bad); err == nil || !strings.Contains(err.Error(), "score the surface again") {
			t.Errorf("levelOf(%q) = %v, want an error that says what to do", bad, err)
		}
	}
}

func TestServerName(t *testing.T) {
	cases := []struct {
		name string
		rep  report.Report
		want string
	}{
		{"server name", report.Report{Target: "t", Surface: report.Surface{Source: "s", Server: map[string]any{"name": "srv"}}}, "srv"},
		{"source", report.Report{Target: "t", Surface: report.Surface{Source: "s", Server: map[string]any{"name": ""}}}, "s"},
		{"target", report.Report{Target: "t"}, "t"},
		{"nothing", report.Report{}, ""},
	}
	for _, c := range cases {
		if got := serverName(&c.rep); got != c.want {
			t.Errorf("%s: serverName = %q, want %q", c.name, got, c.want)
		}
	}
	rep := reporttest.Score(t, "", []byte(`{"tools":[{"name":"x","inputSchema":{"type":"object"}}]}`))
	log, err := build(rep)
	if err != nil {
		t.Fatal(err)
	}
	if got := log.Runs[0].Results[0].Locations[0].LogicalLocations[0].FullyQualifiedName; got != "x" {
		t.Errorf("with no server, source or target the fully qualified name should be the tool's, got %q", got)
	}
}

func TestWriteErrors(t *testing.T) {
	if err := Write(&bytes.Buffer{}, nil); err == nil {
		t.Error("Write(nil) should fail")
	}
	rep := reporttest.Capture(t, "postgres.tools.json")
	rep.Tools[0].Issues[0].Points = "many"
	err := Write(&bytes.Buffer{}, rep)
	if err == nil || !strings.Contains(err.Error(), `"query"`) {
		t.Errorf("a damaged report should fail naming the tool, got %v", err)
	}
}

func TestGolden(t *testing.T) {
	got := write(t, reporttest.Capture(t, "everything.tools.json"))
	reporttest.Golden(t, filepath.Join("testdata", "everything.sarif"), got, *update)
}

// TestSecuritySeverity: an issue with a severity is a security finding:
// its result's level follows the severity, not the points, and carries
// security-severity; its rule is tagged security and carries the highest
// security-severity of its results. Issues without one are unchanged.
func TestSecuritySeverity(t *testing.T) {
	rep := reporttest.Testdata(t, "synthetic.tools.json")
	// The same check found at two severities in two tools, and one check
	// at low; the rest of the issues stay quality issues.
	var marked []string
	sevs := []string{"medium", "high", "low"}
	for i := range rep.Tools {
		for k := range rep.Tools[i].Issues {
			if len(marked) == len(sevs) {
				break
			}
			is := &rep.Tools[i].Issues[k]
			is.Severity = sevs[len(marked)]
			marked = append(marked, rep.Tools[i].Name+"/"+is.Check)
		}
	}
	if len(marked) != len(sevs) {
		t.Fatalf("the synthetic report has %d issues, want at least %d", len(marked), len(sevs))
	}
	out := write(t, rep)
	// Valid SARIF where the schema is installed (TestWriteValidSARIF says
	// how); the rest holds either way.
	if _, err := os.Stat(sarifSchemaPath); err == nil {
		if err := sarifSchema(t).Validate(decode(t, out)); err != nil {
			t.Errorf("not valid SARIF 2.1.0: %v", err)
		}
	}
	var log sarifLog
	if err := json.Unmarshal(out, &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	want := map[string]struct{ level, sec string }{"medium": {"warning", "5.0"}, "high": {"error", "8.0"}, "low": {"note", "2.0"}}
	ruleSec := map[string]string{}
	seen := 0
	for _, r := range run.Results {
		key := r.Properties.Tool + "/" + r.RuleID
		i := slices.Index(marked, key)
		if i < 0 || r.Properties.Severity == "" {
			if r.Properties.SecuritySeverity != "" {
				t.Errorf("%s: a quality issue has security-severity %q", key, r.Properties.SecuritySeverity)
			}
			continue
		}
		seen++
		w := want[sevs[i]]
		if r.Level != w.level || r.Properties.SecuritySeverity != w.sec || r.Properties.Severity != sevs[i] {
			t.Errorf("%s: level %s, security-severity %q, severity %q; want %s, %q, %q", key, r.Level, r.Properties.SecuritySeverity, r.Properties.Severity, w.level, w.sec, sevs[i])
		}
		if ruleSec[r.RuleID] < w.sec {
			ruleSec[r.RuleID] = w.sec
		}
	}
	if seen != len(sevs) {
		t.Errorf("found %d security results, want %d", seen, len(sevs))
	}
	for _, r := range run.Tool.Driver.Rules {
		sec, ok := ruleSec[r.ID]
		if !ok {
			if len(r.Properties.Tags) != 0 || r.Properties.SecuritySeverity != "" {
				t.Errorf("rule %s has no security result but tags %v, security-severity %q", r.ID, r.Properties.Tags, r.Properties.SecuritySeverity)
			}
			continue
		}
		if !slices.Contains(r.Properties.Tags, "security") || r.Properties.SecuritySeverity != sec {
			t.Errorf("rule %s: tags %v, security-severity %q; want security, %q", r.ID, r.Properties.Tags, r.Properties.SecuritySeverity, sec)
		}
	}
}
