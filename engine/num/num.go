// Package num provides the exact numbers that rubric formulas compute with.
//
// A Num is a rational number backed by math/big. Scores are sums, means and
// weighted fractions of small integers, so they are exact fractions; binary
// floats would make 0.1+0.2 differ from 0.3 and round 2.85 down to 2.8. A
// Num is rounded only where a rubric says so, half away from zero.
package num

import (
	"fmt"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
)

// Num is an immutable exact rational number. The zero value is 0.
//
// Most scores are fractions of small integers, so a Num holds a/b in two
// int64s while numerator and denominator stay below 2^31 (products then
// cannot overflow) and falls back to a big.Rat beyond that. Both forms are
// exact; the small one does not allocate.
type Num struct {
	a, b int64    // a/b in lowest terms with b > 0; b == 0 means b == 1
	r    *big.Rat // the value, when it does not fit a and b
}

const smallLimit = 1 << 31

func fits(x int64) bool { return x > -smallLimit && x < smallLimit }

// small builds a/b (b != 0) in lowest terms, or a big.Rat when it is large.
func small(a, b int64) Num {
	if b < 0 {
		a, b = -a, -b
	}
	if g := gcd(abs64(a), b); g > 1 {
		a, b = a/g, b/g
	}
	if fits(a) && fits(b) {
		return Num{a: a, b: b}
	}
	return Num{r: big.NewRat(a, b)}
}

func fromRat(r *big.Rat) Num {
	if r.Num().IsInt64() && r.Denom().IsInt64() {
		a, b := r.Num().Int64(), r.Denom().Int64()
		if fits(a) && fits(b) {
			return Num{a: a, b: b}
		}
	}
	return Num{r: r}
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func (n Num) den() int64 {
	if n.b == 0 {
		return 1
	}
	return n.b
}

func (n Num) rat() *big.Rat {
	if n.r != nil {
		return n.r
	}
	return big.NewRat(n.a, n.den())
}

// Zero and One are the constants used most.
var (
	Zero = Num{}
	One  = Int(1)
)

// Int returns the Num equal to i.
func Int(i int64) Num {
	if fits(i) {
		return Num{a: i, b: 1}
	}
	return Num{r: new(big.Rat).SetInt64(i)}
}

// Frac returns a/b; it panics if b is zero, like integer division.
func Frac(a, b int64) Num {
	if b == 0 {
		panic("num: division by zero")
	}
	return small(a, b)
}

// Rat returns a Num holding a copy of r.
func Rat(r *big.Rat) Num { return fromRat(new(big.Rat).Set(r)) }

// Float returns the Num written by the shortest decimal that reads back as f,
// so the float 0.1 becomes exactly 1/10. It fails for NaN and infinities.
func Float(f float64) (Num, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Num{}, fmt.Errorf("%v is not a finite number", f)
	}
	if f == math.Trunc(f) && math.Abs(f) < smallLimit {
		return Int(int64(f)), nil
	}
	return Parse(strconv.FormatFloat(f, 'g', -1, 64))
}

// MaxExponent bounds the exponent of a number Parse reads (1e400): the
// digits of what it makes grow with the exponent, not with the text, so
// "1e999999", eight bytes of a judge's answer, would be a million digits
// and tens of milliseconds, and a thousand of them minutes. No double
// needs more (they end near 1e308).
const MaxExponent = 400

// Parse reads a decimal ("0.60", "-3", "1e3") or a fraction ("1373/15").
// An exponent past ±MaxExponent is refused.
func Parse(s string) (Num, error) {
	t := strings.TrimSpace(s)
	if t == "" {
		return Num{}, fmt.Errorf("empty number")
	}
	for _, c := range t {
		if !strings.ContainsRune("0123456789+-./eE", c) {
			return Num{}, fmt.Errorf("%q is not a number", s)
		}
	}
	if err := CheckExponent(t); err != nil {
		return Num{}, fmt.Errorf("%q: %w", s, err)
	}
	r, ok := new(big.Rat).SetString(t)
	if !ok {
		return Num{}, fmt.Errorf("%q is not a number", s)
	}
	return fromRat(r), nil
}

// CheckExponent says what is wrong with the exponent of s, a number to
// be read, when it is past MaxExponent either way; nil when it has none
// or a smaller one.
func CheckExponent(s string) error {
	i := strings.LastIndexAny(s, "eE")
	if i < 0 {
		return nil
	}
	e, err := strconv.Atoi(strings.TrimSpace(s[i+1:]))
	if err != nil || e > MaxExponent || e < -MaxExponent {
		return fmt.Errorf("the exponent is past ±%d: write the number without one, or round it", MaxExponent)
	}
	return nil
}

// MustParse is Parse for constants known to be valid; it panics otherwise.
func MustParse(s string) Num {
	n, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return n
}

// Add returns n+m.
func (n Num) Add(m Num) Num {
	if n.r == nil && m.r == nil {
		return small(n.a*m.den()+m.a*n.den(), n.den()*m.den())
	}
	return fromRat(new(big.Rat).Add(n.rat(), m.rat()))
}

// Sub returns n-m.
func (n Num) Sub(m Num) Num { return n.Add(m.Neg()) }

// Mul returns n*m.
func (n Num) Mul(m Num) Num {
	if n.r == nil && m.r == nil {
		return small(n.a*m.a, n.den()*m.den())
	}
	return fromRat(new(big.Rat).Mul(n.rat(), m.rat()))
}

// Quo returns n/m, or an error when m is zero.
func (n Num) Quo(m Num) (Num, error) {
	if m.Sign() == 0 {
		return Num{}, fmt.Errorf("division by zero")
	}
	if n.r == nil && m.r == nil {
		return small(n.a*m.den(), n.den()*m.a), nil
	}
	return fromRat(new(big.Rat).Quo(n.rat(), m.rat())), nil
}

// Neg returns -n.
func (n Num) Neg() Num {
	if n.r == nil {
		return Num{a: -n.a, b: n.b}
	}
	return Num{r: new(big.Rat).Neg(n.r)}
}

// Cmp compares n and m and returns -1, 0 or +1.
func (n Num) Cmp(m Num) int {
	if n.r == nil && m.r == nil {
		x, y := n.a*m.den(), m.a*n.den()
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	}
	return n.rat().Cmp(m.rat())
}

// Sign returns -1, 0 or +1.
func (n Num) Sign() int {
	if n.r == nil {
		switch {
		case n.a < 0:
			return -1
		case n.a > 0:
			return 1
		}
		return 0
	}
	return n.r.Sign()
}

// IsInt reports whether n is a whole number.
func (n Num) IsInt() bool {
	if n.r == nil {
		return n.den() == 1
	}
	return n.r.IsInt()
}

// BitLen is the length in bits of the larger of n's numerator
// (without its sign) and denominator, in lowest terms; it copies
// nothing.
func (n Num) BitLen() int {
	if n.r == nil {
		return max(bits.Len64(uint64(abs64(n.a))), bits.Len64(uint64(n.den())))
	}
	return max(n.r.Num().BitLen(), n.r.Denom().BitLen())
}

// DenBitLen is the length in bits of n's denominator in lowest terms:
// 1 for a whole number.
func (n Num) DenBitLen() int {
	if n.r == nil {
		return bits.Len64(uint64(n.den()))
	}
	return n.r.Denom().BitLen()
}

// Big returns a copy of n as a big.Rat.
func (n Num) Big() *big.Rat { return new(big.Rat).Set(n.rat()) }

// Round rounds n to the given number of decimal digits, ties away from zero
// (2.85 → 2.9, 3.25 → 3.3, -0.25 → -0.3). Negative digits round to tens,
// hundreds, and so on.
func (n Num) Round(digits int) Num {
	if n.r == nil && digits >= 0 && digits <= 9 {
		scale := int64(1)
		for range digits {
			scale *= 10
		}
		// |a|·scale < 2^31·10^9 < 2^62: no overflow.
		x, d := abs64(n.a)*scale, n.den()
		q := (2*x + d) / (2 * d) // floor(x/d + 1/2)
		if n.a < 0 {
			q = -q
		}
		return small(q, scale)
	}
	scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(abs64(int64(digits))), nil))
	x := new(big.Rat).Set(n.rat())
	if digits >= 0 {
		x.Mul(x, scale)
	} else {
		x.Quo(x, scale)
	}
	neg := x.Sign() < 0
	x.Abs(x)
	// floor(x + 1/2) on the absolute value rounds ties away from zero.
	x.Add(x, big.NewRat(1, 2))
	q := new(big.Int).Quo(x.Num(), x.Denom())
	if neg {
		q.Neg(q)
	}
	out := new(big.Rat).SetInt(q)
	if digits >= 0 {
		out.Quo(out, scale)
	} else {
		out.Mul(out, scale)
	}
	return fromRat(out)
}

// Float64 returns the nearest float64, for output formats that need one.
func (n Num) Float64() float64 {
	f, _ := n.rat().Float64()
	return f
}

// Exact returns n as a reduced fraction "a/b", or "a" when n is whole. It is
// the lossless text form that reports carry beside rounded values.
func (n Num) Exact() string {
	if n.r == nil {
		if n.den() == 1 {
			return strconv.FormatInt(n.a, 10)
		}
		return strconv.FormatInt(n.a, 10) + "/" + strconv.FormatInt(n.b, 10)
	}
	r := n.r
	if r.IsInt() {
		return r.Num().String()
	}
	return r.String()
}

// Decimal returns n written with exactly the given number of decimal digits,
// after rounding half away from zero.
func (n Num) Decimal(digits int) string {
	if digits < 0 {
		digits = 0
	}
	r := n.Round(digits)
	if r.r == nil && r.den() == 1 && digits == 0 {
		return strconv.FormatInt(r.a, 10)
	}
	return r.rat().FloatString(digits)
}

// String returns the shortest exact decimal for n if it has one with at
// most 12 digits after the point, and the fraction otherwise.
func (n Num) String() string {
	if n.r == nil {
		return n.smallString()
	}
	r := n.rat()
	if r.IsInt() {
		return r.Num().String()
	}
	for d := 1; d <= 12; d++ {
		if n.Round(d).Cmp(n) == 0 {
			s := r.FloatString(d)
			return s
		}
	}
	return r.String()
}

// smallString is String for a number held in int64s, without math/big:
// a/b has a decimal of d digits exactly when b is 2^i·5^j, d = max(i, j).
func (n Num) smallString() string {
	b := n.den()
	if b == 1 {
		return strconv.FormatInt(n.a, 10)
	}
	rest, twos, fives := b, 0, 0
	for rest%2 == 0 {
		rest, twos = rest/2, twos+1
	}
	for rest%5 == 0 {
		rest, fives = rest/5, fives+1
	}
	d := max(twos, fives)
	if rest != 1 || d > 12 {
		return n.Exact()
	}
	// |a|·10^d/b is whole and below 2^59: |a| < 2^31, and 10^d/b is
	// 2^(d-i)·5^(d-j), at most 5^12 < 2^28.
	scale := int64(1)
	for range d {
		scale *= 10
	}
	x := abs64(n.a) * (scale / b)
	digits := strconv.FormatInt(x, 10)
	if len(digits) <= d {
		digits = strings.Repeat("0", d-len(digits)+1) + digits
	}
	out := digits[:len(digits)-d] + "." + digits[len(digits)-d:]
	if n.a < 0 {
		return "-" + out
	}
	return out
}

// MarshalJSON writes n as a JSON string holding its exact form.
func (n Num) MarshalJSON() ([]byte, error) { return []byte(strconv.Quote(n.Exact())), nil }

// UnmarshalJSON reads the exact form written by MarshalJSON.
func (n *Num) UnmarshalJSON(b []byte) error {
	s, err := strconv.Unquote(string(b))
	if err != nil {
		s = string(b)
	}
	v, err := Parse(s)
	if err != nil {
		return err
	}
	*n = v
	return nil
}
