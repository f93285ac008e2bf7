package lang

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/internal/heavytest"
)

// squarings is a formula that binds x0 to start and squares it n times
// through cel.bind, x1 = x0 * x0 and so on, then reads the last with
// last (its name in, such as "find_all_each(string(%s), res).size()").
func squarings(start string, n int, last func(x string) string) string {
	name := func(i int) string { return fmt.Sprintf("x%d", i) }
	body := last(name(n))
	for i := n; i >= 1; i-- {
		body = "cel.bind(" + name(i) + ", " + name(i-1) + " * " + name(i-1) + ", " + body + ")"
	}
	return "cel.bind(" + name(0) + ", " + start + ", " + body + ")"
}

// TestSquaredNumbersSizedByTheirDigits: an exact number squared through
// a chain of cel.binds doubles its digits at each step, and string() of
// it is as long as its digits; the estimate took a product of numbers,
// typed or dyn, and string() of one, to be as long as the data, so
// each row, a number of 64 digits of the data squared twelve times
// (262,144 digits) read by 64 patterns that match nothing, ran
// untracked, and the tracker charges it 1,753,617. Sized
// by their digits (a product by the sum of its operands'), each is
// tracked and stopped at the limit; at 8 digits and two squarings, what
// the tracker charges stays within a finite estimate. num() of a dyn
// value may be num() of a string, whose exponent the language bounds
// (see num.MaxExponent), so that it has a bound too.
func TestSquaredNumbersSizedByTheirDigits(t *testing.T) {
	heavytest.Later(t)
	for _, c := range []struct{ name, start string }{
		{"a dyn number", "d.n"},
		{"a typed number", "num(d.n)"},
		{"a number and a literal", "d.n * 1.5"},
	} {
		e, act := unmatchedRange(t, 64)
		act["d"].(map[string]any)["n"] = num.MustParse(strings.Repeat("7", 64))
		src := squarings(c.start, 12, func(x string) string { return "find_all_each(string(" + x + "), res).size()" })
		wantStoppedAtLimit(t, e, src, act, 64, c.name)

		e, act = unmatchedRange(t, 8)
		act["d"].(map[string]any)["n"] = num.MustParse(strings.Repeat("7", 8))
		src = squarings(c.start, 2, func(x string) string { return "find_all_each(string(" + x + "), res).size()" })
		wantChargeWithin(t, e, src, act, 8, c.name+", short", true)
	}
}

// TestSquaringsChargedByTheirDigits: squaring an exact number doubles
// its digits, and the tracker charged a product one unit whatever its
// operands, so a tracked chain of squarings was bounded neither in time
// nor in memory by the cost limit: 2^64 squared 30 times is 2^(2^36),
// 8 GiB, which no machine here holds; squared 22 times (2^28 bits, 32
// MiB) it took 1.6 s and 300 MB resident before this test, and
// each further squaring about doubles both (2.6 s and 880 MB allocated
// at 24, in a Go program of math/big alone). Charged
// by the digits of its operands, a squaring of numbers of some 300,000
// digits meets the limit: the chain stops there, in milliseconds.
func TestSquaringsChargedByTheirDigits(t *testing.T) {
	e, err := NewEnv(Var{"d", Dyn})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		start string
		n     int
	}{
		{"a typed number", "num('18446744073709551616')", 30},
		{"a dyn number", "d.n", 30},
		{"a typed number, 22 times", "num('18446744073709551616')", 22},
	} {
		act := Vars{"d": map[string]any{"n": num.MustParse("18446744073709551616")}}
		src := squarings(c.start, c.n, func(x string) string { return x + " > 0" })
		wantStoppedAtLimit(t, e, src, act, 1, c.name)
	}
}

// TestNumberFunctionsSizedByTheirDigits: what sum, mean, median, min,
// max, clamp, round and efficiency return was taken to be as long as
// the data, whatever numbers they read, so a number of the data squared
// twelve times and read through one of them ran untracked past the cost
// limit, as TestSquaredNumbersSizedByTheirDigits's rows did. Each
// returns a number sized by the digits of what it reads (one of them,
// for min, max and clamp; their sum, for sum and mean), so each is
// tracked and stopped at the limit.
func TestNumberFunctionsSizedByTheirDigits(t *testing.T) {
	heavytest.Later(t)
	for _, f := range []string{
		"sum([%s])", "mean([%s, 1])", "median([%s])", "min([%s])", "max([%s, d.n])",
		"clamp(%s, 0, %s)", "round(%s, 2)", "efficiency(1, 0, %s)", "sum([%s].map(y, y))",
	} {
		e, act := unmatchedRange(t, 64)
		act["d"].(map[string]any)["n"] = num.MustParse(strings.Repeat("7", 64))
		src := squarings("d.n", 12, func(x string) string {
			return "find_all_each(string(" + strings.ReplaceAll(f, "%s", x) + "), res).size()"
		})
		wantStoppedAtLimit(t, e, src, act, 64, f)
	}
}

// TestFractionDenominatorsBounded: a fraction is kept in lowest terms,
// and reducing one whose numerator and denominator are both long costs
// the square of their digits, which the cost limit, charging by digits,
// does not bound (two fractions of 300,000 digits took 3.1 s to
// multiply). Arithmetic on a fraction whose denominator is past 1,000
// digits, and a sum whose partial sums grow one (the harmonic sum to
// 3,000: lcm(1..3000) has some 1,300 digits), is an error saying to
// round it; a whole number of any length, and a long numerator over a
// short denominator, compute as before.
func TestFractionDenominatorsBounded(t *testing.T) {
	heavytest.Later(t)
	e, err := NewEnv(Var{"d", Dyn})
	if err != nil {
		t.Fatal(err)
	}
	xs := make([]any, 3000)
	for i := range xs {
		xs[i] = num.Int(int64(i + 1))
	}
	act := Vars{"d": map[string]any{"xs": xs, "n": num.MustParse(strings.Repeat("7", 64))}}
	const tooLong = "a fraction whose denominator has more than 1000 digits"
	for _, c := range []struct {
		name, src string
		err       bool
	}{
		{"a third squared 13 times (3^8192)", squarings("num('1/3')", 13, func(x string) string { return x + " > 0" }), true},
		{"a third squared 11 times (3^2048, 978 digits)", squarings("num('1/3')", 11, func(x string) string { return x + " > 0" }), false},
		{"the harmonic sum to 3,000", "sum(d.xs.map(i, num(1) / i)) > 0", true},
		{"its mean", "mean(d.xs.map(i, num(1) / i)) > 0", true},
		{"the harmonic sum to 300", "sum(d.xs.filter(i, i <= 300).map(i, num(1) / i)) > 0", false},
		{"a whole number squared 10 times", squarings("d.n", 10, func(x string) string { return x + " > 0" }), false},
		{"a long numerator over 2", squarings("d.n / 2", 8, func(x string) string { return x + " > 0" }), false},
	} {
		p, ds := e.Compile(c.src, nil)
		if ds != nil {
			t.Fatalf("%s: %v", c.name, ds)
		}
		_, err := p.Eval(act)
		if got := err != nil && strings.Contains(err.Error(), tooLong); got != c.err {
			t.Errorf("%s: error %v, want the denominator refused: %v", c.name, err, c.err)
		}
		if !c.err && err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}
