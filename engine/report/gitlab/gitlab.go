// Package gitlab writes a report as a GitLab Code Quality report: a JSON
// array of issues, each with a description, a check_name, a fingerprint,
// a severity and a location (a path and a begin line), which GitLab shows
// in merge requests (artifacts:reports:codequality).
//
// Each issue of the report is one entry, in the fix list's order, placed
// where the SARIF log places it (sarif.Findings: the member of a file
// target, the tracked line that quotes the tool's name, else a manifest
// or a pseudo-path, which the description then says). The fingerprint
// is the SARIF result's, stable across runs and line moves. Severities
// follow the SARIF level: "error" is "major" ("critical" for a security
// finding of critical severity), "warning" "minor" and "note" "info".
//
// A tool the rubric left unscored (its min_scored) is an entry too, after
// the issues: check_name "unscored", severity "major", placed where the
// tool is, its description saying why. GitLab shows nothing but entries,
// and a merge request must not read a report of fewer tools as the whole
// server's.
package gitlab

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/sarif"
)

type issue struct {
	Type        string   `json:"type"`
	Description string   `json:"description"`
	CheckName   string   `json:"check_name"`
	Fingerprint string   `json:"fingerprint"`
	Severity    string   `json:"severity"`
	Categories  []string `json:"categories"`
	Location    location `json:"location"`
}

type location struct {
	Path  string `json:"path"`
	Lines lines  `json:"lines"`
}

type lines struct {
	Begin int `json:"begin"`
}

// Write writes r as an indented GitLab Code Quality report, locating
// findings from the working directory.
func Write(w io.Writer, r *report.Report) error {
	return WriteOptions(w, r, sarif.Options{})
}

// WriteOptions is Write with the directory findings are located from.
func WriteOptions(w io.Writer, r *report.Report, opt sarif.Options) error {
	findings, err := sarif.Findings(r, opt)
	if err != nil {
		return fmt.Errorf("write GitLab Code Quality: %w", err)
	}
	out := make([]issue, 0, len(findings))
	for _, f := range findings {
		desc := f.Tool + ": " + f.Issue.Message
		if f.Note != "" {
			desc += " (" + f.Note + ")"
		}
		// Shown as every writer shows it (report.EscapeControls): a
		// bidirectional control must not disguise a tool's name in a
		// merge request.
		out = append(out, issue{
			Type:        "issue",
			Description: report.EscapeControls(desc, true),
			CheckName:   f.Issue.Check,
			Fingerprint: f.Fingerprint,
			Severity:    severity(f),
			Categories:  categories(f),
			Location:    location{Path: f.Path, Lines: lines{Begin: f.Line}},
		})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("write GitLab Code Quality: %w", err)
	}
	return nil
}

func severity(f sarif.Finding) string {
	switch {
	case f.Issue.Severity == "critical":
		return "critical"
	case f.Level == "error":
		return "major"
	case f.Level == "warning":
		return "minor"
	}
	return "info"
}

func categories(f sarif.Finding) []string {
	if f.Issue.Check == sarif.UnscoredCheck {
		return []string{"Bug Risk"}
	}
	if f.Issue.Severity != "" {
		return []string{"Security"}
	}
	return []string{"Clarity"}
}
