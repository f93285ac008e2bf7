package lang

import (
	"maps"
	"slices"
)

// reading is how a formula reads its variables, worked out once when it
// is compiled: their names, sorted, and, by name, the members of those
// it reads only member by member (see Members), sorted.
type reading struct {
	names   []string
	members map[string][]string
}

// readingOf works out p's reading.
func readingOf(p *Program) reading {
	out := reading{names: slices.Sorted(maps.Keys(p.reads))}
	for _, name := range out.names {
		m, ok := p.Members(name)
		if !ok {
			continue
		}
		if out.members == nil {
			out.members = map[string][]string{}
		}
		out.members[name] = slices.Sorted(maps.Keys(m))
	}
	return out
}

// VarsRead are the names the formula reads, sorted, as Uses knows
// them: its variables (fixed ones among them), and possibly names its
// comprehensions bind (a caller looks up each in what it holds). The
// caller must not change the slice.
func (p *Program) VarsRead() []string {
	if p == nil {
		return nil
	}
	return p.reading.names
}

// MembersRead is Members, worked out when the formula was compiled, as
// a sorted list the caller must not change: when the formula reads the
// variable name only member by member, the members it reads (none when
// a comprehension's variable of that name is all it reads) and true;
// false when it reads name otherwise, or not at all.
func (p *Program) MembersRead(name string) ([]string, bool) {
	if p == nil {
		return nil, false
	}
	m, ok := p.reading.members[name]
	return m, ok
}

// Fixed reports whether name is one of the formula's fixed variables,
// whose values were given when it was compiled (a rubric's weights):
// its cost estimate reads their values, so they need no bound when it
// runs.
func (p *Program) Fixed(name string) bool {
	if p == nil {
		return false
	}
	_, ok := p.globals[name]
	return ok
}
