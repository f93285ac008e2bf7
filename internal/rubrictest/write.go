package rubrictest

import (
	"fmt"
	"io"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// Write prints the results of r's tests as rubric test does: ok or
// FAIL with its place per test, what each failure wanted and got, and a
// count. It returns how many failed.
func Write(w io.Writer, r *rubric.Rubric, results []Result) (failed int, err error) {
	for _, res := range results {
		if res.Passed() {
			fmt.Fprintf(w, "ok    %s\n", res.Test.Name)
			continue
		}
		failed++
		fmt.Fprintf(w, "FAIL  %s (%s:%d)\n", res.Test.Name, res.Test.File, res.Test.Line)
		if res.Err != nil {
			fmt.Fprintf(w, "  could not run: %v\n", res.Err)
		}
		for _, f := range res.Failures {
			fmt.Fprintf(w, "  %s:%d: %s: want %s, got %s\n", res.Test.File, f.Line, f.Path, f.Want, f.Got)
		}
	}
	_, err = fmt.Fprintf(w, "%d of %s of %s %s failed\n", failed, report.Plural(len(results), "test"), r.Name, r.Version)
	return failed, err
}
