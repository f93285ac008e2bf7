package heuristic_test

import (
	"crypto/sha256"
	"fmt"
	"strings"
	"testing"
)

// cvFolds is how many folds the tuning part is cut into for
// cross-validation.
const cvFolds = 5

// foldOf is the cross-validation fold of a tuning record: by server, with
// the SHA-256 rule the split uses (TestSplitRule), on the hash's second
// byte, since the first byte's parity already put every new server of
// the tuning part on one side. A spec example's "server" is its label.
func foldOf(r record) int {
	key := r.label
	if _, rest, ok := strings.Cut(r.label, " ("); ok && r.set != "spec" {
		key = strings.TrimSuffix(rest, ")")
	}
	return int(sha256.Sum256([]byte(key))[1] % cvFolds)
}

// TestTuningFolds logs the judge's agreement on every record of the
// development set (allTuning: since the second 1.5.0 fit every file is
// tuning data), whole and fold by fold (foldOf): the figures a change to
// the cues is chosen by. Every dimension's MAD is printed, purpose and
// usage too (few records publish them, so their columns move seldom: a
// column names how many it is of, or is "-" where none does), to
// three decimals, so that a reading's move of 0.001 shows. Run with -v:
//
//	go test ./judges/heuristic -run 'TestTuningFolds$' -v
func TestTuningFolds(t *testing.T) {
	tuning := allTuning(t)
	var folds [cvFolds][]record
	for _, r := range tuning {
		folds[foldOf(r)] = append(folds[foldOf(r)], r)
	}
	var b strings.Builder
	line := func(name string, recs []record) {
		tb := tabulate(t, name, recs)
		r, _ := tb.tools.pearson()
		fmt.Fprintf(&b, "%-8s %3d tools  per tool Pearson %6.3f MAD %5.3f", name, len(tb.rows), r, tb.tools.mad())
		for _, d := range toolDims {
			switch p := tb.dims[d.key]; len(p.pub) {
			case 0: // no record publishes it: no figure, not a MAD of 0
				fmt.Fprintf(&b, "  %s     -", d.short)
			case len(tb.rows):
				fmt.Fprintf(&b, "  %s %5.3f", d.short, p.mad())
			default:
				fmt.Fprintf(&b, "  %s %5.3f (of %d)", d.short, p.mad(), len(p.pub))
			}
		}
		b.WriteString("\n")
	}
	line("tuning", tuning)
	for i, f := range folds {
		if len(f) == 0 {
			t.Errorf("fold %d of the tuning part is empty", i)
			continue
		}
		line(fmt.Sprintf("fold %d", i), f)
	}
	t.Log("\n" + b.String())
}
