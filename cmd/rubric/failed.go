package main

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/internal/atomicfile"
)

// The stages of a scan, as a failure record names them.
const (
	stageJudge  = "judge"  // starting and configuring the judge
	stageExport = "export" // reading the server's tools
	stageScore  = "score"  // asking the questions and computing the scores
	stageWrite  = "write"  // writing the outputs
	stageDone   = ""       // complete: a --fail-under exit is not a failure
)

// failure is failed.json: the record of a scan that could not complete.
// It holds no score and no grade, so nothing can mistake it for a report.
type failure struct {
	Failed    int              `json:"failed_version"`
	Generator report.Generator `json:"generator"`
	Rubric    report.Rubric    `json:"rubric"`
	Target    string           `json:"target"`
	// Stage is where the scan stopped: judge, export, score or write.
	Stage  string `json:"stage"`
	Reason string `json:"reason"`
	// Interrupted is true when the user stopped the scan (Ctrl-C).
	Interrupted bool          `json:"interrupted,omitempty"`
	Done        failureDone   `json:"done"`
	Judge       *report.Judge `json:"judge,omitempty"`
	At          time.Time     `json:"at"`
}

// failureDone is what the scan did before it stopped.
type failureDone struct {
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

// failedFlag adds --failed to a command that scans.
func failedFlag(cmd *cobra.Command) {
	cmd.Flags().String("failed", "", "where to write failed.json when the scan cannot complete (default: failed.json beside --out or --json, when one is given)")
}

// failedPath is where a failure record goes; "" when nowhere.
func (a *app) failedPath() string {
	if p := a.v.GetString("failed"); p != "" {
		return p
	}
	for _, k := range []string{"out", "json"} {
		if p := a.v.GetString(k); p != "" {
			return filepath.Join(filepath.Dir(p), "failed.json")
		}
	}
	return ""
}

// scan follows a scan's progress, so that a failure can say where it
// stopped and what was done.
type scan struct {
	r       *rubric.Rubric
	target  string
	stage   string
	tools   *int
	asker   *ask.Asker
	judge   *runJudge
	started time.Time
}

// finish writes failed.json when err ends the scan, and removes a stale
// one when the scan completed; a failed scan also removes the reports an
// earlier scan wrote to this scan's outputs, so that a CI job never reads
// an old grade beside a new failure, or an old failure beside a new
// report. Writing the record never hides err.
func (a *app) finish(s *scan, err error, interrupted bool) {
	failed := err != nil && s.stage != stageDone
	if failed {
		for _, k := range []string{"out", "json", "markdown", "sarif"} {
			if p := a.v.GetString(k); p != "" {
				if rmErr := os.Remove(p); rmErr != nil && !errors.Is(rmErr, os.ErrNotExist) {
					a.logger().Warn("could not remove an earlier report", "path", p, "error", rmErr)
				}
			}
		}
	}
	path := a.failedPath()
	if path == "" {
		return
	}
	if !failed {
		if rmErr := os.Remove(path); rmErr != nil && !errors.Is(rmErr, os.ErrNotExist) {
			a.logger().Warn("could not remove an old failure record", "path", path, "error", rmErr)
		}
		return
	}
	f := failure{
		Failed:      1,
		Generator:   report.Generator{Name: "rubric", Version: version()},
		Rubric:      score.RubricOf(s.r),
		Target:      s.target,
		Stage:       s.stage,
		Reason:      err.Error(),
		Interrupted: interrupted,
		Done:        failureDone{ToolsRead: s.tools},
		At:          time.Now().UTC().Truncate(time.Second),
	}
	if s.asker != nil {
		st := s.asker.Stats()
		f.Done.Questions, f.Done.Calls, f.Done.CacheHits = st.Questions, st.Calls, st.CacheHits
		f.Done.Tokens = st.Tokens.Input + st.Tokens.Output
	}
	if s.judge != nil {
		f.Judge = judgeBlock(s.judge, s.r)
	}
	if werr := atomicfile.Write(path, func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(f)
	}); werr != nil {
		a.logger().Error("could not write the failure record", "path", path, "error", werr)
		return
	}
	a.logger().Info("the scan did not complete; its failure record is written", "path", path, "stage", s.stage)
}
