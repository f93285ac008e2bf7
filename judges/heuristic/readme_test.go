package heuristic_test

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/internal/readmetest"
)

// TestReadmeAgreementFigures holds README.md's agreement table (tools,
// per-tool Pearson and MAD, and the worst dimension's MAD for the fresh
// parts) to what the judge measures: the
// fresh parts' rows to testdata/agreement.golden, which
// TestAgreementTable writes from the scores, and the tuning row to
// every record of the development set (allTuning: since the fourth
// 1.6.0 candidate the 1.6 to 1.9 parts, and since the twelfth reading
// the 1.10 to 1.12 parts, all but fresh 1.12). A change
// of the cues that moves them fails here until the README quotes them.
func TestReadmeAgreementFigures(t *testing.T) {
	golden, err := os.ReadFile("testdata/agreement.golden")
	if err != nil {
		t.Fatal(err)
	}
	readme := readmetest.Text(t)
	var rows []string
	for _, part := range []struct{ heading, row string }{
		{"## fresh held-out part, 1.6", "| fresh 1.6, transcribed while 1.5.0 was fitted |"},
		{"## fresh held-out part, 1.7", "| fresh 1.7, transcribed while a 1.6.0 candidate was fitted (not adopted) |"},
		{"## fresh held-out part, 1.8", "| fresh 1.8, transcribed while a second 1.6.0 candidate was fitted (not adopted) |"},
		{"## fresh held-out part, 1.9", "| fresh 1.9, transcribed while a third 1.6.0 candidate was fitted (not adopted) |"},
		{"## fresh held-out part, 1.10", "| fresh 1.10, transcribed while a fourth 1.6.0 candidate was fitted (none frozen) |"},
		{"## fresh held-out part, 1.11", "| fresh 1.11, transcribed while a fifth 1.6.0 candidate was fitted (not adopted) |"},
		{"## fresh held-out part, 1.12", "| fresh 1.12, transcribed during the 1.5 readings; read by 1.5.9, then by 1.5.10, tuned without it |"},
	} {
		_, section, ok := strings.Cut(string(golden), "\n"+part.heading)
		if !ok {
			t.Fatalf("agreement.golden has no section %q", part.heading)
		}
		section, _, _ = strings.Cut(section, "\n## ")
		var n, mad, pearson string
		type dim struct{ name, n, mad string }
		var dims []dim
		for _, line := range strings.Split(section, "\n") {
			f := strings.Fields(line)
			if len(f) != 5 {
				continue
			}
			if f[0] == "per" && f[1] == "tool" {
				n, mad, pearson = f[2], f[3], f[4]
				break
			}
			if short, ok := dimensionWords[f[0]]; ok {
				dims = append(dims, dim{short, f[1], f[2]})
			}
		}
		if n == "" {
			t.Fatalf("agreement.golden's section %q has no per-tool line", part.heading)
		}
		// The worst dimension is the first of the highest MAD among
		// those the registry published for at least half the tools (a
		// dimension published for one tool of 82 says little).
		tools, _ := strconv.Atoi(n)
		var worst dim
		for _, d := range dims {
			if k, _ := strconv.Atoi(d.n); 2*k >= tools && d.mad > worst.mad {
				worst = d
			}
		}
		if worst.name == "" {
			t.Fatalf("agreement.golden's section %q has no dimension published for half its tools", part.heading)
		}
		rows = append(rows, fmt.Sprintf("%s %s | %s | %s | %s (%s) |", part.row, n, pearson, mad, worst.mad, worst.name))
	}
	tuned := tabulate(t, "tuned on", allTuning(t))
	r, _ := tuned.tools.pearson()
	rows = append(rows, fmt.Sprintf("| the development set (`allTuning`): every part up to 1.12 but fresh 1.12, the fresh ones of 1.6 to 1.11 below included, tuning data since the fourth 1.6.0 candidate (1.6 to 1.9) and issue 19's twelfth reading (1.10 to 1.12; 1.5.0 was fitted on 324 of them, out of fold: 0.79, 0.38) | %d | %.2f | %.2f |", len(tuned.rows), r, tuned.tools.mad()))
	for _, want := range rows {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md's agreement table lacks %q, what the judge measures", want)
		}
	}
}

// dimensionWords are the words README.md's agreement table names the
// TDQS dimensions by, keyed by the names agreement.golden gives them.
var dimensionWords = map[string]string{
	"purpose_clarity":         "purpose",
	"usage_guidelines":        "usage",
	"behavioral_transparency": "behaviour",
	"parameter_semantics":     "parameters",
	"conciseness_structure":   "conciseness",
	"contextual_completeness": "completeness",
}
