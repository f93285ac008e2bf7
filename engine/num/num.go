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
	"strconv"
	"strings"
)

// Num is an immutable exact rational number. The zero value is 0.
type Num struct {
	r *big.Rat
}

// Zero and One are the constants used most.
var (
	Zero = Num{}
	One  = Int(1)
)

func (n Num) rat() *big.Rat {
	if n.r == nil {
		return new(big.Rat)
	}
	return n.r
}

// Int returns the Num equal to i.
func Int(i int64) Num { return Num{new(big.Rat).SetInt64(i)} }

// Frac returns a/b; it panics if b is zero, like integer division.
func Frac(a, b int64) Num { return Num{big.NewRat(a, b)} }

// Rat returns a Num holding a copy of r.
func Rat(r *big.Rat) Num { return Num{new(big.Rat).Set(r)} }

// Float returns the Num written by the shortest decimal that reads back as f,
// so the float 0.1 becomes exactly 1/10. It fails for NaN and infinities.
func Float(f float64) (Num, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return Num{}, fmt.Errorf("%v is not a finite number", f)
	}
	return Parse(strconv.FormatFloat(f, 'g', -1, 64))
}

// Parse reads a decimal ("0.60", "-3", "1e3") or a fraction ("1373/15").
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
	r, ok := new(big.Rat).SetString(t)
	if !ok {
		return Num{}, fmt.Errorf("%q is not a number", s)
	}
	return Num{r}, nil
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
func (n Num) Add(m Num) Num { return Num{new(big.Rat).Add(n.rat(), m.rat())} }

// Sub returns n-m.
func (n Num) Sub(m Num) Num { return Num{new(big.Rat).Sub(n.rat(), m.rat())} }

// Mul returns n*m.
func (n Num) Mul(m Num) Num { return Num{new(big.Rat).Mul(n.rat(), m.rat())} }

// Quo returns n/m, or an error when m is zero.
func (n Num) Quo(m Num) (Num, error) {
	if m.Sign() == 0 {
		return Num{}, fmt.Errorf("division by zero")
	}
	return Num{new(big.Rat).Quo(n.rat(), m.rat())}, nil
}

// Neg returns -n.
func (n Num) Neg() Num { return Num{new(big.Rat).Neg(n.rat())} }

// Cmp compares n and m and returns -1, 0 or +1.
func (n Num) Cmp(m Num) int { return n.rat().Cmp(m.rat()) }

// Sign returns -1, 0 or +1.
func (n Num) Sign() int { return n.rat().Sign() }

// IsInt reports whether n is a whole number.
func (n Num) IsInt() bool { return n.rat().IsInt() }

// Big returns a copy of n as a big.Rat.
func (n Num) Big() *big.Rat { return new(big.Rat).Set(n.rat()) }

// Round rounds n to the given number of decimal digits, ties away from zero
// (2.85 → 2.9, 3.25 → 3.3, -0.25 → -0.3). Negative digits round to tens,
// hundreds, and so on.
func (n Num) Round(digits int) Num {
	scale := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs(digits))), nil))
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
	return Num{out}
}

func abs(i int) int {
	if i < 0 {
		return -i
	}
	return i
}

// Float64 returns the nearest float64, for output formats that need one.
func (n Num) Float64() float64 {
	f, _ := n.rat().Float64()
	return f
}

// Exact returns n as a reduced fraction "a/b", or "a" when n is whole. It is
// the lossless text form that reports carry beside rounded values.
func (n Num) Exact() string {
	r := n.rat()
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
	return n.Round(digits).rat().FloatString(digits)
}

// String returns the shortest exact decimal for n if it has one with at
// most 12 digits after the point, and the fraction otherwise.
func (n Num) String() string {
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
