package lang

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types/ref"

	"github.com/rubricmcp/rubric/internal/heavytest"
)

// walkVars are the variables of the walk tests: the tool, an object of
// values (a signal's group), and lets of their checked types.
var walkVars = []Var{
	{"tool", Tool}, {"signals", Object}, {"rep", cel.ListType(cel.DynType)},
	{"reps", cel.ListType(cel.ListType(cel.DynType))}, {"names", cel.ListType(cel.StringType)},
}

// walkData is a tool no longer in canonical JSON than n bytes, and
// values that repeat its description as the engine allows: every
// string, list and map at most n long (see eval.ValueSize), each whole
// far longer.
func walkData(t *testing.T, n int) (Vars, uint64) {
	t.Helper()
	desc := strings.Repeat("x", n/5)
	tool := map[string]any{
		"name": "read", "description": desc,
		"inputSchema": map[string]any{"type": "object", "properties": map[string]any{
			"id": map[string]any{"type": "string", "description": desc, "enum": []any{"a", "b", "c"}},
		}},
	}
	if size := jsonSize(t, tool); size > uint64(n) {
		t.Fatalf("tool of %d bytes, want at most %d", size, n)
	}
	long := strings.Repeat("y", n)
	rep, names := make([]any, n), make([]any, n)
	for i := range rep {
		rep[i], names[i] = long, long
	}
	reps := make([]any, n)
	for i := range reps {
		reps[i] = rep
	}
	return Vars{
		"tool":    ToolValue(tool),
		"signals": map[string]any{"rep": rep, "reps": reps, "s": long, "tool": tool},
		"rep":     rep, "reps": reps, "names": names,
	}, uint64(n)
}

// TestWalkEstimateBoundsItsCharge: texts and string_values walk all of
// the value they are given; on data within the engine's size bound,
// what the tracker charges them stays within the static estimate for
// that bound (which is what lets a formula run untracked). A path into
// the tool is bounded by the tool's length; a signal, a let, a list of
// lists or a computed value that repeats the tool's strings is not, and
// was estimated as one value of the bound (about 2n) while charged
// about n*n/10, or n*n*n/10 nested.
func TestWalkEstimateBoundsItsCharge(t *testing.T) {
	e, err := NewEnv(walkVars...)
	if err != nil {
		t.Fatal(err)
	}
	act, n := walkData(t, 256)
	for _, src := range []string{
		"texts(tool)",
		"texts(tool, true)",
		"texts(tool.inputSchema)",
		"texts(tool.inputSchema.properties, false)",
		"string_values(tool)",
		"string_values(tool.inputSchema)",
		"[tool, tool].map(t, texts(t))",
		"cel.bind(t, tool, string_values(t))",
		"texts(tool.description)",
		"texts(signals.s)",
		"texts(signals.rep)",
		"texts(signals.rep, true)",
		"string_values(signals.rep)",
		"texts(signals.reps)",
		"string_values(signals.reps)",
		"texts(signals.tool)",
		"texts(rep)",
		"string_values(rep)",
		"texts(reps)",
		"string_values(reps)",
		"texts(names)",
		"string_values(names)",
		"texts(names.map(s, [s, s]))",
		"string_values([tool, tool])",
	} {
		wantChargeWithin(t, e, src, act, n, src, false)
	}
}

// TestToolWalksKeepTheirBound: a walk of the tool itself, or of a path
// into it, is estimated as before the walks of other values were
// tracked: the formulas of the built-in rubrics over texts(tool) and
// string_values(tool) stay on the untracked path for the same tools. A
// walk of anything else has no bound and is tracked.
func TestToolWalksKeepTheirBound(t *testing.T) {
	e, err := NewEnv(walkVars...)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		src string
		// upTo is the longest data evaluated untracked.
		upTo uint64
	}{
		{"texts(tool).size() > 0", 1 << 18},
		// A macro over texts of the tool goes through at most one text
		// for every two bytes of the bound (see textCallEstimate): each
		// step costs the same, so these are untracked twice as far.
		{"texts(tool, false).map(t, t.path).size() > 0", 1 << 16},
		{"texts(tool.inputSchema, true).exists(t, t.key)", 1 << 17},
		{"string_values(tool).size() > 0", 1 << 18},
		{"string_values(tool.inputSchema).size() > 0", 1 << 18},
		{"texts(tool.name).size() > 0", 1 << 18},
		{"texts(signals.s).size() > 0", 0},
		// A list of strings: at most max strings of max characters.
		{"texts(names).size() > 0", 1 << 9},
		{"texts(signals.rep).size() > 0", 0},
		{"string_values(signals.rep).size() > 0", 0},
		{"texts(rep).size() > 0", 0},
		{"texts(reps).size() > 0", 0},
		{"string_values(params(tool)).size() > 0", 0},
		// Only the variable itself: a name a comprehension binds holds
		// what the formula computed, even where it is the tool.
		{"[tool].map(t, texts(t)).size() > 0", 0},
		{"cel.bind(t, tool, string_values(t)).size() > 0", 0},
		{"[mcp.Tool{name: 'x', description: signals.reps}].map(t, texts(t)).size() > 0", 0},
		{"[1].map(tool, texts(tool)).size() > 0", 0},
	} {
		p, ds := e.Compile(tt.src, nil)
		if ds != nil {
			t.Fatalf("%s: %v", tt.src, ds)
		}
		if p.fastUpTo != tt.upTo {
			t.Errorf("%s: untracked up to %d, want %d", tt.src, p.fastUpTo, tt.upTo)
		}
	}
}

// TestRewriteGrowthBound: skeleton and visible write no more than
// maxRewriteGrowth characters for any one character, or for a byte that
// is not UTF-8, so that the estimate of their result bounds what reads
// it; both are made character by character, so a string grows no more
// than its characters do.
func TestRewriteGrowthBound(t *testing.T) {
	heavytest.Later(t)
	for _, f := range []struct {
		name string
		fn   func(string) string
	}{{"skeleton", Skeleton}, {"visible", Visible}} {
		most, at := 0, ""
		check := func(s string) {
			if n := utf8.RuneCountInString(f.fn(s)); n > most {
				most, at = n, s
			}
		}
		for r := rune(0); r <= utf8.MaxRune; r++ {
			if utf8.ValidRune(r) {
				check(string(r))
			}
		}
		for b := 0x80; b <= 0xFF; b++ {
			check(string([]byte{byte(b)}))
		}
		if most > maxRewriteGrowth {
			t.Errorf("%s(%q) is %d characters, above maxRewriteGrowth (%d)", f.name, at, most, maxRewriteGrowth)
		}
	}
}

// TestRewriteResultsEstimateBoundTheirReaders: a formula that reads what
// skeleton or visible return reads a string longer than their argument
// (U+FDFA's skeleton is 18 characters, a control character's visible
// form 5, a byte that is not UTF-8 6); the estimate of such a formula
// bounds what the tracker charges it. Estimated as no longer than the
// argument, a match of each character of the visible form of 300 bytes
// that are not UTF-8 was charged 2,013 and estimated at 1,269.
func TestRewriteResultsEstimateBoundTheirReaders(t *testing.T) {
	e, err := NewEnv(Var{"s", cel.StringType})
	if err != nil {
		t.Fatal(err)
	}
	const n = 300
	for _, tt := range []struct{ src, s string }{
		{"find_all(skeleton(s), '.')", strings.Repeat("\uFDFA", n/3)},
		{"find_all(visible(s), '.')", strings.Repeat("\x01", n)},
		{"find_all(visible(s), '.')", strings.Repeat("\xff", n)},
		{"find_all(skeleton(s) + visible(s), '.')", strings.Repeat("\uFDFA", n/3)},
	} {
		if _, actual, est := trackedCharge(t, e, tt.src, map[string]any{"s": tt.s}, uint64(len(tt.s))); actual > est {
			t.Errorf("%s on %d bytes: charged %d, above its static estimate %d", tt.src, len(tt.s), actual, est)
		}
	}
}

// wantChargeWithin checks that what cel-go's tracker charges src on act
// is within its static estimate at size n, and, when bounded, that
// there is an estimate (a formula with none is always tracked); label
// names the case in a failure.
func wantChargeWithin(t *testing.T, e *Env, src string, act map[string]any, n uint64, label string, bounded bool) {
	t.Helper()
	_, actual, est := trackedCharge(t, e, src, act, n)
	if bounded && est == math.MaxUint64 {
		t.Errorf("%s: no bound, want one: its data is bounded", label)
	}
	if actual > est {
		t.Errorf("%s: charged %d, above its static estimate %d", label, actual, est)
	}
}

// trackedCharge compiles src in e and evaluates it on act with cel-go's
// cost tracker: its value, what the tracker charged, and the static
// estimate with every value of the data at most n long, the lets and the
// tool's reads as the engine compiles them.
func trackedCharge(t *testing.T, e *Env, src string, act map[string]any, n uint64) (out ref.Val, charged, estimate uint64) {
	t.Helper()
	p, ds := e.Compile(src, nil)
	if ds != nil {
		t.Fatalf("%s: %v", src, ds)
	}
	out, charge, err := evalTracked(t, p, act)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	checked := p.checked
	est, err := p.env.EstimateCost(chargeSelections(checked), newSizeBound(checked, n, nil))
	if err != nil {
		t.Fatal(err)
	}
	return out, charge, est.Max
}
