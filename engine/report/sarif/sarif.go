// Package sarif writes a report as a SARIF 2.1.0 log, the format that code
// scanning services (GitHub code scanning, Azure DevOps) and SARIF viewers
// read.
//
// The log holds one run. Its tool driver is "rubric", with the version of
// the program that wrote the report. Every check that found an issue in at
// least one tool is a rule: its id is the check name and its short
// description the check's title. Every issue is one result of its check's
// rule; the message is the issue's message after the tool's name, and the
// location is the tool as a logical location of kind "function", fully
// qualified as "<server>/<tool>", where <server> is the server's name, or
// failing that the surface's source, or the report's target.
//
// A result's level comes from the weight (points) of its check:
//
//	points >= 20   "error"
//	points >= 10   "warning"
//	points <  10   "note"
//
// An issue with a severity (a security finding) takes its level from the
// severity instead, and carries GitHub code scanning's numeric
// "security-severity" in its properties; its rule is tagged "security"
// and carries the highest security-severity of its results:
//
//	critical  "error"    9.5
//	high      "error"    8.0
//	medium    "warning"  5.0
//	low       "note"     2.0
//
// Each rule's defaultConfiguration carries the same level. Results come
// in the order of the fix list (report.FixList): the largest gain first;
// each result's properties carry its gain (and what it moves the overall,
// when the rubric says), and the run's properties the unit gains count in
// (fixUnit) and the value they move (fixOverall).
//
// The run's property bag records the rubric (name, version, digest), the
// surface (hash, tool count) and the overall score, exact score and grade
// when there is one, so that a result can be traced to exactly what was
// scored. An incomplete report gives an invocation whose
// executionSuccessful is false; the report's warnings become the
// invocation's tool execution notifications.
package sarif

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
)

const (
	// schemaURI is the published JSON Schema of SARIF 2.1.0.
	schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
	version   = "2.1.0"
	toolName  = "rubric"
	infoURI   = "https://github.com/rubricmcp/rubric"
)

var (
	errorPoints   = num.Int(20)
	warningPoints = num.Int(10)
)

type sarifLog struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []run  `json:"runs"`
}

type run struct {
	Tool        tool          `json:"tool"`
	Invocations []invocation  `json:"invocations"`
	Results     []result      `json:"results"`
	Properties  runProperties `json:"properties"`
}

type tool struct {
	Driver driver `json:"driver"`
}

type driver struct {
	Name           string `json:"name"`
	Version        string `json:"version,omitempty"`
	InformationURI string `json:"informationUri"`
	Rules          []rule `json:"rules"`
}

type rule struct {
	ID                   string         `json:"id"`
	ShortDescription     text           `json:"shortDescription"`
	DefaultConfiguration configuration  `json:"defaultConfiguration"`
	Properties           ruleProperties `json:"properties"`
}

type configuration struct {
	Level string `json:"level"`
}

type ruleProperties struct {
	Points string `json:"points"`
	// Tags are "security" for a rule whose results have a severity.
	Tags []string `json:"tags,omitempty"`
	// SecuritySeverity is the highest of its results', for code scanning.
	SecuritySeverity string `json:"security-severity,omitempty"`
}

type text struct {
	Text string `json:"text"`
}

type invocation struct {
	ExecutionSuccessful        bool           `json:"executionSuccessful"`
	ToolExecutionNotifications []notification `json:"toolExecutionNotifications,omitempty"`
}

type notification struct {
	Level   string `json:"level"`
	Message text   `json:"message"`
}

type result struct {
	RuleID     string           `json:"ruleId"`
	RuleIndex  int              `json:"ruleIndex"`
	Level      string           `json:"level"`
	Message    text             `json:"message"`
	Locations  []location       `json:"locations"`
	Properties resultProperties `json:"properties"`
}

type resultProperties struct {
	Tool   string   `json:"tool"`
	Params []string `json:"params"`
	Points string   `json:"points"`
	// Gain is what fixing the issue would earn, exact, in the run's
	// fixUnit; Moves what it moves the run's fixOverall.
	Gain  string `json:"gain"`
	Moves string `json:"moves,omitempty"`
	// Severity is the issue's severity and SecuritySeverity its number
	// on GitHub's scale, for security findings.
	Severity         string `json:"severity,omitempty"`
	SecuritySeverity string `json:"security-severity,omitempty"`
}

type location struct {
	LogicalLocations []logicalLocation `json:"logicalLocations"`
}

type logicalLocation struct {
	Name               string `json:"name"`
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

type runProperties struct {
	Rubric  rubricProperties  `json:"rubric"`
	Surface surfaceProperties `json:"surface"`
	Target  string            `json:"target,omitempty"`
	Score   *json.Number      `json:"score,omitempty"`
	Exact   *string           `json:"exact,omitempty"`
	Grade   *string           `json:"grade,omitempty"`
	// FixUnit names what the results' gains count; FixOverall the value
	// their moves change.
	FixUnit    string `json:"fixUnit"`
	FixOverall string `json:"fixOverall,omitempty"`
}

type rubricProperties struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Digest  string `json:"digest"`
}

type surfaceProperties struct {
	Hash      string `json:"hash"`
	ToolCount int    `json:"toolCount"`
}

// Write writes r to w as an indented SARIF 2.1.0 log with a final newline.
func Write(w io.Writer, r *report.Report) error {
	log, err := build(r)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(log); err != nil {
		return fmt.Errorf("write SARIF: %w", err)
	}
	return nil
}

func build(r *report.Report) (*sarifLog, error) {
	if r == nil {
		return nil, fmt.Errorf("write SARIF: no report to write")
	}
	prefix := serverName(r)
	rules := []rule{}
	ruleIndex := map[string]int{}
	results := []result{}
	fixes, err := r.FixList()
	if err != nil {
		return nil, fmt.Errorf("write SARIF: %w", err)
	}
	tools := make(map[string]report.Tool, len(r.Tools))
	for _, t := range r.Tools {
		tools[t.Name] = t
	}
	for _, f := range fixes {
		t, is := tools[f.Tool], f.Issue
		{
			points := is.Points
			level, err := levelOf(points)
			if err != nil {
				return nil, fmt.Errorf("write SARIF: tool %q, check %q: %w", t.Name, is.Check, err)
			}
			sec, secLevel, isSecurity := securityOf(is.Severity)
			if isSecurity {
				level = secLevel
			}
			idx, ok := ruleIndex[is.Check]
			if !ok {
				c, _ := t.Check(is.Check)
				title := c.Title
				if title == "" {
					title = is.Check
				}
				idx = len(rules)
				ruleIndex[is.Check] = idx
				rules = append(rules, rule{
					ID:                   is.Check,
					ShortDescription:     text{title},
					DefaultConfiguration: configuration{level},
					Properties:           ruleProperties{Points: points},
				})
			}
			if isSecurity {
				rp := &rules[idx].Properties
				rp.Tags = []string{"security"}
				if rp.SecuritySeverity == "" || securityRank(sec) > securityRank(rp.SecuritySeverity) {
					rp.SecuritySeverity = sec
					rules[idx].DefaultConfiguration = configuration{level}
				}
			}
			fqn := t.Name
			if prefix != "" {
				fqn = prefix + "/" + t.Name
			}
			params := is.Params
			if params == nil {
				params = []string{}
			}
			results = append(results, result{
				RuleID:    is.Check,
				RuleIndex: idx,
				Level:     level,
				Message:   text{t.Name + ": " + is.Message},
				Locations: []location{{LogicalLocations: []logicalLocation{{
					Name: t.Name, FullyQualifiedName: fqn, Kind: "function",
				}}}},
				Properties: resultProperties{Tool: t.Name, Params: params, Points: points, Gain: f.Gain.Exact(), Moves: moves(f),
					Severity: is.Severity, SecuritySeverity: sec},
			})
		}
	}
	inv := invocation{ExecutionSuccessful: r.Complete}
	for _, w := range r.Warnings {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, notification{Level: "warning", Message: text{w}})
	}
	return &sarifLog{
		Schema:  schemaURI,
		Version: version,
		Runs: []run{{
			Tool: tool{Driver: driver{
				Name: toolName, Version: r.Generator.Version, InformationURI: infoURI, Rules: rules,
			}},
			Invocations: []invocation{inv},
			Results:     results,
			Properties: runProperties{
				Rubric:  rubricProperties{Name: r.Rubric.Name, Version: r.Rubric.Version, Digest: r.Rubric.Digest},
				Surface: surfaceProperties{Hash: r.Surface.Hash, ToolCount: r.Surface.ToolCount},
				Target:  r.Target,
				Score:   r.Score,
				Exact:   r.Exact,
				Grade:   r.Grade,

				FixUnit:    r.FixUnit(),
				FixOverall: fixOverall(r),
			},
		}},
	}, nil
}

// securitySeverities are GitHub code scanning's numbers for each
// severity, and the SARIF level that goes with it.
var securitySeverities = map[string]struct{ score, level string }{
	"critical": {"9.5", "error"},
	"high":     {"8.0", "error"},
	"medium":   {"5.0", "warning"},
	"low":      {"2.0", "note"},
}

// securityOf returns an issue severity's security-severity and level;
// false for an issue without a severity.
func securityOf(severity string) (score, level string, ok bool) {
	s, ok := securitySeverities[severity]
	return s.score, s.level, ok
}

// securityRank orders security-severity numbers (those of
// securitySeverities).
func securityRank(score string) float64 {
	f, _ := strconv.ParseFloat(score, 64)
	return f
}

func moves(f report.Fix) string {
	if !f.HasMoves {
		return ""
	}
	return f.Moves.Exact()
}

func fixOverall(r *report.Report) string {
	if r.Fixes == nil {
		return ""
	}
	return r.Fixes.Overall
}

// levelOf maps a check's points to a SARIF level (see the package doc).
func levelOf(points string) (string, error) {
	p, err := num.Parse(points)
	if err != nil {
		return "", fmt.Errorf("points: %w; the report is damaged, score the surface again", err)
	}
	switch {
	case p.Cmp(errorPoints) >= 0:
		return "error", nil
	case p.Cmp(warningPoints) >= 0:
		return "warning", nil
	default:
		return "note", nil
	}
}

// serverName names the server in fully qualified tool names: its own name,
// or where the surface was read, or what the user asked to score.
func serverName(r *report.Report) string {
	if s, ok := r.Surface.Server["name"].(string); ok && s != "" {
		return s
	}
	if r.Surface.Source != "" {
		return r.Surface.Source
	}
	return r.Target
}
