package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/internal/buildtest"
	"github.com/rubricmcp/rubric/internal/heavytest"
)

// TestGradableTellsTheExampleServersApart scores the two example servers
// with Gradable, offline (the heuristic judge, the default), each spawned
// over stdio: the well-described one must be ahead on legibility and
// discoverability, and safe, since it declares its destructive tools.
func TestGradableTellsTheExampleServersApart(t *testing.T) {
	heavytest.Later(t)
	t.Parallel()
	dir := t.TempDir()
	type result struct {
		Exact      string
		Categories map[string]json.Number
		Runs       map[string]json.RawMessage
		Judge      map[string]any
	}
	scores := map[string]result{}
	for _, name := range []string{"tidy", "sloppy"} {
		exe := buildtest.Binary(t, "./examples/servers/"+name, dir, name)
		out := filepath.Join(dir, name+".json")
		var stderr bytes.Buffer
		if code := execute([]string{"score", "--rubric", "gradable", "--no-cache", "--format", "json", "--out", out, "--", exe}, &bytes.Buffer{}, &stderr); code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, stderr.String())
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var r result
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		scores[name] = r
		t.Logf("%s: composite %s, categories %v", name, num.MustParse(r.Exact).Decimal(2), r.Categories)
	}
	tidy, sloppy := scores["tidy"], scores["sloppy"]
	cat := func(r result, k string) num.Num { return num.MustParse(r.Categories[k].String()) }
	for _, k := range []string{"legibility", "discoverability"} {
		if cat(tidy, k).Cmp(cat(sloppy, k)) <= 0 {
			t.Errorf("%s: tidy %s is not above sloppy %s", k, tidy.Categories[k], sloppy.Categories[k])
		}
	}
	if cat(tidy, "safety").Cmp(num.Int(30)) != 0 {
		t.Errorf("tidy declares its destructive tools, yet safety is %s of 30", tidy.Categories["safety"])
	}
	if num.MustParse(tidy.Exact).Cmp(num.MustParse(sloppy.Exact)) <= 0 {
		t.Errorf("composite: tidy %s is not above sloppy %s", tidy.Exact, sloppy.Exact)
	}
	// The judge block names the heuristic and the rubric's versions.
	if j := tidy.Judge; j["plugin"] != "heuristic" || j["taskGeneratorVersion"] != "tasks-v1" || j["promptTemplateVersion"] != "selection-v1" {
		t.Errorf("judge block %v", j)
	}
	// Sloppy has defects, so its after_rewrite run was asked; tidy has
	// none, so it has no such run.
	if string(tidy.Runs["after_rewrite"]) != "null" || string(sloppy.Runs["after_rewrite"]) == "null" {
		t.Errorf("after_rewrite: tidy %s, sloppy %.60s", tidy.Runs["after_rewrite"], sloppy.Runs["after_rewrite"])
	}
}
