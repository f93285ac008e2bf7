package html_test

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/html"
	"github.com/rubricmcp/rubric/engine/report/reporttest"
	"github.com/rubricmcp/rubric/internal/heavytest"
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

// TestLazyCardsAreTheWholeCards holds a page of many tools, whose card
// bodies are packed for the page's script, to the same report's page
// written whole: each card, its body unpacked, is the same markup.
func TestLazyCardsAreTheWholeCards(t *testing.T) {
	heavytest.Later(t)
	rep := reporttest.Score(t, "many.tools.json", manyTools(t, 120))
	lazy := write(t, rep)
	restore := html.SetLazyCardsAbove(math.MaxInt)
	whole := write(t, rep)
	restore()

	if n := strings.Count(lazy, `<article class="card lazy"`); n != 120 {
		t.Fatalf("%d cards wait to be drawn, want 120", n)
	}
	if strings.Contains(lazy, `<ul class="issues">`) || !strings.Contains(lazy, `<noscript>`) {
		t.Error("the page of many tools holds card bodies in its markup, or no note for readers without scripts")
	}
	m := regexp.MustCompile(`<script type="application/octet-stream" id="definitions" data-packing="gzip base64url">([A-Za-z0-9_-]*)</script>`).FindStringSubmatch(lazy)
	if m == nil {
		t.Fatal("no packed card bodies in the page")
	}
	gz, err := base64.RawURLEncoding.DecodeString(m[1])
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		t.Fatal(err)
	}
	var cards map[string]struct {
		Body string `json:"h"`
	}
	if err := json.NewDecoder(zr).Decode(&cards); err != nil {
		t.Fatal(err)
	}
	heading := regexp.MustCompile(`(?s)<article class="card( lazy)?" id="(tool-\d+)"[^>]*>\s*<h3.*?</h3>`)
	drawn := heading.ReplaceAllStringFunc(lazy, func(h string) string {
		id := heading.FindStringSubmatch(h)[2]
		return strings.Replace(h, `class="card lazy"`, `class="card"`, 1) + cards[id].Body
	})
	cardsOf := regexp.MustCompile(`(?s)<article class="card".*?</article>`)
	got, want := cardsOf.FindAllString(drawn, -1), cardsOf.FindAllString(whole, -1)
	if len(got) != 120 || !slices.Equal(got, want) {
		for i := range min(len(got), len(want)) {
			if got[i] != want[i] {
				t.Fatalf("card %d drawn:\n%s\nwritten whole:\n%s", i, got[i], want[i])
			}
		}
		t.Fatalf("%d cards drawn, %d written whole", len(got), len(want))
	}
}
