// Package badge writes a report's overall grade as a shields.io endpoint
// badge: the JSON that https://img.shields.io/endpoint?url=... reads
// (schemaVersion 1, label, message, color).
//
// The label is "rubric <name>", the message the grade and the rounded
// score ("B 88.5"), and the colour follows the grade's letter: A
// brightgreen, B green, C yellow, D orange, E and F red, any other grade
// blue. A report without an overall score says why in a lightgrey badge
// ("no score"), and one that could not finish is marked isError (red).
// When the rubric left tools unscored (its min_scored), the message says
// how many after the score ("B 3.5 (1 unscored)"): the score is then of
// the others.
package badge

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rubricmcp/rubric/engine/report"
)

// Badge is a shields.io endpoint response.
type Badge struct {
	SchemaVersion int    `json:"schemaVersion"`
	Label         string `json:"label"`
	Message       string `json:"message"`
	Color         string `json:"color"`
	IsError       bool   `json:"isError,omitempty"`
}

// colors are the badge colours of grade letters.
var colors = map[string]string{"A": "brightgreen", "B": "green", "C": "yellow", "D": "orange", "E": "red", "F": "red"}

// Of returns the badge of r.
func Of(r *report.Report) Badge {
	b := Badge{SchemaVersion: 1, Label: "rubric " + r.Rubric.Name}
	switch {
	case !r.Complete:
		b.Message, b.Color, b.IsError = "incomplete", "red", true
	case r.Score == nil:
		b.Message, b.Color = "no score", "lightgrey"
	default:
		grade := ""
		if r.Grade != nil {
			grade = *r.Grade
		}
		b.Message = strings.TrimSpace(grade + " " + r.Score.String())
		if n := len(r.UnscoredTools); n > 0 {
			b.Message += " (" + strconv.Itoa(n) + " unscored)"
		}
		b.Color = "blue"
		if c, ok := colors[strings.ToUpper(firstLetter(grade))]; ok {
			b.Color = c
		}
	}
	return b
}

func firstLetter(s string) string {
	if s == "" {
		return ""
	}
	return s[:1]
}

// Write writes r's badge as indented JSON.
func Write(w io.Writer, r *report.Report) error {
	if r == nil {
		return fmt.Errorf("write badge: no report to write")
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(Of(r)); err != nil {
		return fmt.Errorf("write badge: %w", err)
	}
	return nil
}
