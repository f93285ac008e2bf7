package gitlab

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/reporttest"
	"github.com/rubricmcp/rubric/engine/report/sarif"
)

// TestDocumentedFields checks every entry against the fields GitLab
// documents for a Code Quality report (docs.gitlab.com, "Code Quality",
// "Code Quality report format"): description, check_name, fingerprint
// (unique), severity (info, minor, major, critical or blocker),
// location.path and location.lines.begin; and pins one entry to its
// line of the capture.
func TestDocumentedFields(t *testing.T) {
	dir := filepath.Dir(reporttest.CapturePath(t, "everything.tools.json"))
	for _, c := range reporttest.Captures {
		t.Run(c, func(t *testing.T) {
			rep := reporttest.Capture(t, c)
			rep.Origin = &report.Origin{Kind: report.OriginFile, Path: c}
			var buf bytes.Buffer
			if err := WriteOptions(&buf, rep, sarif.Options{Dir: dir, Root: dir}); err != nil {
				t.Fatal(err)
			}
			var entries []map[string]any
			if err := json.Unmarshal(buf.Bytes(), &entries); err != nil {
				t.Fatalf("not a JSON array: %v", err)
			}
			issues := 0
			for _, tool := range rep.Tools {
				issues += len(tool.Issues)
			}
			if len(entries) != issues {
				t.Errorf("%d entries for %d issues", len(entries), issues)
			}
			seen := map[string]bool{}
			for i, e := range entries {
				for _, k := range []string{"description", "check_name", "fingerprint"} {
					if s, ok := e[k].(string); !ok || s == "" {
						t.Errorf("entry %d: %s = %#v, want a string", i, k, e[k])
					}
				}
				fp, _ := e["fingerprint"].(string)
				if seen[fp] {
					t.Errorf("entry %d: fingerprint %s is not unique", i, fp)
				}
				seen[fp] = true
				if sev, _ := e["severity"].(string); !slices.Contains([]string{"info", "minor", "major", "critical", "blocker"}, sev) {
					t.Errorf("entry %d: severity %q", i, sev)
				}
				loc, _ := e["location"].(map[string]any)
				lines, _ := loc["lines"].(map[string]any)
				if p, _ := loc["path"].(string); p != c {
					t.Errorf("entry %d: location.path %q, want %q", i, p, c)
				}
				if b, ok := lines["begin"].(float64); !ok || b < 1 || b != float64(int(b)) {
					t.Errorf("entry %d: location.lines.begin %#v, want a line number", i, lines["begin"])
				}
				if c == "everything.tools.json" && e["check_name"] == "described_params" && lines["begin"] != float64(130) {
					t.Errorf("get-resource-reference's resourceType is on line 130, got %v", lines["begin"])
				}
			}
		})
	}
}

// TestUnscoredToolIsAnEntry: a tool the rubric left unscored is a major
// entry of its own, placed on the tool in its file and saying why, so
// that a merge request shows it; the scored tools' issues come first.
func TestUnscoredToolIsAnEntry(t *testing.T) {
	rep := reporttest.Partial(t)
	dir, err := filepath.Abs("../../../rubrics/testdata/tdqs13")
	if err != nil {
		t.Fatal(err)
	}
	rep.Origin = &report.Origin{Kind: report.OriginFile, Path: "partial.tools.json"}
	var buf bytes.Buffer
	if err := WriteOptions(&buf, rep, sarif.Options{Dir: dir, Root: dir}); err != nil {
		t.Fatal(err)
	}
	var entries []issue
	if err := json.Unmarshal(buf.Bytes(), &entries); err != nil {
		t.Fatal(err)
	}
	issues := 0
	for _, tool := range rep.Tools {
		issues += len(tool.Issues)
	}
	if len(entries) != issues+1 {
		t.Fatalf("%d entries for %d issues and one unscored tool", len(entries), issues)
	}
	last := entries[len(entries)-1]
	want := reporttest.PartialUnscored + ": not scored: " + rep.UnscoredTools[0].Reason
	if last.CheckName != "unscored" || last.Severity != "major" || last.Description != want ||
		last.Location.Path != "partial.tools.json" || last.Location.Lines.Begin != 19 {
		t.Errorf("the unscored tool's entry: %+v; want check unscored, major, %q, at partial.tools.json:19 (its name)", last, want)
	}
	for _, e := range entries[:issues] {
		if e.CheckName == "unscored" || e.Fingerprint == last.Fingerprint {
			t.Errorf("an issue's entry %+v is taken for the unscored tool's", e)
		}
	}
}

// TestNoIssues writes an empty array, which GitLab reads as "nothing
// found".
func TestNoIssues(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, reporttest.Clean(t)); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "[]\n" {
		t.Errorf("got %q, want []", got)
	}
}
