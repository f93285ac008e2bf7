package sarif

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/reporttest"
	"github.com/rubricmcp/rubric/internal/heavytest"
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
		if os.Getenv("RUBRIC_REQUIRE_SERVERS") != "" {
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
	rep := reporttest.Testdata(t, "synthetic.tools.json")
	rep.Origin = &report.Origin{Kind: report.OriginFile, Path: "synthetic.tools.json"}
	dir := filepath.Join("..", "testdata")
	if err := json.Unmarshal(writeOptions(t, rep, Options{Dir: dir, Root: dir}), &log); err != nil {
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
		// A control character is shown, not sent; a location's name is one line.
		{"described_params", "error", "line\nbreak\\x1b[31m\\u202etxt.exe: parameters without a description: q", `synthetic/line\nbreak\x1b[31m\u202etxt.exe`, []string{"q"}, "20", "5"},
		{"array_items", "warning", "pipe|name: array parameters without items: list", "synthetic/pipe|name", []string{"list"}, "15", "15/4"},
		{"object_properties", "warning", "pipe|name: object parameters without nested properties: opts", "synthetic/pipe|name", []string{"opts"}, "15", "15/4"},
		{"declares_required", "warning", "pipe|name: inputSchema lists no required parameter, so a model reads every parameter as optional", "synthetic/pipe|name", []string{}, "10", "5/2"},
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
	log, err := build(rep, newLocator(rep, Options{Dir: t.TempDir()}))
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
	got := writeOptions(t, fileReport(t, "everything.tools.json"), corpusOptions(t))
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
			if slices.Contains(r.Properties.Tags, "security") || r.Properties.SecuritySeverity != "" {
				t.Errorf("rule %s has no security result but tags %v, security-severity %q", r.ID, r.Properties.Tags, r.Properties.SecuritySeverity)
			}
			continue
		}
		if !slices.Contains(r.Properties.Tags, "security") || r.Properties.SecuritySeverity != sec {
			t.Errorf("rule %s: tags %v, security-severity %q; want security, %q", r.ID, r.Properties.Tags, r.Properties.SecuritySeverity, sec)
		}
	}
}

// fileReport scores a corpus capture as the file target path, relative
// to the corpus directory.
func fileReport(t testing.TB, name string) *report.Report {
	t.Helper()
	rep := reporttest.Capture(t, name)
	rep.Origin = &report.Origin{Kind: report.OriginFile, Path: name}
	return rep
}

// corpusOptions locate from the corpus directory, with paths relative
// to it wherever the repository is.
func corpusOptions(t testing.TB) Options {
	dir := filepath.Dir(reporttest.CapturePath(t, "everything.tools.json"))
	return Options{Dir: dir, Root: dir}
}

func writeOptions(t *testing.T, rep *report.Report, opt Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteOptions(&buf, rep, opt); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestGitHubAccepts runs the SARIF validator's GitHub rules, with the
// physical-location rule GH1001 on, over the SARIF of every corpus
// capture scored as a file target: none may report an error. A copy of
// one log without physical locations, validated with them, must be
// refused, so that the check can fail.
func TestGitHubAccepts(t *testing.T) {
	heavytest.Later(t)
	if _, err := reporttest.Multitool(); err != nil {
		if os.Getenv("RUBRIC_REQUIRE_SERVERS") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	opt := corpusOptions(t)
	captures, err := filepath.Glob(filepath.Join(opt.Dir, "*.tools.json"))
	if err != nil || len(captures) < 10 {
		t.Fatalf("corpus captures: %v %v", captures, err)
	}
	scratch := t.TempDir()
	var files []string
	for _, c := range captures {
		name := filepath.Base(c)
		f := filepath.Join(scratch, strings.TrimSuffix(name, ".tools.json")+".sarif")
		if err := os.WriteFile(f, writeOptions(t, fileReport(t, name), opt), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	// Broken copies of everything's log: its first result without a
	// physical location (as rubric wrote it before), and its first rule
	// without a full description. The first makes validator 5.7.0 throw
	// while it words GH1001's message, which GitHubErrors counts as a
	// refusal, and which stops it reporting on the files after it: that
	// one is validated on its own, beside the rest.
	good := writeOptions(t, fileReport(t, "everything.tools.json"), opt)
	broken := map[string]func(run map[string]any){
		"no-physical-location.sarif": func(run map[string]any) {
			first := run["results"].([]any)[0].(map[string]any)
			delete(first["locations"].([]any)[0].(map[string]any), "physicalLocation")
		},
		"no-full-description.sarif": func(run map[string]any) {
			delete(run["tool"].(map[string]any)["driver"].(map[string]any)["rules"].([]any)[0].(map[string]any), "fullDescription")
		},
	}
	var alone string
	for name, mutate := range broken {
		var m map[string]any
		if err := json.Unmarshal(good, &m); err != nil {
			t.Fatal(err)
		}
		mutate(m["runs"].([]any)[0].(map[string]any))
		b, _ := json.Marshal(m)
		f := filepath.Join(scratch, name)
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if name == "no-physical-location.sarif" {
			alone = f
			continue
		}
		files = append(files, f)
	}
	var found, foundAlone []string
	var errRest, errAlone error
	done := make(chan struct{})
	go func() {
		defer close(done)
		foundAlone, errAlone = reporttest.GitHubErrors(t.TempDir(), alone)
	}()
	found, errRest = reporttest.GitHubErrors(scratch, files...)
	<-done
	if err := errors.Join(errRest, errAlone); err != nil {
		t.Fatal(err)
	}
	found = append(found, foundAlone...)
	refused := map[string]bool{}
	for _, f := range found {
		if name, ok := brokenName(f, broken); ok {
			refused[name] = true
			continue
		}
		t.Errorf("GitHub would refuse: %s", f)
	}
	for name := range broken {
		if !refused[name] {
			t.Errorf("the validator accepted %s, so its silence about the others proves nothing; it said: %q", name, found)
		}
	}
}

func brokenName(finding string, broken map[string]func(map[string]any)) (string, bool) {
	for name := range broken {
		if strings.Contains(finding, "/"+name) {
			return name, true
		}
	}
	return "", false
}

// resultAt finds the result of check for tool.
func resultAt(t *testing.T, log *sarifLog, tool, check string) result {
	t.Helper()
	for _, r := range log.Runs[0].Results {
		if r.Properties.Tool == tool && r.RuleID == check {
			return r
		}
	}
	t.Fatalf("no result of %s for %s", check, tool)
	return result{}
}

func decodeLog(t *testing.T, b []byte) *sarifLog {
	t.Helper()
	var log sarifLog
	if err := json.Unmarshal(b, &log); err != nil {
		t.Fatal(err)
	}
	return &log
}

// TestFileLocationPinned pins findings to lines and columns of a corpus
// capture: a parameter's finding at its schema, a schema finding at the
// tool's inputSchema.
func TestFileLocationPinned(t *testing.T) {
	log := decodeLog(t, writeOptions(t, fileReport(t, "everything.tools.json"), corpusOptions(t)))
	cases := []struct {
		tool, check string
		line, col   int
	}{
		// "resourceType": { in get-resource-reference's properties.
		{"get-resource-reference", "described_params", 130, 11},
		// "inputSchema": { of get-env.
		{"get-env", "has_properties", 80, 7},
	}
	for _, c := range cases {
		r := resultAt(t, log, c.tool, c.check)
		pl := r.Locations[0].PhysicalLocation
		if pl.ArtifactLocation.URI != "everything.tools.json" || pl.Region.StartLine != c.line || pl.Region.StartColumn != c.col {
			t.Errorf("%s %s at %s:%d:%d, want everything.tools.json:%d:%d", c.tool, c.check, pl.ArtifactLocation.URI, pl.Region.StartLine, pl.Region.StartColumn, c.line, c.col)
		}
		if len(r.Locations[0].LogicalLocations) != 1 || r.Locations[0].LogicalLocations[0].Name != c.tool {
			t.Errorf("%s: the logical location should stay, got %+v", c.tool, r.Locations[0].LogicalLocations)
		}
	}
}

// TestMembers: a finding points at the member it is about, in each file
// shape the file transport reads, and at line 1 with a note when the
// file no longer holds the tool.
func TestMembers(t *testing.T) {
	list := `{"tools": [
  {"name": "a",
   "description": "x",
   "inputSchema": {"type": "object",
     "properties": {"q": {}, "nested": {"type": "object", "properties": {"deep": {}}}}}}
]}`
	registry := `{"release": "1", "tools": [
  {"name": "a",
   "definition": {"name": "a", "description": "x",
     "inputSchema": {"type": "object", "properties": {"q": {}}}}}]}`
	cases := []struct {
		name, doc string
		tool      string
		is        report.Issue
		title     string
		line, col int
		note      bool
	}{
		{"param", list, "a", report.Issue{Check: "described_params", Params: []string{"q"}}, "", 5, 21, false},
		{"nested param", list, "a", report.Issue{Check: "x", Params: []string{"nested.deep"}}, "", 5, 74, false},
		{"description", list, "a", report.Issue{Check: "short_description"}, "", 3, 4, false},
		{"title names it", list, "a", report.Issue{Check: "x"}, "The description says what it returns", 3, 4, false},
		{"whole tool", list, "a", report.Issue{Check: "verb_first"}, "Name starts with a verb", 2, 4, false},
		{"missing member", list, "a", report.Issue{Check: "has_output_schema"}, "", 2, 4, false},
		{"registry param", registry, "a", report.Issue{Check: "p", Params: []string{"q"}}, "", 4, 55, false},
		{"registry description", registry, "a", report.Issue{Check: "description"}, "", 3, 32, false},
		{"gone", list, "b", report.Issue{Check: "x"}, "", 1, 0, true},
		// Tool Safety says where the finding is: a finding in the
		// description is there, though its title names a parameter; one in
		// a parameter's description is at that description.
		{"pointer in message", list, "a", report.Issue{Check: "into_parameter",
			Message: `an instruction to put data into a parameter (medium) at /description: "«pass it as q»"`}, "Instruction to fill a parameter", 3, 4, false},
		{"parameter pointer", list, "a", report.Issue{Check: "override_instructions", Params: []string{"nested"},
			Message: `instruction to drop its instructions (high) at /inputSchema/properties/nested/type: "«x»"`}, "", 5, 41, false},
		{"pointer gone", list, "a", report.Issue{Check: "short_description",
			Message: `a cue (low) at /inputSchema/properties/zz/description: "«x»"`}, "", 3, 4, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "tools.json"), []byte(c.doc), 0o644); err != nil {
				t.Fatal(err)
			}
			rep := &report.Report{Origin: &report.Origin{Kind: report.OriginFile, Path: "tools.json"}}
			l := newLocator(rep, Options{Dir: dir, Root: dir})
			got := l.locate(c.tool, c.is, c.title)
			if got.at.uri != "tools.json" || got.at.line != c.line || got.at.column != c.col || (got.note != "") != c.note {
				t.Errorf("at %+v note %q, want tools.json:%d:%d, note %v", got.at, got.note, c.line, c.col, c.note)
			}
		})
	}
}

// TestFingerprintsStable: the same findings moved to other lines keep
// their fingerprints, and each finding has its own; the automation id
// names the rubric and the server.
func TestFingerprintsStable(t *testing.T) {
	data, err := os.ReadFile(reporttest.CapturePath(t, "everything.tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	prints := func(data []byte) (map[string]string, map[string]int, string) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "everything.tools.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		rep := reporttest.Score(t, "everything.tools.json", data)
		rep.Origin = &report.Origin{Kind: report.OriginFile, Path: "everything.tools.json"}
		log := decodeLog(t, writeOptions(t, rep, Options{Dir: dir, Root: dir}))
		fp, lines := map[string]string{}, map[string]int{}
		for _, r := range log.Runs[0].Results {
			key := r.Properties.Tool + "/" + r.RuleID
			fp[key] = r.PartialFingerprints[fingerprintKey]
			lines[key] = r.Locations[0].PhysicalLocation.Region.StartLine
		}
		return fp, lines, log.Runs[0].AutomationDetails.ID
	}
	before, linesBefore, id := prints(data)
	after, linesAfter, _ := prints(append([]byte("\n\n\n"), data...))
	seen := map[string]string{}
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s: fingerprint %s became %s when the file moved down three lines", k, v, after[k])
		}
		if linesAfter[k] != linesBefore[k]+3 {
			t.Errorf("%s: line %d became %d, want it three lower", k, linesBefore[k], linesAfter[k])
		}
		if other, dup := seen[v]; dup {
			t.Errorf("%s and %s share the fingerprint %s", k, other, v)
		}
		seen[v] = k
	}
	if id != "rubric/schema-quality/mcp-servers-everything/" {
		t.Errorf("automationDetails.id = %q", id)
	}
}

// TestAggregates: more issues than GitHub keeps a run become one result
// per tool, which lists them, and beyond what GitHub accepts the rest
// are left out, each said in a notification.
func TestAggregates(t *testing.T) {
	defer func(s, m int) { shownResults, maxResults = s, m }(shownResults, maxResults)
	rep := fileReport(t, "everything.tools.json")
	opt := corpusOptions(t)
	full := decodeLog(t, writeOptions(t, rep, opt))
	perTool := map[string]int{}
	for _, r := range full.Runs[0].Results {
		perTool[r.Properties.Tool]++
	}
	shownResults = len(full.Runs[0].Results) - 1
	log := decodeLog(t, writeOptions(t, rep, opt))
	run := log.Runs[0]
	if len(run.Results) != len(perTool) || len(run.Tool.Driver.Rules) != 1 || run.Tool.Driver.Rules[0].ID != aggregateRule {
		t.Fatalf("%d results and rules %+v, want %d results of the rule %s", len(run.Results), run.Tool.Driver.Rules, len(perTool), aggregateRule)
	}
	for _, r := range run.Results {
		if r.Properties.Issues != perTool[r.Properties.Tool] || !strings.Contains(r.Message.Text, report.Plural(perTool[r.Properties.Tool], "issue")+":") {
			t.Errorf("%s: %d issues, message %q; want %d", r.Properties.Tool, r.Properties.Issues, r.Message.Text, perTool[r.Properties.Tool])
		}
		if r.Locations[0].PhysicalLocation.Region.StartLine < 2 {
			t.Errorf("%s: an aggregated result should point at its tool, got line %d", r.Properties.Tool, r.Locations[0].PhysicalLocation.Region.StartLine)
		}
	}
	if n := run.Invocations[0].ToolExecutionNotifications; len(n) != 1 || !strings.Contains(n[0].Message.Text, "tool-issues") {
		t.Errorf("notifications %+v, want one that says the results are aggregated", n)
	}
	maxResults = 2
	log = decodeLog(t, writeOptions(t, rep, opt))
	if n := log.Runs[0].Invocations[0].ToolExecutionNotifications; len(log.Runs[0].Results) != 2 || len(n) != 2 || !strings.Contains(n[1].Message.Text, "left out") {
		t.Errorf("%d results, notifications %+v; want 2 and a note of what was left out", len(log.Runs[0].Results), n)
	}
}

// git runs git in dir with a fixed identity.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// writeFiles writes files (by path, with their text) into a folder of
// their own, and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestSourceLocations: a command's findings point at the tracked line
// that quotes the tool's name, the server's source first and the other
// lines as related locations; without a work tree, at the manifest or a
// pseudo-path, said in the message.
func TestSourceLocations(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	files := map[string]string{
		"server/main.go":      "package main\n\nfunc tools() {\n\tdefine(\"lookup\", \"Looks it up.\")\n\tdefine('café', 'x')\n}\n",
		"server/main_test.go": "package main\n\n// \"lookup\"\nvar name = \"lookup\"\n",
		"README.md":           "Call `lookup` with a query: \"lookup\".\n",
		"server/package.json": "{}\n",
		"untracked.go":        "\"lookup\"\n",
	}
	repo := writeFiles(t, files)
	git(t, repo, "init", "-q")
	git(t, repo, "add", "server", "README.md")
	rep := &report.Report{
		Origin: &report.Origin{Kind: report.OriginCommand, Dir: "server"},
		Tools:  []report.Tool{{Name: "lookup"}, {Name: "café"}, {Name: "absent"}},
	}
	l := newLocator(rep, Options{Dir: repo})
	got := l.locate("lookup", report.Issue{}, "")
	if got.at != (place{"server/main.go", 4, 9}) || got.note != "" {
		t.Errorf("lookup at %+v (%q), want server/main.go:4:9", got.at, got.note)
	}
	var rel []string
	for _, p := range got.related {
		rel = append(rel, fmt.Sprintf("%s:%d:%d", p.uri, p.line, p.column))
	}
	// The test's line that names a name before its comment, and the
	// document outside the server's directory last; untracked files
	// not at all.
	if want := []string{"server/main_test.go:4:12", "server/main_test.go:3:4", "README.md:1:29"}; !slices.Equal(rel, want) {
		t.Errorf("related %q, want %q", rel, want)
	}
	if got := l.locate("café", report.Issue{}, ""); got.at != (place{"server/main.go", 5, 9}) {
		t.Errorf("café at %+v, want server/main.go:5:9 (columns in code points)", got.at)
	}
	if got := l.locate("absent", report.Issue{}, ""); got.at != (place{"server/package.json", 1, 0}) || !strings.Contains(got.note, "manifest server/package.json") {
		t.Errorf("absent at %+v (%q), want the manifest at line 1, said", got.at, got.note)
	}
	// No work tree and no manifest: the pseudo-path.
	bare := t.TempDir()
	l = newLocator(&report.Report{Origin: &report.Origin{Kind: report.OriginEndpoint}}, Options{Dir: bare})
	if got := l.locate("lookup", report.Issue{}, ""); got.at != (place{pseudoPath, 1, 0}) || !strings.Contains(got.note, "pseudo-path") {
		t.Errorf("an endpoint's finding at %+v (%q), want the pseudo-path, said", got.at, got.note)
	}
}

// TestCommandFromTheTopLooksInItsPaths: a command started from the top
// of a repository (go run ./servers/notes) has its findings on the
// server's source, which its arguments name, not on whatever other file
// quotes a tool's name first by path: a constant of the same word in
// engine code with "tools" in its comment, or recorded answers, JSON
// Lines that name the tool beside "tdqs.tool".
func TestCommandFromTheTopLooksInItsPaths(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	files := map[string]string{
		"servers/notes/tools.go":    "package main\n\nvar defs = []def{\n\t{Name: \"export\"},\n\t{Name: \"update_note\"},\n}\n",
		"servers/notes/main.go":     "package main\n",
		"engine/failure.go":         "package engine\n\nconst StageExport = \"export\" // reading the server's tools\n",
		"calibration/answers.jsonl": "{\"kind\":\"tdqs.tool\",\"subject\":\"update_note\"}\n",
		"single/server.py":          "TOOLS = [\n    tool(\"export\"),\n]\n",
	}
	repo := writeFiles(t, files)
	git(t, repo, "init", "-q")
	git(t, repo, "add", ".")
	for _, c := range []struct {
		name   string
		paths  []string
		export place
		update place
	}{
		{"a folder", []string{"./servers/notes"}, place{"servers/notes/tools.go", 4, 9}, place{"servers/notes/tools.go", 5, 9}},
		{"a file", []string{"servers/notes/main.go"}, place{"servers/notes/tools.go", 4, 9}, place{"servers/notes/tools.go", 5, 9}},
		{"another file", []string{"single/server.py"}, place{"single/server.py", 2, 10}, place{"servers/notes/tools.go", 5, 9}},
		// Without a path, every file is under the folder the command
		// started in: code that looks like a definition still comes
		// before a constant and before recorded answers.
		{"no path", nil, place{"servers/notes/tools.go", 4, 9}, place{"servers/notes/tools.go", 5, 9}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := &report.Report{
				Origin: &report.Origin{Kind: report.OriginCommand, Paths: c.paths},
				Tools:  []report.Tool{{Name: "export"}, {Name: "update_note"}},
			}
			l := newLocator(rep, Options{Dir: repo})
			if got := l.locate("export", report.Issue{}, ""); got.at != c.export {
				t.Errorf("export at %+v, want %+v", got.at, c.export)
			}
			if got := l.locate("update_note", report.Issue{}, ""); got.at != c.update {
				t.Errorf("update_note at %+v, want %+v", got.at, c.update)
			}
		})
	}
	// A tool left unscored is looked for too: GitLab places its entry.
	rep := &report.Report{
		Origin:        &report.Origin{Kind: report.OriginCommand, Paths: []string{"./servers/notes"}},
		Tools:         []report.Tool{{Name: "export"}},
		UnscoredTools: []report.UnscoredTool{{Name: "update_note", Reason: "unreadable"}},
	}
	if got := newLocator(rep, Options{Dir: repo}).locate("update_note", report.Issue{}, ""); got.at != (place{"servers/notes/tools.go", 5, 9}) {
		t.Errorf("the unscored update_note at %+v (%q), want servers/notes/tools.go:5:9", got.at, got.note)
	}
}

// TestManifestFromSubfolder: a target with no file of its own (an
// endpoint, standard input) run from a subfolder of a git work tree
// falls back on the manifest there at its path from the top of the work
// tree, the root every URI is relative to (%SRCROOT%), not from the
// subfolder, which code scanning would read as the root's manifest.
func TestManifestFromSubfolder(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	repo := t.TempDir()
	for _, name := range []string{"package.json", "server/package.json", "server/deep/x.txt"} {
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, repo, "init", "-q")
	bare := t.TempDir()
	if err := os.WriteFile(filepath.Join(bare, "package.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, dir string
		want      place
	}{
		{"the top of the work tree", repo, place{"package.json", 1, 0}},
		{"a subfolder", filepath.Join(repo, "server"), place{"server/package.json", 1, 0}},
		{"a subfolder without a manifest", filepath.Join(repo, "server", "deep"), place{pseudoPath, 1, 0}},
		{"no work tree", bare, place{"package.json", 1, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := newLocator(&report.Report{Origin: &report.Origin{Kind: report.OriginEndpoint}}, Options{Dir: c.dir})
			if got := l.locate("lookup", report.Issue{}, ""); got.at != c.want {
				t.Errorf("at %+v (%q), want %+v", got.at, got.note, c.want)
			}
		})
	}
}

// TestFingerprintsTellApart: a tool's findings of one check and the same
// parameters (Tool Safety's notes to the model, one for each place in a
// schema) get fingerprints of their own, in SARIF and in the findings
// GitLab's report is written from; MongoDB's aggregate had four results
// of one fingerprint, which code scanning takes for one alert. A finding
// its tool, check and parameters tell apart keeps the fingerprint it had.
func TestFingerprintsTellApart(t *testing.T) {
	rep := reporttest.Score(t, "two.tools.json", []byte(`[
		{"name": "aggregate", "description": "Run an aggregation.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string", "description": "The pipeline."}}, "required": ["q"]}},
		{"name": "find", "description": "Find documents.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string", "description": "The filter."}}, "required": ["q"]}}
	]`))
	note := func(at string) report.Issue {
		return report.Issue{Check: "note_to_model", Message: "a note addressed to the model (low) at " + at, Params: []string{}, Points: "5", Gain: "5", Severity: "low"}
	}
	rep.Tools[0].Issues = append(rep.Tools[0].Issues, note("/inputSchema/properties/q/description"), note("/description"), note("/inputSchema/properties/q/title"))
	rep.Tools[1].Issues = append(rep.Tools[1].Issues, note("/description"))
	server := serverName(rep)
	log := decodeLog(t, write(t, rep))
	findings, err := Findings(rep, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(log.Runs[0].Results) != 4 || len(findings) != 4 {
		t.Fatalf("%d results and %d findings, want 4 of each", len(log.Runs[0].Results), len(findings))
	}
	seen := map[string]bool{}
	for i, r := range log.Runs[0].Results {
		fp := r.PartialFingerprints[fingerprintKey]
		if seen[fp] {
			t.Errorf("%s: %q shares its fingerprint %s with another result", r.Properties.Tool, r.Message.Text, fp)
		}
		seen[fp] = true
		if findings[i].Fingerprint != fp {
			t.Errorf("%s: the finding's fingerprint %s is not the SARIF result's %s", r.Properties.Tool, findings[i].Fingerprint, fp)
		}
		if r.Properties.Tool == "find" {
			if want := fingerprint(rep, server, "find", "note_to_model", nil)[fingerprintKey]; fp != want {
				t.Errorf("find's one note has the fingerprint %s, want the one it had, %s", fp, want)
			}
		}
	}
}

// TestRuleWorth: a rule says what its check's points are. Where the
// rubric's gains count points of a tool's score, they are that; where
// they count something else they are the check's weight, and the rule
// says what its results' gains count. A TDQS dimension was "worth 25
// points of a tool's score", a score of 1 to 5, and a Gradable defect
// "worth 1/4 points of a tool's score", a quarter of a composite point.
func TestRuleWorth(t *testing.T) {
	cases := []struct {
		unit, points, want string
	}{
		{"", "20", "worth 20 points of a tool's score"},
		{"points of the tool's score", "100", "worth 100 points of a tool's score"},
		{"points of the tool's score, shared by cost when its findings cost over 100", "5", "worth 5 points of a tool's score"},
		{"TDQS points of the tool", "25", "of weight 25 in the rubric; a result's gain counts TDQS points of the tool"},
		{"composite points", "1/4", "of weight 0.25 in the rubric; a result's gain counts composite points"},
		{"composite points", "1/3", "of weight 0.333333 (exactly 1/3) in the rubric; a result's gain counts composite points"},
	}
	for _, c := range cases {
		rep := &report.Report{}
		if c.unit != "" {
			rep.Fixes = &report.Fixes{Unit: c.unit}
		}
		if got := worthOf(rep, c.points); got != c.want {
			t.Errorf("unit %q, points %s:\n got %q\nwant %q", c.unit, c.points, got, c.want)
		}
	}
	rep := &report.Report{Fixes: &report.Fixes{Unit: "composite points"}}
	rep.Rubric.Name, rep.Rubric.Version = "gradable", "1.0.0"
	if ru := checkRule(rep, "no_return_description", "Return value unstated", "1/4", "note", nil); !strings.Contains(ru.FullDescription.Text, "of weight 0.25 in the rubric") || strings.Contains(ru.Help.Markdown, "1/4") {
		t.Errorf("the rule reads %q\n%q", ru.FullDescription.Text, ru.Help.Markdown)
	}
}

// TestRuleMixedWorth: a rule whose results have different points (Tool
// Safety's sensitive_path, low alone and high in a tool that instructs the
// model) says so, not the points of whichever result came first.
func TestRuleMixedWorth(t *testing.T) {
	rep := reporttest.Testdata(t, "synthetic.tools.json")
	seen := map[string]int{}
	check := ""
	for i := range rep.Tools {
		for _, is := range rep.Tools[i].Issues {
			if seen[is.Check]++; seen[is.Check] == 2 && check == "" {
				check = is.Check
			}
		}
	}
	if check == "" {
		t.Fatal("no check of the synthetic report has two issues")
	}
	n := 0
	for i := range rep.Tools {
		for k := range rep.Tools[i].Issues {
			if is := &rep.Tools[i].Issues[k]; is.Check == check {
				is.Points, is.Severity = []string{"100", "5"}[min(n, 1)], []string{"high", "low"}[min(n, 1)]
				n++
			}
		}
	}
	var log sarifLog
	if err := json.Unmarshal(write(t, rep), &log); err != nil {
		t.Fatal(err)
	}
	for _, ru := range log.Runs[0].Tool.Driver.Rules {
		if ru.ID != check {
			continue
		}
		if want := "worth 5 or 100 points of a tool's score, by each result's severity."; !strings.HasSuffix(ru.FullDescription.Text, want) || !strings.Contains(ru.Help.Markdown, "worth 5 or 100 points") {
			t.Errorf("rule %s reads %q, want it to end %q", check, ru.FullDescription.Text, want)
		}
		if ru.Properties.Points != "100" {
			t.Errorf("rule %s has points %q, want the largest, 100", check, ru.Properties.Points)
		}
		return
	}
	t.Errorf("no rule %s", check)
}

// TestPathsInsideRepository: every result's URI is relative to the
// repository's root and says so (uriBaseId %SRCROOT%), whether the
// target's path was given relative, absolute or through "..". A file
// outside the root (an absolute path GitHub code scanning drops) is not
// pointed at: its results stand at the pseudo-path, and the message says
// where the file is and why.
func TestPathsInsideRepository(t *testing.T) {
	data, err := os.ReadFile(reporttest.CapturePath(t, "everything.tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	repo, other := filepath.Join(base, "repo"), filepath.Join(base, "other")
	for _, d := range []string{filepath.Join(repo, "caps"), other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(d, "tools.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, path, dir string
		uri             string
		note            string // what the message says, "" for nothing
		noRoot          bool   // the root is found, not given
	}{
		{name: "relative", path: "caps/tools.json", dir: repo, uri: "caps/tools.json"},
		{name: "absolute inside", path: filepath.Join(repo, "caps", "tools.json"), dir: repo, uri: "caps/tools.json"},
		{name: "climbing back in", path: "../repo/caps/tools.json", dir: repo, uri: "caps/tools.json"},
		{name: "from a subfolder", path: "tools.json", dir: filepath.Join(repo, "caps"), uri: "caps/tools.json"},
		{name: "absolute outside", path: filepath.Join(other, "tools.json"), dir: repo, uri: pseudoPath,
			note: "(the file that holds this tool's definition, " + filepath.ToSlash(filepath.Join(other, "tools.json")) + ", lies outside " + filepath.ToSlash(repo) + ", the folder paths are relative to"},
		{name: "relative outside", path: "../other/tools.json", dir: repo, uri: pseudoPath, note: "lies outside " + filepath.ToSlash(repo) + ", the folder paths are relative to (the root the SARIF writer was given), so"},
		// No work tree holds the file: the note says so, and what a
		// work tree's root, or a submodule's, would have been (it named
		// a work tree that holds the target, and no superproject).
		{name: "outside, in no work tree", path: filepath.Join(other, "tools.json"), dir: repo, uri: pseudoPath, noRoot: true,
			note: ", lies outside " + filepath.ToSlash(repo) + ", the folder paths are relative to (the folder rubric ran in, since no git work tree holds the file (in one, paths are from the top of the work tree, or of its superproject when the work tree is a submodule)), so the result is reported at the pseudo-path " + pseudoPath + ", line 1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := Options{Dir: tt.dir, Root: repo}
			if tt.noRoot {
				if top, _ := gitTop(tt.dir); top != "" {
					t.Skipf("%s is inside the git work tree %s", tt.dir, top)
				}
				opt.Root = ""
			}
			rep := reporttest.Score(t, "everything.tools.json", data)
			rep.Origin = &report.Origin{Kind: report.OriginFile, Path: tt.path}
			raw := writeOptions(t, rep, opt)
			var log struct {
				Runs []struct {
					Results []struct {
						Message   struct{ Text string } `json:"message"`
						Locations []struct {
							PhysicalLocation struct {
								ArtifactLocation struct {
									URI       string `json:"uri"`
									URIBaseID string `json:"uriBaseId"`
								} `json:"artifactLocation"`
							} `json:"physicalLocation"`
						} `json:"locations"`
					} `json:"results"`
				} `json:"runs"`
			}
			if err := json.Unmarshal(raw, &log); err != nil {
				t.Fatal(err)
			}
			if len(log.Runs) != 1 || len(log.Runs[0].Results) == 0 {
				t.Fatalf("no results")
			}
			for _, r := range log.Runs[0].Results {
				at := r.Locations[0].PhysicalLocation.ArtifactLocation
				if at.URI != tt.uri || at.URIBaseID != "%SRCROOT%" {
					t.Fatalf("at %+v, want %q from %%SRCROOT%%", at, tt.uri)
				}
				if tt.note != "" && !strings.Contains(r.Message.Text, tt.note) {
					t.Fatalf("message %q does not say %q", r.Message.Text, tt.note)
				}
				if tt.note == "" && strings.Contains(r.Message.Text, "lies outside") {
					t.Fatalf("message %q", r.Message.Text)
				}
			}
		})
	}
}

// TestCategory: a category the user gives is the run's automationDetails.id
// (GitHub's upload-sarif fills its category input only into a run that
// has none, so rubric's own id would win over it), kept apart by rubric
// and server when one log holds several runs; without one, the id is
// rubric's own.
func TestCategory(t *testing.T) {
	rep := fileReport(t, "everything.tools.json")
	tests := []struct {
		name string
		opt  Options
		want string
	}{
		{name: "rubric's own", want: "rubric/schema-quality/mcp-servers-everything/"},
		{name: "given", opt: Options{Category: "mcp-tools"}, want: "mcp-tools/"},
		{name: "given with its slash", opt: Options{Category: "ci/mcp-tools/"}, want: "ci/mcp-tools/"},
		{name: "one of several runs", opt: Options{Category: "mcp-tools", Distinct: true}, want: "mcp-tools/schema-quality/mcp-servers-everything/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := corpusOptions(t)
			opt.Category, opt.Distinct = tt.opt.Category, tt.opt.Distinct
			log := decodeLog(t, writeOptions(t, rep, opt))
			if got := log.Runs[0].AutomationDetails.ID; got != tt.want {
				t.Errorf("automationDetails.id %q, want %q", got, tt.want)
			}
		})
	}
}

// TestSubmodulePaths: a target inside a git submodule is located by its
// path from the top of the superproject, whose checkout code scanning
// resolves %SRCROOT% from, not from the submodule's own top: a file
// target, a command's source lines, and a manifest.
func TestSubmodulePaths(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	base := t.TempDir()
	sub, super := filepath.Join(base, "sub"), filepath.Join(base, "super")
	files := map[string]string{
		"tools.json":     `{"tools": [{"name": "lookup", "inputSchema": {"type": "object"}}]}` + "\n",
		"server/main.go": "package main\n\nfunc tools() {\n\tdefine(\"lookup\", \"Looks it up.\")\n}\n",
		"package.json":   "{}\n",
	}
	for name, body := range files {
		p := filepath.Join(sub, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, sub, "init", "-q")
	git(t, sub, "add", ".")
	git(t, sub, "commit", "-q", "-m", "server")
	if err := os.MkdirAll(super, 0o755); err != nil {
		t.Fatal(err)
	}
	git(t, super, "init", "-q")
	git(t, super, "-c", "protocol.file.allow=always", "submodule", "add", "-q", sub, "vendor/srv")
	git(t, super, "commit", "-q", "-m", "vendor the server")
	srv := filepath.Join(super, "vendor", "srv")
	for _, c := range []struct {
		name   string
		origin report.Origin
		dir    string
		want   place
	}{
		{"a file from the superproject", report.Origin{Kind: report.OriginFile, Path: "vendor/srv/tools.json"}, super, place{"vendor/srv/tools.json", 1, 0}},
		{"a file from the submodule", report.Origin{Kind: report.OriginFile, Path: "tools.json"}, srv, place{"vendor/srv/tools.json", 1, 0}},
		{"a command's source", report.Origin{Kind: report.OriginCommand, Dir: "server"}, srv, place{"vendor/srv/server/main.go", 4, 9}},
		{"a command run from the superproject", report.Origin{Kind: report.OriginCommand, Dir: "vendor/srv"}, super, place{"vendor/srv/server/main.go", 4, 9}},
		{"a manifest", report.Origin{Kind: report.OriginEndpoint}, srv, place{"vendor/srv/package.json", 1, 0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := c.origin
			rep := &report.Report{Origin: &o, Tools: []report.Tool{{Name: "lookup"}}}
			got := newLocator(rep, Options{Dir: c.dir}).locate("lookup", report.Issue{}, "")
			// A file target's line is where its tool is defined: only
			// the path is this test's matter.
			if c.origin.Kind == report.OriginFile {
				got.at.line, got.at.column = 1, 0
			}
			if got.at != c.want {
				t.Errorf("at %+v (%q), want %+v", got.at, got.note, c.want)
			}
		})
	}
}
