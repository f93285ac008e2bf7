package judge

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// SameModel reports whether an answer from model answered satisfies a pin
// on pinned: the same id, or the pinned id with one date after it, which
// is how providers name the snapshot an alias resolved to: gpt-4o answered
// by gpt-4o-2024-08-06, claude-sonnet-4-5 by claude-sonnet-4-5-20250929,
// gpt-4 by gpt-4-0613. Anything more (claude-sonnet-4 answered by
// claude-sonnet-4-5-20250929) is another model. A Claude Code alias (see
// aliasFamilies) is satisfied by any model of a family it names, and a
// pin with Claude Code's extended-context suffix ([1m]) as the pin
// without it. An empty pin pins nothing.
func SameModel(pinned, answered string) bool {
	if pinned == "" || answered == pinned {
		return true
	}
	pinned = strings.TrimSuffix(pinned, ExtendedContext)
	if pinned == "" {
		return false // a pin on "[1m]" alone names no model
	}
	if families, ok := aliasFamilies[pinned]; ok {
		family, ok := strings.CutPrefix(answered, "claude-")
		parts := strings.Split(family, "-")
		return ok && slices.ContainsFunc(families, func(f string) bool { return slices.Contains(parts, f) })
	}
	if answered == pinned {
		return true
	}
	return WithoutSnapshot(answered) == pinned
}

// WithoutSnapshot is id without the date a provider appends to it to
// name a snapshot (gpt-4o-2024-08-06, gpt-4-0613, claude-sonnet-4-5-20250929:
// YYYYMMDD, YYYY-MM-DD or MMDD after a hyphen), or id itself when it ends
// in none. SameModel keeps a pin by the id with one such date.
func WithoutSnapshot(id string) string {
	return snapshotSuffix.ReplaceAllString(id, "")
}

// KeptBy says, for a message, which answers keep a pin on pinned (see
// SameModel): for a Claude Code alias, the families it names; for an id,
// the id and its dated snapshots.
func KeptBy(pinned string) string {
	base := strings.TrimSuffix(pinned, ExtendedContext)
	if families, ok := aliasFamilies[base]; ok {
		return fmt.Sprintf("a pin on Claude Code's alias %q is kept by any claude- id that names %s", pinned, strings.Join(families, " or "))
	}
	return fmt.Sprintf("a pin on %q is kept by %q and by its dated snapshots (%s-20250131, %s-2025-01-31)", pinned, base, base, base)
}

// aliasFamilies are the aliases Claude Code takes for a model (claude
// --model opus), which the command line resolves to an id of its
// choosing and names the answer by, with the families each may resolve
// to: a pin on one is a pin on those families, kept by claude-opus-5-5,
// claude-opus-4-1-20250805 or claude-3-opus-20240229 for opus, and by no
// model of another family. opusplan plans with an opus and carries out
// with a sonnet. Which id an alias resolves to is the command line's,
// whose version the claude-cli judge records in its identity.
var aliasFamilies = map[string][]string{
	"opus":     {"opus"},
	"sonnet":   {"sonnet"},
	"haiku":    {"haiku"},
	"opusplan": {"opus", "sonnet"},
}

// ExtendedContext is the suffix Claude Code takes after an alias or an id
// (sonnet[1m], claude-sonnet-4-5[1m]) for the same model with a context
// window of a million tokens: the model that answers is the one named
// without it.
const ExtendedContext = "[1m]"

// snapshotSuffix is a date as providers append it to a model id:
// YYYYMMDD, YYYY-MM-DD, or MMDD, after a hyphen at its end.
var snapshotSuffix = regexp.MustCompile(`-(\d{8}|\d{4}-\d{2}-\d{2}|\d{4})$`)
