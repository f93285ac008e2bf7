package run_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/rubrics"
)

// gated starts file transports whose exports wait until bound of them
// are in flight at once, and records the most that ever were: a run that
// reads more servers at once than its bound shows as more, and one that
// reads them one by one never releases the gate (the test's context then
// ends it).
type gated struct {
	bound int

	mu       sync.Mutex
	inFlight int
	most     int
	release  chan struct{}
	once     sync.Once
}

func (g *gated) Judge(context.Context, string, judge.Config) (run.Judge, error) {
	return nil, errors.New("no judge in this test")
}

func (g *gated) Transport(context.Context, string) (run.Transport, error) {
	return gatedTransport{g}, nil
}

type gatedTransport struct{ g *gated }

func (gatedTransport) Close() {}

func (t gatedTransport) Describe(ctx context.Context) (transport.Info, error) {
	return fileTransport{}.Describe(ctx)
}

func (t gatedTransport) Export(ctx context.Context, target transport.Target) (*surface.Surface, error) {
	g := t.g
	g.mu.Lock()
	g.inFlight++
	g.most = max(g.most, g.inFlight)
	if g.inFlight >= g.bound {
		g.once.Do(func() { close(g.release) })
	}
	g.mu.Unlock()
	defer func() {
		g.mu.Lock()
		g.inFlight--
		g.mu.Unlock()
	}()
	select {
	case <-g.release:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return fileTransport{}.Export(ctx, target)
}

// TestScanServers reads three servers, one of which cannot be read and
// one of which is misconfigured, beside two that are scored: each gets
// its report or its failure, in the order given, and the reads run
// concurrently within the bound.
func TestScanServers(t *testing.T) {
	r, err := rubrics.Find("schema-quality")
	if err != nil {
		t.Fatal(err)
	}
	g := &gated{bound: 2, release: make(chan struct{})}
	s := run.New(run.Options{Plugins: g})
	defer s.Close()
	servers := []run.Server{
		{Name: "memory", Source: source("memory.tools.json")},
		{Name: "gone", Source: source("nosuch.tools.json")},
		{Name: "unset", Err: errors.New(`server "unset", env.TOKEN: the environment variable TOKEN is not set`)},
		{Name: "git", Source: source("git.tools.json")},
	}
	var readMu sync.Mutex
	read := map[string]bool{}
	results := s.ScanServers(t.Context(), servers, r, run.ServersOptions{Concurrency: 2, Read: func(name string, err error) {
		readMu.Lock()
		defer readMu.Unlock()
		read[name] = err == nil
	}})
	if g.most != 2 {
		t.Errorf("at most %d servers were read at once, want the bound, 2", g.most)
	}
	if len(read) != 3 || !read["memory"] || read["gone"] || !read["git"] {
		t.Errorf("Read was told %v", read)
	}
	var got []string
	for _, res := range results {
		switch {
		case res.Report != nil:
			got = append(got, fmt.Sprintf("%s: %d tools", res.Name, len(res.Report.Tools)))
		case res.Failed != nil:
			got = append(got, fmt.Sprintf("%s: failed at %s", res.Name, res.Failed.Stage))
		}
	}
	want := []string{"memory: 9 tools", "gone: failed at export", "unset: failed at config", "git: 28 tools"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("results:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if f := results[2].Failed; f == nil || !strings.Contains(f.Reason, "TOKEN is not set") {
		t.Errorf("the config failure does not give its reason: %+v", f)
	}
	if f := results[1].Failed; f == nil || !strings.Contains(f.Reason, "nosuch.tools.json") || f.Done.ToolsRead != nil {
		t.Errorf("the read failure: %+v", f)
	}
	if results[0].Report.Timings.ReadMS <= 0 {
		t.Error("the report of a server read concurrently does not record how long the read took")
	}

	set := run.InstalledSet("cfg.json", results)
	if len(set.Tools) != 9+28 || set.Tools[0].Name != "memory/"+results[0].Surface.Tools[0].Name {
		t.Errorf("the set has %d tools, first %q", len(set.Tools), set.Tools[0].Name)
	}
}

// TestScanServersInterrupted: a run stopped before it reads anything says
// so for every server, and does not hang.
func TestScanServersInterrupted(t *testing.T) {
	r, err := rubrics.Find("schema-quality")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	s := run.New(run.Options{Plugins: &gated{bound: 99, release: make(chan struct{})}})
	defer s.Close()
	results := s.ScanServers(ctx, []run.Server{{Name: "a", Source: source("memory.tools.json")}, {Name: "b", Source: source("git.tools.json")}}, r, run.ServersOptions{})
	for _, res := range results {
		if res.Failed == nil || !res.Failed.Interrupted {
			t.Errorf("%s: %+v, want an interrupted failure", res.Name, res)
		}
	}
}

// TestScanConfig puts every server in the document, failed or scored,
// and scores the installed set of the servers read; with none read there
// is no set.
func TestScanConfig(t *testing.T) {
	r, err := rubrics.Find("schema-quality")
	if err != nil {
		t.Fatal(err)
	}
	set, err := rubrics.Find("toolset")
	if err != nil {
		t.Fatal(err)
	}
	s := run.New(run.Options{Plugins: &gated{bound: 1, release: make(chan struct{})}, Version: "test"})
	defer s.Close()
	for _, c := range []struct {
		name     string
		servers  []run.Server
		failed   string
		setTools int
	}{
		{"one read", []run.Server{{Name: "memory", Source: source("memory.tools.json")}, {Name: "gone", Source: source("nosuch.tools.json")}}, "gone", 9},
		{"none read", []run.Server{{Name: "gone", Source: source("nosuch.tools.json")}}, "gone", -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc, err := s.ScanConfig(t.Context(), "cfg.json", c.servers, r, set, run.ServersOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(doc.Servers) != len(c.servers) || strings.Join(doc.Failed(), ",") != c.failed || doc.Config != "cfg.json" || doc.Generator.Version != "test" {
				t.Errorf("document: %d servers, failed %q, config %q, generator %+v", len(doc.Servers), doc.Failed(), doc.Config, doc.Generator)
			}
			switch {
			case c.setTools < 0 && doc.Set != nil:
				t.Error("a set with no server read")
			case c.setTools >= 0 && (doc.Set == nil || len(doc.Set.Tools) != c.setTools):
				t.Errorf("the set: %+v, want %d tools", doc.Set, c.setTools)
			}
		})
	}
}

// TestConfigAdviceInWarnings: a transport's warning is worded for a
// server of the client configuration, as its errors are: an http
// server read over HTTP+SSE is read so from the start with "type":
// "sse" in its entry, not with --transport, which such a server does
// not take. Read from a flag, the warning names the flag.
func TestConfigAdviceInWarnings(t *testing.T) {
	for _, tc := range []struct{ config, want string }{
		{"", "(--transport sse reads it so from the start)"},
		{".vscode/mcp.json", `(write "type": "sse" in the server's entry in .vscode/mcp.json to read it so from the start)`},
	} {
		s := run.New(run.Options{Plugins: &inProcess{}, ConfigFile: tc.config})
		surf, err := s.Export(t.Context(), "fellback", transport.Target{Location: "http://127.0.0.1:1/sse"})
		if err != nil {
			t.Fatal(err)
		}
		if len(surf.Warnings) != 1 || !strings.HasSuffix(surf.Warnings[0], tc.want) {
			t.Errorf("config %q: warnings %q, want one ending %q", tc.config, surf.Warnings, tc.want)
		}
	}
}
