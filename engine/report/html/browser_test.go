package html_test

// Tests in a real headless Chromium (Debian's chromium), driven over the
// DevTools protocol by chromedp: the numbers the page shows are the JSON
// report's, the table sorts and filters, the page makes no request, axe-core
// finds no accessibility violation in either colour scheme, and screenshots
// at desktop and phone width are written to the test's artifact directory
// (go test -artifacts keeps them).
//
// make test runs them in its pass without -race (heavytest.Later): the
// race detector has nothing to find in a browser's work, and under it
// they were 567 s of the race pass's 601 s for engine/report/html on a
// busy machine. The page's Go side (html.Write) is race-tested by
// html_test.go.

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/css"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/emulation"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"

	"github.com/rubricmcp/rubric/engine/calibrate"
	"github.com/rubricmcp/rubric/engine/contract"
	"github.com/rubricmcp/rubric/engine/gate"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/html"
	"github.com/rubricmcp/rubric/engine/report/reporttest"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/internal/jsonpointer"
)

// needed fails the test under RUBRIC_REQUIRE_SERVERS=1 (make test), where
// what is missing must be there, and skips it otherwise.
func needed(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("RUBRIC_REQUIRE_SERVERS") == "1" {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}

// chromiumPath finds Debian's chromium, or RUBRIC_CHROMIUM.
func chromiumPath(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("RUBRIC_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	needed(t, "no chromium to run the HTML report's browser tests: apt-get install chromium (.ci/run does), or set RUBRIC_CHROMIUM to a Chromium binary")
	return ""
}

// shared is the one Chromium the package's tests open tabs in: starting
// a browser is the slow part, and a tab is as fresh as a browser for a
// file:// page.
var shared struct {
	once    sync.Once
	ctx     context.Context
	cancel  func()
	profile string
	err     error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.cancel != nil {
		shared.cancel()
	}
	if shared.profile != "" {
		os.RemoveAll(shared.profile)
	}
	os.Exit(code)
}

// browser returns a new tab of a headless Chromium started with the flags
// this closed network needs (no background connections, no QUIC) and an
// empty profile.
func browser(t testing.TB) context.Context {
	t.Helper()
	path := chromiumPath(t)
	shared.once.Do(func() {
		shared.profile, shared.err = os.MkdirTemp("", "rubric-chromium-")
		if shared.err != nil {
			return
		}
		opts := []chromedp.ExecAllocatorOption{
			chromedp.ExecPath(path),
			chromedp.Headless,
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.NoFirstRun,
			chromedp.NoDefaultBrowserCheck,
			chromedp.UserDataDir(shared.profile),
			chromedp.WindowSize(1280, 900),
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("disable-dev-shm-usage", true),
		}
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancel := chromedp.NewContext(actx)
		shared.ctx, shared.cancel = ctx, func() { cancel(); cancelAlloc() }
		if err := chromedp.Do(ctx); err != nil {
			shared.err = fmt.Errorf("start chromium (%s): %w", path, err)
		}
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	ctx, cancel := chromedp.NewContext(shared.ctx)
	t.Cleanup(cancel)
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	return ctx
}

// requestLog records every request the tab makes, every failed load and
// every message the browser logs (a Content-Security-Policy refusal among
// them).
type requestLog struct {
	mu       sync.Mutex
	requests []string
	failed   []string
	messages []string
}

func logRequests(t testing.TB, ctx context.Context) *requestLog {
	t.Helper()
	l := &requestLog{}
	err := chromedp.Listen(ctx, func(ev any) {
		l.mu.Lock()
		defer l.mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			l.requests = append(l.requests, e.Request.URL)
		case *network.EventLoadingFailed:
			l.failed = append(l.failed, e.ErrorText)
		case *cdplog.EventEntryAdded:
			l.messages = append(l.messages, e.Entry.Text)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, cdplog.Enable, cdp.Empty{})
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// only checks that the page's own file was the one request made.
func (l *requestLog) only(t testing.TB, url string) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, r := range l.requests {
		if r != url {
			t.Errorf("the page made a request: %s", r)
		}
	}
	if !slices.Contains(l.requests, url) {
		t.Errorf("the request log misses the page itself (%s): %v", url, l.requests)
	}
	for _, f := range l.failed {
		t.Errorf("a load failed: %s", f)
	}
	for _, m := range l.messages {
		t.Errorf("the browser logged: %s", m)
	}
}

// open writes rep's page to a file and loads it in a new tab.
func open(t testing.TB, ctx context.Context, rep *report.Report) (string, *requestLog) {
	t.Helper()
	var buf bytes.Buffer
	if err := html.Write(&buf, rep); err != nil {
		t.Fatal(err)
	}
	return openPage(t, ctx, buf.Bytes())
}

// openPage writes a page to a file and loads it in the tab.
func openPage(t testing.TB, ctx context.Context, page []byte) (string, *requestLog) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(path, page, 0o644); err != nil {
		t.Fatal(err)
	}
	url := "file://" + path
	log := logRequests(t, ctx)
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	return url, log
}

// jsonOf reads rep back as the JSON report holds it.
func jsonOf(t testing.TB, rep *report.Report) any {
	t.Helper()
	b, err := report.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// shownNumber is a number as the page shows it, with how many decimal
// digits it shows.
func shownNumber(s string) (num.Num, int, bool) {
	s = strings.TrimPrefix(strings.TrimSpace(s), "+")
	n, err := num.Parse(s)
	if err != nil {
		return n, 0, false
	}
	digits := 0
	if i := strings.IndexByte(s, '.'); i >= 0 && !strings.Contains(s, "/") {
		digits = len(s) - i - 1
	}
	return n, digits, true
}

// agrees says whether the text shown is the value of the JSON report: the
// same text, or the same number at the digits shown; a decimal followed
// by "(exactly ...)" agrees in both.
func agrees(shown string, values []any) error {
	if d, e, ok := strings.Cut(shown, " (exactly "); ok && strings.HasSuffix(e, ")") {
		if err := agrees(strings.TrimSuffix(e, ")"), values); err != nil {
			return err
		}
		return agrees(d, values)
	}
	if len(values) == 1 {
		if s, ok := values[0].(string); ok && s == shown {
			return nil
		}
	}
	want, digits, ok := shownNumber(shown)
	if !ok {
		if len(values) == 1 {
			return fmt.Errorf("shows %q, the report holds %v", shown, values[0])
		}
		return fmt.Errorf("shows %q, not a number", shown)
	}
	sum := num.Zero
	for _, v := range values {
		var text string
		switch x := v.(type) {
		case json.Number:
			text = x.String()
		case string:
			text = x
		default:
			return fmt.Errorf("shows %q, the report holds %v", shown, v)
		}
		n, err := num.Parse(text)
		if err != nil {
			return fmt.Errorf("shows %q, the report holds %q", shown, text)
		}
		sum = sum.Add(n)
	}
	if strings.Contains(shown, "/") {
		if sum.Cmp(want) != 0 {
			return fmt.Errorf("shows %s, the report holds %s", shown, sum.Exact())
		}
		return nil
	}
	if got := sum.Decimal(digits); got != strings.TrimPrefix(shown, "+") {
		return fmt.Errorf("shows %s, the report's %s is %s at %d digits", shown, sum.Exact(), got, digits)
	}
	return nil
}

// shown is one number of the page and the pointers of the values it is.
type shown struct {
	Ref  string `json:"ref"`
	Sum  string `json:"sum"`
	Text string `json:"text"`
}

const collectShown = `Array.from(document.querySelectorAll("[data-ref],[data-sum]")).map(e => ({ref: e.dataset.ref || "", sum: e.dataset.sum || "", text: e.textContent.trim()}))`

func TestBrowserNumbersAreTheReports(t *testing.T) {
	heavytest.Later(t)
	ctx := browser(t)
	cases := map[string]func(testing.TB) *report.Report{
		"desktop-commander": func(t testing.TB) *report.Report { return reporttest.Capture(t, "desktop-commander.tools.json") },
		"github":            func(t testing.TB) *report.Report { return reporttest.Capture(t, "github.tools.json") },
		"synthetic":         func(t testing.TB) *report.Report { return reporttest.Testdata(t, "synthetic.tools.json") },
		"sections":          withSections,
		"empty":             reporttest.Empty,
		"incomplete":        reporttest.Incomplete,
	}
	for name, mk := range cases {
		t.Run(name, func(t *testing.T) {
			rep := mk(t)
			doc := jsonOf(t, rep)
			url, log := open(t, ctx, rep)
			refs := checkNumbers(t, ctx, doc)
			// Every tool's score is shown twice (the table and its card).
			if want := 2 * len(rep.Tools); refs < want {
				t.Errorf("the page shows %d numbers of the report, want at least %d", refs, want)
			}
			log.only(t, url)
		})
	}
}

// rowNames are the names of the table's rows shown, in order.
const rowNames = `Array.from(document.querySelectorAll("#tool-table tbody tr")).filter(r => !r.hidden).map(r => r.dataset.name)`

func TestBrowserSortAndFilter(t *testing.T) {
	heavytest.Later(t)
	ctx := browser(t)
	rep := reporttest.Capture(t, "desktop-commander.tools.json")
	url, log := open(t, ctx, rep)
	worst, err := report.ToolsWorstFirst(rep.Tools)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range worst {
		names = append(names, tl.Name)
	}
	rows := func() []string {
		t.Helper()
		got, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](rowNames))
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got := rows(); !slices.Equal(got, names) {
		t.Errorf("first order:\n%v\nwant worst first:\n%v", got, names)
	}

	// Clicking the name column sorts by name; a second click reverses.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`button[data-key="name"]`))); err != nil {
		t.Fatal(err)
	}
	byName := slices.Sorted(slices.Values(names))
	if got := rows(); !slices.Equal(got, byName) {
		t.Errorf("sorted by name:\n%v\nwant\n%v", got, byName)
	}
	// From the keyboard: focus the button, press Enter.
	if err := chromedp.Do(ctx, chromedp.Focus(chromedp.CSS(`button[data-key="name"]`)), chromedp.KeyEvent("\r")); err != nil {
		t.Fatal(err)
	}
	reversed := slices.Clone(byName)
	slices.Reverse(reversed)
	if got := rows(); !slices.Equal(got, reversed) {
		t.Errorf("sorted by name, descending, from the keyboard:\n%v\nwant\n%v", got, reversed)
	}
	sortState, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('button[data-key="name"]').parentElement.getAttribute("aria-sort")`))
	if err != nil || sortState != "descending" {
		t.Errorf("aria-sort of the name column = %q (%v), want descending", sortState, err)
	}

	// Issues, then score again: the score column sorts numbers, not text.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`button[data-key="score"]`))); err != nil {
		t.Fatal(err)
	}
	if got := rows(); !slices.Equal(got, names) {
		t.Errorf("sorted by score again:\n%v\nwant\n%v", got, names)
	}

	// Typing filters by name.
	if err := chromedp.Do(ctx, chromedp.SendKeys(chromedp.ID("filter"), "LIST")); err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, n := range names {
		if strings.Contains(n, "list") {
			want = append(want, n)
		}
	}
	if got := rows(); !slices.Equal(got, want) || len(want) == 0 {
		t.Errorf("filtered by LIST: %v, want %v", got, want)
	}
	out, err := chromedp.Run(ctx, chromedp.Text(chromedp.ID("shown")))
	if wantOut := fmt.Sprintf("%d of %d tools shown", len(want), len(names)); err != nil || out != wantOut {
		t.Errorf("the count says %q (%v), want %q", out, err, wantOut)
	}
	// And by grade.
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`(() => {
		const f = document.getElementById("filter"); f.value = ""; f.dispatchEvent(new Event("input"));
		const g = document.getElementById("grade-filter"); g.value = "C"; g.dispatchEvent(new Event("change"));
	})()`)); err != nil {
		t.Fatal(err)
	}
	want = nil
	for _, tl := range worst {
		if tl.Grade == "C" {
			want = append(want, tl.Name)
		}
	}
	if got := rows(); !slices.Equal(got, want) || len(want) == 0 {
		t.Errorf("filtered by grade C: %v, want %v", got, want)
	}
	log.only(t, url)
}

// TestBrowserHostileNames loads a page of tools whose names and texts are
// markup: nothing runs, nothing loads, and the names show as text.
func TestBrowserHostileNames(t *testing.T) {
	heavytest.Later(t)
	ctx := browser(t)
	hostile := `[{"name": "<img src=x onerror=document.title='pwned'>", "description": "<script>document.title='pwned'</script>",
	  "inputSchema": {"type": "object", "properties": {"\"><svg onload=document.title='pwned'>": {"type": "string"}}}}]`
	rep := reporttest.Score(t, "<b>hostile</b>", []byte(hostile))
	url, log := open(t, ctx, rep)
	title, err := chromedp.Run(ctx, chromedp.Title())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(title, "pwned") {
		t.Errorf("a script of the report ran: title %q", title)
	}
	name, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(`#tool-table tbody th code`)))
	if err != nil || name != "<img src=x onerror=document.title='pwned'>" {
		t.Errorf("the name shows as %q (%v)", name, err)
	}
	log.only(t, url)
}

// axePath is axe-core as make testdeps installs it.
func axePath(t testing.TB) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", "..", "testdeps", "node_modules", "axe-core", "axe.min.js"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		needed(t, "axe-core is not installed (%v): run make testdeps", err)
	}
	return p
}

type axeResult struct {
	Violations []struct {
		ID    string `json:"id"`
		Help  string `json:"help"`
		Nodes []struct {
			Target  []any  `json:"target"`
			Summary string `json:"failureSummary"`
		} `json:"nodes"`
	} `json:"violations"`
}

func scheme(dark bool) chromedp.Action[chromedp.Void] {
	value := "light"
	if dark {
		value = "dark"
	}
	return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: value}},
		})
		return err
	})
}

func TestBrowserAccessibility(t *testing.T) {
	heavytest.Later(t)
	ctx := browser(t)
	reps := map[string]func(testing.TB) *report.Report{
		"desktop-commander": func(t testing.TB) *report.Report { return covering(t, "desktop-commander.tools.json") },
		"synthetic":         func(t testing.TB) *report.Report { return reporttest.Testdata(t, "synthetic.tools.json") },
		"sections":          withSections,
	}
	for name, mk := range reps {
		url, log := open(t, ctx, mk(t))
		// Every <details> is opened, so that what is shown on demand (the
		// definitions, the arithmetic) is checked too.
		checkAxe(t, ctx, name)
		log.only(t, url)
	}
}

// firstTools is the report of a surface made of the first n tools of the
// corpus capture name.
func firstTools(t testing.TB, name string, n int) *report.Report {
	t.Helper()
	b, err := os.ReadFile(reporttest.CapturePath(t, name))
	if err != nil {
		t.Fatal(err)
	}
	var capture struct {
		Server json.RawMessage   `json:"server,omitempty"`
		Tools  []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(b, &capture); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(capture.Tools) < n {
		t.Fatalf("%s: %d tools, want at least %d", name, len(capture.Tools), n)
	}
	capture.Tools = capture.Tools[:n]
	sub, err := json.Marshal(capture)
	if err != nil {
		t.Fatal(err)
	}
	return reporttest.Score(t, name, sub)
}

// covering is the report of a surface made of the fewest tools of the
// corpus capture name, taken in the capture's order, that between them
// show everything the whole capture's cards do: every grade, every
// check's every outcome (passed, failed, partly, skipped, nothing to
// check), every check with a finding, a tool with parameters and one
// without. A card's markup repeats by tool, and axe-core's time goes by
// the element: desktop-commander's 26 cards, every definition open, are
// 2,572 elements and took its run 28 CPU-s of the browser's, a tenth of
// what make test spent outside cmd/rubric on a busy machine.
func covering(t testing.TB, name string) *report.Report {
	t.Helper()
	whole := reporttest.Capture(t, name)
	b, err := os.ReadFile(reporttest.CapturePath(t, name))
	if err != nil {
		t.Fatal(err)
	}
	var capture struct {
		Server json.RawMessage   `json:"server,omitempty"`
		Tools  []json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(b, &capture); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	shows := func(tl report.Tool) []string {
		f := []string{"grade " + tl.Grade}
		for _, c := range tl.Checks {
			outcome := "partly"
			switch {
			case c.Skipped:
				outcome = "skipped"
			case c.Items && c.Total == 0:
				outcome = "nothing to check"
			case c.Credit == "1":
				outcome = "passed"
			case c.Credit == "0":
				outcome = "failed"
			}
			f = append(f, c.Name+" "+outcome)
			if c.Items && c.Total > 0 {
				f = append(f, "parameters")
			}
		}
		if !slices.Contains(f, "parameters") {
			f = append(f, "no parameters")
		}
		for _, is := range tl.Issues {
			f = append(f, "finding "+is.Check)
		}
		return f
	}
	byName := map[string]report.Tool{}
	for _, tl := range whole.Tools {
		byName[tl.Name] = tl
	}
	shown := map[string]bool{}
	var kept []json.RawMessage
	for _, raw := range capture.Tools {
		var def struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(raw, &def); err != nil {
			t.Fatal(err)
		}
		tl, ok := byName[def.Name]
		if !ok {
			t.Fatalf("%s: the report has no tool %q", name, def.Name)
		}
		adds := false
		for _, f := range shows(tl) {
			if !shown[f] {
				shown[f], adds = true, true
			}
		}
		if adds {
			kept = append(kept, raw)
		}
	}
	capture.Tools = kept
	sub, err := json.Marshal(capture)
	if err != nil {
		t.Fatal(err)
	}
	rep := reporttest.Score(t, name, sub)
	for _, tl := range rep.Tools {
		for _, f := range shows(tl) {
			delete(shown, f)
		}
	}
	if len(shown) != 0 {
		t.Fatalf("the tools kept of %s, scored alone, do not show %q", name, slices.Sorted(maps.Keys(shown)))
	}
	return rep
}

// TestBrowserScreenshots writes screenshots at desktop and phone width,
// light and dark, into the test's artifact directory (go test -artifacts
// -outputdir DIR keeps them; docs/ holds one of each), and checks that the
// phone layout does not scroll sideways. The full-page screenshots are
// taken only when go test keeps them (-artifacts): they check nothing
// the first screen's do not, and the four of them were about half of
// the browser's CPU in this test.
func TestBrowserScreenshots(t *testing.T) {
	heavytest.Later(t)
	ctx := browser(t)
	rep := reporttest.Capture(t, "desktop-commander.tools.json")
	url, log := open(t, ctx, rep)
	dir := t.ArtifactDir()
	shots := []struct {
		name   string
		width  int64
		mobile bool
		dark   bool
	}{
		{"desktop", 1280, false, false},
		{"desktop-dark", 1280, false, true},
		{"phone", 390, true, false},
		{"phone-dark", 390, true, true},
	}
	for _, s := range shots {
		metrics := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			scale := 1.0
			if s.mobile {
				scale = 2
			}
			height := int64(900)
			if s.mobile {
				height = 844
			}
			_, err := cdp.Call(ctx, tg, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: s.width, Height: height, DeviceScaleFactor: scale, Mobile: s.mobile})
			return err
		})
		if err := chromedp.Do(ctx, metrics, scheme(s.dark)); err != nil {
			t.Fatal(err)
		}
		if s.mobile {
			wide, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.documentElement.scrollWidth > document.documentElement.clientWidth`))
			if err != nil || wide {
				t.Errorf("at %d pixels the page scrolls sideways (%v)", s.width, err)
			}
		}
		// The first screen, then, when kept, the whole page.
		captures := map[string]chromedp.Action[[]byte]{"": chromedp.CaptureScreenshot()}
		if keptArtifacts() {
			captures["-full"] = chromedp.FullScreenshot(100)
		}
		for suffix, shot := range captures {
			png, err := chromedp.Run(ctx, shot)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(png, []byte("\x89PNG")) {
				t.Fatalf("%s%s: the screenshot is not a PNG", s.name, suffix)
			}
			if err := os.WriteFile(filepath.Join(dir, "report-"+s.name+suffix+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	log.only(t, url)
}

// keptArtifacts says whether go test keeps what a test writes to its
// t.ArtifactDir (go test -artifacts), where otherwise it is deleted.
func keptArtifacts() bool {
	f := flag.Lookup("test.artifacts")
	if f == nil {
		return false
	}
	kept, _ := strconv.ParseBool(f.Value.String())
	return kept
}

// TestBrowserLazyCards loads a page of more tools than the page draws
// whole: a card comes into view drawn, a link to a card draws it and
// opens its definition, and once every card is drawn every number equals
// the JSON report's and axe-core finds nothing, all without a request.
//
// The page draws on demand above lazyCardsAbove tools (100); the test
// lowers the bound to lazyTestBound, which draws the same way with a
// quarter of the tools: axe-core's two runs over the page, every card
// drawn, take time by the element, and took 45 of the test's 46 s with
// 120 tools on a loaded machine. TestLazyCardsAreTheWholeCards (html_test.go)
// writes a page past the real bound.
func TestBrowserLazyCards(t *testing.T) {
	heavytest.Later(t)
	ctx := browser(t)
	t.Cleanup(html.SetLazyCardsAbove(lazyTestBound))
	rep := reporttest.Score(t, "many.tools.json", manyTools(t, lazyTestTools))
	url, log := open(t, ctx, rep)
	lazy, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("article.card.lazy").length`))
	if err != nil || lazy == 0 {
		t.Fatalf("%d cards wait to be drawn (%v), want the page to draw them on demand", lazy, err)
	}

	// Scrolled into view: the page draws the card (whichever of its
	// observer and this one hears first), its body once unpacked.
	drawnInView, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`new Promise(done => {
		const c = document.querySelector("article.card.lazy:last-of-type");
		const check = () => rubricCard(c.id, () => done(c.querySelector(".issues, .clean") !== null));
		new IntersectionObserver((es, o) => {
			if (!es[0].isIntersecting) { return; }
			o.disconnect();
			if (!c.classList.contains("lazy")) { check(); return; }
			new MutationObserver((ms, mo) => {
				if (!c.classList.contains("lazy")) { mo.disconnect(); check(); }
			}).observe(c, {attributes: true, attributeFilter: ["class"]});
		}).observe(c);
		c.scrollIntoView();
	})`, chromedp.EvalAwaitPromise))
	if err != nil || !drawnInView {
		t.Errorf("a card scrolled into view is not drawn (%v)", err)
	}

	// Followed by a link: drawn, its definition open and printed.
	linked, err := chromedp.Run(ctx, chromedp.Evaluate[string](`new Promise(done => {
		const id = document.querySelector("article.card.lazy").id;
		addEventListener("hashchange", () => rubricCard(id, c => {
			const d = c.querySelector("details.definition");
			done(d === null ? "no definition" : d.open ? "open" : "closed");
		}), {once: true});
		location.hash = "#" + id;
	})`, chromedp.EvalAwaitPromise))
	if err != nil || linked != "open" {
		t.Errorf("a linked card's definition is %q (%v), want it drawn and open", linked, err)
	}

	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](`rubricShowDefinitions()`, chromedp.EvalAwaitPromise)); err != nil {
		t.Fatal(err)
	}
	left, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("article.card.lazy, pre.json:not([data-done])").length`))
	if err != nil || left != 0 {
		t.Errorf("%d cards or definitions are left undrawn (%v)", left, err)
	}
	if refs := checkNumbers(t, ctx, jsonOf(t, rep)); refs < 2*len(rep.Tools) {
		t.Errorf("the page shows %d numbers of the report, want at least %d", refs, 2*len(rep.Tools))
	}
	checkAxe(t, ctx, "lazy")
	log.only(t, url)
}

// lazyTestBound and lazyTestTools are the bound TestBrowserLazyCards
// draws on demand above and the tools it loads: enough that the table
// and the cards drawn at once (those within a screen below the first,
// the page's observer's margin) leave cards below them to draw, and,
// once the last of those was scrolled to and drawn with the cards within
// a screen of it, cards above to follow a link to. With 16 tools a busy
// machine's page had drawn every card by the time the link was followed
// (make test at 44047e1: "Cannot read properties of null"), so 30 stay.
const (
	lazyTestBound = 10
	lazyTestTools = 30
)

// manyTools is a surface of n tools: the corpus's github tools again and
// again under new names.
func manyTools(t testing.TB, n int) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "score", "testdata", "corpus", "github.tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	var capture struct {
		Tools []map[string]any `json:"tools"`
	}
	if err := json.Unmarshal(b, &capture); err != nil || len(capture.Tools) == 0 {
		t.Fatalf("read the github capture: %v", err)
	}
	tools := make([]map[string]any, n)
	for i := range tools {
		def := map[string]any{}
		for k, v := range capture.Tools[i%len(capture.Tools)] {
			def[k] = v
		}
		def["name"] = fmt.Sprintf("%s_%04d", def["name"], i)
		tools[i] = def
	}
	out, err := json.Marshal(tools)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// BenchmarkBrowserOpen1000Tools measures how long Chromium takes to open
// a 1,000-tool report and draw it: a figure, not an assertion (the issue
// asks for under 2 seconds). It draws the same report with every card
// whole and with the cards drawn on demand (the page's way above
// lazyCardsAbove tools), each in a tab as chromedp sets it up (DOM, CSS
// and network agents on, which a reader's browser does not run) and in a
// tab with the DOM and CSS agents off, side by side in one run.
//
// Wall time on a shared machine moves with its load, so beside ns/op it
// reports render-ms (the page's own clock, from navigation start to the
// first frame after the load event), cpu-s (the renderer's main thread,
// DevTools' ThreadTime), browser-cpu-s (every process of the browser,
// where /proc tells), the page's size and its element count.
func BenchmarkBrowserOpen1000Tools(b *testing.B) {
	rep := reporttest.Score(b, "many.tools.json", manyTools(b, 1000))
	pages := map[string][]byte{}
	for _, cards := range []string{"whole", "lazy"} {
		restore := func() {}
		if cards == "whole" {
			restore = html.SetLazyCardsAbove(math.MaxInt)
		}
		var buf bytes.Buffer
		err := html.Write(&buf, rep)
		restore()
		if err != nil {
			b.Fatal(err)
		}
		pages[cards] = buf.Bytes()
	}
	for _, cards := range []string{"whole", "lazy"} {
		for _, agents := range []string{"on", "off"} {
			b.Run("cards="+cards+"/agents="+agents, func(b *testing.B) {
				benchOpen(b, pages[cards], agents == "off")
			})
		}
	}
}

// renderedAt waits for the first frame after the page's load event and
// says when it came, in milliseconds from the navigation's start.
const renderedAt = `new Promise(done => {
	const frame = () => requestAnimationFrame(() => setTimeout(() => done(performance.now())));
	if (document.readyState === "complete") { frame(); } else { addEventListener("load", frame); }
})`

func benchOpen(b *testing.B, page []byte, quiet bool) {
	path := filepath.Join(b.TempDir(), "report.html")
	if err := os.WriteFile(path, page, 0o644); err != nil {
		b.Fatal(err)
	}
	ctx := browser(b)
	if quiet {
		if err := chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			if _, err := cdp.Call(ctx, tg, css.Disable, cdp.Empty{}); err != nil {
				return err
			}
			_, err := cdp.Call(ctx, tg, dom.Disable, cdp.Empty{})
			return err
		})); err != nil {
			b.Fatal(err)
		}
	}
	threadTime := func() float64 {
		b.Helper()
		m, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (performance.GetMetricsResult, error) {
			return cdp.Call(ctx, tg, performance.GetMetrics, cdp.Empty{})
		})
		if err != nil {
			b.Fatal(err)
		}
		for _, x := range m.Metrics {
			if x.Name == "ThreadTime" {
				return x.Value
			}
		}
		b.Fatal("no ThreadTime among the renderer's metrics")
		return 0
	}
	if err := chromedp.Do(ctx, chromedp.Navigate("file://"+path), chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, performance.Enable, performance.EnableParams{})
		return err
	})); err != nil {
		b.Fatal(err)
	}
	var pid int
	if p := chromedp.FromContext(ctx).Browser.Process(); p != nil {
		pid = p.Pid
	}
	var cpu, all, render float64
	var elements int
	for b.Loop() {
		before, allBefore := threadTime(), treeCPU(pid)
		if err := chromedp.Do(ctx, chromedp.Navigate("file://"+path)); err != nil {
			b.Fatal(err)
		}
		at, err := chromedp.Run(ctx, chromedp.Evaluate[float64](renderedAt, chromedp.EvalAwaitPromise))
		if err != nil {
			b.Fatal(err)
		}
		render += at
		all += treeCPU(pid) - allBefore
		cpu += threadTime() - before
		if elements, err = chromedp.Run(ctx, chromedp.Evaluate[int](`document.getElementsByTagName("*").length`)); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(render/float64(b.N), "render-ms/op")
	b.ReportMetric(cpu/float64(b.N), "cpu-s/op")
	if pid != 0 && all > 0 {
		b.ReportMetric(all/float64(b.N), "browser-cpu-s/op")
	}
	b.ReportMetric(float64(len(page))/1e6, "MB/page")
	b.ReportMetric(float64(elements), "elements")
}

// treeCPU is the processor time, in seconds, of process pid and every
// process below it, as Linux's /proc tells (0 elsewhere).
func treeCPU(pid int) float64 {
	if pid == 0 {
		return 0
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	type proc struct {
		parent int
		cpu    float64
	}
	procs := map[int]proc{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// Fields after the command's closing parenthesis: state, ppid, ...,
		// utime and stime (the 14th and 15th of the line) in clock ticks.
		i := bytes.LastIndexByte(stat, ')')
		f := strings.Fields(string(stat[i+1:]))
		if len(f) < 13 {
			continue
		}
		parent, _ := strconv.Atoi(f[1])
		user, _ := strconv.ParseFloat(f[11], 64)
		system, _ := strconv.ParseFloat(f[12], 64)
		procs[p] = proc{parent, (user + system) / clockTicks}
	}
	var sum float64
	for p, pr := range procs {
		for q := p; q > 1; q = procs[q].parent {
			if q == pid {
				sum += pr.cpu
				break
			}
		}
	}
	return sum
}

// clockTicks is Linux's USER_HZ, 100 on every architecture Go supports.
const clockTicks = 100

// checkNumbers holds every number of the open page to the JSON document
// its data-ref and data-sum pointers name, and returns how many there are.
func checkNumbers(t testing.TB, ctx context.Context, doc any) int {
	t.Helper()
	nums, err := chromedp.Run(ctx, chromedp.Evaluate[[]shown](collectShown))
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range nums {
		ptrs := strings.Fields(n.Sum)
		if n.Ref != "" {
			ptrs = []string{n.Ref}
		}
		var values []any
		for _, p := range ptrs {
			v, ok := jsonpointer.Resolve(doc, p)
			if !ok {
				t.Errorf("%q points at nothing in the JSON", p)
				continue
			}
			values = append(values, v)
		}
		if err := agrees(n.Text, values); err != nil {
			t.Errorf("%s%s: %v", n.Ref, n.Sum, err)
		}
	}
	return len(nums)
}

// colourRules are the axe-core rules whose result can change with the
// colour scheme: the dark scheme of style.css sets colours (custom
// properties of :root) and nothing else, so the other rules find in it
// what they found in the light one. axe.run refuses a rule it does not
// know, so a rule renamed by a newer axe-core fails the test.
const colourRules = `["color-contrast", "link-in-text-block"]`

// checkAxe runs axe-core on the open page, every <details> open: every
// rule in the light scheme, then colourRules in the dark one (a whole
// run costs time by the element, and the dark run's other rules could
// only repeat the light run's findings).
func checkAxe(t testing.TB, ctx context.Context, name string) {
	t.Helper()
	axe, err := os.ReadFile(axePath(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Evaluate[chromedp.Void](string(axe))); err != nil {
		t.Fatalf("inject axe-core: %v", err)
	}
	for _, dark := range []bool{false, true} {
		if err := chromedp.Do(ctx, scheme(dark), chromedp.Evaluate[chromedp.Void](`document.querySelectorAll("details").forEach(d => d.open = true)`)); err != nil {
			t.Fatal(err)
		}
		options := `{resultTypes: ["violations"]}`
		if dark {
			options = `{resultTypes: ["violations"], runOnly: {type: "rule", values: ` + colourRules + `}}`
		}
		res, err := chromedp.Run(ctx, chromedp.Evaluate[axeResult](`axe.run(document, `+options+`)`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range res.Violations {
			for i, n := range v.Nodes {
				if i == 3 {
					t.Errorf("%s (dark %v): %s: … and %d more", name, dark, v.ID, len(v.Nodes)-i)
					break
				}
				t.Errorf("%s (dark %v): %s (%s) at %v: %s", name, dark, v.ID, v.Help, n.Target, n.Summary)
			}
		}
	}
}

// decodeJSON reads what write writes, numbers kept as written.
func decodeJSON(t testing.TB, write func(io.Writer) error) any {
	t.Helper()
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(&buf)
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestBrowserGateAndCalibration opens the gate's page and the calibration's:
// their numbers are their JSON's, they make no request, and axe-core finds
// no violation.
func TestBrowserGateAndCalibration(t *testing.T) {
	heavytest.Later(t)
	ctx := browser(t)
	t.Run("gate", func(t *testing.T) {
		base, err := surface.Parse("base", []byte(`[{"name": "find", "description": "Find words.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string", "description": "Words to find."}}}}, {"name": "gone", "inputSchema": {"type": "object"}}]`))
		if err != nil {
			t.Fatal(err)
		}
		head, err := surface.Parse("head", []byte(`[{"name": "find", "description": "Find words.", "inputSchema": {"type": "object", "properties": {"q": {"type": "string", "description": ""}}}}, {"name": "new", "inputSchema": {"type": "object"}}]`))
		if err != nil {
			t.Fatal(err)
		}
		rep := &gate.Report{
			GateVersion: gate.Version, Generator: report.Generator{Name: "rubric", Version: "test"},
			Decision: gate.Block, ExitCode: 1, Reason: "the overall score fell from 90.0 to 70.0",
			Rubric: report.Rubric{Name: "schema-quality", Version: "1.1.0", Title: "Schema Quality", Digest: "sha256:00"},
			Rule:   gate.Rule{Title: "the overall score", Value: "score", Round: 1},
			Base:   gate.Side{Rev: "main", Hash: base.Hash(), ToolCount: 2}, Head: gate.Side{Hash: head.Hash(), ToolCount: 2},
			Pairs:    []gate.Pair{{N: 1, Base: gate.Value{Value: "90.0", Exact: "90"}, Head: gate.Value{Value: "70.0", Exact: "70"}, Drop: true}},
			Fallen:   []gate.Fallen{{Tool: "find", Base: "100.0", Head: "80.0", Cost: "-10.0", CostExact: "-10"}},
			Contract: &gate.Contract{Diff: *contract.Compare(base, head)},
			Added:    []string{"new"}, Removed: []string{"gone"},
		}
		var page bytes.Buffer
		if err := html.WriteGate(&page, rep, base, head); err != nil {
			t.Fatal(err)
		}
		url, log := openPage(t, ctx, page.Bytes())
		if n := checkNumbers(t, ctx, decodeJSON(t, func(w io.Writer) error { return gate.Write(w, rep) })); n < 10 {
			t.Errorf("the page shows %d numbers of the gate's report, want at least 10 (the contract's four counts among them)", n)
		}
		contractRows, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS("#contract-h ~ div tbody")))
		if err != nil ||
			!strings.Contains(contractRows, "/inputSchema/properties/q/description") || !strings.Contains(contractRows, "breaking") {
			t.Errorf("the contract table reads %q (%v), want the breaking removal and the description's change", contractRows, err)
		}
		diff, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS("pre.diff del")))
		if err != nil || !strings.Contains(diff, `"description": "Words to find."`) {
			t.Errorf("the diff's removed line: %q (%v)", diff, err)
		}
		checkAxe(t, ctx, "gate")
		log.only(t, url)
	})
	t.Run("calibration", func(t *testing.T) {
		rec, err := calibrate.Read(filepath.Join("..", "..", "..", "calibration", "examples", "tidy-heuristic", "calibration.json"))
		if err != nil {
			t.Fatal(err)
		}
		var page bytes.Buffer
		if err := html.WriteCalibration(&page, rec); err != nil {
			t.Fatal(err)
		}
		url, log := openPage(t, ctx, page.Bytes())
		if n := checkNumbers(t, ctx, decodeJSON(t, func(w io.Writer) error { return calibrate.Write(w, rec) })); n < 4 {
			t.Errorf("the page shows %d numbers of the record, want at least 4", n)
		}
		svg, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("figure.plot svg circle, figure.plot svg path").length`))
		if err != nil || svg == 0 {
			t.Errorf("no plot drawn (%v)", err)
		}
		checkAxe(t, ctx, "calibration")
		log.only(t, url)
	})
}

// withSections is a report with rubric members of every shape the page
// draws: numbers of one object (bars), objects of objects (side by
// side), a list of objects (a table) naming pairs of tools (a grid).
// Its tools are the first three of the memory server's capture, those the
// members name: the cards of the other six showed nothing of the
// members, and axe-core's runs take time by the element.
func withSections(t testing.TB) *report.Report {
	rep := firstTools(t, "memory.tools.json", 3)
	a, b, c := rep.Tools[0].Name, rep.Tools[1].Name, rep.Tools[2].Name
	rep.Rubric.Maxima = &report.Maxima{Surface: map[string]map[string]string{"categories": {"safety": "30", "legibility": "30"}}}
	rep.Sections = append(rep.Sections,
		report.Field{Name: "categories", Value: report.Fields{{Name: "safety", Value: json.RawMessage("30")}, {Name: "legibility", Value: json.RawMessage("25.94")}}},
		report.Field{Name: "runs", Value: map[string]any{
			"baseline":      map[string]any{"tasks": 27, "selectionAccuracy": "22/27", "trials": []map[string]any{{"expected": a, "chosen": b}, {"expected": a, "chosen": a}}},
			"after_rewrite": map[string]any{"tasks": 27, "selectionAccuracy": "25/27"},
		}},
		report.Field{Name: "confusable", Value: map[string]any{"pairs": []map[string]any{{"a": a, "b": b, "severity": "low"}, {"a": b, "b": c, "severity": "high"}}}},
	)
	return rep
}

// TestBrowserPhoneTablesFit checks that the tables of members and values
// (the surface's metrics, a rubric's scalar report members, a tool's
// metrics) keep to a phone's width: every TDQS and Gradable page scrolled
// sideways at 390 pixels, a camel-case name such as
// definitionTokensEncoding standing whole beside 12769.297619047619, or
// toolCountAppropriateness beside a sentence.
func TestBrowserPhoneTablesFit(t *testing.T) {
	heavytest.Later(t)
	ctx := browser(t)
	rep := firstTools(t, "memory.tools.json", 2)
	rep.Metrics = append(rep.Metrics,
		report.Metric{Name: "avgTokenCostPerTask", Value: json.Number("12769.297619047619")},
		report.Metric{Name: "definitionTokensEncoding", Value: "o200k_base"},
		report.Metric{Name: "destructiveSafetyRate", Value: json.Number("0.454545454545")})
	rep.Sections = append(rep.Sections, report.Field{Name: "server", Value: map[string]any{
		"toolCountAppropriateness":                     3,
		"descriptionQualityScore":                      json.Number("4.1"),
		"coherenceSummary":                             "Heuristic: name and word-overlap cues, not a model, scored the 2 tools of \"Context7\": disambiguation 5, naming 5, tool count 3, completeness 4.",
		"behavioral_transparency_of_the_whole_surface": json.Number("12769.297619047619"),
	}})
	for i := range rep.Tools {
		rep.Tools[i].Metrics = append(rep.Tools[i].Metrics, report.Metric{Name: "definitionTokensEncodingOfTheTool", Value: json.Number("12769.297619047619")})
	}
	url, log := open(t, ctx, rep)
	// At a desktop's width no name breaks: it can stand whole.
	broken, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`[...document.querySelectorAll(".kv th[scope=row]")].filter(th => {
		const r = document.createRange();
		r.selectNodeContents(th);
		return new Set([...r.getClientRects()].map(c => Math.round(c.top))).size > 1;
	}).map(th => th.textContent)`))
	if err != nil {
		t.Fatal(err)
	}
	if len(broken) > 0 {
		t.Errorf("at 1280 pixels these names break over lines: %q", broken)
	}
	phone := chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		_, err := cdp.Call(ctx, tg, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: 390, Height: 844, DeviceScaleFactor: 2, Mobile: true})
		return err
	})
	if err := chromedp.Do(ctx, phone); err != nil {
		t.Fatal(err)
	}
	// The widest element outside a scrolling region, if the page is wider
	// than the screen.
	wide, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(() => {
		const w = document.documentElement.clientWidth;
		if (document.documentElement.scrollWidth <= w) return "";
		const out = [...document.querySelectorAll("main table")].filter(e => !e.closest(".scroll") && e.getBoundingClientRect().right > w + 1);
		return document.documentElement.scrollWidth + " pixels wide; " + out.map(e => e.className + " table of " + e.rows[1].cells[0].textContent + " is " + Math.round(e.getBoundingClientRect().width) + " wide").join("; ");
	})()`))
	if err != nil {
		t.Fatal(err)
	}
	if wide != "" {
		t.Errorf("at 390 pixels the page scrolls sideways: %s", wide)
	}
	log.only(t, url)
}
