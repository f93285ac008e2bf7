// Package contract compares the tools of a base surface with those of a
// head and classifies every change by what it does to the agents that
// already call them: breaking, risky, information or compatible.
//
// It is a pure function of the two surfaces: no judge, no rubric, no
// clock. A change is located by a JSON Pointer (RFC 6901) into the tool's
// definition, with the value there before and after: the base's value
// resolves the pointer in the base's definition and the head's in the
// head's (a side that lacks the member has no value). A tool removed,
// added or renamed is located at its name ("/name").
//
// Input schemas are read as what a caller may send, so a change is
// breaking when the head refuses something the base accepted: a
// parameter removed, newly required or added as required, a type changed
// or narrowed (number to integer too), enum values removed, a bound
// tightened, a pattern added or changed, additional properties closed, an
// anyOf/oneOf alternative removed or an allOf part added. Output schemas
// are read as what the tool promises, so there the direction turns: a
// field removed or no longer required, a type widened, an enum value
// added, an output schema dropped are breaking. The reverse changes are
// compatible, as are new tools, optional parameters and wording.
//
// Risky are annotations that weaken a promise: readOnlyHint or
// idempotentHint no longer true, destructiveHint or openWorldHint now
// true (or no longer false); and schema keywords whose effect is not
// computed here ($ref, not, if/then/else, format, ...), which a reviewer
// should read. A description whose side-effect wording changed (delete,
// write, send, read-only, ...) is information: it is reported, it never
// breaks anything by itself.
//
// Renames are found among the base's tools missing from the head and the
// head's tools missing from the base, by similarity (see Similarity): a
// pair is a rename when its similarity is at least RenameThreshold and
// the definitions themselves are at least DefinitionFloor alike, best
// pairs first. A rename is one breaking change at "/name", followed by
// the changes between the two definitions; other missing tools are
// removed, other new ones added.
package contract

import (
	"cmp"
	"encoding/json"
	"slices"

	"github.com/rubricmcp/rubric/engine/surface"
)

// Class says what a change does to the agents calling the tools.
type Class string

// The classes, from the most to the least serious.
const (
	// Breaking changes make a call that worked fail, or a result that
	// was promised go missing.
	Breaking Class = "breaking"
	// Risky changes weaken a promise (annotations) or change a schema in
	// a way this package does not judge.
	Risky Class = "risky"
	// Information is reported and decides nothing: a description whose
	// side-effect wording changed.
	Information Class = "information"
	// Compatible changes break no caller: additions, widenings, wording.
	Compatible Class = "compatible"
)

func (c Class) rank() int {
	switch c {
	case Breaking:
		return 0
	case Risky:
		return 1
	case Information:
		return 2
	}
	return 3
}

// Change is one difference between a base tool and its head.
type Change struct {
	Class Class `json:"class"`
	// Kind names the change from a fixed list, such as
	// "parameter-required" or "enum-value-removed".
	Kind string `json:"kind"`
	// Tool is the tool's name on the base, or on the head for a tool the
	// base does not have.
	Tool string `json:"tool"`
	// HeadTool is the tool's name on the head when a rename made it
	// differ from Tool.
	HeadTool string `json:"head_tool,omitempty"`
	// Path is a JSON Pointer into the tool's definition.
	Path string `json:"path"`
	// Before and After are the canonical JSON values at Path on the base
	// and on the head; absent on a side that has none.
	Before json.RawMessage `json:"before,omitempty"`
	After  json.RawMessage `json:"after,omitempty"`
	// Message says the change in a sentence.
	Message string `json:"message"`
}

// Diff is every change between two surfaces, the most serious first,
// with their count by class.
type Diff struct {
	Breaking    int      `json:"breaking"`
	Risky       int      `json:"risky"`
	Information int      `json:"information"`
	Compatible  int      `json:"compatible"`
	Changes     []Change `json:"changes"`
}

// Compare returns the changes from base to head. Compare(s, s) has none.
func Compare(base, head *surface.Surface) *Diff {
	base, head = base.Decoded(), head.Decoded()
	var out []Change
	var removed, added []surface.Tool
	baseIdx, headIdx := index(base), index(head)
	for _, t := range base.Tools {
		if i, ok := headIdx[t.Name]; ok {
			out = tool(out, t.Name, "", t, head.Tools[i])
		} else {
			removed = append(removed, t)
		}
	}
	for _, t := range head.Tools {
		if _, ok := baseIdx[t.Name]; !ok {
			added = append(added, t)
		}
	}
	renamed, removed, added := renames(removed, added)
	for _, p := range renamed {
		out = append(out, Change{
			Class: Breaking, Kind: "tool-renamed", Tool: p.base.Name, HeadTool: p.head.Name, Path: "/name",
			Before: value(p.base.Name), After: value(p.head.Name),
			Message: "tool " + quote(p.base.Name) + " renamed to " + quote(p.head.Name) + " (similarity " + percent(p.score) + ")",
		})
		out = tool(out, p.base.Name, p.head.Name, p.base, p.head)
	}
	for _, t := range removed {
		out = append(out, Change{Class: Breaking, Kind: "tool-removed", Tool: t.Name, Path: "/name", Before: value(t.Name),
			Message: "tool " + quote(t.Name) + " removed"})
	}
	for _, t := range added {
		out = append(out, Change{Class: Compatible, Kind: "tool-added", Tool: t.Name, Path: "/name", After: value(t.Name),
			Message: "tool " + quote(t.Name) + " added"})
	}
	return summarize(out)
}

// index maps a surface's tool names to their places, the first of a
// name that repeats (surface.Tool's choice too).
func index(s *surface.Surface) map[string]int {
	m := make(map[string]int, len(s.Tools))
	for i, t := range s.Tools {
		if _, ok := m[t.Name]; !ok {
			m[t.Name] = i
		}
	}
	return m
}

// summarize sorts changes, the most serious first, and counts them.
func summarize(changes []Change) *Diff {
	slices.SortStableFunc(changes, func(a, b Change) int {
		return cmp.Or(
			cmp.Compare(a.Class.rank(), b.Class.rank()),
			cmp.Compare(a.Tool, b.Tool),
			cmp.Compare(a.Path, b.Path),
			cmp.Compare(a.Kind, b.Kind),
		)
	})
	d := &Diff{Changes: changes}
	if d.Changes == nil {
		d.Changes = []Change{}
	}
	for _, c := range changes {
		switch c.Class {
		case Breaking:
			d.Breaking++
		case Risky:
			d.Risky++
		case Information:
			d.Information++
		default:
			d.Compatible++
		}
	}
	return d
}

// value is v's canonical JSON.
func value(v any) json.RawMessage { return json.RawMessage(surface.Canonical(v)) }
