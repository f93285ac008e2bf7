// Package junit writes a report as JUnit XML, which CI systems (GitLab,
// Jenkins, Azure DevOps, CircleCI) show as test results.
//
// The document holds one test suite, named for the server, with one test
// case per tool, named for the tool, whose class name is the rubric. A
// tool fails (one failure element) when its score is below the bound
// given (rubric score --fail-under), or when it has an issue of SARIF
// level "error" (a check of 20 points or more, or a security finding of
// critical or high severity); the failure's message says which, and its
// text lists every issue of the tool, the largest gain first. A tool the
// rubric left unscored (its min_scored) is a test case with an error
// that says why, after the scored ones, and the report's warnings are the
// suite's system-err. A report that could not finish is one suite with
// an error and no test cases.
// The suite's properties name the rubric, its digest, the surface hash
// and the overall score. The document follows the Jenkins JUnit schema
// (jenkins-junit.xsd).
package junit

import (
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/sarif"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/internal/words"
)

type suites struct {
	XMLName  xml.Name `xml:"testsuites"`
	Name     string   `xml:"name,attr"`
	Tests    int      `xml:"tests,attr"`
	Failures int      `xml:"failures,attr"`
	Errors   int      `xml:"errors,attr"`
	Suites   []suite  `xml:"testsuite"`
}

type suite struct {
	Name       string     `xml:"name,attr"`
	Tests      int        `xml:"tests,attr"`
	Failures   int        `xml:"failures,attr"`
	Errors     int        `xml:"errors,attr"`
	Skipped    int        `xml:"skipped,attr"`
	Time       string     `xml:"time,attr"`
	Properties []property `xml:"properties>property"`
	Cases      []testCase `xml:"testcase"`
	SystemErr  string     `xml:"system-err,omitempty"`
}

type property struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type testCase struct {
	Name      string   `xml:"name,attr"`
	ClassName string   `xml:"classname,attr"`
	Time      string   `xml:"time,attr"`
	Failure   *failure `xml:"failure"`
	Error     *failure `xml:"error"`
	SystemOut *cdata   `xml:"system-out"`
}

// cdata is element text written as a CDATA section, so that the lines
// of a tool's issues stay lines.
type cdata struct {
	Text string `xml:",cdata"`
}

type failure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",cdata"`
}

// Write writes r as JUnit XML; failUnder, when set, fails every tool
// whose score is below it.
func Write(w io.Writer, r *report.Report, failUnder *rubric.Threshold) error {
	if r == nil {
		return fmt.Errorf("write JUnit: no report to write")
	}
	doc, err := build(r, failUnder)
	if err != nil {
		return fmt.Errorf("write JUnit: %w", err)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("write JUnit: %w", err)
	}
	_, err = io.WriteString(w, "\n")
	return err
}

func build(r *report.Report, failUnder *rubric.Threshold) (*suites, error) {
	server := r.Target
	if s, ok := r.Surface.Server["name"].(string); ok && s != "" {
		server = s
	}
	if server == "" {
		server = "server"
	}
	// Names and messages are shown as every writer shows them
	// (report.EscapeControls): a test report is read by a person, and a
	// bidirectional control must not disguise a tool's name there.
	server = report.EscapeControls(server, false)
	class := r.Rubric.Name
	s := suite{Name: server, Time: fmt.Sprintf("%.3f", (r.Timings.ReadMS+r.Timings.ScoreMS)/1000)}
	s.Properties = []property{
		{"rubric", r.Rubric.Name + " " + r.Rubric.Version},
		{"rubric.digest", r.Rubric.Digest},
		{"surface.hash", r.Surface.Hash},
		{"target", report.EscapeControls(r.Target, false)},
	}
	if r.Score != nil {
		s.Properties = append(s.Properties, property{"score", r.Score.String()})
	}
	if r.Grade != nil {
		s.Properties = append(s.Properties, property{"grade", *r.Grade})
	}
	if failUnder != nil {
		s.Properties = append(s.Properties, property{"fail-under", failUnder.Label})
	}
	if !r.Complete {
		s.Errors = 1
		s.SystemErr = report.EscapeControls("scoring could not finish: "+strings.Join(r.Warnings, "; "), true)
		return &suites{Name: "rubric " + class, Errors: 1, Suites: []suite{s}}, nil
	}
	fixes, err := r.FixList()
	if err != nil {
		return nil, err
	}
	// A gain is written as the fix list writes it (+0.60), not as the
	// report's exact fraction (3/5), which no other format shows.
	digits := report.GainDigits(fixes, r.Rubric.Round)
	byTool := map[string][]report.Fix{}
	for _, f := range fixes {
		byTool[f.Tool] = append(byTool[f.Tool], f)
	}
	for _, t := range r.Tools {
		name := report.EscapeControls(t.Name, false)
		tc := testCase{Name: name, ClassName: class + "." + server, Time: "0"}
		var why []string
		if failUnder != nil {
			if e, err := num.Parse(t.Exact); err == nil && e.Cmp(failUnder.Min) < 0 {
				why = append(why, fmt.Sprintf("score %s (%s) is below %s", t.Score, t.Grade, failUnder.Label))
			}
		}
		errorLevel := 0
		var lines []string
		for _, f := range byTool[t.Name] {
			level, err := sarif.Level(f.Issue)
			if err != nil {
				return nil, fmt.Errorf("tool %q, check %q: %w", t.Name, f.Issue.Check, err)
			}
			if level == "error" {
				errorLevel++
			}
			lines = append(lines, fmt.Sprintf("[%s] %s: %s (gain %s)", level, f.Issue.Check, report.EscapeControls(f.Issue.Message, true), report.Signed(f.Gain, digits)))
		}
		if errorLevel > 0 {
			why = append(why, strconv.Itoa(errorLevel)+" error-level "+words.Pick(errorLevel, "issue", "issues"))
		}
		if len(why) > 0 {
			kind := "error-level issues"
			if strings.HasPrefix(why[0], "score") {
				kind = "below fail-under"
			}
			tc.Failure = &failure{Message: name + ": " + strings.Join(why, "; "), Type: kind, Text: strings.Join(lines, "\n")}
			s.Failures++
		} else if len(lines) > 0 {
			tc.SystemOut = &cdata{strings.Join(lines, "\n")}
		}
		s.Cases = append(s.Cases, tc)
	}
	// A tool left unscored is not a pass: CI shows it as an error, so
	// that a report of fewer tools is not taken for the whole server.
	for _, t := range r.UnscoredTools {
		name := report.EscapeControls(t.Name, false)
		reason := report.EscapeControls(t.Reason, true)
		s.Cases = append(s.Cases, testCase{Name: name, ClassName: class + "." + server, Time: "0",
			Error: &failure{Message: name + ": not scored: " + reason, Type: "unscored", Text: reason}})
		s.Errors++
	}
	if len(r.Warnings) > 0 {
		s.SystemErr = report.EscapeControls(strings.Join(r.Warnings, "\n"), true)
	}
	s.Tests = len(s.Cases)
	return &suites{Name: "rubric " + class, Tests: s.Tests, Failures: s.Failures, Errors: s.Errors, Suites: []suite{s}}, nil
}
