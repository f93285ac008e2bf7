package explain_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/explain"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/reporttest"
	"github.com/rubricmcp/rubric/engine/report/text"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/rubrics"
)

// scored is the JSON report of a corpus capture scored with a built-in
// rubric that asks no judge.
func scored(t testing.TB, capture, name string) (*rubric.Rubric, []byte) {
	t.Helper()
	r, err := rubrics.Find(name)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "score", "testdata", "corpus", capture)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := score.Run(context.Background(), r, s, score.Options{Target: capture})
	if err != nil {
		t.Fatal(err)
	}
	out, err := report.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	return r, out
}

// scoredReport is s scored with r and read back from its JSON, as
// explain reads a report.
func scoredReport(t testing.TB, r *rubric.Rubric, s *surface.Surface) *report.Report {
	t.Helper()
	scoredRep, err := score.Run(context.Background(), r, s, score.Options{Target: s.Source})
	if err != nil {
		t.Fatal(err)
	}
	data, err := report.Marshal(scoredRep)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := read(t, data)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// read reads report bytes as explain does, from a file.
func read(t testing.TB, data []byte) (*report.Report, error) {
	path := filepath.Join(t.TempDir(), "report.json")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return report.Read(path)
}

func TestExplainAgrees(t *testing.T) {
	r, data := scored(t, "postgres.tools.json", "schema-quality")
	rep, err := read(t, data)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		req  explain.Request
		want []string
	}{
		// query fails declares_required (10 points) and its one parameter
		// has no description (20 points): 100 - 30 = 70.
		{explain.Request{Tool: "query"}, []string{"  described_params   20 * 0 = 0", "sum([10, 15, 0, 0, 15, 15, 15]) = 70", "score = 70, shown rounded half away from zero to 1 decimal as 70.0"}},
		// One tool: the mean is its score.
		{explain.Request{}, []string{"  query   70", "mean([70]) = 70", "grade = C (60 <= score < 75)"}},
	} {
		var b bytes.Buffer
		if err := explain.Write(context.Background(), &b, r, rep, c.req); err != nil {
			t.Fatalf("%+v: %v", c.req, err)
		}
		for _, w := range c.want {
			if !strings.Contains(b.String(), w) {
				t.Errorf("%+v: no line %q in\n%s", c.req, w, b.String())
			}
		}
	}
}

// A report edited by hand, or damaged, is said to be so: its recorded
// values are set against what its observations give, and nothing panics.
//
// A recorded value is written whole, up to the 2,000 characters of any
// value (it was cut at 40): it is what the reader compares.
func TestExplainDamaged(t *testing.T) {
	r, data := scored(t, "postgres.tools.json", "schema-quality")
	longGrade, longExact := strings.Repeat("A+", 60), strings.Repeat("7/0", 40)
	hugeGrade := strings.Repeat("B", 2100)
	for _, c := range []struct {
		name     string
		old, new string
		req      explain.Request
		want     string // in the error
	}{
		{"tool exact edited", `"exact":"70"`, `"exact":"95"`, explain.Request{Tool: "query"}, `tool "query" score: recorded 95, its observations give 70`},
		{"tool exact damaged", `"exact":"70"`, `"exact":"7/0"`, explain.Request{Tool: "query"}, `the recorded exact value "7/0" is not a number`},
		{"tool exact empty", `"exact":"70"`, `"exact":""`, explain.Request{Tool: "query"}, `recorded none, its observations give 70`},
		{"grade edited", `"grade":"C"`, `"grade":"A"`, explain.Request{}, `tool "query" grade: recorded A, its observations give C`},
		{"grade edited long", `"grade":"C"`, `"grade":"` + longGrade + `"`, explain.Request{}, `tool "query" grade: recorded ` + longGrade + `, its observations give C`},
		{"grade edited past the bound", `"grade":"C"`, `"grade":"` + hugeGrade + `"`, explain.Request{}, `tool "query" grade: recorded ` + hugeGrade[:2000] + `… (100 more characters left out), its observations give C`},
		{"tool exact damaged long", `"exact":"70"`, `"exact":"` + longExact + `"`, explain.Request{Tool: "query"}, `the recorded exact value "` + longExact + `" is not a number`},
		{"overall exact edited", `"exact": "70"`, `"exact": "141/2"`, explain.Request{}, `the overall score: recorded 70.5, its observations give 70`},
		{"overall edited", `"score": 70.0`, `"score": 99.9`, explain.Request{}, `the overall rounded score: recorded 99.9, its observations give 70.0`},
		{"credit edited", `"credit":"0"`, `"credit":"1"`, explain.Request{Tool: "query"}, ``},
		{"surface edited", `"description":"Run a read-only SQL query"`, `"description":"Run any SQL query"`, explain.Request{Tool: "query"}, `the embedded surface hashes to`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !bytes.Contains(data, []byte(c.old)) {
				t.Fatalf("the report has no %s", c.old)
			}
			rep, err := read(t, bytes.Replace(data, []byte(c.old), []byte(c.new), 1))
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			err = explain.Write(context.Background(), &b, r, rep, c.req)
			if c.want == "" {
				// The checks' records are observations explain does not
				// read back: the arithmetic is that of the definition.
				if err != nil {
					t.Fatalf("got %v", err)
				}
				return
			}
			var d *explain.DisagreeError
			if !errors.As(err, &d) {
				t.Fatalf("got %v, want a report that does not agree with itself", err)
			}
			if !strings.Contains(err.Error(), c.want) || !strings.Contains(b.String(), c.want) {
				t.Errorf("error %q and output\n%s\nwant %q in both", err, b.String(), c.want)
			}
		})
	}
}

// A report that a JSON tool read and wrote again, its numbers as doubles
// in their shortest form (jq writes the rounded score 70.0 as 70), still
// agrees with itself: the rounded scores are compared by value. One
// edited by value is still refused.
func TestExplainRewrittenNumbers(t *testing.T) {
	r, data := scored(t, "postgres.tools.json", "schema-quality")
	var doc any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	again, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(again, []byte(`"score":70,`)) {
		t.Fatalf("the rewritten report has no score 70 written without its decimal:\n%s", again)
	}
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"rewritten", again, ""},
		{"rewritten and edited", bytes.Replace(again, []byte(`"score":70,`), []byte(`"score":70.5,`), 1), "recorded 70.5, its observations give 70.0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep, err := read(t, c.data)
			if err != nil {
				t.Fatal(err)
			}
			err = explain.Write(context.Background(), &bytes.Buffer{}, r, rep, explain.Request{})
			if c.want == "" && err != nil {
				t.Fatalf("got %v", err)
			}
			if c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
				t.Fatalf("got %v, want %q", err, c.want)
			}
		})
	}
}

func TestExplainUnknown(t *testing.T) {
	r, data := scored(t, "postgres.tools.json", "schema-quality")
	rep, err := read(t, data)
	if err != nil {
		t.Fatal(err)
	}
	for req, want := range map[explain.Request]string{
		{Tool: "nosuch"}:        `no tool "nosuch" in the report; its tools are: query`,
		{Tool: "no\x1b[2Jsuch"}: `no tool "nosuch" in the report`,
		{Metric: "nosuch"}:      `the rubric schema-quality has no surface metric "nosuch": it declares none, so explain its overall score (give neither --metric nor --category) or a tool's (--tool)`,
		{Tool: "qurey"}:         `no tool "qurey" in the report (did you mean "query"?); its tools are: query`,
	} {
		err := explain.Write(context.Background(), &bytes.Buffer{}, r, rep, req)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%+v: got %v, want %q", req, err, want)
		}
	}
}

// FuzzExplain explains damaged reports: whatever the bytes, explain
// returns an error or an explanation, and never panics.
func FuzzExplain(f *testing.F) {
	r, data := scored(f, "postgres.tools.json", "schema-quality")
	f.Add(data)
	f.Add(bytes.Replace(data, []byte(`"exact":"70"`), []byte(`"exact":"1e999999999"`), 1))
	f.Add(bytes.Replace(data, []byte(`"exact": "70"`), []byte(`"exact": "1/0"`), 1))
	f.Add(bytes.Replace(data, []byte(`"exact":"70"`), []byte(`"exact":null`), 1))
	f.Add(bytes.Replace(data, []byte(`"score": 70.0`), []byte(`"score": "x"`), 1))
	f.Add(bytes.Replace(data, []byte(`"name":"query"`), []byte(`"name":"other"`), 1))
	f.Fuzz(func(t *testing.T, b []byte) {
		rep, err := read(t, b)
		if err != nil {
			return
		}
		for _, req := range []explain.Request{{Tool: "query"}, {}} {
			_ = explain.Write(context.Background(), &bytes.Buffer{}, r, rep, req)
		}
	})
}

// TestExplainHiddenName: a tool whose name hides a right-to-left override
// is explained by the name the score table shows ("rd\u202efile"), and
// the explanation writes it so, not as an unreadable U+FFFD.
func TestExplainHiddenName(t *testing.T) {
	r, err := rubrics.Find("tool-safety")
	if err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse("t.json", []byte(`{"tools":[{"name":"rd\u202efile","description":"Reads a file."}]}`))
	if err != nil {
		t.Fatal(err)
	}
	rep := scoredReport(t, r, s)
	shown := report.EscapeControls("rd\u202efile", false)
	for _, name := range []string{"rd\u202efile", shown} {
		var b bytes.Buffer
		if err := explain.Write(context.Background(), &b, r, rep, explain.Request{Tool: name}); err != nil {
			t.Fatalf("--tool %q: %v", name, err)
		}
		if first, _, _ := strings.Cut(b.String(), "\n"); !strings.HasPrefix(first, `Tool "rd\u202efile", rubric tool-safety`) {
			t.Errorf("--tool %q: first line %q, want it to write the override out", name, first)
		}
	}
	err = explain.Write(context.Background(), &bytes.Buffer{}, r, rep, explain.Request{Tool: "rdfile"})
	if want := `(did you mean "rd\u202efile"?)`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("a near name: got %v, want %s", err, want)
	}
}

// TestExplainNamesAsShown: names that differ only in a line break, a tab
// or a space are written apart by the score table (a\nb, a\tb, a b; a
// no-break space, a space that ends or begins a name, which were written
// as a plain space and as nothing), and each is explained by the name the
// table shows.
func TestExplainNamesAsShown(t *testing.T) {
	r, err := rubrics.Find("schema-quality")
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"a\nb", "a\tb", "a b", "a\u00a0b", "rf", "rf ", " rf", "x\u3000"}
	var tools []string
	for _, n := range names {
		b, _ := json.Marshal(map[string]string{"name": n})
		tools = append(tools, string(b))
	}
	s, err := surface.Parse("t.json", []byte(`{"tools":[`+strings.Join(tools, ",")+`]}`))
	if err != nil {
		t.Fatal(err)
	}
	rep := scoredReport(t, r, s)
	var table bytes.Buffer
	if err := text.Write(&table, rep, text.Options{}); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"a\u00a0b": `a\u00a0b`, "rf ": `rf\u0020`, " rf": `\u0020rf`, "x\u3000": `x\u3000`, "a b": "a b"} {
		if got := report.ShownName(name); got != want {
			t.Errorf("%q is shown as %s, want %s", name, got, want)
		}
	}
	for _, name := range names {
		shown := report.ShownName(name)
		rows := 0
		for line := range strings.Lines(table.String()) {
			if strings.HasPrefix(line, shown+" ") {
				rows++
			}
		}
		if rows != 1 {
			t.Errorf("%q: %d rows of the table begin %q, want 1:\n%s", name, rows, shown, table.String())
		}
		var b bytes.Buffer
		if err := explain.Write(context.Background(), &b, r, rep, explain.Request{Tool: shown}); err != nil {
			t.Fatalf("--tool %q: %v", shown, err)
		}
		// The header quotes the name: as shown, or as it is where the
		// quotes make its spaces plain ("rf ").
		if first, _, _ := strings.Cut(b.String(), "\n"); !strings.HasPrefix(first, `Tool "`+shown+`",`) && !strings.HasPrefix(first, `Tool "`+name+`",`) {
			t.Errorf("--tool %q explained %q", shown, first)
		}
	}
}

// TestUnknownToolMessage: the tools a report holds are the server's
// names, listed printable (a hostile name's terminal controls never
// reach the terminal), and a report without tools says so rather than
// listing nothing.
func TestUnknownToolMessage(t *testing.T) {
	for _, c := range []struct {
		name  string
		known []string
		want  string
	}{
		{"controls in a name", []string{"query", "wipe\x1b]0;owned\x07\x1b[2J"}, `no tool "nosuch" in the report; its tools are: query, wipe`},
		{"no tools", nil, `no tool "nosuch" in the report: it has no tools, so explain its overall score (give neither --metric nor --category)`},
		{"more than twelve", strings.Fields("a b c d e f g h i j k l m"), `no tool "nosuch" in the report (13 tools; rubric score --max-rows 0 lists them all)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := &explain.UnknownError{Kind: "tool", Name: "nosuch", Rubric: "tdqs", Known: c.known}
			if got := e.Error(); got != c.want {
				t.Errorf("got  %q\nwant %q", got, c.want)
			}
		})
	}
}

// TestUnscoredToolSaysWhy: a tool the report left unscored is not one
// it lacks: explain says it was left unscored and why, where it said
// there was no such tool and to list them with --max-rows.
func TestUnscoredToolSaysWhy(t *testing.T) {
	rep := reporttest.Partial(t)
	r, err := rubrics.Find("tdqs")
	if err != nil {
		t.Fatal(err)
	}
	err = explain.Write(context.Background(), io.Discard, r, rep, explain.Request{Tool: reporttest.PartialUnscored})
	want := `the tool "` + reporttest.PartialUnscored + `" was left unscored, so there is no score of it to explain: ` + rep.UnscoredTools[0].Reason
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}
