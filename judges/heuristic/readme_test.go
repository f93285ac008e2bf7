package heuristic_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/internal/readmetest"
)

// TestReadmeAgreementFigures holds the per-tool columns of README.md's
// agreement table (tools, Pearson, MAD) to what the judge measures: the
// fresh parts' rows to testdata/agreement.golden, which
// TestAgreementTable writes from the scores, and the tuning row to
// every record of the development set (allTuning: since the fourth
// 1.6.0 candidate every file, the 1.6 to 1.9 parts included). A change
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
	} {
		_, section, ok := strings.Cut(string(golden), "\n"+part.heading)
		if !ok {
			t.Fatalf("agreement.golden has no section %q", part.heading)
		}
		section, _, _ = strings.Cut(section, "\n## ")
		var n, mad, pearson string
		for _, line := range strings.Split(section, "\n") {
			if f := strings.Fields(line); len(f) == 5 && f[0] == "per" && f[1] == "tool" {
				n, mad, pearson = f[2], f[3], f[4]
				break
			}
		}
		if n == "" {
			t.Fatalf("agreement.golden's section %q has no per-tool line", part.heading)
		}
		rows = append(rows, fmt.Sprintf("%s %s | %s | %s |", part.row, n, pearson, mad))
	}
	tuned := tabulate(t, "tuned on", allTuning(t))
	r, _ := tuned.tools.pearson()
	rows = append(rows, fmt.Sprintf("| every part, the fresh ones below included: tuning data since the fourth 1.6.0 candidate (1.5.0 was fitted on 324 of them, out of fold: 0.79, 0.38) | %d | %.2f | %.2f |", len(tuned.rows), r, tuned.tools.mad()))
	for _, want := range rows {
		if !strings.Contains(readme, want) {
			t.Errorf("README.md's agreement table lacks %q, what the judge measures", want)
		}
	}
}
