package rubrictest

import (
	"fmt"
	"io"
	"strings"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// Write prints the results of r's tests as rubric test does: ok or
// FAIL with its place per test, what each failure wanted and got, and a
// count. It returns how many failed, and of those how many could not
// run (broken: the rubric's file needs fixing, not its numbers).
func Write(w io.Writer, r *rubric.Rubric, results []Result) (failed, broken int, err error) {
	for _, res := range results {
		if res.Passed() {
			fmt.Fprintf(w, "ok    %s\n", res.Test.Name)
			continue
		}
		failed++
		fmt.Fprintf(w, "FAIL  %s (%s:%d)\n", res.Test.Name, res.Test.File, res.Test.Line)
		if res.Err != nil {
			broken++
			fmt.Fprintf(w, "  could not run: %s\n", strings.ReplaceAll(res.Err.Error(), "\n", "\n  could not run: "))
		}
		for _, f := range res.Failures {
			fmt.Fprintf(w, "  %s:%d: %s: want %s, got %s\n", res.Test.File, f.Line, f.Path, f.Want, f.Got)
		}
	}
	summary := fmt.Sprintf("%s (%s %s)", count(len(results), failed), r.Name, r.Version)
	if broken > 0 {
		summary += fmt.Sprintf("; %d could not run", broken)
	}
	_, err = fmt.Fprintln(w, summary)
	return failed, broken, err
}

// count says how n tests went, failed of them failing: "1 test
// passed", "all 3 tests passed", "1 of 3 tests failed".
func count(n, failed int) string {
	switch {
	case failed > 0:
		return fmt.Sprintf("%d of %s failed", failed, report.Plural(n, "test"))
	case n == 0:
		return "no tests"
	case n == 1:
		return "1 test passed"
	}
	return fmt.Sprintf("all %d tests passed", n)
}
