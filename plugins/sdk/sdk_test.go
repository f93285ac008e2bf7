package sdk_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/buildtest"
	"github.com/rubricmcp/rubric/plugins/host"
	"github.com/rubricmcp/rubric/plugins/protocol"
)

// TestExamplePlugins builds examples/judge-plugin and
// examples/transport-plugin, discovers them in a plugin directory and
// uses each through the protocol.
func TestExamplePlugins(t *testing.T) {
	if testing.Short() {
		t.Skip("builds two binaries")
	}
	dir := t.TempDir()
	// Built with go build, the way their authors would.
	buildtest.Binary(t, "./examples/judge-plugin", dir, "rubric-judge-wordcount")
	buildtest.Binary(t, "./examples/transport-plugin", dir, "rubric-transport-dir")

	c := host.Discover(nil, []string{dir}, nil)
	// A minute: the plugins' start is not what is tested, and on a
	// loaded machine it can take seconds.
	h := host.New(host.Options{StartTimeout: time.Minute})
	defer h.Close()
	ctx := context.Background()

	jp, err := c.Find(protocol.KindJudge, "wordcount")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Judge(ctx, jp, judge.Config{Model: "gpt-x"}); err == nil || !strings.Contains(err.Error(), `answers only as model "wordcount-1", not "gpt-x"`) {
		t.Errorf("a model the judge cannot serve: %v", err)
	}
	j, err := h.Judge(ctx, jp, judge.Config{Model: "wordcount-1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ input, want string }{
		{`{"tool":{"description":"Search notes."}}`, `{"verdict":"terse","words":2}`},
		{`{"description":"Return every note whose title or body contains all of the given words."}`, `{"verdict":"ok","words":13}`},
		{`{}`, `{"verdict":"missing","words":0}`},
	} {
		a, err := j.Ask(ctx, judge.Question{Kind: "length", Input: []byte(tc.input)})
		if err != nil {
			t.Fatal(err)
		}
		if string(a.JSON) != tc.want || a.Model != "wordcount-1" {
			t.Errorf("%s: answer %s from %s, want %s", tc.input, a.JSON, a.Model, tc.want)
		}
	}

	// The judge answers the rubric written for it, as its documentation
	// says: every tool is scored by the words of its description.
	rb, err := os.ReadFile("../../examples/rubrics/wordcount.hcl")
	if err != nil {
		t.Fatal(err)
	}
	r, err := rubric.Load("examples/rubrics/wordcount.hcl", rb)
	if err != nil {
		t.Fatal(err)
	}
	surf, err := surface.Parse("notes", []byte(`[{"name":"none"},{"name":"short","description":"Search notes."},{"name":"long","description":"Return every note whose title or body contains all of the given words."}]`))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := score.Run(ctx, r, surf, score.Options{Asker: &ask.Asker{Judge: j, Identity: j.Identity(), Rubric: r}})
	if err != nil {
		t.Fatalf("scoring with examples/rubrics/wordcount.hcl: %v", err)
	}
	var got []string
	for _, tr := range rep.Tools {
		got = append(got, fmt.Sprintf("%s %s", tr.Name, tr.Score))
	}
	if want := "none 0.0, short 50.0, long 100.0"; strings.Join(got, ", ") != want {
		t.Errorf("tool scores %s, want %s", strings.Join(got, ", "), want)
	}

	tools := t.TempDir()
	for name, def := range map[string]string{
		"b.json":    `{"name":"b","description":"Second.","inputSchema":{"type":"object","anyOf":[{"required":["x"]}]}}`,
		"a.json":    `{"name":"a","description":"First.","inputSchema":{"type":"object"}}`,
		"notes.txt": `not a tool`,
	} {
		if err := os.WriteFile(filepath.Join(tools, name), []byte(def), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tp, err := c.Find(protocol.KindTransport, "dir")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := h.Transport(ctx, tp)
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Handles("dir") {
		t.Errorf("schemes: %v", tr.Info().Schemes)
	}
	s, err := tr.Export(ctx, transport.Target{Location: "dir://" + tools})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Tools) != 2 || s.Tools[0].Name != "a" || s.Tools[1].Name != "b" || s.Source != "dir://"+tools {
		t.Fatalf("surface %s: %+v", s.Source, s.Tools)
	}
	if _, ok := s.Tools[1].Definition()["inputSchema"].(map[string]any)["anyOf"]; !ok {
		t.Error("anyOf was lost on the way")
	}
	_, err = tr.Export(ctx, transport.Target{Location: "dir://" + tools, Limits: transport.Limits{MaxTools: 1}})
	if err == nil || !strings.Contains(err.Error(), "holds 2 tool files, more than 1 (raise --max-tools)") {
		t.Errorf("a limit the plugin enforces: %v", err)
	}
}
