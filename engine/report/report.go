// Package report is the record of one scoring run: what was scored, with
// which rubric, every observation and every score, exact and rounded.
//
// A Report is written as versioned JSON (its JSON Schema is
// report.schema.json beside this file) and embeds the surface it scored, so
// that rescoring and explaining need nothing else. Writers for people and
// tools live in the sub-packages.
package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Version is the version of the report format; it changes when a field
// that scripts rely on changes meaning or goes away.
const Version = 1

// Report is the result of scoring one surface with one rubric.
type Report struct {
	ReportVersion int       `json:"report_version"`
	Generator     Generator `json:"generator"`
	Rubric        Rubric    `json:"rubric"`
	Target        string    `json:"target"`
	Surface       Surface   `json:"surface"`
	// Complete is false when scoring could not finish; such a report has
	// no scores and says why in Warnings.
	Complete bool `json:"complete"`
	// Score is the overall score rounded as the rubric says, Exact the same
	// value as an exact fraction; both are null when there is nothing to
	// score (NoScore says why).
	Score   *json.Number `json:"score"`
	Exact   *string      `json:"exact"`
	Grade   *string      `json:"grade"`
	NoScore string       `json:"no_score,omitempty"`
	Metrics []Metric     `json:"metrics,omitempty"`
	Tools   []Tool       `json:"tools"`
	// Judge identifies the model that answered questions; null when the
	// rubric asks none.
	Judge    *Judge   `json:"judge"`
	Calls    Calls    `json:"calls"`
	Warnings []string `json:"warnings"`
	Timings  Timings  `json:"timings"`
	// Embedded is the scored surface in a shape the file transport reads.
	Embedded json.RawMessage `json:"embedded_surface"`
}

// Generator names the program that wrote the report.
type Generator struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// Rubric identifies the rubric a report was scored with.
type Rubric struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Digest  string `json:"digest"`
	Title   string `json:"title,omitempty"`
	File    string `json:"file,omitempty"`
	Round   int    `json:"round"`
}

// Surface identifies what was scored.
type Surface struct {
	Hash      string         `json:"hash"`
	ToolCount int            `json:"tool_count"`
	Format    string         `json:"format,omitempty"`
	Source    string         `json:"source,omitempty"`
	Server    map[string]any `json:"server,omitempty"`
}

// Metric is a named value a rubric computes; numbers carry their exact form.
type Metric struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
	Exact string `json:"exact,omitempty"`
}

// Tool is one tool's results.
type Tool struct {
	Name    string      `json:"name"`
	Hash    string      `json:"hash"`
	Score   json.Number `json:"score"`
	Exact   string      `json:"exact"`
	Grade   string      `json:"grade"`
	Metrics []Metric    `json:"metrics,omitempty"`
	Checks  []Check     `json:"checks"`
	Issues  []Issue     `json:"issues"`
}

// Check is one static check's observation of one tool.
type Check struct {
	Name   string `json:"name"`
	Title  string `json:"title"`
	Points string `json:"points"`
	// Credit is the fraction earned, exact: 1 passed, 0 failed, passed/total
	// for a check over items, 1 when there are no items.
	Credit string `json:"credit"`
	// Passed and Total count the items of a check over items.
	Passed int `json:"passed"`
	Total  int `json:"total"`
	// Items is false for a check of the whole tool.
	Items bool `json:"items"`
	// Failed names the items that failed.
	Failed  []string `json:"failed,omitempty"`
	Skipped bool     `json:"skipped,omitempty"`
	// Error is set when the check could not be evaluated.
	Error string `json:"error,omitempty"`
}

// Issue is one thing to fix in one tool.
type Issue struct {
	Check   string   `json:"check"`
	Message string   `json:"message"`
	Params  []string `json:"params"`
	// Points is the weight of the check, for ordering a fix list.
	Points string `json:"points"`
}

// Judge identifies a judge (filled in by judge-backed rubrics).
type Judge struct {
	Plugin   string         `json:"plugin"`
	Version  string         `json:"version"`
	Provider string         `json:"provider,omitempty"`
	Model    string         `json:"model,omitempty"`
	Params   map[string]any `json:"params,omitempty"`
}

// Calls counts model calls, cache hits and tokens.
type Calls struct {
	Model     int `json:"model"`
	CacheHits int `json:"cache_hits"`
	Tokens    int `json:"tokens"`
}

// Timings are in milliseconds.
type Timings struct {
	ReadMS  float64 `json:"read_ms"`
	ScoreMS float64 `json:"score_ms"`
}

// Marshal returns the report as indented JSON with a final newline.
func Marshal(r *Report) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Read loads a report written by WriteFile.
func Read(path string) (*Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read report: %w", err)
	}
	var r Report
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("%s: not a rubric report: %w", path, err)
	}
	if r.ReportVersion != Version {
		return nil, fmt.Errorf("%s: report version %d, this rubric reads version %d", path, r.ReportVersion, Version)
	}
	if len(r.Embedded) == 0 {
		return nil, fmt.Errorf("%s: the report embeds no surface, so it cannot be rescored or explained", path)
	}
	return &r, nil
}

// WriteFile writes data to path atomically: into a temporary file in the
// same directory, then renamed over path, so a reader never sees half a file.
func WriteFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Chmod(tmp, 0o644); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
