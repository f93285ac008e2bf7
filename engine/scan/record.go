package scan

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/score"
)

// RecordVersion is the version of a job record's format.
const RecordVersion = 1

// Record is what a job left: OUT/jobs/KEY.json, written last, so that a
// job with a record is done (scored or failed) and a scan run again
// skips it.
type Record struct {
	Version int    `json:"record_version"`
	Key     string `json:"key"`
	Name    string `json:"name"`
	// Target is where the server was read, redacted.
	Target string `json:"target"`
	Tools  int    `json:"tools"`
	// Scores are by rubric name; nil when the job failed.
	Scores map[string]Score `json:"scores,omitempty"`
	// Failed says why the job failed; the failure record is at its
	// Record path. A failed job has no scores at all.
	Failed *Failed `json:"failed,omitempty"`
	Calls  Calls   `json:"calls"`
	// Seconds the job took, by the scan's clock.
	Seconds float64 `json:"seconds"`
}

// Score is a server's result under one rubric.
type Score struct {
	Score *json.Number `json:"score"`
	Grade *string      `json:"grade"`
	// Report is the report's path, relative to the scan's directory.
	Report string `json:"report"`
	// Judge answered the rubric's questions; nil when it asks none.
	Judge *report.Judge `json:"judge,omitempty"`
}

// Failed is why a job failed.
type Failed struct {
	Stage  string `json:"stage"`
	Reason string `json:"reason"`
	// Record is the failure record's path (failed.json's shape),
	// relative to the scan's directory.
	Record string `json:"record"`
}

// Calls are a job's judge calls.
type Calls struct {
	Model     int     `json:"model"`
	CacheHits int     `json:"cache_hits"`
	Tokens    int     `json:"tokens"`
	CostUSD   float64 `json:"cost_usd,omitempty"`
}

func (c *Calls) add(r report.Calls) {
	c.Model += r.Model
	c.CacheHits += r.CacheHits
	c.Tokens += r.Tokens
	if r.Cost != nil {
		c.CostUSD += r.Cost.USD
	}
}

// MetaVersion is the version of scan.json's format.
const MetaVersion = 1

// Meta is OUT/scan.json: the rubrics a scan's directory holds reports
// of, and the time spent running it (summed over runs resumed).
type Meta struct {
	Version int             `json:"scan_version"`
	Rubrics []report.Rubric `json:"rubrics"`
	Seconds float64         `json:"seconds"`
}

func metaPath(dir string) string { return filepath.Join(dir, "scan.json") }

// ReadMeta reads dir's scan.json.
func ReadMeta(dir string) (*Meta, error) {
	data, err := os.ReadFile(metaPath(dir))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s is not a scan's directory (it has no scan.json): give the --out of a rubric scan", dir)
		}
		return nil, err
	}
	var m Meta
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", metaPath(dir), err)
	}
	return &m, nil
}

// WriteMeta writes scan.json, refusing a directory that holds a scan of
// other rubrics: its records would be taken for this scan's.
func (s *Scanner) WriteMeta() error {
	m := Meta{Version: MetaVersion}
	for _, r := range s.Rubrics {
		m.Rubrics = append(m.Rubrics, score.RubricOf(r))
	}
	if old, err := ReadMeta(s.Out); err == nil {
		if !sameRubrics(old.Rubrics, m.Rubrics) {
			return fmt.Errorf("%s holds a scan with other rubrics (%s): choose another --out", s.Out, rubricNames(old.Rubrics))
		}
		return nil
	} else if _, statErr := os.Stat(metaPath(s.Out)); statErr == nil {
		return err
	}
	return writeMeta(s.Out, &m)
}

func writeMeta(dir string, m *Meta) error {
	return atomicWrite(metaPath(dir), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(m)
	})
}

// addTime adds d to the time scan.json says the scan took.
func (s *Scanner) addTime(d interface{ Seconds() float64 }) error {
	m, err := ReadMeta(s.Out)
	if err != nil {
		return err
	}
	m.Seconds += d.Seconds()
	return writeMeta(s.Out, m)
}

// sameRubrics says whether two scans have the same rubrics, by digest.
func sameRubrics(a, b []report.Rubric) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name || a[i].Digest != b[i].Digest {
			return false
		}
	}
	return true
}

func rubricNames(rs []report.Rubric) string {
	s := ""
	for i, r := range rs {
		if i > 0 {
			s += ", "
		}
		s += r.Name + " " + r.Digest[:min(len(r.Digest), 19)]
	}
	return s
}
