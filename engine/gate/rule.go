package gate

import (
	"fmt"

	"github.com/rubricmcp/rubric/engine/num"
)

// Decision is what a gate concludes.
type Decision string

// The three decisions.
const (
	// Pass lets the change through: the definitions are unchanged, the
	// first pair holds, or the medians over the confirming pairs do not
	// drop.
	Pass Decision = "PASS"
	// Block stops the change: the first pair dropped and the confirming
	// pairs agree.
	Block Decision = "BLOCK"
	// Invalid means the change could not be scored completely, so
	// nothing was decided.
	Invalid Decision = "INVALID"
)

// ExitCode is the process exit status a decision maps to: 0 PASS, 1
// BLOCK, 2 INVALID.
func (d Decision) ExitCode() int {
	switch d {
	case Pass:
		return 0
	case Block:
		return 1
	}
	return 2
}

// verdict is the rule's answer for the pairs made so far: a decision, or
// more pairs to make.
type verdict struct {
	decision Decision
	reason   string
	more     int // pairs still to make before deciding; 0 when decided
	// base and head are the rounded values decided on (ruling's).
	base, head []num.Num
}

// decide applies a gate's rule to the compared values of the pairs made
// so far, each rounded to digits: the first pair decides unless the head
// drops below the base; a drop is confirmed by confirm more pairs, and
// then the head blocks when its median over all pairs is below the
// base's median. Reasons show the values as the rule rounds them.
func decide(title string, digits, confirm int, base, head []num.Num) verdict {
	if len(base) == 0 || len(base) != len(head) {
		panic("gate: decide needs as many head values as base values, at least one")
	}
	if len(base) == 1 && head[0].Cmp(base[0]) >= 0 {
		return verdict{decision: Pass, reason: fmt.Sprintf("the %s holds: head %s, base %s", title, head[0].Decimal(digits), base[0].Decimal(digits))}
	}
	if want := 1 + confirm; len(base) < want {
		return verdict{more: want - len(base)}
	}
	if len(base) == 1 {
		return verdict{decision: Block, reason: fmt.Sprintf("the %s drops from %s to %s (one pair decides: the rubric's gate asks for no confirming pairs)", title, base[0].Decimal(digits), head[0].Decimal(digits))}
	}
	mb, mh := median(base), median(head)
	tb, th := medianText(mb, digits), medianText(mh, digits)
	if mh.Cmp(mb) < 0 {
		return verdict{decision: Block, reason: fmt.Sprintf("the %s drops: the head's median over %d pairs is %s, below the base's %s", title, len(base), th, tb)}
	}
	return verdict{decision: Pass, reason: fmt.Sprintf("the first pair dropped, but over %d pairs the head's median %s of the %s is not below the base's %s", len(base), th, title, tb)}
}

// medianText writes a median of values rounded to digits: with digits
// decimals, or one more when it is the midpoint of two such values (an
// even count of pairs), so that two medians that differ never read the
// same.
func medianText(m num.Num, digits int) string {
	if m.Round(digits).Cmp(m) == 0 {
		return m.Decimal(digits)
	}
	return m.Decimal(digits + 1)
}

// median is num.Median of values decide has checked are there.
func median(xs []num.Num) num.Num {
	m, _ := num.Median(xs)
	return m
}
