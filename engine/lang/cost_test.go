package lang

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestBuiltinLaddersHold: every formula of the built-in rubrics
// (schema-quality, tdqs, gradable, tool-safety, toolset: their checks,
// lets, metrics and scores, as rubrics/compiled.bin holds them) is
// untracked up to the same size as when the table was generated. The
// table records each formula's ladder as the estimator of its build
// gave it, so a change of the estimator that moves a built-in formula
// onto the tracked path (slower on large tools), or off it, is named
// here, formula by formula, before the table is made again.
func TestBuiltinLaddersHold(t *testing.T) {
	blob, err := os.ReadFile("../../rubrics/compiled.bin")
	if err != nil {
		t.Fatal(err)
	}
	_, table, err := parseCompiled(blob)
	if err != nil {
		t.Fatal(err)
	}
	env, err := baseEnv()
	if err != nil {
		t.Fatal(err)
	}
	entries := slices.SortedFunc(func(yield func(compiledEntry) bool) {
		for _, e := range table.entries {
			if !yield(e) {
				return
			}
		}
	}, func(a, b compiledEntry) int { return strings.Compare(a.src, b.src) })
	if len(entries) == 0 {
		t.Fatal("the table holds no formulas")
	}
	untracked := 0
	for _, e := range entries {
		checked := e.ast(e.src)
		if checked == nil {
			t.Errorf("%s: the table's tree does not decode", e.src)
			continue
		}
		if got := fastLimit(env, checked, e.fastLimit, parseSizesKey(t, e.fastSizes)); got != e.fastUpTo {
			t.Errorf("%s: untracked up to %d, the table says %d", e.src, got, e.fastUpTo)
		}
		if e.fastUpTo > 0 {
			untracked++
		}
	}
	t.Logf("%d formulas, %d of them untracked on some data", len(entries), untracked)
}

// parseSizesKey reads what sizesKey wrote.
func parseSizesKey(t *testing.T, key string) map[string]uint64 {
	t.Helper()
	var out map[string]uint64
	for kv := range strings.SplitSeq(key, ";") {
		if kv == "" {
			continue
		}
		name, n, ok := strings.Cut(kv, "=")
		v, err := strconv.ParseUint(n, 10, 64)
		if !ok || err != nil {
			t.Fatalf("fixed sizes %q: %q is not name=size", key, kv)
		}
		if out == nil {
			out = map[string]uint64{}
		}
		out[name] = v
	}
	return out
}
