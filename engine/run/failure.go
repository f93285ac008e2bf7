package run

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/hashicorp/go-hclog"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/internal/atomicfile"
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
	Rubric    report.Rubric    `json:"rubric"`
	Target    string           `json:"target"`
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
}

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
}

// Error is the message of the error that stopped the scan.
func (f *Failure) Error() string { return f.err.Error() }

// Unwrap returns the error that stopped the scan.
func (f *Failure) Unwrap() error { return f.err }

// fail fills in the record of a scan that err stopped.
func (s *Session) fail(ctx context.Context, f *Failure, r *rubric.Rubric, src Source, err error) *Failure {
	f.err = err
	f.Failed = FailedVersion
	f.Generator = report.Generator{Name: "rubric", Version: s.opt.Version}
	f.Rubric = score.RubricOf(r)
	f.Target = src.recorded()
	f.Stage = f.stage
	f.Reason = err.Error()
	f.Interrupted = ctx.Err() != nil
	f.Done.ToolsRead = f.tools
	f.At = time.Now().UTC().Truncate(time.Second)
	if f.asker != nil {
		st := f.asker.Stats()
		f.Done.Questions, f.Done.Calls, f.Done.CacheHits = st.Questions, st.Calls, st.CacheHits
		f.Done.Tokens = st.Tokens.Input + st.Tokens.Output
	}
	if s.block != nil {
		b := *s.block
		b.Labels = r.JudgeLabels
		f.Judge = &b
	}
	return f
}

// settle writes the failure record when err ended the scan, and removes a
// stale one when the scan completed; a failed scan also removes the
// reports an earlier scan wrote to this scan's outputs, so that a CI job
// never reads an old grade beside a new failure, or an old failure beside
// a new report. Writing the record never hides err.
func settle(log hclog.Logger, o ScanOptions, f *Failure, err error) {
	failed := err != nil
	if failed {
		for _, p := range o.Outputs {
			if rmErr := os.Remove(p); rmErr != nil && !errors.Is(rmErr, os.ErrNotExist) {
				log.Warn("could not remove an earlier report", "path", p, "error", rmErr)
			}
		}
	}
	path := o.Failed
	if path == "" {
		return
	}
	if !failed {
		if rmErr := os.Remove(path); rmErr != nil && !errors.Is(rmErr, os.ErrNotExist) {
			log.Warn("could not remove an old failure record", "path", path, "error", rmErr)
		}
		return
	}
	if werr := f.WriteFile(path); werr != nil {
		log.Error("could not write the failure record", "path", path, "error", werr)
		return
	}
	log.Info("the scan did not complete; its failure record is written", "path", path, "stage", f.Stage)
}

// FailurePath is where a failure record goes: explicit when given, else
// failed.json beside the first of outputs that is set; "" when nowhere.
func FailurePath(explicit string, outputs ...string) string {
	if explicit != "" {
		return explicit
	}
	for _, p := range outputs {
		if p != "" {
			return filepath.Join(filepath.Dir(p), "failed.json")
		}
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
