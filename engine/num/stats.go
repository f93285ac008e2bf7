package num

import "slices"

// Abs returns |n|.
func (n Num) Abs() Num {
	if n.Sign() < 0 {
		return n.Neg()
	}
	return n
}

// Sum returns the sum of xs; zero for none.
func Sum(xs []Num) Num {
	s := Zero
	for _, x := range xs {
		s = s.Add(x)
	}
	return s
}

// Mean returns the exact mean of xs, and false for none.
func Mean(xs []Num) (Num, bool) {
	if len(xs) == 0 {
		return Zero, false
	}
	m, _ := Sum(xs).Quo(Int(int64(len(xs))))
	return m, true
}

// Median returns the middle of xs, or the exact mean of the two middle
// values of an even count, and false for none. xs is not reordered.
func Median(xs []Num) (Num, bool) {
	if len(xs) == 0 {
		return Zero, false
	}
	s := slices.Clone(xs)
	slices.SortFunc(s, Num.Cmp)
	n := len(s)
	if n%2 == 1 {
		return s[n/2], true
	}
	m, _ := s[n/2-1].Add(s[n/2]).Quo(Int(2))
	return m, true
}
