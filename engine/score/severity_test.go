package score

import (
	"context"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/surface"
)

// TestIssueSeverity: an issue of a tool's issues formula may carry a
// severity, which the report keeps; one that is not a known severity is
// an error naming the known ones, not a silently dropped word.
func TestIssueSeverity(t *testing.T) {
	surf, err := surface.Parse("s.json", []byte(`{"tools":[{"name":"a","description":"x"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		severity string // the CEL expression of the severity member
		want     string // the issue's severity, or a part of the error
	}{
		{"'high'", "high"},
		{"'low'", "low"},
		{"null", ""},
		{"'urgent'", "severity urgent is none of critical, high, medium, low"},
		{"3", "is none of"},
	}
	for _, tt := range tests {
		src := `rubric "sev" {
  version = "1.0.0"
  tool {
    score  = "num(1)"
    issues = "[{'check': 'c', 'message': 'm', 'severity': ` + tt.severity + `}]"
  }
  surface { score = "num(1)" }
  grades = { A = 0 }
}`
		r, err := rubric.Load("sev.hcl", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := Run(context.Background(), r, surf, Options{})
		got := ""
		if err != nil {
			got = err.Error()
		} else {
			got = rep.Tools[0].Issues[0].Severity
		}
		if (tt.want == "" && got != "") || !strings.Contains(got, tt.want) {
			t.Errorf("severity %s: got %q, want %q", tt.severity, got, tt.want)
		}
	}
}
