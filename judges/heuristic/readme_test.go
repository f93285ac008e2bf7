package heuristic_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/internal/readmetest"
)

// TestReadmeAgreementFigures holds the per-tool columns of README.md's
// agreement table (tools, Pearson, MAD) to testdata/agreement.golden,
// which TestAgreementTable writes from the scores: a change of the cues
// that moves a part's figures fails here until the README quotes them.
func TestReadmeAgreementFigures(t *testing.T) {
	golden, err := os.ReadFile("testdata/agreement.golden")
	if err != nil {
		t.Fatal(err)
	}
	readme := readmetest.Text(t)
	for _, part := range []struct{ heading, row string }{
		{"## enlarged tuning part", "| tuning for 1.4.0 |"},
		{"## held-out part", "| held out for 1.4.0, read by several versions |"},
		{"## fresh held-out part", "| fresh for 1.4.0, transcribed after it |"},
	} {
		_, section, ok := strings.Cut(string(golden), "\n"+part.heading)
		if !ok {
			t.Errorf("agreement.golden has no section %q", part.heading)
			continue
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
			t.Errorf("agreement.golden's section %q has no per-tool line", part.heading)
			continue
		}
		want := fmt.Sprintf("%s %s | %s | %s |", part.row, n, pearson, mad)
		if !strings.Contains(readme, want) {
			t.Errorf("README.md's agreement table lacks %q, what agreement.golden measures", want)
		}
	}
}
