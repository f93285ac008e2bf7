package rubrictest

import (
	"errors"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/rubric"
)

// TestWrite: a passing test is one line; a failing one names its place,
// why it could not run or each expectation missed; the count comes last,
// with how many could not run (a broken rubric, not a failed test).
func TestWrite(t *testing.T) {
	r := &rubric.Rubric{Name: "mine", Version: "1.0.0"}
	pass := &rubric.Test{Name: "good", File: "mine.hcl", Line: 3}
	miss := &rubric.Test{Name: "bad", File: "mine.hcl", Line: 9}
	broken := &rubric.Test{Name: "broken", File: "mine.hcl", Line: 14}
	for _, tc := range []struct {
		name    string
		results []Result
		failed  int
		broken  int
		want    string
	}{
		{name: "all pass", results: []Result{{Test: pass}}, want: "ok    good\n1 test passed (mine 1.0.0)\n"},
		{name: "all of several pass", results: []Result{{Test: pass}, {Test: pass}, {Test: pass}}, want: "ok    good\nok    good\nok    good\nall 3 tests passed (mine 1.0.0)\n"},
		{name: "one of several fails", failed: 1, results: []Result{{Test: pass}, {Test: miss, Failures: []Failure{{Path: "score", Want: "80", Got: "75", Line: 11}}}, {Test: pass}}, want: "ok    good\nFAIL  bad (mine.hcl:9)\n  mine.hcl:11: score: want 80, got 75\nok    good\n1 of 3 tests failed (mine 1.0.0)\n"},
		{
			name: "failures", failed: 2, broken: 1,
			results: []Result{{Test: pass}, {Test: miss, Failures: []Failure{{Path: "score", Want: "80", Got: "75", Line: 11}}}, {Test: broken, Err: errors.New("no surface")}},
			want:    "ok    good\nFAIL  bad (mine.hcl:9)\n  mine.hcl:11: score: want 80, got 75\nFAIL  broken (mine.hcl:14)\n  could not run: no surface\n2 of 3 tests failed (mine 1.0.0); 1 could not run\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			failed, broken, err := Write(&b, r, tc.results)
			if err != nil {
				t.Fatal(err)
			}
			if failed != tc.failed || broken != tc.broken || b.String() != tc.want {
				t.Errorf("failed %d, want %d; broken %d, want %d; wrote\n%s\nwant\n%s", failed, tc.failed, broken, tc.broken, b.String(), tc.want)
			}
		})
	}
}
