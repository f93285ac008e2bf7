package markdown

import (
	"bytes"
	"encoding/json"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/reporttest"
	"github.com/rubricmcp/rubric/rubrics"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

func write(t *testing.T, rep *report.Report) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, rep); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestGolden(t *testing.T) {
	cases := []struct {
		golden string
		rep    func(t testing.TB) *report.Report
	}{
		{"everything.md", func(t testing.TB) *report.Report { return reporttest.Capture(t, "everything.tools.json") }},
		{"github.md", func(t testing.TB) *report.Report { return reporttest.Capture(t, "github.tools.json") }},
		{"synthetic.md", func(t testing.TB) *report.Report { return reporttest.Testdata(t, "synthetic.tools.json") }},
		{"clean.md", reporttest.Clean},
		{"empty.md", reporttest.Empty},
		{"incomplete.md", reporttest.Incomplete},
	}
	for _, c := range cases {
		t.Run(c.golden, func(t *testing.T) {
			got := write(t, c.rep(t))
			path := filepath.Join("testdata", c.golden)
			reporttest.Golden(t, path, []byte(got), *update)
		})
	}
}

// TestTableShape checks that every row of each table (the tools, the fix
// list) has exactly the cells of its header, whatever the tool names and
// messages hold.
func TestTableShape(t *testing.T) {
	out := write(t, reporttest.Testdata(t, "synthetic.tools.json"))
	var tables [][]string
	prev := ""
	for line := range strings.Lines(out) {
		if !strings.HasPrefix(line, "|") {
			prev = line
			continue
		}
		if !strings.HasPrefix(prev, "|") {
			tables = append(tables, nil)
		}
		tables[len(tables)-1] = append(tables[len(tables)-1], line)
		prev = line
	}
	want := []int{2 + 4, 2 + 6} // header, delimiter, 4 tools; then 6 causes of 7 issues
	if len(tables) != len(want) {
		t.Fatalf("got %d tables, want %d:\n%s", len(tables), len(want), out)
	}
	for i, rows := range tables {
		if len(rows) != want[i] {
			t.Errorf("table %d has %d lines, want %d", i, len(rows), want[i])
		}
		cells := unescapedPipes(rows[0])
		for _, line := range rows {
			if n := unescapedPipes(line); n != cells {
				t.Errorf("table row %q has %d cell borders, want %d as its header", line, n, cells)
			}
		}
	}
}

func unescapedPipes(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n
}

func TestToolOrder(t *testing.T) {
	rep := &report.Report{Complete: true, Tools: []report.Tool{
		{Name: "b", Score: "80.0", Exact: "80", Grade: "B"},
		{Name: "c", Score: "33.3", Exact: "100/3", Grade: "F"},
		{Name: "a", Score: "80.0", Exact: "80", Grade: "B"},
		{Name: "d", Score: "33.3", Exact: "333/10", Grade: "F"},
	}}
	got, err := report.ToolsWorstFirst(rep.Tools)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, t := range got {
		names = append(names, t.Name)
	}
	// 333/10 < 100/3 although both round to 33.3.
	if want := "d c a b"; strings.Join(names, " ") != want {
		t.Errorf("order %v, want %s", names, want)
	}
	rep.Tools[0].Exact, rep.Tools[0].Score = "", "n/a"
	if err := Write(&bytes.Buffer{}, rep); err == nil || !strings.Contains(err.Error(), `tool "b"`) {
		t.Errorf("a damaged score should fail naming the tool, got %v", err)
	}
	if err := Write(&bytes.Buffer{}, nil); err == nil {
		t.Error("Write(nil) should fail")
	}
}

func TestWriteDamagedPoints(t *testing.T) {
	rep := reporttest.Capture(t, "postgres.tools.json")
	rep.Tools[0].Issues[0].Gain = "many"
	err := Write(&bytes.Buffer{}, rep)
	if err == nil || !strings.Contains(err.Error(), `tool "query"`) || !strings.Contains(err.Error(), "score the surface again") {
		t.Errorf("damaged points should fail naming the tool and saying what to do, got %v", err)
	}
}

func TestCode(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain", "`plain`"},
		{"a`b", "``a`b``"},
		{"`tick`", "`` `tick` ``"},
		{"a``b`", "``` a``b` ```"},
		{"two\nlines", "`two lines`"},
		{" padded ", "`  padded  `"},
		{"pipe|name", "`pipe|name`"},
		{"esc\x1b[31m\u0085", "`esc\\x1b[31m\\u0085`"},
		{"tab\there", "`tab here`"},
	}
	for _, c := range cases {
		if got := code(c.in); got != c.want {
			t.Errorf("code(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got, want := cellCode("a|b"), "`a\\|b`"; got != want {
		t.Errorf("cellCode(a|b) = %q, want %q", got, want)
	}
}

func TestText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"plain words: fine.", "plain words: fine."},
		{"a|b", `a\|b`},
		{"<script>", `\<script\>`},
		{"[link](x)", `\[link\](x)`},
		{"*bold* _em_ ~del~", `\*bold\* \_em\_ \~del\~`},
		{"back\\slash `code`", "back\\\\slash \\`code\\`"},
		{"line\r\nbreak\nand\rmore", "line break and more"},
		{"&amp;", `\&amp;`},
		{"bell\a", `bell\\x07`},
	}
	for _, c := range cases {
		if got := text(c.in); got != c.want {
			t.Errorf("text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMessage(t *testing.T) {
	cases := []struct {
		name string
		is   report.Issue
		want string
	}{
		{"no params", report.Issue{Message: "inputSchema has no required list"}, "inputSchema has no required list"},
		{"params listed", report.Issue{Message: "parameters without a description: a, b_c", Params: []string{"a", "b_c"}},
			"parameters without a description: `a`, `b_c`"},
		{"params mid-sentence", report.Issue{Message: "fix x|y now", Params: []string{"x|y"}}, "fix `x\\|y` now"}, // a table cell
		{"params not in message", report.Issue{Message: "some parameters are vague", Params: []string{"q"}},
			"some parameters are vague (`q`)"},
		// A short name inside a longer word is not the list: the "m" of
		// "enum" in a Tool Safety pointer stays as it is.
		{"param inside a word", report.Issue{Message: "a cue (high) at /inputSchema/properties/m/enum/1: \"x\"", Params: []string{"m"}},
			"a cue (high) at /inputSchema/properties/`m`/enum/1: \"x\""},
		{"param only inside words", report.Issue{Message: "some parameters are vague", Params: []string{"a"}},
			"some parameters are vague (`a`)"},
	}
	for _, c := range cases {
		if got := message(c.is); got != c.want {
			t.Errorf("%s: message = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestHostileText: markup, links and URLs in a server's text reach the
// summary as plain text: nothing links, formats, embeds or opens a cell.
func TestHostileText(t *testing.T) {
	cases := []struct{ in, want string }{
		{"[x](javascript:alert(1))", `\[x\](javascript:alert(1))`},
		{"see https://evil.example/p?q=1", `see https\://evil.example/p?q=1`},
		{"HTTP://EVIL and ftp://x", `HTTP\://EVIL and ftp\://x`},
		{"www.evil.example", `www\.evil.example`},
		{"mailto:a@evil.example", `mailto\:a@evil.example`},
		{"<img src=x onerror=alert(1)>", `\<img src=x onerror=alert(1)\>`},
		{"a | b", `a \| b`},
		{"**bold** _it_ ~~gone~~ `code`", "\\*\\*bold\\*\\* \\_it\\_ \\~\\~gone\\~\\~ \\`code\\`"},
		{"&lt;", `\&lt;`},
		{"esc\x1b[31m nul\x00", `esc\\x1b\[31m nul\\x00`}, // shown, not sent
		{"two\nlines", "two lines"},
	}
	for _, c := range cases {
		if got := text(c.in); got != c.want {
			t.Errorf("text(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// A hostile tool in a whole summary: its description and parameter
	// names reach the fix list, and nothing in the summary links.
	rep := reporttest.Score(t, "hostile.tools.json", []byte(`{"tools":[{"name":"x](https://evil)","inputSchema":{"type":"object","properties":{"https://evil.example/a|b":{"type":"string"},"<img src=x>":{"type":"string"}}}}]}`))
	out := write(t, rep)
	if !strings.Contains(out, "`https://evil.example/a\\|b`") {
		t.Errorf("the parameter is not named in a code span, safe in a table cell:\n%s", out)
	}
	prose := outsideCode(out)
	for _, bad := range []string{"https://", "<img", "](http"} {
		if strings.Contains(prose, bad) {
			t.Errorf("the summary holds %q outside a code span:\n%s", bad, out)
		}
	}
}

// outsideCode is s without its code spans (a run of backticks up to the
// next run of the same length), where nothing renders as markup.
func outsideCode(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '`' || (i > 0 && s[i-1] == '\\') {
			b.WriteByte(s[i])
			i++
			continue
		}
		n := 1
		for i+n < len(s) && s[i+n] == '`' {
			n++
		}
		fence := strings.Repeat("`", n)
		end := strings.Index(s[i+n:], fence)
		if end < 0 {
			b.WriteString(s[i:])
			break
		}
		i += n + end + n
	}
	return b.String()
}

// TestExactOnlyWhenShort shows an exact value beside its rounded form only
// when it is short, as the terminal does: the headline printed "(exactly
// 38062009/468000)", and a section a fraction as it is in the JSON.
func TestExactOnlyWhenShort(t *testing.T) {
	for _, tc := range []struct {
		score, exact, section string
		want, deny            []string
	}{
		{"81.3", "38062009/468000", "92446/13",
			[]string{"score **81.3**\n", "| avgTokenCostPerTask | 7111.230769230769 |"},
			[]string{"38062009", "92446/13"}},
		{"3.9", "541/140", "32/39",
			[]string{"score **3.9** (exactly 541/140)\n", "| avgTokenCostPerTask | 0.820512820513 (exactly 32/39) |"},
			nil},
	} {
		rep := reporttest.Clean(t)
		score := json.Number(tc.score)
		rep.Score, rep.Exact = &score, &tc.exact
		rep.Sections = []report.Field{{Name: "run", Value: report.Fields{{Name: "avgTokenCostPerTask", Value: json.RawMessage(`"` + tc.section + `"`)}}}}
		got := write(t, rep)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("the summary lacks %q:\n%s", w, got)
			}
		}
		for _, d := range tc.deny {
			if strings.Contains(got, d) {
				t.Errorf("the summary holds %q:\n%s", d, got)
			}
		}
	}
}

// TestWriteLevel sets the title at the level asked and the parts one
// below; a level a part could not sit below is refused.
func TestWriteLevel(t *testing.T) {
	var buf bytes.Buffer
	if err := WriteLevel(&buf, reporttest.Capture(t, "git.tools.json"), 3); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); !strings.HasPrefix(got, "### Schema Quality ") || !strings.Contains(got, "\n#### Tools\n") || !strings.Contains(got, "\n#### Fix list\n") || strings.Contains(got, "\n## ") {
		t.Errorf("level 3:\n%s", got)
	}
	for _, level := range []int{0, 6} {
		if err := WriteLevel(&bytes.Buffer{}, reporttest.Clean(t), level); err == nil {
			t.Errorf("level %d was written", level)
		}
	}
}

// TestFailUnder: given --fail-under, the summary says under the score
// whether the run passes it, which decides the exit status a CI job
// summary or pull-request comment would otherwise leave unexplained;
// without it, it says nothing of one.
func TestFailUnder(t *testing.T) {
	r, err := rubrics.Find("schema-quality")
	if err != nil {
		t.Fatal(err)
	}
	rep := reporttest.Score(t, "one.tools.json", []byte(`[{"name": "only", "description": "Does it.", "inputSchema": {"type": "object", "properties": {"x": {}}}}]`))
	for _, c := range []struct{ arg, want string }{
		{"A", "\n\n**Fails `--fail-under`:** overall score " + rep.Score.String() + " is below grade A (90), so this run exits 1.\n\n"},
		{"10", "\n\n**Passes `--fail-under`:** the overall score reaches 10.\n\n"},
	} {
		th, err := r.Threshold(c.arg)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := WriteFailUnder(&buf, rep, th); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(buf.String(), c.want) {
			t.Errorf("--fail-under %s: the summary lacks %q:\n%s", c.arg, c.want, buf.String())
		}
		if head := buf.String()[:strings.Index(buf.String(), "\n### ")]; !strings.Contains(head, "--fail-under") {
			t.Errorf("--fail-under %s is not said before the tools:\n%s", c.arg, head)
		}
	}
	if out := write(t, rep); strings.Contains(out, "fail-under") {
		t.Errorf("without --fail-under the summary speaks of one:\n%s", out)
	}
}
