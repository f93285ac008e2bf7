package markdown

import (
	"bytes"
	"flag"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/reporttest"
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

// TestTableShape checks that every row of the tools table has exactly the
// four cells of the header, whatever the tool names hold.
func TestTableShape(t *testing.T) {
	out := write(t, reporttest.Testdata(t, "synthetic.tools.json"))
	rows := 0
	for line := range strings.Lines(out) {
		if !strings.HasPrefix(line, "|") {
			continue
		}
		rows++
		if n := unescapedPipes(line); n != 5 {
			t.Errorf("table row %q has %d cell borders, want 5", line, n)
		}
	}
	if rows != 2+4 {
		t.Errorf("got %d table lines, want a header, a delimiter and 4 tools", rows)
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
	rep.Tools[0].Issues[0].Points = "many"
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
		{"params mid-sentence", report.Issue{Message: "fix x|y now", Params: []string{"x|y"}}, "fix `x|y` now"},
		{"params not in message", report.Issue{Message: "some parameters are vague", Params: []string{"q"}},
			"some parameters are vague (`q`)"},
	}
	for _, c := range cases {
		if got := message(c.is); got != c.want {
			t.Errorf("%s: message = %q, want %q", c.name, got, c.want)
		}
	}
}
