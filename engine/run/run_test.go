package run_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/judges/heuristic"
	"github.com/rubricmcp/rubric/plugins/transports/file"
	"github.com/rubricmcp/rubric/rubrics"
)

const corpus = "../score/testdata/corpus/"

// inProcess starts the real heuristic judge and the real file transport
// in this process, behind the interfaces a session uses; it counts what
// it started.
type inProcess struct {
	judges, transports int
	// deaf configures the judge without the model asked for, as a judge
	// that answers as another would.
	deaf bool
	// capable hands the judge over with its capabilities, as a plugin
	// host's judge does; without it they are hidden, as a hosted model's
	// judge advertises none of them.
	capable bool
}

// capable is a started judge that advertises what its judge does.
type capable struct {
	started
	caps []string
}

func (c capable) Capabilities() []string { return c.caps }

type started struct {
	judge.Judge
	name string
	id   judge.Identity
}

func (s started) Name() string             { return s.name }
func (s started) Identity() judge.Identity { return s.id }
func (s started) SHA256() string           { return "" }
func (s started) Close()                   {}

type fileTransport struct{ file.Transport }

func (fileTransport) Close() {}

func (p *inProcess) Judge(ctx context.Context, ref string, cfg judge.Config) (run.Judge, error) {
	if ref != "heuristic" {
		return nil, fmt.Errorf("no judge plugin %q", ref)
	}
	p.judges++
	j := heuristic.New()
	if p.deaf {
		cfg.Model = ""
	}
	id, err := j.Configure(ctx, cfg)
	if err != nil {
		return nil, err
	}
	if p.capable {
		return capable{started{Judge: j, name: ref, id: id}, j.Capabilities()}, nil
	}
	return started{Judge: j, name: ref, id: id}, nil
}

func (p *inProcess) Transport(_ context.Context, name string) (run.Transport, error) {
	if name == "refusing" {
		return refusing{}, nil
	}
	if name == "fellback" {
		return fellBack{}, nil
	}
	if name != "file" {
		return nil, fmt.Errorf("no transport plugin %q", name)
	}
	p.transports++
	return fileTransport{}, nil
}

// refusing is a transport whose server refuses every connection, with
// the error quoting the URL as net/http does.
type refusing struct{}

func (refusing) Describe(context.Context) (transport.Info, error) {
	return transport.Info{Name: "refusing", Schemes: []string{"http"}}, nil
}

func (refusing) Export(_ context.Context, t transport.Target) (*surface.Surface, error) {
	return nil, fmt.Errorf("Post %q: connection refused", t.Location)
}

func (refusing) Close() {}

// fellBack is a transport that read its server over HTTP+SSE after the
// streamable HTTP initialize was refused, and says so as mcphttp does.
type fellBack struct{}

func (fellBack) Describe(context.Context) (transport.Info, error) {
	return transport.Info{Name: "fellback", Schemes: []string{"http"}}, nil
}

func (fellBack) Export(_ context.Context, t transport.Target) (*surface.Surface, error) {
	return &surface.Surface{Warnings: []string{"the server at " + t.Location + " answered the streamable HTTP transport's initialize with HTTP 405 Method Not Allowed, so it was read over the older HTTP+SSE transport at the same URL (--transport sse reads it so from the start)"}}, nil
}

func (fellBack) Close() {}

func source(name string) run.Source {
	return run.Source{Transport: "file", Target: transport.Target{Location: corpus + name}}
}

// TestScanFailures runs scans that stop at each stage and checks the
// failure record, and that a complete scan removes a stale one.
func TestScanFailures(t *testing.T) {
	broken := errors.New("the disk is full")
	tests := []struct {
		name      string
		rubric    string
		opt       run.Options
		deaf      bool
		src       run.Source
		write     error
		wantStage string // "" for a complete scan
		wantErr   string
		wantTools bool // the record counts the tools read
		// started: the judge started, and the judge stage failed after
		// (the error is no *run.JudgeStartError, which a failed start is).
		started bool
	}{
		{name: "complete", rubric: "schema-quality", src: source("memory.tools.json")},
		{name: "complete with a judge", rubric: "tdqs", src: source("memory.tools.json")},
		{name: "no such judge", rubric: "tdqs", opt: run.Options{Judge: "nobody"}, src: source("memory.tools.json"),
			wantStage: run.StageJudge, wantErr: `no judge plugin "nobody"`},
		{name: "another model", rubric: "tdqs", deaf: true, opt: run.Options{JudgeConfig: judge.Config{Model: "gpt-x"}}, src: source("memory.tools.json"),
			wantStage: run.StageJudge, wantErr: `refusing to ask another model`},
		{name: "a judge stage failing after the start", rubric: "tdqs", opt: run.Options{Batch: true}, src: source("memory.tools.json"),
			wantStage: run.StageJudge, wantErr: `does not answer in batches`, started: true},
		{name: "unreadable target", rubric: "schema-quality", src: source("nosuch.tools.json"),
			wantStage: run.StageExport, wantErr: "nosuch.tools.json"},
		{name: "no such transport", rubric: "schema-quality", src: run.Source{Transport: "carrier-pigeon"},
			wantStage: run.StageExport, wantErr: `no transport plugin "carrier-pigeon"`},
		{name: "failed write", rubric: "schema-quality", src: source("memory.tools.json"), write: broken,
			wantStage: run.StageWrite, wantErr: broken.Error(), wantTools: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := rubrics.Find(tt.rubric)
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			failed, out := filepath.Join(dir, "failed.json"), filepath.Join(dir, "report.json")
			// An earlier run's files: only files rubric wrote are removed.
			seed := map[string]string{failed: `{"failed_version": 1, "generator": {"name": "rubric"}}`, out: `{"report_version": 1, "generator": {"name": "rubric"}}`}
			for p, content := range seed {
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			tt.opt.Plugins = &inProcess{deaf: tt.deaf}
			s := run.New(tt.opt)
			defer s.Close()
			rep, err := s.Scan(context.Background(), tt.src, r, run.ScanOptions{
				Write:  func(*report.Report) error { return tt.write },
				Failed: failed, Outputs: []string{out},
			})
			if tt.wantStage == "" {
				if err != nil {
					t.Fatal(err)
				}
				if rep.Exact == nil || rep.Rubric.Name != r.Name {
					t.Errorf("report of %s with no overall score", rep.Rubric.Name)
				}
				if (len(r.Questions) > 0) != (rep.Judge != nil) {
					t.Errorf("judge block %v for a rubric of %d questions", rep.Judge, len(r.Questions))
				}
				if _, err := os.Stat(failed); !errors.Is(err, os.ErrNotExist) {
					t.Errorf("a complete scan left the stale failure record: %v", err)
				}
				return
			}
			var f *run.Failure
			if !errors.As(err, &f) || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("error %v, want a failure saying %q", err, tt.wantErr)
			}
			var start *run.JudgeStartError
			if f.Stage == run.StageJudge && errors.As(err, &start) == tt.started {
				t.Errorf("a *run.JudgeStartError: %v, want %v (the judge started: %v)", !tt.started, tt.started, tt.started)
			}
			if f.Stage != tt.wantStage || (f.Done.ToolsRead != nil) != tt.wantTools {
				t.Errorf("stage %q, tools read %v; want stage %q", f.Stage, f.Done.ToolsRead, tt.wantStage)
			}
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a failed scan left the earlier report: %v", err)
			}
			var written map[string]any
			b, err := os.ReadFile(failed)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &written); err != nil {
				t.Fatal(err)
			}
			if written["stage"] != tt.wantStage || written["reason"] != f.Reason || written["failed_version"] != 1.0 {
				t.Errorf("failed.json says %v", written)
			}
			if _, ok := written["score"]; ok {
				t.Error("failed.json holds a score")
			}
		})
	}
}

// TestSessionStartsItsJudgeOnce scores twice in one session, then
// rescores the first report from its recorded answers with no judge.
func TestSessionStartsItsJudgeOnce(t *testing.T) {
	r, err := rubrics.Find("tdqs")
	if err != nil {
		t.Fatal(err)
	}
	p := &inProcess{}
	s := run.New(run.Options{Plugins: p, Version: "test"})
	defer s.Close()
	ctx := context.Background()
	var reps []*report.Report
	for range 2 {
		rep, err := s.Scan(ctx, source("git.tools.json"), r, run.ScanOptions{})
		if err != nil {
			t.Fatal(err)
		}
		reps = append(reps, rep)
	}
	if p.judges != 1 || p.transports != 2 {
		t.Errorf("started %d judges and %d transports, want 1 and 2", p.judges, p.transports)
	}
	if *reps[0].Exact != *reps[1].Exact || reps[1].Calls.Questions == 0 {
		t.Errorf("overall %s then %s, %d questions", *reps[0].Exact, *reps[1].Exact, reps[1].Calls.Questions)
	}
	// Rescoring reads the answers back: no plugin is started.
	again := run.New(run.Options{Version: "test"})
	rep, err := again.Scan(ctx, run.Source{Surface: surfaceOf(t, reps[0]), Name: reps[0].Target}, r, run.ScanOptions{Answers: reps[0]})
	if err != nil {
		t.Fatal(err)
	}
	if *rep.Exact != *reps[0].Exact || rep.Calls.CacheHits != rep.Calls.Questions || rep.Calls.Questions != reps[0].Calls.Questions {
		t.Errorf("rescored %s (calls %+v), scored %s (calls %+v)", *rep.Exact, rep.Calls, *reps[0].Exact, reps[0].Calls)
	}
	if rep.Judge == nil || rep.Judge.Plugin != reps[0].Judge.Plugin {
		t.Errorf("rescored judge block %v", rep.Judge)
	}
}

func TestRedactedAndScheme(t *testing.T) {
	for _, tc := range []struct {
		in        transport.Target
		redacted  string
		scheme    string
		transport string
	}{
		{transport.Target{Location: "https://user:s3cret@example.com/mcp"}, "https://user:[redacted]@example.com/mcp", "https", "http"},
		{transport.Target{Location: "https://example.com/mcp?token=t0k&page=2&tenant=acme"}, "https://example.com/mcp?token=[redacted]&page=2&tenant=[redacted]", "https", "http"},
		{transport.Target{Location: "https://ghp_abc@example.com/mcp"}, "https://[redacted]@example.com/mcp", "https", "http"},
		{transport.Target{Location: "https://example.com/mcp"}, "https://example.com/mcp", "https", "http"},
		{transport.Target{Location: "http://127.0.0.1:9/mcp"}, "http://127.0.0.1:9/mcp", "http", "http"},
		{transport.Target{Location: "npx", Args: []string{"mcp-remote", "https://h/sse?api_key=k"}}, "npx mcp-remote https://h/sse?api_key=[redacted]", "", "file"},
		{transport.Target{Location: "tools.json"}, "tools.json", "", "file"},
		{transport.Target{Location: "dir://./tools"}, "dir://./tools", "dir", "dir"},
		{transport.Target{Location: "c://tools.json"}, "c://tools.json", "c", "file"},
	} {
		if got := run.TransportOf(tc.in.Location); got != tc.transport {
			t.Errorf("TransportOf(%s) = %q, want %q", tc.in.Location, got, tc.transport)
		}
		if got := run.Redacted(tc.in, "tenant"); got != tc.redacted {
			t.Errorf("Redacted(%s) = %s, want %s", tc.in, got, tc.redacted)
		}
		if got := run.Scheme(tc.in.Location); got != tc.scheme {
			t.Errorf("Scheme(%s) = %q, want %q", tc.in.Location, got, tc.scheme)
		}
	}
}

// TestFailureRecordRedacted fails a scan of a URL that holds
// credentials, and checks that the failure record (its target and the
// reason, which quotes the URL) holds none of them. Before the fix the
// target kept the query's token and the reason kept everything.
func TestFailureRecordRedacted(t *testing.T) {
	r, err := rubrics.Find("schema-quality")
	if err != nil {
		t.Fatal(err)
	}
	failed := filepath.Join(t.TempDir(), "failed.json")
	s := run.New(run.Options{Plugins: &inProcess{}, RedactParams: []string{"tenant"}})
	defer s.Close()
	loc := "http://me:pw-4411@127.0.0.1:1/mcp?token=tok-4412&tenant=ten-4413"
	_, err = s.Scan(context.Background(), run.Source{Transport: "refusing", Target: transport.Target{Location: loc}}, r, run.ScanOptions{Failed: failed})
	var f *run.Failure
	if !errors.As(err, &f) {
		t.Fatalf("error %v, want a failure", err)
	}
	b, err := os.ReadFile(failed)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(f.Target, "127.0.0.1:1/mcp") || !strings.Contains(f.Reason, "127.0.0.1:1/mcp") {
		t.Errorf("the record (target %q, reason %q) does not say which server", f.Target, f.Reason)
	}
	for _, secret := range []string{"pw-4411", "tok-4412", "ten-4413"} {
		if strings.Contains(string(b), secret) || strings.Contains(f.Target+f.Reason, secret) {
			t.Errorf("the failure record holds %s:\n%s", secret, b)
		}
	}
}

func surfaceOf(t *testing.T, rep *report.Report) *surface.Surface {
	t.Helper()
	b, err := report.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var back report.Report
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse("embedded", back.Embedded)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestFailurePath(t *testing.T) {
	tests := []struct {
		explicit string
		outputs  []string
		want     string
	}{
		{"", nil, ""},
		{"", []string{"", ""}, ""},
		{"", []string{"out/report.txt", "j/r.json"}, "out/failed.json"},
		{"", []string{"", "j/r.json"}, "j/failed.json"},
		{"mine.json", []string{"out/report.txt"}, "mine.json"},
		{"", []string{"/dev/null"}, ""},
		{"", []string{"/dev/null", "j/r.json"}, "j/failed.json"},
		{"", []string{os.TempDir()}, ""},
	}
	for _, tt := range tests {
		if got := run.FailurePath(tt.explicit, tt.outputs...); got != tt.want {
			t.Errorf("run.FailurePath(%q, %q) = %q, want %q", tt.explicit, tt.outputs, got, tt.want)
		}
	}
}

// overlapping starts the heuristic judge only once the transport has
// begun to start, and counts the transports it closed: a session that
// started them one after the other would never get past the judge (the
// test then hangs until go test's -timeout names it).
type overlapping struct {
	inProcess
	transportStarting chan struct{}
	closed            atomic.Int32
}

func (p *overlapping) Judge(ctx context.Context, ref string, cfg judge.Config) (run.Judge, error) {
	select {
	case <-p.transportStarting:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	return p.inProcess.Judge(ctx, ref, cfg)
}

func (p *overlapping) Transport(ctx context.Context, name string) (run.Transport, error) {
	close(p.transportStarting)
	tr, err := p.inProcess.Transport(ctx, name)
	if err != nil {
		return nil, err
	}
	return closeCounted{Transport: tr, n: &p.closed}, nil
}

type closeCounted struct {
	run.Transport
	n *atomic.Int32
}

func (c closeCounted) Close() { c.n.Add(1); c.Transport.Close() }

// TestTransportStartsWithTheJudge: a scan that starts a judge starts its
// transport at the same time, and uses that one; when the judge fails,
// the transport started early is ended with the session.
func TestTransportStartsWithTheJudge(t *testing.T) {
	r, err := rubrics.Find("tdqs")
	if err != nil {
		t.Fatal(err)
	}
	for _, judgeRef := range []string{"", "nobody"} {
		p := &overlapping{transportStarting: make(chan struct{})}
		s := run.New(run.Options{Plugins: p, Judge: judgeRef, Version: "test"})
		rep, err := s.Scan(t.Context(), source("git.tools.json"), r, run.ScanOptions{})
		if judgeRef == "" && (err != nil || rep.Calls.Questions == 0) {
			t.Fatalf("scan: %v", err)
		}
		if judgeRef == "nobody" && err == nil {
			t.Fatal("a scan with no such judge did not fail")
		}
		s.Close()
		if p.transports != 1 || p.closed.Load() != 1 {
			t.Errorf("judge %q: started %d transports and closed %d, want 1 and 1", judgeRef, p.transports, p.closed.Load())
		}
	}
}

// TestSetJudge: the gate sets the judge the base's settings choose before
// the judge starts, and the session starts that one with its
// configuration; once a judge has started, another is refused, since
// their answers would mix.
func TestSetJudge(t *testing.T) {
	r, err := rubrics.Find("tdqs")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s := run.New(run.Options{Plugins: &inProcess{}, Judge: "openai", Version: "test"})
	defer s.Close()
	if err := s.SetJudge("heuristic", judge.Config{Model: "heuristic-1"}); err != nil {
		t.Fatal(err)
	}
	b, err := s.JudgeBlock(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if b == nil || b.Model != "heuristic-1" {
		t.Fatalf("the session started %+v, want the heuristic as set", b)
	}
	if err := s.SetJudge("openai", judge.Config{}); err == nil || !strings.Contains(err.Error(), "has started already") {
		t.Errorf("a judge set after one started: %v", err)
	}
}

// TestConcurrencyFollowsTheJudge: unless the run says how many questions
// are in flight, a judge that answers on this machine (the heuristic, as
// its plugin advertises it) gets ask.LocalConcurrency and any other
// ask.DefaultConcurrency; a number the run gives wins over both.
func TestConcurrencyFollowsTheJudge(t *testing.T) {
	r, err := rubrics.Find("tdqs")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		capable bool
		given   int
		want    int
	}{
		{"a local judge", true, 0, ask.LocalConcurrency},
		{"a judge that advertises nothing", false, 0, ask.DefaultConcurrency},
		{"a local judge and a number given", true, 3, 3},
		{"another judge and a number given", false, 200, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := run.New(run.Options{Plugins: &inProcess{capable: tc.capable}, Concurrency: tc.given, Version: "test"})
			defer s.Close()
			a, err := s.Asker(context.Background(), r, false)
			if err != nil {
				t.Fatal(err)
			}
			if a.Concurrency != tc.want {
				t.Errorf("%d questions in flight, want %d", a.Concurrency, tc.want)
			}
		})
	}
}
