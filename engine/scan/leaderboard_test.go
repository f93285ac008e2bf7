package scan_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/scan"
)

// writeScan writes a scan's directory holding recs.
func writeScan(t *testing.T, recs ...scan.Record) string {
	t.Helper()
	dir := t.TempDir()
	meta := scan.Meta{Version: scan.MetaVersion, Seconds: 7, Rubrics: []report.Rubric{
		{Name: "schema-quality", Digest: "sha256:aa"}, {Name: "tdqs", Digest: "sha256:bb"},
	}}
	put := func(name string, v any) {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("scan.json", meta)
	for _, r := range recs {
		put(filepath.Join("jobs", r.Key+".json"), r)
	}
	return dir
}

func num(s string) *json.Number { n := json.Number(s); return &n }
func str(s string) *string      { return &s }

// fixtureScan is a scan of five servers: four scored under two rubrics,
// one of them with no score under the first; tdqs answered by two judge
// configurations; one server failed at install.
func fixtureScan(t *testing.T) string {
	t.Helper()
	cheap := &report.Judge{Identity: judge.Identity{Plugin: "openai", Version: "1", Model: "small"}}
	dear := &report.Judge{Identity: judge.Identity{Plugin: "openai", Version: "1", Model: "large"}}
	scored := func(key, name, sq string, j *report.Judge) scan.Record {
		return scan.Record{Key: key, Name: name, Tools: 2, Calls: scan.Calls{Model: 3, CacheHits: 1, Tokens: 100, CostUSD: 0.25}, Seconds: 2, Scores: map[string]scan.Score{
			"schema-quality": {Score: num(sq), Grade: str("B"), Report: "reports/" + name + "/schema-quality.json"},
			"tdqs":           {Score: num("3.5"), Grade: str("A"), Report: "reports/" + name + "/tdqs.json", Judge: j},
		}}
	}
	noScore := scored("k4", "empty", "0", cheap)
	noScore.Scores["schema-quality"] = scan.Score{Report: "reports/empty/schema-quality.json"}
	return writeScan(t,
		scored("k1", "beta", "80.5", cheap),
		scored("k2", "alpha", "80.5", dear),
		scored("k3", "gamma", "91", cheap),
		noScore,
		scan.Record{Key: "k5", Name: "broken", Failed: &scan.Failed{Stage: "install", Reason: "npm install x@1: E404", Record: "failed/broken.json"}, Calls: scan.Calls{Model: 1, RateLimited: 2}},
	)
}

// TestLeaderboard: servers ranked by the first rubric's score (none
// last), failures apart with stage and reason, totals summed, and a
// rubric answered by two judge configurations said not comparable, with
// its servers grouped by configuration.
func TestLeaderboard(t *testing.T) {
	dir := fixtureScan(t)
	lb, err := scan.Build(dir, "test")
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	for _, s := range lb.Servers {
		order = append(order, s.Name)
	}
	if got := strings.Join(order, " "); got != "gamma alpha beta empty" {
		t.Errorf("ranking: %s", got)
	}
	if len(lb.Failed) != 1 || lb.Failed[0] != (scan.Failen{Name: "broken", Reason: "install: npm install x@1: E404"}) {
		t.Errorf("failed: %+v", lb.Failed)
	}
	want := scan.Totals{Servers: 5, Scored: 4, Failed: 1, Tools: 8, Calls: 13, CacheHits: 4, Tokens: 400, CostUSD: 1, RateLimited: 2, Seconds: 7, ServerSeconds: 8}
	if lb.Totals != want {
		t.Errorf("totals = %+v, want %+v", lb.Totals, want)
	}
	if lb.Comparable["tdqs"] || !lb.Comparable["schema-quality"] {
		t.Errorf("comparable: %v", lb.Comparable)
	}
	if len(lb.Judges) != 2 || lb.Judges[0].Judge.Model != "small" || strings.Join(lb.Judges[0].Servers, " ") != "beta empty gamma" {
		t.Errorf("judges: %+v", lb.Judges)
	}
	md, err := os.ReadFile(filepath.Join(dir, "leaderboard.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"4 scored · 1 failed · 8 tools · 13 judge calls (4 answers from the cache) · 400 tokens · 2 refused for now by the provider (a rate limit or a server error) and asked again · $1.0000 · 7.0 s",
		"### Judged by tdqs: `openai 1 large`\n",
		"### Judged by tdqs: `openai 1 small`\n",
		"- tdqs: 2 judge configurations: scores from different configurations are **not comparable**.",
		"| 1 | gamma | [91 B](reports/gamma/schema-quality.json) | [3.5 A](reports/gamma/tdqs.json) |",
		"| 3 | empty | [no score](reports/empty/schema-quality.json) |",
		"| broken | install: npm install x@1: E404 |",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("leaderboard.md lacks %q:\n%s", want, md)
		}
	}
	// The JSON has the shape.
	var raw struct {
		Servers []map[string]json.RawMessage `json:"servers"`
		Failed  []map[string]json.RawMessage `json:"failed"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "leaderboard.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	if len(raw.Servers[0]) != 2 || raw.Servers[0]["name"] == nil || raw.Servers[0]["scores"] == nil || len(raw.Failed[0]) != 2 {
		t.Errorf("servers[0] = %v, failed[0] = %v", raw.Servers[0], raw.Failed[0])
	}
}
