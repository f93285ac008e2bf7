package rubrics_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/markdown"
	"github.com/rubricmcp/rubric/engine/report/text"
	"github.com/rubricmcp/rubric/internal/heavytest"
)

// undescribed is a small server of five tools, two of them without a
// description (delete_note, update_note), one described in two words.
var undescribed = filepath.Join("testdata", "fixes", "undescribed.tools.json")

// scoreUndescribed scores the undescribed server with a built-in rubric,
// the heuristic judge answering offline where the rubric asks one.
func scoreUndescribed(t *testing.T, name string) *report.Report {
	t.Helper()
	rep, _ := gradeHeuristic(t, builtin(t, name), readSurface(t, undescribed))
	rep.Target = "undescribed.tools.json"
	rep.Surface.Source = ""
	return rep
}

// TestFixListOrder pins the fix list of every built-in rubric on the same
// server: the largest gain first, in the rubric's own unit, ties by tool
// then by check. Under TDQS the two tools without a description lead,
// each gaining 4 TDQS points (1 to 5), a fifth of that on the mean.
func TestFixListOrder(t *testing.T) {
	heavytest.Later(t)
	cases := []struct {
		rubric, unit string
		want         []string // tool check gain [moves]
	}{
		{"tdqs", "TDQS points of the tool", []string{
			"delete_note No Description 4 4/5",
			"update_note No Description 4 4/5",
			"list_notes behavioral_transparency 4/5 4/25",
			"list_notes usage_guidelines 4/5 4/25",
			// purpose clarity 2 raised to 5, of weight 25, adds 0.75, but
			// list_notes's TDQS, 1.65 shown 1.7, becomes 2.4: the fix
			// moves the shown score 0.7.
			"list_notes purpose_clarity 7/10 7/50",
			"list_notes contextual_completeness 2/5 2/25",
			"list_notes conciseness_structure 3/10 3/50",
		}},
		{"schema-quality", "points of the tool's score", []string{
			"list_notes declares_required 10 2",
			"update_note described_params 10 2", // 1 of 2 parameters: 20 x 1/2
		}},
		{"gradable", "composite points", []string{
			"delete_note name_restates_behavior 1/4",
			"delete_note no_return_description 1/4",
			"list_notes name_restates_behavior 1/4",
			"list_notes no_return_description 1/4",
			"update_note name_restates_behavior 1/4",
			"update_note no_return_description 1/4",
			"delete_note suggested_description 0",
			"list_notes suggested_description 0",
			"update_note suggested_description 0",
		}},
	}
	for _, c := range cases {
		t.Run(c.rubric, func(t *testing.T) {
			rep := scoreUndescribed(t, c.rubric)
			if got := rep.FixUnit(); got != c.unit {
				t.Errorf("unit %q, want %q", got, c.unit)
			}
			fixes, err := rep.FixList()
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range fixes {
				line := f.Tool + " " + f.Issue.Check + " " + f.Gain.Exact()
				if f.HasMoves {
					line += " " + f.Moves.Exact()
				}
				got = append(got, line)
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("fix list:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			// The JSON report carries each gain, and still validates.
			b, err := report.Marshal(rep)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			if err := reportSchema(t).Validate(doc); err != nil {
				t.Errorf("the report does not validate against report.schema.json: %v", err)
			}
		})
	}
}

// TestToolSafetyFixGains pins tool-safety's fix list on five poisoned
// tools, by hand: a tool whose findings cost no more than its 100 points
// gains each finding's own cost (draft_reply's two medium findings, 25
// each, and stock_quote's one); a tool whose findings cost more shares
// what fixing them all would earn (100 less its score of 0) by cost:
// run_diagnostics, one high and one medium, 125 points, gains 100 x
// 100/125 = 80 and 100 x 25/125 = 20; translate_text, two high, 50
// each; weather_now, two high and four medium, 300 points, 100/3 and
// 25/3. Each tool's gains add up to 100 less its score.
func TestToolSafetyFixGains(t *testing.T) {
	rep, _ := gradeHeuristic(t, builtin(t, "tool-safety"), readSurface(t, filepath.Join("testdata", "fixes", "poisoned.tools.json")))
	if got, want := rep.FixUnit(), "points of the tool's score, shared by cost when its findings cost over 100"; got != want {
		t.Errorf("unit %q, want %q", got, want)
	}
	fixes, err := rep.FixList()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fixes {
		got = append(got, f.Tool+" "+f.Issue.Severity+" "+f.Gain.Exact())
	}
	want := []string{
		"run_diagnostics high 80",
		"translate_text high 50",
		"translate_text high 50",
		"weather_now high 100/3",
		"weather_now high 100/3",
		"draft_reply medium 25",
		"draft_reply medium 25",
		"stock_quote medium 25",
		"run_diagnostics medium 20",
		"weather_now medium 25/3",
		"weather_now medium 25/3",
		"weather_now medium 25/3",
		"weather_now medium 25/3",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("fix list:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, tool := range rep.Tools {
		var sum num.Num
		for _, is := range tool.Issues {
			g, err := num.Parse(is.Gain)
			if err != nil {
				t.Fatalf("%s: gain %q: %v", tool.Name, is.Gain, err)
			}
			sum = sum.Add(g)
		}
		score, err := num.Parse(tool.Exact)
		if err != nil {
			t.Fatalf("%s: score %q: %v", tool.Name, tool.Exact, err)
		}
		if want := num.Int(100).Sub(score); sum.Cmp(want) != 0 {
			t.Errorf("%s: gains add up to %s, want 100 less its score, %s", tool.Name, sum.Exact(), want.Exact())
		}
	}
}

// TestFixListGolden: the terminal and Markdown summaries of TDQS on the
// undescribed server, whose two tools without a description lead the fix
// list with their gain in TDQS points.
func TestFixListGolden(t *testing.T) {
	rep := scoreUndescribed(t, "tdqs")
	var term, md bytes.Buffer
	if err := text.Write(&term, rep, text.Options{MaxIssues: 20}); err != nil {
		t.Fatal(err)
	}
	if err := markdown.Write(&md, rep); err != nil {
		t.Fatal(err)
	}
	for _, g := range []struct {
		file string
		got  []byte
	}{{"tdqs-undescribed.txt", term.Bytes()}, {"tdqs-undescribed.md", md.Bytes()}} {
		path := filepath.Join("testdata", "fixes", g.file)
		if *update {
			if err := os.WriteFile(path, g.got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if !bytes.Equal(g.got, want) {
			t.Errorf("%s differs; if the change is intended, run go test -run FixListGolden -update and review the diff\n--- got ---\n%s", path, g.got)
		}
		// Both tools without a description come before any other entry.
		first := func(name string) int {
			for i, l := range strings.Split(string(g.got), "\n") {
				if strings.Contains(l, name) && strings.Contains(strings.ToLower(l), "description") {
					return i
				}
			}
			return -1
		}
		del, upd, other := first("delete_note"), first("update_note"), first("list_notes")
		if del < 0 || upd < 0 || other < 0 || del > other || upd > other || !strings.Contains(string(g.got), "TDQS points") {
			t.Errorf("%s: the two tools without a description do not lead the fix list, in TDQS points", g.file)
		}
	}
}
