package scan_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/rubricmcp/rubric/engine/scan"
)

// chromium finds Debian's chromium, or RUBRIC_CHROMIUM; without one the
// test fails under RUBRIC_REQUIRE_SERVERS=1 (make test) and is skipped
// otherwise.
func chromium(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("RUBRIC_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "no chromium to open leaderboard.html in: apt-get install chromium (.ci/run does), or set RUBRIC_CHROMIUM to a Chromium binary"
	if os.Getenv("RUBRIC_REQUIRE_SERVERS") == "1" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// The leaderboard opens in a real headless Chromium with nothing logged
// (no script error, no refusal of its Content-Security-Policy), makes no
// request but for itself, and every link it holds resolves: each report
// it links to opens.
func TestBrowserLeaderboard(t *testing.T) {
	path := chromium(t)
	dir := fixtureScan(t)
	writeReports(t, dir)
	if _, err := scan.Build(dir, "test"); err != nil {
		t.Fatal(err)
	}
	profile := t.TempDir()
	actx, cancelAlloc := chromedp.NewExecAllocator(t.Context(),
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(profile),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true))
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(actx)
	defer cancel()

	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium (%s): %v", path, err)
	}
	var mu sync.Mutex
	var requests, problems []string
	err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			requests = append(requests, e.Request.URL)
		case *network.EventLoadingFailed:
			problems = append(problems, "load failed: "+e.ErrorText)
		case *cdplog.EventEntryAdded:
			problems = append(problems, "logged: "+e.Entry.Text)
		case *runtime.EventConsoleAPICalled:
			problems = append(problems, "console."+string(e.Type))
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+e.ExceptionDetails.Text)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	err = chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
		if _, err := cdp.Call(ctx, tg, network.Enable, network.EnableParams{}); err != nil {
			return err
		}
		if _, err := cdp.Call(ctx, tg, runtime.Enable, cdp.Empty{}); err != nil {
			return err
		}
		_, err := cdp.Call(ctx, tg, cdplog.Enable, cdp.Empty{})
		return err
	}))
	if err != nil {
		t.Fatal(err)
	}
	page := "file://" + filepath.Join(dir, "leaderboard.html")
	if err := chromedp.Do(ctx, chromedp.Navigate(page)); err != nil {
		t.Fatal(err)
	}
	title, err := chromedp.Run(ctx, chromedp.Title())
	if err != nil {
		t.Fatal(err)
	}
	links, err := chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.links, a => a.href)`))
	if err != nil {
		t.Fatal(err)
	}
	if title != "Scan · 5 servers" {
		t.Errorf("title %q", title)
	}
	mu.Lock()
	for _, r := range requests {
		if r != page {
			t.Errorf("the leaderboard made a request: %s", r)
		}
	}
	for _, p := range problems {
		t.Errorf("opening the leaderboard: %s", p)
	}
	mu.Unlock()

	// Eight scores link to reports (gamma's tdqs to its page); each opens.
	if len(links) != 8 || !slices.Contains(links, "file://"+filepath.Join(dir, "reports", "gamma", "tdqs.html")) {
		t.Fatalf("links %v, want eight, gamma's tdqs to its HTML page", links)
	}
	for _, l := range links {
		if !strings.HasPrefix(l, "file://"+dir+"/reports/") {
			t.Errorf("link %s leaves the scan's reports", l)
			continue
		}
		if err := chromedp.Do(ctx, chromedp.Navigate(l)); err != nil {
			t.Errorf("link %s does not open: %v", l, err)
		}
	}
	// The check of the links would see one that does not resolve.
	if err := os.Remove(filepath.Join(dir, "reports", "alpha", "tdqs.json")); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(ctx, chromedp.Navigate(links[7])); err == nil {
		t.Errorf("a link to a report removed opened: %s", links[7])
	}
}
