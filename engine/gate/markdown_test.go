package gate_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/gate"
	"github.com/rubricmcp/rubric/engine/report"
)

// TestCallsTableRefusals: gate.md's table of calls gains a column of the
// requests the provider refused or never answered, which are no calls,
// only when a pair has any.
func TestCallsTableRefusals(t *testing.T) {
	for _, tt := range []struct {
		name  string
		calls report.Calls
		want  string
		not   string
	}{
		{"none refused", report.Calls{Model: 4, Questions: 4}, "| 1 | 4 | 0 | 4 | 0 |\n", "refused"},
		{"refused and unanswered", report.Calls{Model: 4, Questions: 4, RateLimited: 2, Unanswered: 1}, "| 1 | 4 | 0 | 4 | 0 | 3 |\n", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rep := &gate.Report{Decision: gate.Pass, Pairs: []gate.Pair{{N: 1, Calls: tt.calls}}}
			var md bytes.Buffer
			if err := gate.WriteMarkdown(&md, rep); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(md.String(), tt.want) {
				t.Errorf("gate.md lacks %q:\n%s", tt.want, md.String())
			}
			if tt.not != "" && strings.Contains(md.String(), tt.not) {
				t.Errorf("gate.md says %q with nothing refused:\n%s", tt.not, md.String())
			}
		})
	}
}

// TestUsageReport: a gate stopped by its command line is INVALID, exit
// 2, with the error as its reason, and its summary says no rubric was
// loaded rather than naming an empty one.
func TestUsageReport(t *testing.T) {
	rep := gate.Usage("", errors.New("unknown flag: --bogus (see rubric gate --help)"))
	if rep.Decision != gate.Invalid || rep.ExitCode != 2 || rep.Reason != "unknown flag: --bogus (see rubric gate --help)" || rep.Generator.Version != "dev" {
		t.Errorf("Usage: %+v", rep)
	}
	var b strings.Builder
	if err := gate.WriteMarkdown(&b, rep); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## rubric gate: INVALID\n", "Unknown flag: --bogus", "No rubric was loaded"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the summary lacks %q:\n%s", want, b.String())
		}
	}
	if strings.Contains(b.String(), "Rubric ``") {
		t.Errorf("the summary names an empty rubric:\n%s", b.String())
	}
}
