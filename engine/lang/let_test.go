package lang

import (
	"strings"
	"testing"
)

// TestCompileLets: a formula that names a let computes what it computes
// with the let written out, its canonical form carries the let, its
// errors are placed in the text they are in, and a formula that names
// none is compiled as if there were no lets.
func TestCompileLets(t *testing.T) {
	env, err := NewEnv(Var{Name: "x", Type: Dyn})
	if err != nil {
		t.Fatal(err)
	}
	lets := []Let{{Name: "double", Src: "x * 2"}, {Name: "more", Src: "double +\n  1"}, {Name: "bad", Src: "x +\n  'a' - 1"}}
	for _, tt := range []struct {
		name, src string
		want      int64
		diag      string
	}{
		{"a let", "double + 1", 9, ""},
		{"a let read through another", "more * more", 81, ""},
		{"a macro's variable of a let's name", "[1, 2].map(double, double)[1] + more", 11, ""},
		{"an error in the formula, after the lets", "more +\n  nosuch", 0, "2:3: undeclared reference to 'nosuch'"},
		{"an error in a let", "bad", 0, "let bad 2:7: - does not apply to string and int"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p, ds := env.CompileLets(tt.src, nil, nil, lets)
			if tt.diag != "" {
				if len(ds) != 1 {
					t.Fatalf("want one diagnostic, got %v", ds)
				}
				if got := ds[0].String(); !strings.HasPrefix(got, tt.diag) {
					t.Errorf("got %q, want %q...", got, tt.diag)
				}
				return
			}
			if len(ds) > 0 {
				t.Fatal(ds)
			}
			v, err := p.Eval(map[string]any{"x": int64(4)})
			if err != nil {
				t.Fatal(err)
			}
			if v.Value() != tt.want {
				t.Errorf("got %v, want %d", v, tt.want)
			}
			if p.Source != tt.src {
				t.Errorf("Source is %q, want the formula as written", p.Source)
			}
			if !strings.Contains(p.Canonical, "cel.bind(double, (x * 2") {
				t.Errorf("the canonical form %q does not carry the let", p.Canonical)
			}
			if tr, err := p.Trace(Vars{"x": int64(4)}); err != nil || tr.Value.Value() != tt.want {
				t.Errorf("trace: %v %v", tr, err)
			}
		})
	}
	without, _ := env.CompileWith("x + 1", nil, nil)
	with, _ := env.CompileLets("x + 1", nil, nil, lets)
	if with.Canonical != without.Canonical {
		t.Errorf("a formula that names no let changed: %q, was %q", with.Canonical, without.Canonical)
	}
}
