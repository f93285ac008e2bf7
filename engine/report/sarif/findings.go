package sarif

import (
	"fmt"

	"github.com/rubricmcp/rubric/engine/report"
)

// Finding is one issue of a report with the place the SARIF log gives
// it, for the other formats that point into files (GitLab Code Quality).
type Finding struct {
	Tool  string
	Issue report.Issue
	// Level is the SARIF level: "error", "warning" or "note".
	Level string
	// Path is relative to the top of the work tree (or where rubric
	// ran); Line counts from 1; Column is 0 when unknown.
	Path         string
	Line, Column int
	// Note says why the place is a stand-in (a manifest or a
	// pseudo-path), "" when it is where the tool is.
	Note string
	// Fingerprint stays the same across runs and line moves.
	Fingerprint string
}

// Findings returns every issue of r in the fix list's order, placed as
// WriteOptions places them, then a finding for each tool r's rubric left
// unscored (its min_scored), in tool order, placed where the tool is, as
// an error (check UnscoredCheck) whose message says why it was not
// scored. The SARIF log itself says that in its notifications; a format
// whose reader shows only issues (GitLab Code Quality) needs these.
func Findings(r *report.Report, opt Options) ([]Finding, error) {
	if r == nil {
		return nil, fmt.Errorf("no report")
	}
	fixes, err := r.FixList()
	if err != nil {
		return nil, err
	}
	loc := newLocator(r, opt)
	server := serverName(r)
	tools := make(map[string]report.Tool, len(r.Tools))
	for _, t := range r.Tools {
		tools[t.Name] = t
	}
	prints := fingerprints(r, server, fixes)
	out := make([]Finding, 0, len(fixes)+len(r.UnscoredTools))
	for i, f := range fixes {
		level, err := Level(f.Issue)
		if err != nil {
			return nil, fmt.Errorf("tool %q, check %q: %w", f.Tool, f.Issue.Check, err)
		}
		c, _ := tools[f.Tool].Check(f.Issue.Check)
		at := loc.locate(f.Tool, f.Issue, c.Title)
		line := max(at.at.line, 1)
		out = append(out, Finding{
			Tool: f.Tool, Issue: f.Issue, Level: level,
			Path: at.at.uri, Line: line, Column: at.at.column, Note: at.note,
			Fingerprint: prints[i],
		})
	}
	for _, t := range r.UnscoredTools {
		is := report.Issue{Check: UnscoredCheck, Title: "Not scored", Message: "not scored: " + t.Reason}
		at := loc.locate(t.Name, is, is.Title)
		out = append(out, Finding{
			Tool: t.Name, Issue: is, Level: "error",
			Path: at.at.uri, Line: max(at.at.line, 1), Column: at.at.column, Note: at.note,
			Fingerprint: fingerprint(r, server, t.Name, UnscoredCheck, nil)[fingerprintKey],
		})
	}
	return out, nil
}

// UnscoredCheck is the check a tool left unscored stands under among
// Findings.
const UnscoredCheck = "unscored"

// Level is an issue's SARIF level: from its severity for a security
// finding, else from its check's points (see the package doc).
func Level(is report.Issue) (string, error) {
	if _, level, ok := securityOf(is.Severity); ok {
		return level, nil
	}
	return levelOf(is.Points)
}
