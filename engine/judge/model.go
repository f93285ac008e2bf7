package judge

import (
	"regexp"
	"slices"
	"strings"
)

// SameModel reports whether an answer from model answered satisfies a pin
// on pinned: the same id, or the pinned id with one date after it, which
// is how providers name the snapshot an alias resolved to: gpt-4o answered
// by gpt-4o-2024-08-06, claude-sonnet-4-5 by claude-sonnet-4-5-20250929,
// gpt-4 by gpt-4-0613. Anything more (claude-sonnet-4 answered by
// claude-sonnet-4-5-20250929) is another model. A family alias (see
// familyAliases) is satisfied by any model of the family it names. An
// empty pin pins nothing.
func SameModel(pinned, answered string) bool {
	if pinned == "" || answered == pinned {
		return true
	}
	if slices.Contains(familyAliases, pinned) {
		family, ok := strings.CutPrefix(answered, "claude-")
		return ok && slices.Contains(strings.Split(family, "-"), pinned)
	}
	rest, ok := strings.CutPrefix(answered, pinned+"-")
	return ok && snapshotDate.MatchString(rest)
}

// familyAliases are the aliases Claude Code takes for a model (claude
// --model opus), which the command line resolves to an id of its
// choosing and names the answer by: a pin on one is a pin on the family
// it names, kept by claude-opus-5-5, claude-opus-4-1-20250805 or
// claude-3-opus-20240229 for opus, and by no model of another family.
// Which id an alias resolves to is the command line's, whose version the
// claude-cli judge records in its identity.
var familyAliases = []string{"opus", "sonnet", "haiku"}

// snapshotDate is a date as providers append it to a model id: YYYYMMDD,
// YYYY-MM-DD, or MMDD.
var snapshotDate = regexp.MustCompile(`^(\d{8}|\d{4}-\d{2}-\d{2}|\d{4})$`)
