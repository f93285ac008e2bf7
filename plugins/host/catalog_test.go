package host

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/plugins/protocol"
)

func writeExe(t *testing.T, path string, mode os.FileMode) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"), mode); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestDiscover(t *testing.T) {
	root := t.TempDir()
	first, second := filepath.Join(root, "data"), filepath.Join(root, "work")
	writeExe(t, filepath.Join(first, "rubric-judge-mine"), 0o755)
	writeExe(t, filepath.Join(second, "rubric-judge-mine"), 0o755) // shadowed by the first directory
	writeExe(t, filepath.Join(second, "rubric-transport-dir"), 0o755)
	writeExe(t, filepath.Join(second, "rubric-judge-AcmeJudge"), 0o755) // pinned as AcmeJudge, which the config reads lower-cased
	writeExe(t, filepath.Join(second, "rubric-transport-stdio"), 0o755) // a built-in's name: the built-in wins
	writeExe(t, filepath.Join(second, "rubric-judge-plain"), 0o644)     // not executable
	writeExe(t, filepath.Join(second, "README.md"), 0o644)              // not a plugin name
	custom := writeExe(t, filepath.Join(root, "bin", "my-judge"), 0o755)

	builtins := []Plugin{{Kind: protocol.KindTransport, Name: "stdio", Path: "/usr/bin/rubric", From: FromBuiltin}, {Kind: protocol.KindJudge, Name: "builtin", Path: "/usr/bin/rubric", From: FromBuiltin}}
	pins := map[string]Pin{
		"Mine":      {SHA256: "ABCDEF"},
		"acmejudge": {SHA256: "FEDCBA", Env: []string{"ACME_KEY"}},
		"custom":    {Path: custom, Kind: protocol.KindJudge, SHA256: "123", Env: []string{"API_KEY"}},
		"broken":    {Path: filepath.Join(root, "nope")},
		"stdio":     {SHA256: "ignored for a built-in"},
		"builtin":   {Path: custom, Kind: protocol.KindJudge},
	}
	c := Discover(builtins, []string{first, second, filepath.Join(root, "missing")}, pins)

	var got []string
	for _, p := range c.Plugins {
		got = append(got, p.Kind+"/"+p.Name+" "+p.From+" "+p.SHA256)
	}
	want := []string{
		"transport/stdio built-in ",
		"judge/builtin built-in ",
		"judge/custom config 123",
		"judge/mine plugin directory abcdef",
		"judge/AcmeJudge plugin directory fedcba",
		"transport/dir plugin directory ",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("plugins:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if p, _ := c.Find(protocol.KindJudge, "mine"); p.Path != filepath.Join(first, "rubric-judge-mine") {
		t.Errorf("mine resolved to %s, want the first directory's", p.Path)
	}
	// A config entry is found by its name as written, capitals and all.
	if p, err := c.Find(protocol.KindJudge, "Custom"); err != nil || p.Path != custom {
		t.Errorf("Custom: %v, %v", p, err)
	}
	if p, _ := c.Find(protocol.KindJudge, "custom"); len(p.Env) != 1 || p.Env[0] != "API_KEY" {
		t.Errorf("custom's env: %v", p.Env)
	}
	// A plugin skipped is named with the reason when asked for.
	if _, err := c.Find(protocol.KindJudge, "plain"); err == nil || !strings.Contains(err.Error(), `judge plugin "plain" cannot be used: `+filepath.Join(second, "rubric-judge-plain")+" is not executable (chmod +x") {
		t.Errorf("plain: %v", err)
	}
	if _, err := c.Find(protocol.KindTransport, "plain"); err == nil || !strings.Contains(err.Error(), `no transport plugin "plain"`) {
		t.Errorf("plain as a transport: %v", err)
	}
	if _, err := c.Find(protocol.KindTransport, "broken"); err == nil || !strings.Contains(err.Error(), `transport plugin "broken" cannot be used: plugins.broken.path: `) {
		t.Errorf("broken: %v", err)
	}
	warnings := strings.Join(c.Warnings, "\n")
	for _, w := range []string{
		// A built-in's name: the built-in wins, and the user hears so.
		filepath.Join(second, "rubric-transport-stdio") + " has the name of the built-in transport stdio, which rubric uses instead; rename it rubric-transport-OTHER",
		"plugins.stdio.sha256 pins nothing: stdio is built into rubric",
		"plugins.builtin.path: builtin is the name of a built-in judge, which rubric uses instead of " + custom + "; give your plugin another name",
		"plugins.broken.path: " + filepath.Join(root, "nope") + " does not exist", "rubric-judge-plain is not executable (chmod +x " + filepath.Join(second, "rubric-judge-plain") + "); skipped"} {
		if !strings.Contains(warnings, w) {
			t.Errorf("warnings %q lack %q", warnings, w)
		}
	}
}

func TestFind(t *testing.T) {
	root := t.TempDir()
	judgeBin := writeExe(t, filepath.Join(root, "rubric-judge-mine"), 0o755)
	oddBin := writeExe(t, filepath.Join(root, "something"), 0o755)
	c := Discover([]Plugin{{Kind: protocol.KindTransport, Name: "file", From: FromBuiltin}}, nil, map[string]Pin{"mine": {SHA256: "aa"}})
	withJudge := Discover([]Plugin{{Kind: protocol.KindJudge, Name: "openai", From: FromBuiltin}}, nil, nil)
	for _, tc := range []struct {
		kind, ref string
		want      string // the plugin's name and pin, or the error
	}{
		{protocol.KindTransport, "file", "file "},
		{protocol.KindJudge, judgeBin, "mine aa"},
		{protocol.KindTransport, judgeBin, "is a judge plugin, not a transport"},
		{protocol.KindJudge, oddBin, "something "},
		{protocol.KindJudge, filepath.Join(root, "absent"), "absent: no such file; give the path of a judge plugin's executable (rubric-judge-NAME), or the name of a judge that rubric plugins list shows"},
		{protocol.KindTransport, "sse", `no transport plugin "sse" (known: file; an external one is a binary named rubric-transport-sse in ` + strings.Join(DefaultDirs(), " or ") + ")"},
		// A slip for a known name is named.
		{protocol.KindJudge, "opneai", `no judge plugin "opneai": did you mean "openai"? (known: openai; an external one is a binary named rubric-judge-opneai in `},
		{protocol.KindTransport, "fiel", `no transport plugin "fiel": did you mean "file"? (known: file;`},
		{protocol.KindJudge, "heuristic", `no judge plugin "heuristic": none is installed (put rubric-judge-heuristic in`},
		// A known judge's name with settings that lack their =.
		{protocol.KindJudge, "openai:model", `no judge plugin "openai:model": the settings after "openai:" are KEY=VALUE, as in openai:model=NAME ("model" has no =)`},
		{protocol.KindJudge, "nosuch:model", `no judge plugin "nosuch:model" (known: openai; an external one is a binary named rubric-judge-nosuch:model`},
		{protocol.KindTransport, "file:x", `no transport plugin "file:x": did you mean "file"? (known: file;`},
	} {
		cat := c
		if tc.kind == protocol.KindJudge && !filepath.IsAbs(tc.ref) && tc.ref != "heuristic" {
			cat = withJudge
		}
		p, err := cat.Find(tc.kind, tc.ref)
		got := p.Name + " " + p.SHA256
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("Find(%s, %s) = %q, want %q", tc.kind, tc.ref, got, tc.want)
		}
	}
}

func TestTail(t *testing.T) {
	tl := newTail(16)
	for _, line := range []string{"one\n", `{"@level":"error","@message":"boom"}` + "\n", "three\n", "four\n"} {
		if n, err := tl.Write([]byte(line)); n != len(line) || err != nil {
			t.Fatalf("write: %d %v", n, err)
		}
	}
	if got := tl.String(); got != "three\nfour" {
		t.Errorf("tail: %q", got)
	}
	tl = newTail(64)
	tl.Write([]byte(`{"@level":"error","@message":"boom"}` + "\n"))
	if got := tl.String(); got != "error: boom" {
		t.Errorf("a JSON log line: %q", got)
	}
}

// TestGuard: a guarded catalog keeps the plugins the guard lets start,
// as it returns them (pinned), and takes out those it refuses, so that
// Find of a refused name gives the guard's reason rather than another
// plugin of that name or "no such plugin"; a path Find is given passes
// the guard too. Built-ins are not asked.
func TestGuard(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "plugins")
	writeExe(t, filepath.Join(dir, "rubric-judge-kept"), 0o755)
	writeExe(t, filepath.Join(dir, "rubric-judge-added"), 0o755)
	other := writeExe(t, filepath.Join(root, "bin", "rubric-judge-other"), 0o755)
	builtins := []Plugin{{Kind: protocol.KindJudge, Name: "heuristic", Path: "/usr/bin/rubric", From: FromBuiltin}}
	c := Discover(builtins, []string{dir}, nil)
	var asked []string
	c.Guard(func(p Plugin) (Plugin, error) {
		asked = append(asked, p.Name)
		if p.Name == "kept" {
			p.SHA256, p.PinnedBy = "abc", "the base's"
			return p, nil
		}
		return p, errors.New("not the base's")
	})
	if want := []string{"added", "kept"}; !slices.Equal(asked, want) {
		t.Errorf("the guard was asked of %q, want %q", asked, want)
	}
	for _, c2 := range []struct {
		ref, want, err string
	}{
		{ref: "heuristic", want: "built-in "},
		{ref: "kept", want: "plugin directory abc"},
		{ref: "added", err: `judge plugin "added" cannot be used: not the base's`},
		{ref: other, err: "judge plugin " + other + " cannot be used: not the base's"},
	} {
		p, err := c.Find(protocol.KindJudge, c2.ref)
		switch {
		case c2.err != "":
			if err == nil || err.Error() != c2.err {
				t.Errorf("Find(%s) = %v, %v; want the error %q", c2.ref, p, err, c2.err)
			}
		case err != nil || p.From+" "+p.SHA256 != c2.want:
			t.Errorf("Find(%s) = %s %s, %v; want %s", c2.ref, p.From, p.SHA256, err, c2.want)
		}
	}
}
