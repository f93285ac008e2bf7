package html_test

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/gate"
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
		if !strings.Contains(page, `<bdi><code>`+tool+`</code></bdi></a> <span class="params">`) {
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

// TestBarsOutOfDeclaredMaxima draws a group of numbers as bars out of
// the maxima the rubric declares (rubric.maxima), and draws none when it
// declares none: TDQS's six dimensions at 1 were full bars "out of 1",
// Gradable's categories shares of 100 (safety 30 of 30 a 30% bar).
func TestBarsOutOfDeclaredMaxima(t *testing.T) {
	scores := report.Fields{}
	for _, d := range []string{"purpose", "usage", "behaviour"} {
		scores = append(scores, report.Field{Name: d, Value: json.RawMessage("1")})
	}
	categories := report.Fields{
		{Name: "safety", Value: json.RawMessage("30")},
		{Name: "discoverability", Value: json.RawMessage("16.41")},
	}
	for _, tc := range []struct {
		name       string
		maxima     *report.Maxima
		want, deny []string
	}{
		{"declared", &report.Maxima{Tool: map[string]string{"scores": "5"}, Surface: map[string]map[string]string{"categories": {"safety": "30", "discoverability": "20"}}},
			[]string{
				`<caption class="visually-hidden">scores, out of 5</caption>`, `style="width: 20.0%"`,
				`<caption class="visually-hidden">categories, each out of its maximum</caption>`,
				`data-ref="/categories/safety">30</td><td class="num">30</td><td class="barcol"><span class="bar" aria-hidden="true"><span style="width: 100.0%">`,
				`data-ref="/categories/discoverability">16.41</td><td class="num">20</td><td class="barcol"><span class="bar" aria-hidden="true"><span style="width: 82.1%">`,
			},
			[]string{"out of 1<", "out of 100", `style="width: 30.0%"`}},
		{"none declared", nil, nil, []string{`class="kv bars"`, "out of"}},
		{"one value without a maximum", &report.Maxima{Surface: map[string]map[string]string{"categories": {"safety": "30"}}}, nil, []string{`class="kv bars"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep := reporttest.Clean(t)
			rep.Rubric.Maxima = tc.maxima
			rep.Sections = []report.Field{{Name: "categories", Value: categories}}
			rep.Tools[0].Fields = []report.Field{{Name: "scores", Value: scores}}
			page := write(t, rep)
			for _, w := range tc.want {
				if !strings.Contains(page, w) {
					t.Errorf("the page lacks %s", w)
				}
			}
			for _, d := range tc.deny {
				if strings.Contains(page, d) {
					t.Errorf("the page holds %s", d)
				}
			}
		})
	}
}

// TestSectionFractions shows a fraction of a rubric's report member as a
// decimal, with the fraction only when it is short: Gradable's runs table
// showed avgTokenCostPerTask 345160/39 where the metrics showed 7111.23…
func TestSectionFractions(t *testing.T) {
	rep := reporttest.Clean(t)
	rep.Sections = []report.Field{{Name: "runs", Value: map[string]any{
		"baseline":      map[string]any{"avgTokenCostPerTask": "92446/13", "selectionAccuracy": "32/39"},
		"after_rewrite": map[string]any{"avgTokenCostPerTask": "345160/39", "selectionAccuracy": "1"},
	}}}
	page := write(t, rep)
	for _, w := range []string{
		`data-ref="/runs/baseline/avgTokenCostPerTask">7111.230769230769<`,
		`data-ref="/runs/after_rewrite/avgTokenCostPerTask">8850.256410256410<`,
		`data-ref="/runs/baseline/selectionAccuracy">0.820512820513 (exactly 32/39)<`,
	} {
		if !strings.Contains(page, w) {
			t.Errorf("the page lacks %s", w)
		}
	}
	for _, d := range []string{"345160/39", "92446/13"} {
		if strings.Contains(page, ">"+d+"<") {
			t.Errorf("the page shows %s", d)
		}
	}
}

// TestOneToolIsOne: a page of one tool says "1 of 1 tool shown", and a
// gate's page "1 tool" for a side with one ("1 tools").
func TestOneToolIsOne(t *testing.T) {
	rep := reporttest.Score(t, "one.tools.json", []byte(`[{"name": "only", "description": "The one tool.", "inputSchema": {"type": "object"}}]`))
	if page := write(t, rep); !strings.Contains(page, ">1 of 1 tool shown</output>") {
		t.Error("the page of one tool does not say 1 of 1 tool shown")
	}
	var buf bytes.Buffer
	g := &gate.Report{Decision: gate.Pass, Base: gate.Side{Rev: "main", ToolCount: 1}, Head: gate.Side{ToolCount: 2}}
	if err := html.WriteGate(&buf, g, nil, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`data-ref="/base/tool_count">1</span> tool</dd>`, `data-ref="/head/tool_count">2</span> tools</dd>`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the gate's page lacks %s", want)
		}
	}
}

// TestNoGrade: a score below every grade the rubric sets shows no empty
// badge in the headline, but says it has no grade.
func TestNoGrade(t *testing.T) {
	rep := reporttest.Score(t, "one.tools.json", []byte(`[{"name": "only", "description": "The one tool.", "inputSchema": {"type": "object"}}]`))
	rep.Grade = nil
	page := write(t, rep)
	if !strings.Contains(page, `<span class="nograde">No grade: the score is below every grade the rubric sets</span>`) {
		t.Error("the page of a score without a grade does not say it has none")
	}
	if strings.Contains(page, `data-ref="/grade"></span>`) {
		t.Error("the page shows an empty grade badge")
	}
}

// TestIssuesNameChecksByTitle holds a tool's issue lines to what the
// Markdown and SARIF reports call a check: its title, the identifier kept
// for a hover.
func TestIssuesNameChecksByTitle(t *testing.T) {
	page := write(t, reporttest.Capture(t, "desktop-commander.tools.json"))
	want := `<span class="check" title="described_params">(Every property has a description)</span>`
	if !strings.Contains(page, want) {
		t.Errorf("no issue names its check by title; want %s", want)
	}
	if strings.Contains(page, `<span class="check">(described_params)</span>`) {
		t.Error("an issue names a titled check by its identifier")
	}
}

// TestGateRubricChange: the gate's page says, under its decision, that
// the head changed the rubric and whose scored both sides, as gate.md
// does: a note when the base's did, a warning when only the head has one.
func TestGateRubricChange(t *testing.T) {
	for _, c := range []struct{ used, label string }{{"base", "Note"}, {"head", "Warning"}} {
		note := "the head changes the rubric team.hcl: both sides are scored with the " + c.used + "'s"
		g := &gate.Report{Decision: gate.Block, RubricChange: &gate.RubricChange{Used: c.used, Note: note}}
		var buf bytes.Buffer
		if err := html.WriteGate(&buf, g, nil, nil); err != nil {
			t.Fatal(err)
		}
		want := "<strong>" + c.label + ":</strong> " + strings.ReplaceAll(note, "'", "&#39;")
		if !strings.Contains(buf.String(), want) {
			t.Errorf("used %s: the page lacks %q", c.used, want)
		}
	}
	var buf bytes.Buffer
	if err := html.WriteGate(&buf, &gate.Report{Decision: gate.Pass}, nil, nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "rubric-change") {
		t.Error("a gate whose rubric did not change says it did")
	}
}

// TestGateJudgeChange: the gate's page says, under its decision, that
// the head changed the judge's settings and whose answered both sides.
func TestGateJudgeChange(t *testing.T) {
	for _, c := range []struct{ used, label string }{{"base", "Note"}, {"head", "Warning"}} {
		note := "the head changes the judge's settings in rubric.yaml (judge from openai to heuristic): both sides are judged with the " + c.used + "'s"
		g := &gate.Report{Decision: gate.Pass, JudgeChange: &gate.JudgeChange{Used: c.used, Note: note}}
		var buf bytes.Buffer
		if err := html.WriteGate(&buf, g, nil, nil); err != nil {
			t.Fatal(err)
		}
		want := `<p class="judge-change ` + strings.ToLower(c.label) + `"><strong>` + c.label + ":</strong> " + strings.ReplaceAll(note, "'", "&#39;")
		if !strings.Contains(buf.String(), want) {
			t.Errorf("used %s: the page lacks %q", c.used, want)
		}
	}
	var buf bytes.Buffer
	if err := html.WriteGate(&buf, &gate.Report{Decision: gate.Pass}, nil, nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "judge-change") {
		t.Error("a gate whose judge settings did not change says they did")
	}
}

// TestDefinitionsParseWithHiddenCharacters: the definitions the page's
// script parses stay JSON when a definition holds DEL or tag characters
// (ASCII smuggling), which the page's escaping for a reader would
// otherwise write as \x7f and \U000e0041, escapes JSON does not have.
func TestDefinitionsParseWithHiddenCharacters(t *testing.T) {
	desc := "Reads.\x7f\U000E0041\U000E0042\u202e"
	tools, err := json.Marshal([]map[string]any{{"name": "smuggle", "description": desc, "inputSchema": map[string]any{"type": "object"}}})
	if err != nil {
		t.Fatal(err)
	}
	page := write(t, reporttest.Score(t, "hidden.tools.json", tools))
	m := regexp.MustCompile(`(?s)<script type="application/json" id="definitions">(.*?)</script>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatal("the page has no definitions")
	}
	var defs any
	if err := json.Unmarshal([]byte(m[1]), &defs); err != nil {
		t.Fatalf("the definitions are not JSON: %v", err)
	}
	if !strings.Contains(fmt.Sprint(defs), desc) {
		t.Error("the definitions lost the description's characters")
	}
}

// TestCardIssuesLargestGainFirst: a tool's card lists its issues by gain,
// the largest first, as the fix list above it does, and writes the gains
// at the fix list's digits. The card listed them in the rubric's check
// order (+10.00 for the required list above +20.00 for the descriptions)
// with a digit more than the fix list's +20.0 and +10.0.
func TestCardIssuesLargestGainFirst(t *testing.T) {
	rep := reporttest.Score(t, "one.tools.json", []byte(`[{"name": "only", "description": "Return the only thing.", "inputSchema": {"type": "object", "properties": {"x": {"type": "string"}}}}]`))
	page := write(t, rep)
	start := strings.Index(page, `<ul class="issues">`)
	if start < 0 {
		t.Fatal("the card lists no issues")
	}
	card := page[start : start+strings.Index(page[start:], "</ul>")]
	gains := regexp.MustCompile(`<span class="gain" data-ref="/tools/0/issues/(\d)/gain">([^<]*)</span>`).FindAllStringSubmatch(card, -1)
	var got []string
	for _, g := range gains {
		got = append(got, g[1]+" "+g[2])
	}
	// Issue 1 (described_params) before issue 0 (declares_required); each
	// keeps its pointer into the report.
	if want := []string{"1 &#43;20.0", "0 &#43;10.0"}; !slices.Equal(got, want) {
		t.Errorf("the card's gains are %q, want %q", got, want)
	}
}

// TestGateAddedBelow: the gate's page names the added tools that lower
// the mean, as gate.md does, each value pointing at gate.json.
func TestGateAddedBelow(t *testing.T) {
	g := &gate.Report{Decision: gate.Block, AddedBelow: []gate.AddedTool{{Tool: "purge", Head: "55.0", Cost: "-5.625", CostExact: "-45/8"}}}
	var buf bytes.Buffer
	if err := html.WriteGate(&buf, g, nil, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`<h2 id="added-below-h">Added tools below the base&#39;s mean</h2>`,
		`<th scope="row"><code>purge</code></th><td class="num" data-ref="/added_below/0/head">55.0</td><td class="num" data-ref="/added_below/0/cost">-5.625</td>`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the gate's page lacks %s", want)
		}
	}
	buf.Reset()
	if err := html.WriteGate(&buf, &gate.Report{Decision: gate.Pass}, nil, nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "added-below") {
		t.Error("a gate with no such tool shows the section")
	}
}
