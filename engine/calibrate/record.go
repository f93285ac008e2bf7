package calibrate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/internal/atomicfile"
	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/jsonpos"
)

// Write writes the record as indented JSON.
func Write(w io.Writer, rec *Record) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(rec)
}

// WriteFile writes the record to path atomically.
func WriteFile(path string, rec *Record) error {
	return atomicfile.Write(path, func(w io.Writer) error { return Write(w, rec) })
}

// Read loads a record written by Write.
func Read(path string) (*Record, error) {
	b, err := boundedread.ReadFile(context.Background(), path, boundedread.Limit())
	if err != nil {
		return nil, boundedread.Named(err, "calibration record", path, "give the calibration.json that rubric calibrate CAPTURE --out DIR writes")
	}
	var rec Record
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&rec); err != nil {
		de := jsonpos.Decoding(path, b, err)
		return nil, fmt.Errorf("%s: not a calibration record: %s (a record is the calibration.json rubric calibrate writes)", de.Where(), de.Msg)
	}
	if rec.Version == 0 {
		if isBetween(b) {
			return nil, fmt.Errorf("%s holds two judges' agreement with each other, not one calibration record: %w", path, ErrTwoJudges)
		}
		if kind := report.Other(b, "calibration_version"); kind != "" {
			return nil, fmt.Errorf("%s is %s, not a calibration record (write one with rubric calibrate)", path, kind)
		}
	}
	if rec.Version != Version {
		return nil, fmt.Errorf("%s: calibration record version %d, this rubric reads version %d", path, rec.Version, Version)
	}
	if rec.Rubric.Digest == "" || rec.Capture.SurfaceHash == "" {
		return nil, fmt.Errorf("%s: the record names no rubric digest or scored set", path)
	}
	// The statistics as the file holds them, rounded values included,
	// which decoding drops: Verify compares these.
	var raw struct {
		Statistics json.RawMessage `json:"statistics"`
	}
	if json.Unmarshal(b, &raw) == nil {
		rec.rawStats = raw.Statistics
	}
	return &rec, nil
}

// ErrTwoJudges is the error Read gives for the judges.json of a
// calibration of two judges (see Between), which CheckBetween checks.
var ErrTwoJudges = errors.New("check it with the records of judge-1/ and judge-2/ beside it")

// isBetween says whether b is a Between as calibrate writes it.
func isBetween(b []byte) bool {
	var members map[string]json.RawMessage
	if json.Unmarshal(b, &members) != nil {
		return false
	}
	for _, k := range []string{"judges", "bootstrap", "agreement"} {
		if _, ok := members[k]; !ok {
			return false
		}
	}
	return true
}

// Current is what a record is checked against: the rubric, the judge and
// the scored set as they are now.
type Current struct {
	RubricName, RubricVersion, RubricDigest string
	Judge                                   *report.Judge
	SurfaceHash                             string
	ToolCount                               int
	// Capture is the capture as it is now, whose published values Check
	// reads again; nil leaves them unchecked.
	Capture *Capture
}

// Moved is one thing that no longer matches the record.
type Moved struct {
	What     string
	Recorded string
	Now      string
}

// String says what moved, from what to what.
func (m Moved) String() string {
	return fmt.Sprintf("%s moved: recorded %s, now %s", m.What, m.Recorded, m.Now)
}

// Compare lists what no longer matches the record: the rubric's digest,
// each part of the judge's identity, and the scored set's hash. None
// means the record still describes the rubric, judge and capture at hand.
func (rec *Record) Compare(cur Current) []Moved {
	var out []Moved
	if cur.RubricDigest != rec.Rubric.Digest {
		out = append(out, Moved{
			What:     "the rubric digest",
			Recorded: fmt.Sprintf("%s (%s %s)", rec.Rubric.Digest, rec.Rubric.Name, rec.Rubric.Version),
			Now:      fmt.Sprintf("%s (%s %s)", cur.RubricDigest, cur.RubricName, cur.RubricVersion),
		})
	}
	out = append(out, judgeMoved(rec.Judge, cur.Judge)...)
	if cur.SurfaceHash != rec.Capture.SurfaceHash {
		out = append(out, Moved{
			What:     "the scored set",
			Recorded: fmt.Sprintf("%s (%d tools)", rec.Capture.SurfaceHash, rec.Capture.ToolCount),
			Now:      fmt.Sprintf("%s (%d tools)", cur.SurfaceHash, cur.ToolCount),
		})
	}
	return out
}

// judgeMoved compares two identities part by part.
func judgeMoved(was, now *report.Judge) []Moved {
	if was == nil {
		was = &report.Judge{}
	}
	if now == nil {
		now = &report.Judge{}
	}
	parts := []struct {
		what     string
		was, now any
	}{
		{"the judge plugin", was.Plugin, now.Plugin},
		{"the judge version", was.Version, now.Version},
		{"the judge provider", was.Provider, now.Provider},
		{"the judge model", was.Model, now.Model},
		{"the judge parameters", canonicalParams(was.Params), canonicalParams(now.Params)},
		{"whether the judge is a heuristic", was.Heuristic, now.Heuristic},
		{"the judge's command line", was.CLI, now.CLI},
		{"the judge's command line version", was.CLIVersion, now.CLIVersion},
		{"the judge plugin's sha256", was.SHA256, now.SHA256},
	}
	var out []Moved
	for _, p := range parts {
		if !reflect.DeepEqual(p.was, p.now) {
			out = append(out, Moved{What: p.what, Recorded: show(p.was), Now: show(p.now)})
		}
	}
	return out
}

// canonicalParams writes parameters as sorted JSON, so that a number read
// back from a file compares equal to the same number just configured.
func canonicalParams(p map[string]any) string {
	if len(p) == 0 {
		return "{}"
	}
	b, err := json.Marshal(p)
	if err != nil {
		return fmt.Sprint(p)
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return string(b)
	}
	b, _ = json.Marshal(v)
	return string(b)
}

func show(v any) string {
	if s, ok := v.(string); ok {
		if s == "" {
			return "(none)"
		}
		return s
	}
	return fmt.Sprint(v)
}
