package lang

import (
	"slices"
	"testing"
)

// TestMembersRead: the members of a variable a formula reads, when it
// reads it only member by member, worked out when it is compiled; and
// false when it reads the variable whole, by a computed key, or bound
// to another name. A comprehension's variable of the same name is not
// the variable: a formula that reads only that reads none of it. The engine bounds such a formula by those
// members alone (eval.Scope.SetMembers), so a false true here would
// let it run untracked past what it reads.
func TestMembersRead(t *testing.T) {
	e, err := NewEnv(Var{"signals", Object}, Var{"tool", Object})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		src     string
		members []string // nil: not member by member
		vars    []string // among what it reads
	}{
		{"signals.b + signals.a", []string{"a", "b"}, []string{"signals"}},
		{"signals.a.map(x, signals['c'])", []string{"a", "c"}, []string{"signals"}},
		{"has(signals.a) && signals.a", []string{"a"}, []string{"signals"}},
		{"signals.scores[tool.name] > 1", []string{"scores"}, []string{"signals", "tool"}},
		{"size(signals) > 0", nil, []string{"signals"}},
		{"signals[tool.name] == 1", nil, []string{"signals", "tool"}},
		{"cel.bind(s, signals, s.a)", nil, []string{"signals"}},
		{"signals.a && size(signals) > 1", nil, []string{"signals"}},
		{"[{'a': 1}].exists(signals, signals.a == 1)", []string{}, nil},
		{"tool.name == ''", nil, []string{"tool"}},
	} {
		p, ds := e.Compile(tt.src, nil)
		if ds != nil {
			t.Fatalf("%s: %v", tt.src, ds)
		}
		members, ok := p.MembersRead("signals")
		if ok != (tt.members != nil) || !slices.Equal(members, tt.members) {
			t.Errorf("%s: members %v (%v), want %v", tt.src, members, ok, tt.members)
		}
		for _, v := range tt.vars {
			if !slices.Contains(p.VarsRead(), v) {
				t.Errorf("%s: reads %v, want %s among them", tt.src, p.VarsRead(), v)
			}
		}
	}
}
