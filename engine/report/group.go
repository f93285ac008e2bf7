package report

// The fix list grouped by cause: one line for the 17 tools that miss the
// same thing, not 17 lines.

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rubricmcp/rubric/engine/num"
)

// FixGroup is one cause of the fix list and every tool it touches.
type FixGroup struct {
	// Check is the check or dimension the issues are of.
	Check string
	// Cause is the issues' message without the parameters it names, so
	// that "parameters without a description: path" and "... : pid" are
	// one cause.
	Cause string
	// Fixes are the cause's issues, one per tool, largest gain first.
	Fixes []Fix
	// Gain is the sum of the fixes' gains; Moves the sum of what they
	// move, when HasMoves (every fix says).
	Gain, Moves num.Num
	HasMoves    bool
	// tools is Tools, counted once by GroupFixes; 0 in a group made
	// otherwise.
	tools int
}

// Tools counts the tools of the group ("17 tools"), each once: a tool
// with the cause more than once (two findings of one kind) is one tool.
func (g FixGroup) Tools() int {
	if g.tools > 0 {
		return g.tools
	}
	return len(g.ByTool())
}

// ToolFixes are the fixes of one tool in a group: its first, and how
// many it has.
type ToolFixes struct {
	First Fix
	Count int
}

// ByTool lists the group's tools in the order of their first fix, each
// once, with how many of the group's fixes are theirs.
func (g FixGroup) ByTool() []ToolFixes {
	var out []ToolFixes
	at := map[string]int{}
	for _, f := range g.Fixes {
		if i, ok := at[f.Tool]; ok {
			out[i].Count++
			continue
		}
		at[f.Tool] = len(out)
		out = append(out, ToolFixes{First: f, Count: 1})
	}
	return out
}

// Alike says how many more fixes of the cause a tool has than the one
// shown: " (and 2 more alike)", or "" for one.
func (t ToolFixes) Alike() string {
	if t.Count <= 1 {
		return ""
	}
	return fmt.Sprintf(" (and %d more alike)", t.Count-1)
}

// Times is a tool's count written after its name in a list of tools:
// " ×3", or "" for one.
func (t ToolFixes) Times() string {
	if t.Count <= 1 {
		return ""
	}
	return fmt.Sprintf(" ×%d", t.Count)
}

// Cause returns an issue's message without the list of parameters the
// rubric wrote into it, and without the punctuation that led to the
// list: the part of the message every tool with this cause shares.
//
// A parameter that stands inside a JSON pointer (Tool Safety's "at
// /inputSchema/properties/q/description") is written "*" there, so that
// the pointer still reads as one; a name inside a longer word (the "m"
// of "enum") is not the list.
func Cause(is Issue) string {
	msg := is.Message
	if len(is.Params) > 0 {
		if joined := strings.Join(is.Params, ", "); joined != "" {
			if i := ParamsAt(msg, joined); i >= 0 {
				gap := ""
				if i > 0 && msg[i-1] == '/' {
					gap = "*"
				}
				msg = msg[:i] + gap + msg[i+len(joined):]
			}
		}
	}
	return strings.TrimRight(strings.TrimSpace(msg), " :;,.")
}

// ParamsAt is the index in msg of the last occurrence of list (an issue's
// parameters joined with ", ") that is not part of a longer word, or -1:
// where a rubric wrote the parameters into its message.
func ParamsAt(msg, list string) int {
	for end := len(msg); end >= 0; {
		i := strings.LastIndex(msg[:end], list)
		if i < 0 {
			return -1
		}
		before, _ := utf8.DecodeLastRuneInString(msg[:i])
		after, _ := utf8.DecodeRuneInString(msg[i+len(list):])
		if !wordRune(before) && !wordRune(after) {
			return i
		}
		end = i + len(list) - 1
	}
	return -1
}

// wordRune reports whether r would continue a name: a letter, a digit or
// an underscore.
func wordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// GroupFixes groups a fix list (FixList's order) by cause: issues of one
// check whose messages are the same once their parameters are left out.
// The groups come costliest first: the largest total gain, then the most
// tools, then by check, then one tool's by its name, then by cause;
// within a group the fixes keep their order in the list.
func GroupFixes(fixes []Fix) []FixGroup {
	type key struct{ check, cause string }
	index := map[key]int{}
	var groups []FixGroup
	for _, f := range fixes {
		k := key{f.Issue.Check, Cause(f.Issue)}
		i, ok := index[k]
		if !ok {
			i = len(groups)
			index[k] = i
			groups = append(groups, FixGroup{Check: k.check, Cause: k.cause, HasMoves: true})
		}
		g := &groups[i]
		g.Fixes = append(g.Fixes, f)
		g.Gain = g.Gain.Add(f.Gain)
		if f.HasMoves {
			g.Moves = g.Moves.Add(f.Moves)
		} else {
			g.HasMoves = false
		}
	}
	// Counted once here, not in each comparison of the sort.
	for i := range groups {
		groups[i].tools = len(groups[i].ByTool())
	}
	sort.SliceStable(groups, func(i, j int) bool {
		a, b := groups[i], groups[j]
		if c := a.Gain.Cmp(b.Gain); c != 0 {
			return c > 0
		}
		if ta, tb := a.Tools(), b.Tools(); ta != tb {
			return ta > tb
		}
		if len(a.Fixes) != len(b.Fixes) {
			return len(a.Fixes) > len(b.Fixes)
		}
		if a.Check != b.Check {
			return a.Check < b.Check
		}
		// One tool's issues of one check and gain (Gradable's suggested
		// descriptions, each its own message) come by the tool's name, as
		// the table of tools has them, not by the text of the message.
		if a.tools == 1 && b.tools == 1 && a.Fixes[0].Tool != b.Fixes[0].Tool {
			return a.Fixes[0].Tool < b.Fixes[0].Tool
		}
		return a.Cause < b.Cause
	})
	return groups
}

// GroupsHaveMoves reports whether any group says what it moves.
func GroupsHaveMoves(gs []FixGroup) bool {
	for _, g := range gs {
		if g.HasMoves {
			return true
		}
	}
	return false
}

// GroupOrder says, for the line above a grouped fix list, its order and
// its unit, as FixOrder does for the list itself: "by cause, the largest
// total gain first: the gain in points, summed over the tools".
func (r *Report) GroupOrder(gs []FixGroup) string {
	h := "by cause, the largest total gain first: the gain in " + r.FixUnit() + ", summed over the tools"
	if GroupsHaveMoves(gs) && r.Fixes != nil && r.Fixes.Overall != "" {
		h += ", then what it moves " + r.Fixes.Overall
	}
	return h
}

// Totals returns each group's total as a Fix (gain and moves), for
// GainDigits and the widths of a column of totals.
func Totals(gs []FixGroup) []Fix {
	out := make([]Fix, len(gs))
	for i, g := range gs {
		out[i] = Fix{Gain: g.Gain, Moves: g.Moves, HasMoves: g.HasMoves}
	}
	return out
}

// ToolAndParams names one fix's tool, with the parameters its issue names
// in parentheses: "edit_block (content, range)".
func (f Fix) ToolAndParams() string {
	if len(f.Issue.Params) == 0 {
		return f.Tool
	}
	return f.Tool + " (" + strings.Join(f.Issue.Params, ", ") + ")"
}
