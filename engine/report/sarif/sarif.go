// Package sarif writes a report as a SARIF 2.1.0 log, the format that code
// scanning services (GitHub code scanning, Azure DevOps) and SARIF viewers
// read, shaped to pass GitHub's checks (the SARIF validator's GH rules).
//
// The log holds one run. Its tool driver is "rubric", with the version of
// the program that wrote the report. Every check that found an issue in at
// least one tool is a rule: its id is the check name, its short
// description the check's title, its full description and help (text and
// Markdown) say which rubric weighs it and how much, and its tags are
// "mcp", "tool-definition" and "rubric/<name>". Every issue is one result
// of its check's rule; the message is the issue's message after the
// tool's name.
//
// Every result has a physical location (GitHub shows no result without
// one) beside its logical location, the tool as a "function" fully
// qualified as "<server>/<tool>":
//
//   - a file target (the report's origin): the file, at the line and
//     column of the member the issue is about: the schema of its first
//     parameter, the member its check's name or title names
//     (description, output schema, annotations, title, input schema),
//     else the tool's "name" member;
//   - a command started inside a git work tree: the tracked line that
//     quotes the tool's name ("name", 'name' or `name`, found with one
//     git grep), the best of them (source beside the server before
//     tests, fixtures and documents) as the location and up to ten others
//     as related locations;
//   - otherwise the server's manifest (server.json, package.json or
//     pyproject.toml in its directory), or the pseudo-path
//     "mcp-server.tools", at line 1, which the message then says.
//
// Paths are relative to the top of the git work tree that holds the
// target (for an endpoint or standard input, the one rubric ran in; for
// a work tree that is a submodule, its outermost superproject's), or
// else to the directory rubric ran in, and each says so with
// uriBaseId %SRCROOT%, the root GitHub code scanning resolves them from;
// a file target outside that folder, which code scanning could not show,
// is not pointed at: its results stand at the pseudo-path, and the
// message says where the file is and why. Columns count Unicode code
// points (the run's columnKind).
//
// Each result carries partialFingerprints["rubricFinding/v1"], a hash of
// the rubric's name, the server, the tool, the check and the parameters
// (and the message, for the findings those do not tell apart):
// it stays the same across runs and when the definition moves to other
// lines. The run's automationDetails.id is "rubric/<rubric>/<server>/",
// so each server and rubric is its own code scanning category.
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
// GitHub keeps at most 5,000 results a run (and refuses more than
// 25,000). A report with more issues than 5,000 is written with one
// result per tool instead, of the rule "tool-issues", listing the tool's
// issues in its message; should even those be more than 25,000, the rest
// are left out and the invocation says so.
//
// The run's property bag records the rubric (name, version, digest), the
// surface (hash, tool count) and the overall score, exact score and grade
// when there is one, so that a result can be traced to exactly what was
// scored. An incomplete report gives an invocation whose
// executionSuccessful is false; the report's warnings become the
// invocation's tool execution notifications.
package sarif

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
)

const (
	// schemaURI is the published JSON Schema of SARIF 2.1.0.
	schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
	version   = "2.1.0"
	toolName  = "rubric"
	infoURI   = "https://github.com/rubricmcp/rubric"
	// fingerprintKey names rubric's own partial fingerprint.
	fingerprintKey = "rubricFinding/v1"
	// aggregateRule is the rule of a result that stands for all of one
	// tool's issues.
	aggregateRule = "tool-issues"
)

var (
	errorPoints   = num.Int(20)
	warningPoints = num.Int(10)
	// shownResults is how many results a run may have before they are
	// aggregated per tool, maxResults how many GitHub accepts at all
	// (docs.github.com, "SARIF results exceed limit").
	shownResults = 5000
	maxResults   = 25000
)

type sarifLog struct {
	Schema  string `json:"$schema"`
	Version string `json:"version"`
	Runs    []run  `json:"runs"`
}

type run struct {
	Tool              tool              `json:"tool"`
	AutomationDetails automationDetails `json:"automationDetails"`
	Invocations       []invocation      `json:"invocations"`
	ColumnKind        string            `json:"columnKind"`
	Results           []result          `json:"results"`
	Properties        runProperties     `json:"properties"`
}

type automationDetails struct {
	ID string `json:"id"`
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
	FullDescription      text           `json:"fullDescription"`
	Help                 multiformat    `json:"help"`
	DefaultConfiguration configuration  `json:"defaultConfiguration"`
	Properties           ruleProperties `json:"properties"`
}

type multiformat struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown"`
}

type configuration struct {
	Level string `json:"level"`
}

type ruleProperties struct {
	Points string `json:"points,omitempty"`
	// Tags are "mcp", "tool-definition" and "rubric/<name>", and
	// "security" for a rule whose results have a severity.
	Tags []string `json:"tags"`
	// SecuritySeverity is the highest of its results', for code scanning.
	SecuritySeverity string `json:"security-severity,omitempty"`
}

type text struct {
	Text string `json:"text"`
}

// MarshalJSON writes the text with its control, format and separator
// characters as escapes (report.EscapeControls), as every writer of a
// report shows them: code scanning renders a message's text, and a tool
// named "\u202eeliforp_etadpu" must not read "update_profile" there.
func (t text) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as the log's own encoder: < stays <
	err := enc.Encode(struct {
		Text string `json:"text"`
	}{report.EscapeControls(t.Text, true)})
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), err
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
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             text              `json:"message"`
	Locations           []location        `json:"locations"`
	RelatedLocations    []relatedLocation `json:"relatedLocations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Properties          resultProperties  `json:"properties"`
}

// resultProperties are shown by SARIF viewers beside a result: the tool
// and the parameters are written as every writer shows them
// (report.EscapeControls); the JSON report keeps them exact.
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
	// Issues counts the issues an aggregated result stands for.
	Issues int `json:"issues,omitempty"`
}

type location struct {
	PhysicalLocation physicalLocation  `json:"physicalLocation"`
	LogicalLocations []logicalLocation `json:"logicalLocations"`
}

type relatedLocation struct {
	ID               int              `json:"id"`
	PhysicalLocation physicalLocation `json:"physicalLocation"`
	Message          text             `json:"message"`
}

type physicalLocation struct {
	ArtifactLocation artifactLocation `json:"artifactLocation"`
	Region           region           `json:"region"`
}

type artifactLocation struct {
	URI string `json:"uri"`
	// URIBaseID is srcRoot: every URI is relative to the repository's
	// root.
	URIBaseID string `json:"uriBaseId"`
}

// srcRoot is the base every result's URI is relative to, the one GitHub
// code scanning resolves against the repository's checkout.
const srcRoot = "%SRCROOT%"

type region struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
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

// Options say where the files a log points into are.
type Options struct {
	// Dir is the directory rubric ran in, which the report's origin (a
	// file's path, a command's directory) is relative to; "" means the
	// working directory.
	Dir string
	// Root, when set, is the directory paths are relative to, in place
	// of the top of the git work tree (or superproject) that holds the
	// target.
	Root string
	// Category, when set, is the GitHub code scanning category of the
	// run: its automationDetails.id is Category followed by "/", in place
	// of "rubric/<rubric>/<server>/". upload-sarif's own category input
	// fills only a run without an id, so this is the way to choose it.
	Category string
	// Distinct, with Category, keeps the runs of one log apart (GitHub
	// refuses two runs of one tool in one category): the id is then
	// "<Category>/<rubric>/<server>/".
	Distinct bool
	// Server, when set, is the server's part of automationDetails.id in
	// place of ServerName: the name a client configuration gives it, for
	// a log whose servers report one name (two entries of one package),
	// which GitHub would refuse as two runs of one category.
	Server string
}

// Write writes r to w as an indented SARIF 2.1.0 log with a final
// newline, locating findings from the working directory.
func Write(w io.Writer, r *report.Report) error {
	return WriteOptions(w, r, Options{})
}

// WriteOptions is Write with the directory findings are located from.
func WriteOptions(w io.Writer, r *report.Report, opt Options) error {
	if r == nil {
		return fmt.Errorf("write SARIF: no report to write")
	}
	log, err := build(r, newLocator(r, opt))
	if err != nil {
		return err
	}
	if opt.Category != "" || opt.Server != "" {
		server := cmp.Or(opt.Server, serverName(r))
		for i := range log.Runs {
			if opt.Category != "" {
				log.Runs[i].AutomationDetails.ID = categoryID(opt.Category, r, server, opt.Distinct)
			} else {
				log.Runs[i].AutomationDetails.ID = automationID(r, server)
			}
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(log); err != nil {
		return fmt.Errorf("write SARIF: %w", err)
	}
	return nil
}

// finding is one issue on its way to a result.
type finding struct {
	fix   report.Fix
	level string
	at    located
}

func build(r *report.Report, loc *locator) (*sarifLog, error) {
	prefix := serverName(r)
	rules := []rule{}
	ruleIndex := map[string]int{}
	rulePoints := map[string][]string{} // the points of each rule's results, once each
	fixes, err := r.FixList()
	if err != nil {
		return nil, fmt.Errorf("write SARIF: %w", err)
	}
	tools := make(map[string]report.Tool, len(r.Tools))
	for _, t := range r.Tools {
		tools[t.Name] = t
	}
	tags := []string{"mcp", "tool-definition", "rubric/" + r.Rubric.Name}
	var findings []finding
	for _, f := range fixes {
		t, is := tools[f.Tool], f.Issue
		points := is.Points
		level, err := levelOf(points)
		if err != nil {
			return nil, fmt.Errorf("write SARIF: tool %q, check %q: %w", t.Name, is.Check, err)
		}
		sec, secLevel, isSecurity := securityOf(is.Severity)
		if isSecurity {
			level = secLevel
		}
		c, _ := t.Check(is.Check)
		title := c.Title
		if title == "" {
			title = is.Check
		}
		if _, ok := ruleIndex[is.Check]; !ok {
			// A check of the issues formula is described by the title the
			// rubric gives it, as a check block by its own.
			name := t.CheckTitle(is)
			if name == "" {
				name = is.Check
			}
			ruleIndex[is.Check] = len(rules)
			rules = append(rules, checkRule(r, is.Check, name, points, level, tags))
		}
		if !slices.Contains(rulePoints[is.Check], points) {
			rulePoints[is.Check] = append(rulePoints[is.Check], points)
		}
		if isSecurity {
			ru := &rules[ruleIndex[is.Check]]
			rp := &ru.Properties
			if !slices.Contains(rp.Tags, "security") {
				rp.Tags = append(rp.Tags, "security")
			}
			if rp.SecuritySeverity == "" || securityRank(sec) > securityRank(rp.SecuritySeverity) {
				rp.SecuritySeverity = sec
				ru.DefaultConfiguration = configuration{level}
			}
		}
		findings = append(findings, finding{fix: f, level: level, at: loc.locate(t.Name, is, title)})
	}
	for check, pts := range rulePoints {
		if len(pts) > 1 {
			mixedWorth(r, &rules[ruleIndex[check]], pts)
		}
	}
	inv := invocation{ExecutionSuccessful: r.Complete}
	for _, w := range r.Warnings {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, notification{Level: "warning", Message: text{w}})
	}
	var results []result
	if len(findings) > shownResults {
		results, rules = aggregate(r, findings, loc, prefix, tags)
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, notification{Level: "note", Message: text{fmt.Sprintf(
			"%d issues are more than the %d results GitHub code scanning keeps a run, so each tool's issues are one result of the rule %q; the JSON report lists them one by one", len(findings), shownResults, aggregateRule)}})
	} else {
		results = make([]result, 0, len(findings))
		fixesOf := make([]report.Fix, len(findings))
		for i, f := range findings {
			fixesOf[i] = f.fix
		}
		prints := fingerprints(r, prefix, fixesOf)
		for i, f := range findings {
			is := f.fix.Issue
			params := is.Params
			if params == nil {
				params = []string{}
			}
			sec, _, _ := securityOf(is.Severity)
			results = append(results, result{
				RuleID:              is.Check,
				RuleIndex:           ruleIndex[is.Check],
				Level:               f.level,
				Message:             text{message(f.fix.Tool+": "+is.Message, f.at)},
				Locations:           []location{at(f.at, f.fix.Tool, prefix)},
				RelatedLocations:    related(f.at, f.fix.Tool),
				PartialFingerprints: map[string]string{fingerprintKey: prints[i]},
				Properties: resultProperties{Tool: report.EscapeControls(f.fix.Tool, false), Params: shownAll(params), Points: is.Points, Gain: f.fix.Gain.Exact(), Moves: moves(f.fix),
					Severity: is.Severity, SecuritySeverity: sec},
			})
		}
	}
	if len(results) > maxResults {
		inv.ToolExecutionNotifications = append(inv.ToolExecutionNotifications, notification{Level: "warning", Message: text{fmt.Sprintf(
			"%d results are more than the %d GitHub code scanning accepts in a run, so the last %d (the smallest gains) are left out; the JSON report holds them all", len(results), maxResults, len(results)-maxResults)}})
		results = results[:maxResults]
	}
	return &sarifLog{
		Schema:  schemaURI,
		Version: version,
		Runs: []run{{
			Tool: tool{Driver: driver{
				Name: toolName, Version: r.Generator.Version, InformationURI: infoURI, Rules: rules,
			}},
			AutomationDetails: automationDetails{ID: automationID(r, prefix)},
			Invocations:       []invocation{inv},
			ColumnKind:        "unicodeCodePoints",
			Results:           results,
			Properties: runProperties{
				Rubric:  rubricProperties{Name: r.Rubric.Name, Version: r.Rubric.Version, Digest: r.Rubric.Digest},
				Surface: surfaceProperties{Hash: r.Surface.Hash, ToolCount: r.Surface.ToolCount},
				Target:  report.EscapeControls(r.Target, false),
				Score:   r.Score,
				Exact:   r.Exact,
				Grade:   r.Grade,

				FixUnit:    r.FixUnit(),
				FixOverall: fixOverall(r),
			},
		}},
	}, nil
}

// mixedWorth rewrites the worth of a rule whose results have different
// points (Tool Safety's sensitive_path is low alone and high in a tool
// that instructs the model): its text names them all, "worth 5 or 100
// points", and its points are the largest, as its level and security
// severity are.
func mixedWorth(r *report.Report, ru *rule, points []string) {
	sorted := slices.Clone(points)
	slices.SortFunc(sorted, func(a, b string) int {
		x, errX := num.Parse(a)
		y, errY := num.Parse(b)
		if errX != nil || errY != nil {
			return strings.Compare(a, b)
		}
		return x.Cmp(y)
	})
	shown := make([]string, len(sorted))
	for i, p := range sorted {
		shown[i] = strings.TrimPrefix(worthOf(r, p), "worth ")
		shown[i] = strings.TrimSuffix(shown[i], " points of a tool's score")
	}
	worth := worthOf(r, sorted[len(sorted)-1])
	if w := strings.TrimPrefix(worth, "worth "); w != worth {
		list := strings.Join(shown[:len(shown)-1], ", ") + " or " + shown[len(shown)-1]
		worth = "worth " + list + " points of a tool's score, by each result's severity"
	}
	ru.FullDescription, ru.Help = ruleTexts(r, ru.ShortDescription.Text, worth)
	ru.Properties.Points = sorted[len(sorted)-1]
}

// ruleTexts are a rule's full description and help, for a check of the
// given title and worth.
func ruleTexts(r *report.Report, title, worth string) (text, multiformat) {
	rub := r.Rubric.Name + " " + r.Rubric.Version
	full := fmt.Sprintf("%s: a check of the rubric %s over each tool's definition (its name, description, input and output schemas and annotations, as tools/list returns them), %s.", title, rub, worth)
	help := fmt.Sprintf("%s\n\nEach result names the tool and, where the check says, its parameters; fixing the issue in the tool's definition earns the result's gain. `rubric explain` on the JSON report shows the arithmetic of every score.", full)
	md := fmt.Sprintf("**%s**\n\nA check of the rubric `%s` over each tool's definition (its name, description, input and output schemas and annotations, as `tools/list` returns them), %s.\n\nEach result names the tool and, where the check says, its parameters; fixing the issue in the tool's definition earns the result's gain. `rubric explain` on the JSON report shows the arithmetic of every score.", markdownEscape(title), rub, markdownEscape(worth))
	return text{full}, multiformat{Text: help, Markdown: md}
}

// checkRule is the rule of one check.
func checkRule(r *report.Report, check, title, points, level string, tags []string) rule {
	rub := r.Rubric.Name + " " + r.Rubric.Version
	worth := worthOf(r, points)
	full := fmt.Sprintf("%s: a check of the rubric %s over each tool's definition (its name, description, input and output schemas and annotations, as tools/list returns them), %s.", title, rub, worth)
	help := fmt.Sprintf("%s\n\nEach result names the tool and, where the check says, its parameters; fixing the issue in the tool's definition earns the result's gain. `rubric explain` on the JSON report shows the arithmetic of every score.", full)
	md := fmt.Sprintf("**%s**\n\nA check of the rubric `%s` over each tool's definition (its name, description, input and output schemas and annotations, as `tools/list` returns them), %s.\n\nEach result names the tool and, where the check says, its parameters; fixing the issue in the tool's definition earns the result's gain. `rubric explain` on the JSON report shows the arithmetic of every score.", markdownEscape(title), rub, markdownEscape(worth))
	return rule{
		ID:                   check,
		ShortDescription:     text{title},
		FullDescription:      text{full},
		Help:                 multiformat{Text: help, Markdown: md},
		DefaultConfiguration: configuration{level},
		Properties:           ruleProperties{Points: points, Tags: append([]string(nil), tags...)},
	}
}

// worthOf says what a check's points are. They are points of a tool's
// score where the rubric's gains count those (Schema Quality, Tool
// Safety); elsewhere they are the check's weight, in a scale of the
// rubric's own: TDQS weighs a dimension 20 in a score of 1 to 5, and a
// Gradable defect costs a quarter of a composite point. "Worth 20 points
// of a tool's score" and "worth 1/4 points" said neither.
func worthOf(r *report.Report, points string) string {
	shown := points
	if n, err := num.Parse(points); err == nil {
		if shown = n.Decimal(6); strings.Contains(shown, ".") {
			shown = strings.TrimRight(strings.TrimRight(shown, "0"), ".")
		}
		if back, err := num.Parse(shown); err != nil || back.Cmp(n) != 0 {
			shown += " (exactly " + points + ")"
		}
	}
	unit := ""
	if r.Fixes != nil {
		unit = r.Fixes.Unit
	}
	switch {
	case unit == "" || strings.HasPrefix(unit, "points of the tool's score"):
		return fmt.Sprintf("worth %s points of a tool's score", shown)
	default:
		return fmt.Sprintf("of weight %s in the rubric; a result's gain counts %s", shown, unit)
	}
}

// aggregate makes one result of each tool's findings, in the order of
// the tools' largest gains, with the rule that says so as the only rule.
func aggregate(r *report.Report, findings []finding, loc *locator, prefix string, tags []string) ([]result, []rule) {
	ru := rule{
		ID:               aggregateRule,
		ShortDescription: text{"Issues of one tool"},
		FullDescription:  text{fmt.Sprintf("All the issues the rubric %s %s found in one tool's definition, in one result because the server has more issues than GitHub code scanning keeps a run.", r.Rubric.Name, r.Rubric.Version)},
		Help: multiformat{
			Text:     "The result's message lists the tool's issues, the largest gain first; the JSON report (rubric score --json) holds each one with its check, parameters and gain.",
			Markdown: "The result's message lists the tool's issues, the largest gain first; the JSON report (`rubric score --json`) holds each one with its check, parameters and gain.",
		},
		DefaultConfiguration: configuration{"warning"},
		Properties:           ruleProperties{Tags: append([]string(nil), tags...)},
	}
	var order []string
	byTool := map[string][]finding{}
	for _, f := range findings {
		if _, ok := byTool[f.fix.Tool]; !ok {
			order = append(order, f.fix.Tool)
		}
		byTool[f.fix.Tool] = append(byTool[f.fix.Tool], f)
	}
	results := make([]result, 0, len(order))
	for _, name := range order {
		fs := byTool[name]
		level, gain, params := "note", num.Int(0), []string{}
		var lines []string
		maxPoints := num.Int(0)
		for i, f := range fs {
			if levelRank(f.level) > levelRank(level) {
				level = f.level
			}
			gain = gain.Add(f.fix.Gain)
			if p, err := num.Parse(f.fix.Issue.Points); err == nil && p.Cmp(maxPoints) > 0 {
				maxPoints = p
			}
			params = append(params, f.fix.Issue.Params...)
			if i < 10 {
				lines = append(lines, f.fix.Issue.Check+": "+f.fix.Issue.Message)
			}
		}
		msg := fmt.Sprintf("%s: %s: %s", name, report.Plural(len(fs), "issue"), strings.Join(lines, "; "))
		if len(fs) > 10 {
			msg += fmt.Sprintf("; and %d more", len(fs)-10)
		}
		where := loc.locate(name, report.Issue{}, "")
		results = append(results, result{
			RuleID: aggregateRule, RuleIndex: 0, Level: level,
			Message:             text{message(msg, where)},
			Locations:           []location{at(where, name, prefix)},
			RelatedLocations:    related(where, name),
			PartialFingerprints: fingerprint(r, prefix, name, aggregateRule, nil),
			Properties:          resultProperties{Tool: report.EscapeControls(name, false), Params: shownAll(params), Points: maxPoints.Exact(), Gain: gain.Exact(), Issues: len(fs)},
		})
	}
	return results, []rule{ru}
}

func levelRank(level string) int {
	switch level {
	case "error":
		return 2
	case "warning":
		return 1
	}
	return 0
}

// message adds the note of a stand-in location to a result's message.
func message(msg string, l located) string {
	if l.note == "" {
		return msg
	}
	return msg + " (" + l.note + ")"
}

// at is a result's location: the physical place and the tool as a
// logical location.
func at(l located, toolName, prefix string) location {
	fqn := toolName
	if prefix != "" {
		fqn = prefix + "/" + toolName
	}
	return location{
		PhysicalLocation: physical(l.at),
		LogicalLocations: []logicalLocation{{Name: report.EscapeControls(toolName, false), FullyQualifiedName: report.EscapeControls(fqn, false), Kind: "function"}},
	}
}

func related(l located, toolName string) []relatedLocation {
	var out []relatedLocation
	for i, p := range l.related {
		out = append(out, relatedLocation{ID: i + 1, PhysicalLocation: physical(p), Message: text{"another line that quotes " + strconv.Quote(toolName)}})
	}
	return out
}

func physical(p place) physicalLocation {
	line := p.line
	if line < 1 {
		line = 1
	}
	return physicalLocation{ArtifactLocation: artifactLocation{URI: uriOf(p.uri), URIBaseID: srcRoot}, Region: region{StartLine: line, StartColumn: p.column}}
}

// uriOf escapes a relative path as a URI reference (RFC 3986): every
// byte but unreserved ones and "/" percent-encoded.
func uriOf(path string) string {
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		c := path[i]
		if c == '/' || c == '-' || c == '.' || c == '_' || c == '~' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// fingerprint is a result's partialFingerprints: a hash of what the
// finding is about (rubric, server, tool, check, parameters), nothing of
// where it is, so that moving a definition keeps its alert.
func fingerprint(r *report.Report, server, toolName, check string, params []string) map[string]string {
	return fingerprintWith(r, server, toolName, check, params, "")
}

// fingerprintWith is fingerprint with the finding's message hashed too
// when message is not "": for the findings that tool, check and
// parameters alone do not tell apart.
func fingerprintWith(r *report.Report, server, toolName, check string, params []string, message string) map[string]string {
	h := sha256.New()
	for _, s := range append([]string{r.Rubric.Name, server, toolName, check}, params...) {
		fmt.Fprintf(h, "%d:%s;", len(s), s)
	}
	if message != "" {
		fmt.Fprintf(h, "message;%d:%s;", len(message), message)
	}
	return map[string]string{fingerprintKey: hex.EncodeToString(h.Sum(nil))[:32]}
}

// fingerprints gives each fix its fingerprint. A tool's issues of one
// check and the same parameters (Tool Safety's notes to the model, one
// for each place in a schema, none with a parameter) had one fingerprint
// between them, which GitHub code scanning and GitLab take for one
// finding: those, and only those, hash their messages too, so that every
// other fingerprint stays what it was.
func fingerprints(r *report.Report, server string, fixes []report.Fix) []string {
	key := func(f report.Fix) string {
		return fmt.Sprintf("%q %q %q", f.Tool, f.Issue.Check, f.Issue.Params)
	}
	n := map[string]int{}
	for _, f := range fixes {
		n[key(f)]++
	}
	out := make([]string, len(fixes))
	for i, f := range fixes {
		message := ""
		if n[key(f)] > 1 {
			message = f.Issue.Message
		}
		out[i] = fingerprintWith(r, server, f.Tool, f.Issue.Check, f.Issue.Params, message)[fingerprintKey]
	}
	return out
}

var unsafeID = regexp.MustCompile(`[^A-Za-z0-9._@-]+`)

// automationID is the run's automationDetails.id: "rubric/<rubric>/<server>/",
// whose part before the last slash GitHub takes as the category.
func automationID(r *report.Report, server string) string {
	slug := strings.Trim(unsafeID.ReplaceAllString(server, "-"), "-")
	if slug == "" {
		slug = "server"
	}
	return "rubric/" + strings.Trim(unsafeID.ReplaceAllString(r.Rubric.Name, "-"), "-") + "/" + slug + "/"
}

// categoryID is the automationDetails.id of a run whose category the
// user chose: the category and a slash, which GitHub reads back as the
// category itself; distinct adds the rubric and the server.
func categoryID(category string, r *report.Report, server string, distinct bool) string {
	id := strings.TrimRight(category, "/") + "/"
	if distinct {
		id += strings.TrimPrefix(automationID(r, server), "rubric/")
	}
	return id
}

var markdownSpecial = strings.NewReplacer("\\", "\\\\", "*", "\\*", "_", "\\_", "`", "\\`", "[", "\\[", "]", "\\]", "<", "&lt;")

func markdownEscape(s string) string { return markdownSpecial.Replace(s) }

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

// ServerName is the server's name in r's SARIF run: its own name, or
// where the surface was read, or what the user asked to score. It names
// the server in fully qualified tool names and in automationDetails.id
// (unless Options.Server says otherwise).
func ServerName(r *report.Report) string { return serverName(r) }

// serverName is ServerName.
func serverName(r *report.Report) string {
	if s, ok := r.Surface.Server["name"].(string); ok && s != "" {
		return s
	}
	if r.Surface.Source != "" {
		return r.Surface.Source
	}
	return r.Target
}

// shownAll is names as every writer shows them (report.EscapeControls).
func shownAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = report.EscapeControls(n, false)
	}
	return out
}
