package html_test

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/html"
	"github.com/rubricmcp/rubric/engine/report/reporttest"
)

func write(t *testing.T, rep *report.Report) string {
	t.Helper()
	var buf bytes.Buffer
	if err := html.Write(&buf, rep); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// external finds what would make a browser fetch something: an address in
// an attribute that loads, a CSS import or url().
var external = regexp.MustCompile(`(?i)\b(src|href|action|poster|data)\s*=\s*"(https?:|//|file:)|@import|url\(`)

func TestSelfContained(t *testing.T) {
	reps := map[string]func(testing.TB) *report.Report{
		"desktop-commander": func(t testing.TB) *report.Report { return reporttest.Capture(t, "desktop-commander.tools.json") },
		"synthetic":         func(t testing.TB) *report.Report { return reporttest.Testdata(t, "synthetic.tools.json") },
		"empty":             reporttest.Empty,
		"incomplete":        reporttest.Incomplete,
		"clean":             reporttest.Clean,
	}
	for name, mk := range reps {
		page := write(t, mk(t))
		if m := external.FindString(page); m != "" {
			t.Errorf("%s: the page loads something: %q", name, m)
		}
		if !strings.Contains(page, `content="default-src 'none';`) {
			t.Errorf("%s: no Content-Security-Policy refusing every request", name)
		}
		if strings.Count(page, "<script") != 2 {
			t.Errorf("%s: %d script elements, want the definitions and the page's own", name, strings.Count(page, "<script"))
		}
	}
}

func TestHostileTextIsEscaped(t *testing.T) {
	hostile := `[{"name": "</script><script>alert(1)</script>", "description": "<img src=x onerror=alert(2)>",
	  "inputSchema": {"type": "object", "properties": {"<b>p</b>": {"type": "string"}}}}]`
	page := write(t, reporttest.Score(t, "<i>target</i>", []byte(hostile)))
	for _, bad := range []string{"<script>alert", "<img src=x", "<b>p</b>", "<i>target</i>"} {
		if strings.Contains(page, bad) {
			t.Errorf("the page holds %q unescaped", bad)
		}
	}
	if !strings.Contains(page, "&lt;i&gt;target&lt;/i&gt;") {
		t.Error("the target is not shown escaped")
	}
}

func TestFixListByCause(t *testing.T) {
	page := write(t, reporttest.Capture(t, "desktop-commander.tools.json"))
	// One line for the 21 tools without parameter descriptions, naming each.
	if !strings.Contains(page, "<strong>21 tools</strong>: parameters without a description") {
		t.Error("the repeated cause is not one group")
	}
	for _, tool := range []string{"create_directory", "edit_block", "move_file"} {
		if !strings.Contains(page, `<code>`+tool+`</code></a> <span class="params">`) {
			t.Errorf("the group does not name %s with its parameters", tool)
		}
	}
}
