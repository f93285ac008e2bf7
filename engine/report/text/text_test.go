package text

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/reporttest"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func write(t *testing.T, rep *report.Report, opt Options) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, rep, opt); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

func TestGolden(t *testing.T) {
	cases := []struct {
		golden string
		rep    func(t testing.TB) *report.Report
		opt    Options
	}{
		{"everything.txt", func(t testing.TB) *report.Report { return reporttest.Capture(t, "everything.tools.json") }, Options{}},
		{"desktop-commander-80.txt", func(t testing.TB) *report.Report {
			return reporttest.Capture(t, "desktop-commander.tools.json")
		},
			Options{Width: 80, MaxIssues: 8}},
		{"desktop-commander-40.txt", func(t testing.TB) *report.Report {
			return reporttest.Capture(t, "desktop-commander.tools.json")
		},
			Options{Width: 40, MaxIssues: 3}},
		// A repeated cause: one line names every tool without parameter
		// descriptions.
		{"desktop-commander-causes.txt", func(t testing.TB) *report.Report {
			return reporttest.Capture(t, "desktop-commander.tools.json")
		}, Options{}},
		{"synthetic-50.txt", func(t testing.TB) *report.Report { return reporttest.Testdata(t, "synthetic.tools.json") }, Options{Width: 50}},
		{"clean.txt", reporttest.Clean, Options{}},
		{"empty.txt", reporttest.Empty, Options{}},
		{"incomplete.txt", reporttest.Incomplete, Options{}},
	}
	for _, c := range cases {
		t.Run(c.golden, func(t *testing.T) {
			got := write(t, c.rep(t), c.opt)
			path := filepath.Join("testdata", c.golden)
			reporttest.Golden(t, path, []byte(got), *update)
			if c.opt.Width > 0 {
				// The table and the fix list fit the width; the header lines may not.
				_, body, _ := strings.Cut(got, "\n\n")
				for line := range strings.Lines(body) {
					if n := utf8.RuneCountInString(strings.TrimSuffix(line, "\n")); n > c.opt.Width {
						t.Errorf("line of %d columns is wider than %d: %q", n, c.opt.Width, line)
					}
				}
			}
		})
	}
}

func TestColor(t *testing.T) {
	reps := map[string]*report.Report{
		"everything": reporttest.Capture(t, "everything.tools.json"),
		"synthetic":  reporttest.Testdata(t, "synthetic.tools.json"),
	}
	for name, rep := range reps {
		t.Run(name, func(t *testing.T) {
			plainOut := write(t, rep, Options{Color: false})
			colorOut := write(t, rep, Options{Color: true})
			if strings.Contains(plainOut, "\x1b") {
				t.Errorf("Color=false output holds an escape character:\n%q", plainOut)
			}
			if !ansi.MatchString(colorOut) {
				t.Errorf("Color=true output holds no ANSI colour:\n%s", colorOut)
			}
			// Colour must not move anything: without the escapes the two agree,
			// so the table stays aligned.
			if stripped := ansi.ReplaceAllString(colorOut, ""); stripped != plainOut {
				t.Errorf("Color=true output without its escapes differs from Color=false:\n%s\n---\n%s", stripped, plainOut)
			}
		})
	}
	colored := write(t, reps["synthetic"], Options{Color: true})
	for _, want := range []string{
		"Grade " + red + "D" + reset,
		green + "A" + reset, cyan + "B" + reset, red + "F" + reset,
	} {
		if !strings.Contains(colored, want) {
			t.Errorf("coloured output lacks %q", want)
		}
	}
}

func TestGradeColor(t *testing.T) {
	cases := []struct{ grade, want string }{
		{"A", green}, {"B", cyan}, {"C", yellow}, {"D", red}, {"F", red}, {"E", plain}, {"", plain},
	}
	for _, c := range cases {
		if got := gradeColor(c.grade); got != c.want {
			t.Errorf("gradeColor(%q) = %q, want %q", c.grade, got, c.want)
		}
		if len(gradeColor(c.grade)) != len(plain) {
			t.Errorf("the escape of grade %q is not as long as the others, so the table would not align", c.grade)
		}
	}
}

// unsetenv removes k for the test and restores it afterwards.
func unsetenv(t *testing.T, k string) {
	t.Setenv(k, "")
	os.Unsetenv(k)
}

func TestColorEnabled(t *testing.T) {
	tty := isTerminal
	t.Cleanup(func() { isTerminal = tty })
	isTerminal = func(uintptr) bool { return true } // stand in for a terminal
	cases := []struct {
		name string
		env  map[string]string // "-" unsets
		want bool
	}{
		{"terminal", map[string]string{"NO_COLOR": "-", "TERM": "xterm-256color"}, true},
		{"NO_COLOR=1", map[string]string{"NO_COLOR": "1", "TERM": "xterm-256color"}, false},
		{"NO_COLOR=false still disables", map[string]string{"NO_COLOR": "false", "TERM": "xterm"}, false},
		{"empty NO_COLOR is unset", map[string]string{"NO_COLOR": "", "TERM": "xterm"}, true},
		{"dumb terminal", map[string]string{"NO_COLOR": "-", "TERM": "dumb"}, false},
		{"no TERM", map[string]string{"NO_COLOR": "-", "TERM": "-"}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for k, v := range c.env {
				if v == "-" {
					unsetenv(t, k)
				} else {
					t.Setenv(k, v)
				}
			}
			if got := ColorEnabled(os.Stdout); got != c.want {
				t.Errorf("ColorEnabled = %v, want %v", got, c.want)
			}
		})
	}
	t.Run("nil file", func(t *testing.T) {
		unsetenv(t, "NO_COLOR")
		if ColorEnabled(nil) {
			t.Error("ColorEnabled(nil) = true")
		}
	})
}

// TestColorEnabledRealFiles uses the real terminal check: a regular file
// is not a terminal; a pseudo-terminal is, unless NO_COLOR is set.
func TestColorEnabledRealFiles(t *testing.T) {
	unsetenv(t, "NO_COLOR")
	t.Setenv("TERM", "xterm")
	f, err := os.Create(filepath.Join(t.TempDir(), "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if ColorEnabled(f) {
		t.Error("ColorEnabled on a regular file = true")
	}
	pty, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal to test with: %v", err)
	}
	defer pty.Close()
	if !isTerminal(pty.Fd()) {
		t.Skip("/dev/ptmx is not a terminal here")
	}
	if !ColorEnabled(pty) {
		t.Error("ColorEnabled on a terminal without NO_COLOR = false")
	}
	t.Setenv("NO_COLOR", "1")
	if ColorEnabled(pty) {
		t.Error("ColorEnabled on a terminal with NO_COLOR=1 = true")
	}
}

func TestMaxIssues(t *testing.T) {
	rep := reporttest.Capture(t, "everything.tools.json")
	fixes, err := rep.FixList()
	if err != nil {
		t.Fatal(err)
	}
	// The cap counts causes, one line each, not issues.
	total := len(report.GroupFixes(fixes))
	cases := []struct {
		max, shown int
		more       string
	}{
		{0, total, ""},
		{-1, total, ""},
		{total - 2, total - 2, "  … and 2 more causes (--max-issues 0 lists them all)\n"},
		{total, total, ""},
		{total + 5, total, ""},
	}
	for _, c := range cases {
		out := write(t, rep, Options{MaxIssues: c.max})
		_, list, ok := strings.Cut(out, "Fix list by cause, the largest total gain first: the gain in points of the tool's score, summed over the tools, then what it moves the overall score:\n")
		if !ok {
			t.Fatalf("no fix list header in\n%s", out)
		}
		lines := strings.Count(list, "\n")
		if c.more != "" {
			lines--
			if !strings.HasSuffix(list, c.more) {
				t.Errorf("MaxIssues %d: fix list should end %q, got\n%s", c.max, c.more, list)
			}
		} else if strings.Contains(list, "more") {
			t.Errorf("MaxIssues %d: unexpected 'more' line:\n%s", c.max, list)
		}
		if lines != c.shown {
			t.Errorf("MaxIssues %d: %d causes shown, want %d", c.max, lines, c.shown)
		}
	}
}

func TestFixOrder(t *testing.T) {
	rep := reporttest.Testdata(t, "synthetic.tools.json")
	fixes, err := rep.FixList()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fixes {
		got = append(got, f.Tool+" "+f.Issue.Check+" "+f.Gain.Exact())
	}
	want := []string{
		"no_schema input_schema 100", // 10 points plus the 90 of the checks it stopped
		"line\nbreak\x1b[31m\u202etxt.exe described_params 20",
		"pipe|name array_items 15",
		"pipe|name object_properties 15",
		"pipe|name declares_required 10",
		"pipe|name described_params 5", // 1 of 4 parameters: 20 * 1/4
		"pipe|name typed_params 15/4",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("fix list order:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// A report written before gains orders its issues the same way.
	for i := range rep.Tools {
		for k := range rep.Tools[i].Issues {
			rep.Tools[i].Issues[k].Gain, rep.Tools[i].Issues[k].Moves = "", ""
		}
	}
	legacy, err := rep.FixList()
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range legacy {
		if g := f.Tool + " " + f.Issue.Check + " " + f.Gain.Exact(); g != want[i] {
			t.Errorf("without gains, entry %d is %q, want %q", i, g, want[i])
		}
	}
}

func TestWriteErrors(t *testing.T) {
	if err := Write(&bytes.Buffer{}, nil, Options{}); err == nil {
		t.Error("Write(nil) should fail")
	}
	cases := []struct {
		name   string
		damage func(r *report.Report)
	}{
		{"issue gain", func(r *report.Report) { r.Tools[0].Issues[0].Gain = "many" }},
		{"issue moves", func(r *report.Report) { r.Tools[0].Issues[0].Moves = "1/0" }},
		// A report written before gains: the gain comes from points and credit.
		{"issue points", func(r *report.Report) { r.Tools[0].Issues[0].Gain, r.Tools[0].Issues[0].Points = "", "many" }},
		{"check credit", func(r *report.Report) {
			for i := range r.Tools[0].Issues {
				r.Tools[0].Issues[i].Gain = ""
			}
			r.Tools[0].Checks[2].Credit = ""
		}},
		{"tool score", func(r *report.Report) { r.Tools[0].Exact, r.Tools[0].Score = "", "n/a" }},
	}
	for _, c := range cases {
		rep := reporttest.Capture(t, "postgres.tools.json")
		c.damage(rep)
		err := Write(&bytes.Buffer{}, rep, Options{})
		if err == nil || !strings.Contains(err.Error(), `"query"`) || !strings.Contains(err.Error(), "score the surface again") {
			t.Errorf("%s: want an error naming the tool and saying what to do, got %v", c.name, err)
		}
	}
}

func TestWrap(t *testing.T) {
	cases := []struct {
		prefix, s string
		width     int
		want      string
	}{
		{"> ", "one two three", 0, "> one two three\n"},
		{"> ", "one two three", 20, "> one two three\n"},
		{"> ", "one two three four", 16, "> one two three\n  four\n"},
		// A word wider than the room is cut to fit it.
		{"> ", "aaaaaaaaaaaaaaaaaaaa b", 16, "> aaaaaaaaaaaaa…\n  b\n"},
		{"> ", "too narrow to wrap", 8, "> too narrow to wrap\n"},
	}
	for _, c := range cases {
		if got := wrap(c.prefix, c.s, c.width); got != c.want {
			t.Errorf("wrap(%q, %q, %d) = %q, want %q", c.prefix, c.s, c.width, got, c.want)
		}
	}
}

func TestCut(t *testing.T) {
	cases := []struct {
		s    string
		n    int
		want string
	}{
		{"short", 10, "short"},
		{"exactly", 7, "exactly"},
		{"much_too_long", 8, "much_to…"},
		{"ünïcödé_name", 5, "ünïc…"},
		{"anything", 0, "anything"},
	}
	for _, c := range cases {
		if got := cut(c.s, c.n); got != c.want {
			t.Errorf("cut(%q, %d) = %q, want %q", c.s, c.n, got, c.want)
		}
	}
}

func TestClean(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain name", "plain name"},
		{"line\nbreak", "line break"},
		{"tab\there\r", "tab here"},
		{"red\x1b[31m", `red\x1b[31m`},                                         // shown, never sent
		{"clip\x1b]52;c;ZXZpbA==\a board", `clip\x1b]52;c;ZXZpbA==\x07 board`}, // OSC 52 writes the clipboard
		{"title\x1b]0;pwned\x1b\\ bar", `title\x1b]0;pwned\x1b\ bar`},          // OSC ended by ST
		{"bell\a", `bell\x07`},
		{"nul\x00byte", `nul\x00byte`},
		{"c1\u009b", `c1\u009b`},
		{"safe\u202eexe.txt", `safe\u202eexe.txt`},     // right-to-left override
		{"iso\u2066late\u2069", `iso\u2066late\u2069`}, // isolates
		{"mark\u200f", `mark\u200f`},                   // right-to-left mark
		{"zero\u200bwidth", `zero\u200bwidth`},         // zero-width space
		{"tag\U000e0041", `tag\U000e0041`},             // tag letter A
		{"broken\xff", "broken\ufffd"},                 // not UTF-8
		{"ünïcödé", "ünïcödé"},
	}
	for _, c := range cases {
		if got := clean(c.in); got != c.want {
			t.Errorf("clean(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMaxToolsCapsTheTable(t *testing.T) {
	rep := reporttest.Capture(t, "github.tools.json")
	var buf bytes.Buffer
	if err := Write(&buf, rep, Options{MaxTools: 3}); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	// The 23 left out score 80.0 (six of them, as the three shown do) to
	// 100.0: not "better scored", as this line said of them.
	if !strings.Contains(out, "\n… and 23 more tools, each scored at least 80.0 (--max-rows 0 lists them all)\n") {
		t.Errorf("no count of the tools left out, with the least score among them:\n%s", out)
	}
	// The three shown are the worst: 80.0 each in the github capture.
	table := out[strings.Index(out, "TOOL"):strings.Index(out, "…")]
	if strings.Count(table, "\n") != 4 || strings.Contains(table, "100.0") {
		t.Errorf("want the header and the three worst tools:\n%s", table)
	}
}

// TestTerminalWidth: COLUMNS when set, nothing (0) off a terminal.
func TestTerminalWidth(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if w := TerminalWidth(f); w != 0 {
		t.Errorf("a file is %d columns wide, want 0", w)
	}
	tty := isTerminal
	t.Cleanup(func() { isTerminal = tty })
	isTerminal = func(uintptr) bool { return true }
	t.Setenv("COLUMNS", "93")
	if w := TerminalWidth(f); w != 93 {
		t.Errorf("COLUMNS=93 gave %d", w)
	}
}

// TestSectionFractions shows a fraction of a rubric's report member as a
// decimal, with the fraction only when it is short.
func TestSectionFractions(t *testing.T) {
	rep := reporttest.Clean(t)
	rep.Sections = []report.Field{{Name: "run", Value: report.Fields{
		{Name: "cost", Value: json.RawMessage(`"92446/13"`)},
		{Name: "accuracy", Value: json.RawMessage(`"32/39"`)},
	}}}
	got := write(t, rep, Options{})
	if want := "run: cost 7111.230769230769 · accuracy 0.820512820513 (exactly 32/39)\n"; !strings.Contains(got, want) {
		t.Errorf("the summary lacks %q:\n%s", want, got)
	}
}

// TestGroupLineCountsTools: a cause that one tool has several times (a
// rubric's findings of one kind) counts that tool once, and says how many
// times, in a group of several tools and alone.
func TestGroupLineCountsTools(t *testing.T) {
	fix := func(tool string) report.Fix {
		return report.Fix{Tool: tool, Issue: report.Issue{Check: "injection", Message: "instruction to the model to drop its instructions"}}
	}
	for _, c := range []struct {
		tools []string
		want  string
	}{
		{[]string{"huge", "huge", "huge", "other"}, "2 tools: instruction to the model to drop its instructions: huge ×3, other"},
		{[]string{"huge", "huge", "huge"}, "huge: instruction to the model to drop its instructions (and 2 more alike)"},
		{[]string{"huge"}, "huge: instruction to the model to drop its instructions"},
	} {
		var fixes []report.Fix
		for _, name := range c.tools {
			fixes = append(fixes, fix(name))
		}
		groups := report.GroupFixes(fixes)
		if len(groups) != 1 {
			t.Fatalf("%v: %d groups, want 1", c.tools, len(groups))
		}
		if got := groupLine(groups[0]); got != c.want {
			t.Errorf("%v:\n got %q\nwant %q", c.tools, got, c.want)
		}
	}
}

// TestToolAndParams: a fix list's tool with its parameters keeps its
// closing parenthesis when the parameters are too many to show, and says
// how many it leaves out. Cut as one string at 80 characters, the list
// ran on into the next tool: "edit_block (content, expected_replacements,
// file_path, new_string, old_string, …, force_terminate (pid)".
func TestToolAndParams(t *testing.T) {
	long := strings.Repeat("x", 100)
	cases := []struct {
		tool   string
		params []string
		want   string
	}{
		{"kill_process", nil, "kill_process"},
		{"kill_process", []string{"pid"}, "kill_process (pid)"},
		{"create_issue", []string{"assignees", "body", "labels", "milestone", "owner", "repo", "title"},
			"create_issue (assignees, body, labels, milestone, owner, repo, title)"},
		{"edit_block", []string{"content", "expected_replacements", "file_path", "new_string", "old_string", "pattern", "replacement", "strict"},
			"edit_block (content, expected_replacements, file_path, new_string, and 4 more)"},
		{"update_issue", []string{"assignees", "body", "issue_number", "labels", "milestone", "owner", "repo", "state", "title"},
			"update_issue (assignees, body, issue_number, labels, milestone, and 4 more)"},
		{"t", []string{long, "b"}, "t (" + long[:maxName-len("t ()")-1] + "…, and 1 more)"},
		{long, []string{"a", "b"}, long[:maxName-1] + "… (a, b)"},
	}
	for _, c := range cases {
		got := toolAndParams(report.Fix{Tool: c.tool, Issue: report.Issue{Params: c.params}})
		if got != c.want {
			t.Errorf("%s %v:\n got %q\nwant %q", c.tool, c.params, got, c.want)
		}
		if strings.Count(got, "(") != strings.Count(got, ")") {
			t.Errorf("%q: unbalanced parentheses", got)
		}
	}
}

// TestSectionLongText shows a section's text value too long to share a
// line (a summary sentence) whole on a line of its own, wrapped to the
// terminal's width, and one longer than maxSectionLong up to its last
// full sentence that fits.
func TestSectionLongText(t *testing.T) {
	summary := "Heuristic: name and word-overlap cues, not a model, scored the only tool of the server: disambiguation 5, naming 5."
	many := strings.Repeat("One sentence of twenty-eight runes. ", 20)
	for _, c := range []struct {
		name  string
		text  string
		width int
		want  string
	}{
		{"whole", summary, 0, "server: score 3.8 · grade A\n        summary " + summary + "\n"},
		{"wrapped", summary, 60, "server: score 3.8 · grade A\n" +
			"        summary Heuristic: name and word-overlap cues, not a\n" +
			"        model, scored the only tool of the server:\n" +
			"        disambiguation 5, naming 5.\n"},
		{"up to a full sentence", many, 0, "server: score 3.8 · grade A\n        summary " +
			strings.Repeat("One sentence of twenty-eight runes. ", 13) + "…\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rep := reporttest.Clean(t)
			rep.Sections = []report.Field{{Name: "server", Value: report.Fields{
				{Name: "score", Value: json.RawMessage(`3.8`)},
				{Name: "summary", Value: json.RawMessage(strconv.Quote(c.text))},
				{Name: "grade", Value: json.RawMessage(`"A"`)},
			}}}
			got := write(t, rep, Options{Width: c.width})
			if !strings.Contains(got, "\n"+c.want) {
				t.Errorf("the summary lacks\n%s\ngot:\n%s", c.want, got)
			}
		})
	}
}
