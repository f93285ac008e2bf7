package report

import (
	"fmt"
	"math"
	"strings"
)

// USD words an amount of US dollars, to the hundredth of a cent, as
// budgets, costs and leaderboards write it; an
// amount that would read $0.0000 but is not 0 (a budget of $0.000001)
// gets the digits that show it, to two significant ones.
func USD(v float64) string {
	s := fmt.Sprintf("%.4f", v)
	if v == 0 || math.IsNaN(v) || strings.Trim(s, "-0.") != "" {
		return "$" + s
	}
	prec := 4
	for strings.Trim(fmt.Sprintf("%.*f", prec, v), "-0.") == "" {
		prec++
	}
	s = strings.TrimRight(fmt.Sprintf("%.*f", prec+1, v), "0")
	return "$" + s
}
