package lang

import (
	"errors"
	"testing"
)

// TestWhere: a formula that fails names the place in its file of the
// expression that failed, on its first line or a later one, compiled
// afresh or taken from the table of formulas compiled ahead of time
// (whose syntax trees keep their positions); a failure no expression
// is labelled with names the formula's first character; and a formula
// without an origin names none.
func TestWhere(t *testing.T) {
	env, err := NewEnv(Var{"tool", Object})
	if err != nil {
		t.Fatal(err)
	}
	vars := Vars{"tool": map[string]any{"name": "x"}}
	tests := []struct {
		name   string
		src    string
		origin Origin
		want   string
	}{
		// pass  = "size(tool.name) / (size(tool.name) - 1) > 0" with its
		// quote at column 13: the / is the 17th character of the text.
		{"one line", "size(tool.name) / (size(tool.name) - 1) > 0", Origin{File: "bad.hcl", Line: 8, Col: 14}, "bad.hcl:8:30"},
		// A heredoc's second line, whose indentation <<- removed.
		{"a later line", "size(tool.name) > 0 &&\n  1 / (size(tool.name) - 1) > 0", Origin{File: "h.hcl", Line: 4, Col: 7, Indent: 6}, "h.hcl:5:11"},
		// A missing member: CEL labels the path it reads with its last step.
		{"a missing member", "tool.nothing.at_all", Origin{File: "k.hcl", Line: 2, Col: 10}, "k.hcl:2:22"},
	}
	run := func(t *testing.T, fromTable bool) {
		for _, tt := range tests {
			p, ds := env.Compile(tt.src, nil)
			if ds != nil {
				t.Fatalf("%s: %v", tt.src, ds)
			}
			_, err := p.Eval(vars)
			if err == nil {
				t.Fatalf("%s: no error", tt.name)
			}
			if _, ok := p.Where(err); ok {
				t.Errorf("%s: a formula without an origin names a place", tt.name)
			}
			p.SetOrigin(tt.origin)
			at, ok := p.Where(err)
			if !ok || at.String() != tt.want {
				t.Errorf("%s (from the table %v): at %s, want %s", tt.name, fromTable, at, tt.want)
			}
		}
		// An error that is not the formula's own names its first
		// character.
		p, _ := env.Compile(tests[0].src, nil)
		p.SetOrigin(tests[0].origin)
		if at, _ := p.Where(errors.New("want true or false, got int")); at.String() != "bad.hcl:8:14" {
			t.Errorf("a result of the wrong type is at %s, want bad.hcl:8:14", at)
		}
	}
	run(t, false)
	stop := RecordCompiled()
	for _, tt := range tests {
		env.Compile(tt.src, nil)
	}
	table := stop()
	UseCompiled(table)
	t.Cleanup(func() { UseCompiled(nil) })
	before := compiledUsed.Load()
	run(t, true)
	if compiledUsed.Load() == before {
		t.Fatal("no formula came from the table")
	}
}
