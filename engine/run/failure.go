package run

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/atomicfile"
	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/redact"
)

// The stages of a scan, as a failure record names them.
const (
	StageJudge  = "judge"  // starting and configuring the judge
	StageExport = "export" // reading the server's tools
	StageScore  = "score"  // asking the questions and computing the scores
	StageWrite  = "write"  // writing the outputs
	stageDone   = ""       // complete
)

// FailedVersion is the version of the failure record's format.
const FailedVersion = 1

// Failure is failed.json: the record of a scan that could not complete.
// It holds no score and no grade, so nothing can mistake it for a report.
// As an error it is the error that stopped the scan.
type Failure struct {
	Failed    int              `json:"failed_version"`
	Generator report.Generator `json:"generator"`
	// Rubric is the rubric the run was scoring, or, for a failure before
	// any rubric was at work (reading the server, installing it), the
	// one the run asked for first.
	Rubric report.Rubric `json:"rubric"`
	// Rubrics are every rubric the run asked for, in order, when it
	// asked for several at once (a scan's job, whose failure scores
	// none of them); omitted for a run of one.
	Rubrics []report.Rubric `json:"rubrics,omitempty"`
	Target  string          `json:"target"`
	// Stage is where the scan stopped: judge, export, score or write.
	Stage  string `json:"stage"`
	Reason string `json:"reason"`
	// Interrupted is true when the user stopped the scan (Ctrl-C).
	Interrupted bool          `json:"interrupted,omitempty"`
	Done        FailureDone   `json:"done"`
	Judge       *report.Judge `json:"judge,omitempty"`
	At          time.Time     `json:"at"`

	err   error
	stage string
	tools *int
	asker *ask.Asker
	// written is where settle wrote the record, "" when it wrote none.
	written string
	// said is what err says, redacted as Reason is (see Said).
	said string
}

// Written is the path the record was written to, "" when none was (no
// --failed path, or the write failed).
func (f *Failure) Written() string { return f.written }

// FailureDone is what the scan did before it stopped.
type FailureDone struct {
	// ToolsRead is the number of tools the server listed; null when the
	// scan stopped before reading them.
	ToolsRead *int `json:"tools_read"`
	// Questions were answered (from the judge or the cache); every
	// answer the judge gave is in the cache, so a new run asks only the
	// rest.
	Questions int `json:"questions_answered"`
	Calls     int `json:"calls"`
	CacheHits int `json:"cache_hits"`
	Tokens    int `json:"tokens"`
	// RateLimited and Unanswered are the requests the provider refused
	// for now and the batch items it never answered: no calls.
	RateLimited int `json:"rate_limited,omitempty"`
	Unanswered  int `json:"unanswered,omitempty"`
	// CostUSD is what the calls cost, when the model's price is known.
	CostUSD float64 `json:"cost_usd,omitempty"`
}

// Said is the reason as the error that stopped the scan gives it,
// redacted as Reason is, without the words of an interruption: where the
// context ended after that error had fired (a scan job's --timeout
// passing while the calls in flight finished), Reason reads "interrupted
// ...: <error>", and a caller that knows which fired first words the
// reason from this instead.
func (f *Failure) Said() string { return f.said }

// Error is the message of the error that stopped the scan.
func (f *Failure) Error() string { return f.err.Error() }

// Unwrap returns the error that stopped the scan.
func (f *Failure) Unwrap() error { return f.err }

// fail fills in the record of a scan that err stopped.
func (s *Session) fail(ctx context.Context, f *Failure, r *rubric.Rubric, src Source, err error) *Failure {
	// What rubric gave the server (its environment's and headers'
	// values) is hidden from the server's words the error quotes; the
	// stdio transport hides them from the start, this does for any.
	secrets := append(redact.Credentials(src.Target.Env, src.Target.Headers), s.opt.Secrets...)
	slices.SortFunc(secrets, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	err = redact.Error(err, secrets)
	f.err = err
	f.Failed = FailedVersion
	f.Generator = report.Generator{Name: "rubric", Version: s.opt.Version}
	if r != nil {
		f.Rubric = score.RubricOf(r)
	}
	f.Target = s.recorded(src)
	f.Stage = f.stage
	// A read limit the server passed names the flag that sets it: the
	// transport's words ("no answer to tools/list within 30s") name none.
	f.Reason = transport.LimitAdvice(redact.Text(err.Error(), s.opt.RedactParams...))
	f.said = f.Reason
	f.Interrupted = ctx.Err() != nil
	if f.Interrupted {
		f.Reason = transport.LimitAdvice(redact.Text(interrupted(ctx, f.stage, err), s.opt.RedactParams...))
	}
	f.Done.ToolsRead = f.tools
	f.At = time.Now().UTC().Truncate(time.Second)
	if f.asker != nil {
		st := f.asker.Stats()
		f.Done.Questions, f.Done.Calls, f.Done.CacheHits = st.Questions, st.Calls, st.CacheHits
		f.Done.RateLimited, f.Done.Unanswered = st.RateLimited, st.Unanswered
		f.Done.Tokens = st.Tokens.Input + st.Tokens.Output
		f.Done.CostUSD = st.CostUSD
	}
	if s.block != nil {
		// A failure before the rubric was read (the surface could not
		// be) has no rubric to take the judge's labels from.
		b := *s.block
		if r != nil {
			b.Labels = r.JudgeLabels
		}
		f.Judge = &b
	}
	return f
}

// stageWords say what a scan does at each stage, for a failure record.
var stageWords = map[string]string{
	StageConfig:  "reading the server's configuration",
	StageInstall: "installing the server",
	StageJudge:   "starting the judge",
	StageExport:  "reading the server's tools",
	StageScore:   "asking the questions and computing the scores",
	StageWrite:   "writing the outputs",
}

// interrupted is the reason of a scan whose context ended at stage: it
// was stopped there, by the signal context.Cause names when one did
// (os/signal.NotifyContext), rather than as "context canceled". err
// follows when it is something else.
func interrupted(ctx context.Context, stage string, err error) string {
	by := ""
	switch cause := context.Cause(ctx); {
	case errors.Is(cause, context.DeadlineExceeded):
		by = " as its time ran out"
	case cause != nil && cause != context.Canceled:
		by = " (" + cause.Error() + ")" // "interrupt signal received"
	}
	what := stageWords[stage]
	if what == "" {
		what = "at the stage " + stage
	}
	msg := fmt.Sprintf("interrupted%s while %s, at the %s stage", by, what, stage)
	if !errors.Is(err, context.Canceled) && !errors.Is(err, context.DeadlineExceeded) {
		msg += ": " + err.Error()
	}
	return msg
}

// settle writes the failure record when err ended the scan, and removes a
// stale one when the scan completed; a failed scan also removes the
// reports an earlier scan wrote to this scan's outputs, so that a CI job
// never reads an old grade beside a new failure, or an old failure beside
// a new report. Only files rubric wrote are removed or overwritten (see
// Wrote): a path that holds anything else is left as it is, with a
// warning. Writing the record never hides err.
func settle(log hclog.Logger, o ScanOptions, f *Failure, err error) {
	failed := err != nil
	if failed {
		RemoveEarlierReports(log, o.Outputs)
	}
	path := o.Failed
	if path == "" {
		return
	}
	if !failed {
		removeOurs(log, path, "an old failure record")
		return
	}
	if ours, why := Wrote(path); !ours && why != "" {
		log.Error("the failure record is not written: "+why+"; choose another path with --failed", "path", path)
		return
	}
	if werr := f.WriteFile(path); werr != nil {
		log.Error("could not write the failure record", "path", path, "error", werr)
		return
	}
	f.written = path
	log.Info("the scan did not complete; its failure record is written", "path", path, "stage", f.Stage)
}

// RemoveEarlierReports removes the reports an earlier run wrote to
// paths (only files rubric wrote; anything else is left, with a
// warning), so that a CI job does not read the old grade beside the new
// failure: a scan that fails calls it, and so does a run that ends
// before its scan starts, on a rubric that does not load. The caller has
// checked that no path is one of the run's inputs (CheckOutputs).
func RemoveEarlierReports(log hclog.Logger, paths []string) {
	for _, p := range paths {
		removeOurs(log, p, "an earlier report")
	}
}

// removeOurs removes path when rubric wrote it; what is a warning. A
// device or a pipe (--out /dev/stdout) holds no earlier report, and is
// passed over without one.
func removeOurs(log hclog.Logger, path, what string) {
	if st, err := os.Stat(path); err == nil && st.Mode()&(os.ModeDevice|os.ModeNamedPipe|os.ModeSocket) != 0 {
		return
	}
	ours, why := Wrote(path)
	if !ours {
		if why != "" {
			log.Warn("left in place, not removed as "+what+": "+why, "path", path)
		}
		return
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		log.Warn("could not remove "+what, "path", path, "error", err)
	}
}

// headSize is how much of a file Wrote reads: every format rubric
// writes says what it is in its first lines.
const headSize = 8 << 10

// marks are the beginnings of the files rubric writes: the JSON report,
// the failure record, SARIF, the Markdown summary, the terminal summary,
// the HTML page and the gate's report. Each is matched against the first
// headSize bytes. They are compiled on first use, not at start-up.
var marks = sync.OnceValue(func() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`^\{\s*"report_version":\s*\d+,\s*"generator":\s*\{\s*"name":\s*"rubric"`),
		regexp.MustCompile(`^\{\s*"failed_version":\s*\d+,\s*"generator":\s*\{\s*"name":\s*"rubric"`),
		regexp.MustCompile(`^\{\s*"\$schema":\s*"[^"]*sarif[^"]*",\s*"version":\s*"2\.1\.0",\s*"runs":\s*\[\s*\{\s*"tool":\s*\{\s*"driver":\s*\{\s*"name":\s*"rubric"`),
		regexp.MustCompile("^## [^\n]*\n\n(?:[^\n]*\n\n)*?[^\n]*surface `sha256:[0-9a-f]+` · \\d+ tools? · rubric `"),
		regexp.MustCompile(`^[^\n]* · \d+ tools?\n(?:Grade |No score: |Scoring did not finish)`),
		// The servers of a client configuration and their installed set
		// (engine/report/serverset), as JSON, Markdown and text.
		regexp.MustCompile(`^\{\s*"servers_version":\s*\d+,\s*"generator":\s*\{\s*"name":\s*"rubric"`),
		regexp.MustCompile("^## Installed set · "),
		regexp.MustCompile(`^[^\n]* · \d+ servers?\nSERVER +TOOLS +GRADE +SCORE\n`),
		regexp.MustCompile(`^<!doctype html>\n<html lang="en">\n<head>\n(?:<meta [^\n]*>\n){0,4}<meta name="generator" content="rubric `),
		// The gate's report, as JSON and Markdown (engine/gate).
		regexp.MustCompile(`^\{\s*"gate_version":\s*\d+,\s*"generator":\s*\{\s*"name":\s*"rubric"`),
		regexp.MustCompile("^## rubric gate: (?:PASS|BLOCK|INVALID)\n"),
	}
})

// Wrote says whether the file at path is one rubric wrote (a report in
// any format, or a failure record), by its first bytes; when it is not,
// why says what it is instead ("" when there is no file at all, which
// nothing needs to be said about). Only such a file is removed or
// overwritten by a failed scan: an output flag that names the server's
// own file, a rubric or anything else by mistake loses nothing.
func Wrote(path string) (ours bool, why string) {
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return false, ""
	case err != nil:
		return false, err.Error()
	case !st.Mode().IsRegular():
		return false, "it is not a regular file"
	}
	file, err := os.Open(path)
	if err != nil {
		return false, err.Error()
	}
	defer file.Close()
	head := make([]byte, headSize)
	n, err := io.ReadFull(file, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return false, err.Error()
	}
	for _, m := range marks() {
		if m.Match(head[:n]) {
			return true, ""
		}
	}
	return false, "it does not begin as a report or failure record of rubric does"
}

// Flagged is a file a command-line flag names.
type Flagged struct {
	Flag string // such as "--out"
	Path string
}

// CheckOutputs refuses, before anything runs, an output that is one of
// the inputs (the target file, the rubric, the answers file): a complete
// scan would overwrite it. It refuses as well a failure record (failed)
// at the path of another output, which a complete scan would remove as a
// stale record. Paths are compared as files: two names of one file are
// the same. Empty paths and "-" (standard input or output) are skipped.
func CheckOutputs(inputs, outputs []Flagged, failed Flagged) error {
	for _, out := range outputs {
		for _, in := range inputs {
			if samePath(out.Path, in.Path) {
				return fmt.Errorf("%s %s is the file %s reads: writing the output there would replace it; choose another path for %s", out.Flag, out.Path, in.Flag, out.Flag)
			}
		}
		if samePath(out.Path, failed.Path) {
			return fmt.Errorf("%s %s is where the failure record would go (%s): give %s another path", out.Flag, out.Path, failed.Flag, failed.Flag)
		}
	}
	for _, in := range inputs {
		if samePath(failed.Path, in.Path) {
			return fmt.Errorf("the failure record %s (%s) is the file %s reads: give --failed another path", failed.Path, failed.Flag, in.Flag)
		}
	}
	for i, out := range outputs {
		for _, other := range outputs[:i] {
			if samePath(out.Path, other.Path) {
				return fmt.Errorf("%s and %s both name %s: one would replace the other; give each its own file", other.Flag, out.Flag, out.Path)
			}
		}
	}
	writable := map[string]bool{}
	for _, out := range append(slices.Clone(outputs), failed) {
		if err := checkWritable(out, writable); err != nil {
			return err
		}
	}
	return nil
}

// checkWritable refuses, before any work is done, an output that could
// not be written at the end: a path that is a directory, one under a
// regular file, or one in a folder this process may not write to (a file
// is made and removed there to know). A missing folder is made when the
// output is written, so the nearest folder that exists is the one tried.
// writable holds the folders already found writable, which are not tried
// again (a calibration writes a dozen files into one).
func checkWritable(out Flagged, writable map[string]bool) error {
	if out.Path == "" || out.Path == "-" {
		return nil
	}
	path := out.Path
	if fi, err := os.Stat(path); err == nil {
		if fi.IsDir() {
			return fmt.Errorf("%s %s is a directory; give a file name", out.Flag, out.Path)
		}
		if !fi.Mode().IsRegular() {
			return nil // a device or a pipe is written in place
		}
		if real, err := filepath.EvalSymlinks(path); err == nil {
			path = real // the file a link names is replaced in its own folder
		}
	}
	dir := filepath.Dir(path)
	for {
		fi, err := os.Stat(dir)
		if err == nil && !fi.IsDir() {
			return fmt.Errorf("cannot write %s: %s is a file, not a folder; choose another %s", out.Path, dir, out.Flag)
		}
		if err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if errors.Is(err, fs.ErrPermission) || parent == dir {
			return fmt.Errorf("cannot write %s: the folder %s cannot be reached (%s); choose another %s", out.Path, dir, boundedread.Reason(err), out.Flag)
		}
		dir = parent
	}
	if writable[dir] {
		return nil
	}
	f, err := os.CreateTemp(dir, ".rubric-write-check-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: the folder %s is not writable (%s); choose another %s", out.Path, dir, boundedread.Reason(err), out.Flag)
	}
	f.Close()
	os.Remove(f.Name())
	writable[dir] = true
	return nil
}

// Paths are the paths of files that are set.
func Paths(files []Flagged) []string {
	var paths []string
	for _, f := range files {
		if f.Path != "" {
			paths = append(paths, f.Path)
		}
	}
	return paths
}

// samePath says whether a and b name the same file: the same clean
// absolute path, or two names of one existing file.
func samePath(a, b string) bool {
	if a == "" || b == "" || a == "-" || b == "-" {
		return false
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	if err1 == nil && err2 == nil && aa == bb {
		return true
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// FailurePath is where a failure record goes: explicit when given, else
// failed.json beside the first of outputs that is set and is no device,
// pipe or other special file (--out /dev/stdout puts nothing in /dev);
// "" when nowhere.
func FailurePath(explicit string, outputs ...string) string {
	if explicit != "" {
		return explicit
	}
	for _, p := range outputs {
		if p == "" {
			continue
		}
		if st, err := os.Stat(p); err == nil && !st.Mode().IsRegular() {
			continue
		}
		return filepath.Join(filepath.Dir(p), "failed.json")
	}
	return ""
}

// WriteFile writes the record to path, atomically, as indented JSON.
func (f *Failure) WriteFile(path string) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(f)
	})
}

// WriteRecord writes every answer of a report as an answers file, which
// the replay judge reads.
func WriteRecord(path string, rep *report.Report) error {
	var lines []judge.Recorded
	for o := range rep.Observations() {
		rec := judge.Recorded{Kind: o.Kind, Subject: o.Subject, Answer: o.Answer, Model: o.Model}
		if o.Tokens != (judge.Tokens{}) {
			rec.Tokens = &o.Tokens
		}
		lines = append(lines, rec)
	}
	return atomicfile.Write(path, func(w io.Writer) error {
		return judge.WriteRecorded(w, lines)
	})
}
