package judge

import (
	"regexp"
	"strings"
)

// SameModel reports whether an answer from model answered satisfies a pin
// on pinned: the same id, or the pinned id with one date after it, which
// is how providers name the snapshot an alias resolved to: gpt-4o answered
// by gpt-4o-2024-08-06, claude-sonnet-4-5 by claude-sonnet-4-5-20250929,
// gpt-4 by gpt-4-0613. Anything more (claude-sonnet-4 answered by
// claude-sonnet-4-5-20250929) is another model. An empty pin pins nothing.
func SameModel(pinned, answered string) bool {
	if pinned == "" || answered == pinned {
		return true
	}
	rest, ok := strings.CutPrefix(answered, pinned+"-")
	return ok && snapshotDate.MatchString(rest)
}

// snapshotDate is a date as providers append it to a model id: YYYYMMDD,
// YYYY-MM-DD, or MMDD.
var snapshotDate = regexp.MustCompile(`^(\d{8}|\d{4}-\d{2}-\d{2}|\d{4})$`)
