package lang

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/internal/heavytest"
)

// formulaGen writes random formulas over signals.r, a value of random
// nested data, from a small grammar of what the per-evaluation estimate
// must bound: field chains, indexes, optional fields, has(), in,
// string functions (split, join, replace, matches, format, find_all,
// lower), omit, made lists and maps, concatenation, distinct, sort,
// sortBy, macros nested over the item's own values, cel.bind,
// exact arithmetic, comparisons and string() of numbers. With
// equalities set, it writes ==, != and in of the data's own values as
// well (strings, lists and maps, at every depth), and of lists and maps
// made of them. With lookups set, it writes indexes and optional
// indexes by any value (a key of the data, long strings among them) as
// well as by a literal.
type formulaGen struct {
	r          *rand.Rand
	vars       []string // macro and cel.bind variables in scope
	n          int      // variables made so far
	equalities bool
	lookups    bool
}

// steps is how many kinds of step path draws from: the last two, an
// index and an optional index by any value, only with lookups set, so
// that each seed without it makes the formula it made before.
func (g *formulaGen) steps() int {
	if g.lookups {
		return 7
	}
	return 5
}

func (g *formulaGen) fresh() string {
	g.n++
	return fmt.Sprintf("v%d", g.n)
}

// path is a value of the data: signals.r or a variable in scope, with
// fields and indexes after it.
func (g *formulaGen) path(depth int) string {
	s := "signals.r"
	if len(g.vars) > 0 && g.r.IntN(3) > 0 {
		s = g.vars[g.r.IntN(len(g.vars))]
	}
	for range g.r.IntN(4) {
		switch g.r.IntN(g.steps()) {
		case 0, 1:
			s += "." + string(rune('a'+g.r.IntN(3)))
		case 2:
			s += fmt.Sprintf("[%d]", g.r.IntN(2))
		case 3:
			s += fmt.Sprintf("[%q]", string(rune('a'+g.r.IntN(3))))
		case 4:
			s = fmt.Sprintf("%s.?%c.orValue(%s)", s, 'a'+g.r.IntN(3), g.value(depth-1))
		case 5:
			s = fmt.Sprintf("%s[%s]", s, g.value(depth-1))
		case 6:
			s = fmt.Sprintf("%s[?%s].orValue(%s)", s, g.path(depth-1), g.value(depth-1))
		}
	}
	return s
}

// value is any value.
func (g *formulaGen) value(depth int) string {
	if depth <= 0 {
		if g.r.IntN(2) == 0 {
			return fmt.Sprintf("%q", strings.Repeat("a", g.r.IntN(4)))
		}
		return g.path(0)
	}
	switch g.r.IntN(21) {
	case 17:
		return fmt.Sprintf("string(%s)", g.number(depth-1))
	case 18, 19:
		return g.number(depth)
	case 20:
		v := g.fresh()
		init := g.number(depth - 1)
		g.vars = append(g.vars, v)
		defer func() { g.vars = g.vars[:len(g.vars)-1] }()
		return fmt.Sprintf("cel.bind(%s, %s * %s, string(%s * %s))", v, init, init, v, v)
	case 16:
		return fmt.Sprintf("omit(%s, ['a', 'b'])", g.value(depth-1))
	case 14:
		return fmt.Sprintf("%s.join()", g.list(depth-1))
	case 15:
		return fmt.Sprintf("%s.join(%s)", g.list(depth-1), g.value(depth-1))
	case 9:
		return fmt.Sprintf("%s.lowerAscii()", g.value(depth-1))
	case 10:
		return fmt.Sprintf("%s.replace(%s, %s)", g.value(depth-1), g.value(depth-1), g.value(depth-1))
	case 11:
		return fmt.Sprintf("find_all(%s, 'a+')", g.value(depth-1))
	case 12:
		return fmt.Sprintf("'%%s-%%s'.format([%s, %s])", g.value(depth-1), g.value(depth-1))
	case 13:
		return fmt.Sprintf("%s.distinct()", g.list(depth-1))
	case 0:
		return g.path(depth)
	case 1:
		return g.list(depth - 1)
	case 2:
		return fmt.Sprintf("%s + %s", g.value(depth-1), g.value(depth-1))
	case 3:
		return fmt.Sprintf("{'k': %s, 'l': %s}", g.value(depth-1), g.value(depth-1))
	case 4:
		return fmt.Sprintf("(%s ? %s : %s)", g.cond(depth-1), g.value(depth-1), g.value(depth-1))
	case 5:
		return fmt.Sprintf("%s.size()", g.value(depth-1))
	case 6:
		return fmt.Sprintf("lower(%s)", g.value(depth-1))
	case 7:
		v := g.fresh()
		init := g.value(depth - 1)
		g.vars = append(g.vars, v)
		defer func() { g.vars = g.vars[:len(g.vars)-1] }()
		return fmt.Sprintf("cel.bind(%s, %s, %s)", v, init, g.value(depth-1))
	}
	return g.path(depth)
}

// number is exact arithmetic on values of the data (which fails on
// what is not a number), literals and num() of them.
func (g *formulaGen) number(depth int) string {
	if depth <= 0 {
		switch g.r.IntN(3) {
		case 0:
			return "1.5"
		case 1:
			return fmt.Sprintf("num(%s)", g.path(0))
		}
		return g.path(0)
	}
	switch k := g.r.IntN(6); {
	case k < 4:
		return fmt.Sprintf("(%s %s %s)", g.number(depth-1), arithmetic[k], g.number(depth-1))
	case k == 4:
		return fmt.Sprintf("-%s", g.number(depth-1))
	}
	return g.number(0)
}

// arithmetic are the binary operators number draws from.
var arithmetic = [...]string{"+", "-", "*", "/"}

// list is a value a macro may range over.
func (g *formulaGen) list(depth int) string {
	if depth <= 0 {
		return g.path(0)
	}
	switch g.r.IntN(7) {
	case 0:
		return g.macro(depth, "map(%s, %s)", g.value)
	case 1:
		return g.macro(depth, "filter(%s, %s)", g.cond)
	case 2:
		return fmt.Sprintf("[%s, %s]", g.value(depth-1), g.value(depth-1))
	case 3:
		return fmt.Sprintf("%s.split(',')", g.value(depth-1))
	case 4:
		return g.macro(depth, "sortBy(%s, %s)", g.value)
	case 5:
		return fmt.Sprintf("%s.sort()", g.list(depth-1))
	}
	return g.path(depth)
}

// macro is a macro over a list whose body is made by body.
func (g *formulaGen) macro(depth int, form string, body func(int) string) string {
	rng := g.list(depth - 1)
	v := g.fresh()
	g.vars = append(g.vars, v)
	defer func() { g.vars = g.vars[:len(g.vars)-1] }()
	return rng + "." + fmt.Sprintf(form, v, body(depth-1))
}

// cond is a boolean.
func (g *formulaGen) cond(depth int) string {
	if g.equalities && g.r.IntN(2) == 0 {
		return g.equality(depth)
	}
	if depth <= 0 {
		return fmt.Sprintf("%s == %s", g.value(0), g.value(0))
	}
	switch g.r.IntN(11) {
	case 10:
		return fmt.Sprintf("%s < %s", g.number(depth-1), g.number(depth-1))
	case 0:
		return fmt.Sprintf("%s.contains(%s)", g.value(depth-1), g.value(depth-1))
	case 1:
		return fmt.Sprintf("%s.startsWith(%s)", g.value(depth-1), g.value(depth-1))
	case 2:
		return fmt.Sprintf("%s.matches(%s)", g.value(depth-1), g.value(depth-1))
	case 3:
		return fmt.Sprintf("%s in %s", g.value(depth-1), g.value(depth-1))
	case 4:
		return fmt.Sprintf("has(%s.%c)", g.path(depth-1), 'a'+g.r.IntN(3))
	case 5:
		return fmt.Sprintf("(%s && %s)", g.cond(depth-1), g.cond(depth-1))
	case 6:
		return fmt.Sprintf("(%s || %s)", g.cond(depth-1), g.cond(depth-1))
	case 7:
		return g.macro(depth, "all(%s, %s)", g.cond)
	case 8:
		return g.macro(depth, "exists(%s, %s)", g.cond)
	case 9:
		return g.macro(depth, "exists_one(%s, %s)", g.cond)
	}
	return fmt.Sprintf("%s == %s", g.value(depth-1), g.value(depth-1))
}

// equality is ==, != or in of two values of the data, or of one and a
// list or a map made of them.
func (g *formulaGen) equality(depth int) string {
	operand := func() string {
		switch g.r.IntN(5) {
		case 0:
			return fmt.Sprintf("[%s, %s]", g.path(0), g.path(0))
		case 1:
			return fmt.Sprintf("{'a': %s}", g.path(0))
		case 2:
			// A whole value: signals.r, or a variable over its members.
			if len(g.vars) > 0 && g.r.IntN(3) > 0 {
				return g.vars[g.r.IntN(len(g.vars))]
			}
			return "signals.r"
		}
		return g.path(max(depth-1, 0))
	}
	switch g.r.IntN(3) {
	case 0:
		return fmt.Sprintf("%s == %s", operand(), operand())
	case 1:
		return fmt.Sprintf("%s != %s", operand(), operand())
	}
	return fmt.Sprintf("%s in %s", operand(), operand())
}

// data is a random nested value: maps under a, b and c, lists, strings
// of a and commas (long ones of a or of U+023A), numbers (floats, and exact ones as the engine's
// values hold them, some of hundreds of digits), a long list now and
// then. With shared set, strings are now and then hundreds of
// characters long and lists and maps repeat a member, so that equality
// has long strings and deep equal values to compare.
func randomData(r *rand.Rand, depth int, shared bool) any {
	k := r.IntN(8)
	if k > 5 {
		k = 0
	}
	if depth <= 0 {
		k = 3 + r.IntN(3)
	}
	switch k {
	case 0, 1:
		m := map[string]any{}
		for _, f := range []string{"a", "b", "c"} {
			if r.IntN(6) > 0 {
				m[f] = randomData(r, depth-1, shared)
			}
		}
		if _, ok := m["a"]; ok && shared && r.IntN(2) == 0 {
			m["b"] = m["a"]
		}
		return m
	case 2:
		n := r.IntN(4)
		if r.IntN(8) == 0 {
			n = 20 + r.IntN(40)
		}
		l := make([]any, n)
		for i := range l {
			l[i] = randomData(r, depth-1, shared)
		}
		if shared && len(l) > 1 && r.IntN(2) == 0 {
			for i := range l {
				l[i] = l[0]
			}
		}
		return l
	case 3, 4:
		if shared && r.IntN(3) == 0 {
			// Half of them of a capital that takes two bytes, whose
			// lower case takes three.
			unit := "a"
			if r.IntN(2) == 0 {
				unit = "\u023a"
			}
			return strings.Repeat(unit, 100+r.IntN(300))
		}
		return strings.Repeat("a,", r.IntN(6))
	}
	switch r.IntN(5) {
	case 0, 1:
		return num.Int(int64(r.IntN(3)))
	case 2:
		// Longer than any double, sized on the data by its digits.
		return num.MustParse(strings.Repeat("9", 300+r.IntN(200)) + "/7")
	}
	return float64(r.IntN(3))
}

// checkDataEstimate evaluates the formula seed makes on the data it
// makes, tracked, and fails when the tracker charges more than the
// per-evaluation estimate. Formulas that do not compile or fail on
// their data are skipped: only a value's cost is bounded. With
// equalities set, the formula compares values of the data (see
// formulaGen.equality) and the data has long strings and repeated
// members to compare; with lookups set, the formula looks values up by
// keys of the data (see formulaGen.path) and the data has long strings
// to look up by.
func checkDataEstimate(t *testing.T, e *Env, seed uint64, equalities, lookups bool) bool {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	g := &formulaGen{r: r, equalities: equalities, lookups: lookups}
	src := g.cond(2 + r.IntN(3))
	data := randomData(r, 4, equalities || lookups)
	raw, err := json.Marshal(data)
	if err != nil {
		t.Fatal(err)
	}
	p, ds := e.Compile(src, nil)
	if ds != nil {
		return false
	}
	// Read as the engine reads its signals: a Go map of Go values.
	act := goMaps{"tool": ToolValue(map[string]any{"name": "t"}), "signals": map[string]any{"r": data}}
	// The engine's bound: at least the longest string, list or map.
	size := uint64(len(raw)) + 1
	_, charge, err := evalTracked(t, p, act)
	if err != nil {
		return false
	}
	if charged, est := charge, p.costOn(act, size); charged > est {
		t.Errorf("seed %d (equalities %v, lookups %v): %s\non %s: charged %d, above its estimate on the data %d", seed, equalities, lookups, src, raw, charged, est)
	}
	return true
}

// TestDataEstimateBoundsRandomFormulas: random formulas of the grammar
// of formulaGen on random nested data are charged by the tracker no
// more than their per-evaluation estimate; so are those that compare
// the data's strings, lists and maps with ==, != and in, on data whose
// strings are long and whose lists and maps repeat deep members (the
// estimate charged == one unit where the tracker charged a tenth of the
// shorter string, and the tracker charged two lists their top-level
// length where comparing them compares every member); and those that
// look values up by keys of the data, long strings among them (charged
// a tenth of a unit a character of the key, see keyCost).
func TestDataEstimateBoundsRandomFormulas(t *testing.T) {
	heavytest.Later(t)
	e, err := NewEnv(wideVars...)
	if err != nil {
		t.Fatal(err)
	}
	// Most random formulas fail on their data (a field of a string, a
	// key it lacks): a value's cost is what is bounded, and at least 200
	// of each kind must evaluate for the property to say anything.
	evaluated := func(seeds uint64, compare, lookups bool, kind string) int {
		n := 0
		for seed := range seeds {
			if checkDataEstimate(t, e, seed, compare, lookups) {
				n++
			}
		}
		if n < 200 {
			t.Errorf("%d of %d random formulas%s evaluated; want at least 200", n, seeds, kind)
		}
		return n
	}
	ran := evaluated(4000, false, false, "")
	compared := evaluated(2000, true, false, " with equalities")
	looked := evaluated(4000, false, true, " with lookups")
	t.Logf("%d formulas evaluated, %d with equalities, %d with lookups", ran, compared, looked)
}

// FuzzDataEstimate is TestDataEstimateBoundsRandomFormulas on any seed.
func FuzzDataEstimate(f *testing.F) {
	e, err := NewEnv(wideVars...)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(uint64(1))
	f.Fuzz(func(t *testing.T, seed uint64) {
		checkDataEstimate(t, e, seed, false, false)
		checkDataEstimate(t, e, seed, true, false)
		checkDataEstimate(t, e, seed, false, true)
	})
}
