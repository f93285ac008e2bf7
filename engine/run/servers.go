package run

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/surface"
)

// StageConfig is where a server of a client configuration stops when it
// cannot be read as written (an unset variable, neither command nor url):
// before anything is started.
const StageConfig = "config"

// StageInstall is where a server that must be installed first (a
// package a scan installs into a directory of its own) stops when
// installing it fails: before it is started.
const StageInstall = "install"

// configAdvices turn the advice of a transport's error, which names the
// flags that say where one target is (--header, --transport), into
// advice about a client configuration, whose servers take no such flag:
// each %s is the configuration file.
var configAdvices = [][2]string{
	{"pass them with --header, for example --header 'Authorization=Bearer <token>'", `give them in the server's "headers" in %s, for example "headers": {"Authorization": "Bearer <token>"}`},
	{"check their values with --header", `check their values in the server's "headers" in %s`},
	{"and that it needs no sign-in (--header)", `and that it needs no sign-in (the server's "headers" in %s)`},
	{"or /sse for --transport sse", `or /sse for "type": "sse"`},
	{"or the older HTTP+SSE one (sse)", `or the older HTTP+SSE one (then write "type": "sse" in the server's entry in %s)`},
	{"use http rather than sse", `write "type": "http" rather than "sse" in the server's entry in %s`},
	// A warning's: an http server read over HTTP+SSE after a 404 or 405.
	{"(--transport sse reads it so from the start)", `(write "type": "sse" in the server's entry in %s to read it so from the start)`},
}

// advised is an error whose message gives other advice than the error
// it wraps, which it still is for errors.Is and errors.As.
type advised struct {
	err error
	msg string
}

func (e *advised) Error() string { return e.msg }
func (e *advised) Unwrap() error { return e.err }

// configAdvice is err with its advice worded for a server of the client
// configuration file.
func configAdvice(err error, file string) error {
	msg := err.Error()
	out := configAdvised(msg, file)
	if out == msg {
		return err
	}
	return &advised{err: err, msg: out}
}

// configAdvised is a transport's message (an error's, a warning's) with
// its advice worded for a server of the client configuration file.
func configAdvised(msg, file string) string {
	for _, a := range configAdvices {
		if strings.Contains(msg, a[0]) {
			msg = strings.ReplaceAll(msg, a[0], strings.ReplaceAll(a[1], "%s", file))
		}
	}
	return msg
}

// DefaultServers is how many servers a multi-server run reads at once
// when ServersOptions.Concurrency is zero.
const DefaultServers = 4

// Server is one server of a multi-server run, as a client configuration
// names it.
type Server struct {
	// Name is the server's name in the configuration.
	Name string
	// Source is where it is read.
	Source Source
	// Err, when set, is why the server cannot be read as configured; it
	// is reported failed at StageConfig, and nothing is started for it.
	Err error
}

// ServerResult is what became of one server: a report, or a failure.
type ServerResult struct {
	Name string
	// Report is the server's report when it was read and scored.
	Report *report.Report
	// Failed is the record of a server that was not.
	Failed *Failure
	// Surface is the server's tools when they were read (even when
	// scoring them failed), for the installed set.
	Surface *surface.Surface
}

// ServersOptions tune a multi-server run.
type ServersOptions struct {
	// Concurrency bounds the servers read at once; 0 means
	// DefaultServers.
	Concurrency int
	// Read, when set, is called as each server has been read or has
	// failed to be, from the goroutine that read it.
	Read func(name string, err error)
	// Disabled are the servers the configuration marks "disabled": true,
	// which are not read: named in what a run says, so that none is
	// left out without a word.
	Disabled []string
}

// ReadServers reads every server, at most Concurrency at once, and
// returns what each gave: its surface, or its failure record (rubric r,
// which may be nil, is only named in that record). The results are in the order of
// servers.
func (s *Session) ReadServers(ctx context.Context, servers []Server, r *rubric.Rubric, o ServersOptions) []ServerResult {
	out, _ := s.readServers(ctx, servers, r, o)
	return out
}

// readServers is ReadServers, with how long each read took.
func (s *Session) readServers(ctx context.Context, servers []Server, r *rubric.Rubric, o ServersOptions) ([]ServerResult, []time.Duration) {
	n := o.Concurrency
	if n <= 0 {
		n = DefaultServers
	}
	out := make([]ServerResult, len(servers))
	reads := make([]time.Duration, len(servers))
	errs := make([]error, len(servers))
	sem := make(chan struct{}, n)
	var wg sync.WaitGroup
	for i, sv := range servers {
		out[i].Name = sv.Name
		if sv.Err != nil {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				errs[i] = ctx.Err()
				return
			}
			defer func() { <-sem }()
			start := time.Now()
			out[i].Surface, errs[i] = s.Export(ctx, sv.Source.Transport, sv.Source.Target)
			reads[i] = time.Since(start)
			if o.Read != nil {
				o.Read(sv.Name, errs[i])
			}
		}()
	}
	wg.Wait()
	for i, sv := range servers {
		switch {
		case sv.Err != nil:
			out[i].Failed = s.fail(ctx, &Failure{stage: StageConfig}, r, sv.Source, sv.Err)
		case errs[i] != nil:
			out[i].Failed = s.fail(ctx, &Failure{stage: StageExport}, r, sv.Source, errs[i])
		}
	}
	return out, reads
}

// ScanServers reads every server as ReadServers does, then scores each
// that was read with r, in the order given, one after the other through
// this session (its judge, cache and limits). A server that cannot be
// read or scored is a result with its failure record; the others are
// read and scored all the same.
func (s *Session) ScanServers(ctx context.Context, servers []Server, r *rubric.Rubric, o ServersOptions) []ServerResult {
	out, reads := s.readServers(ctx, servers, r, o)
	for i, sv := range servers {
		if out[i].Failed != nil {
			continue
		}
		src := Source{Surface: out[i].Surface, Name: s.recorded(sv.Source)}
		rep, err := s.Scan(ctx, src, r, ScanOptions{})
		if err != nil {
			f, ok := err.(*Failure)
			if !ok {
				f = s.fail(ctx, &Failure{stage: StageScore}, r, src, err)
			}
			out[i].Failed = f
			continue
		}
		rep.Timings.ReadMS = float64(reads[i].Microseconds()) / 1000
		out[i].Report = rep
	}
	return out
}

// InstalledSet is the union of the surfaces the results read, in their
// order, each tool keeping its server (surface.Union); source is where
// the servers are configured.
func InstalledSet(source string, results []ServerResult) *surface.Surface {
	var members []surface.Member
	for _, r := range results {
		if r.Surface != nil {
			members = append(members, surface.Member{Name: r.Name, Surface: r.Surface})
		}
	}
	return surface.Union(source, members)
}

// Fail is the failure record of a scan of src with r (which may be nil)
// that err stopped at stage: for the stages a caller of Export and Scan
// runs itself (StageConfig, StageInstall, StageExport), in the shape
// Scan writes.
func (s *Session) Fail(ctx context.Context, stage string, r *rubric.Rubric, src Source, err error) *Failure {
	return s.fail(ctx, &Failure{stage: stage}, r, src, err)
}

// FailedStage is where the scan stopped (for serverset.Failure).
func (f *Failure) FailedStage() string { return f.Stage }

// FailedReason is why, redacted (for serverset.Failure).
func (f *Failure) FailedReason() string { return f.Reason }
