package surface

import (
	"encoding/json"
	"maps"
	"os"
	"reflect"
	"slices"
	"testing"
)

// FuzzParse checks that Parse never panics, that every error it returns is
// a *surface.Error, and that whatever it accepts has canonical forms that
// are valid JSON, stable, and survive the report's embedded form.
func FuzzParse(f *testing.F) {
	for _, name := range captures() {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	for _, s := range []string{
		`[]`, `{"tools":[]}`, `{"result":{"tools":[{"name":"a"}]}}`, `[{"name":"a","x":1e400}]`,
		`[{"name":"a","b":"\ud800"}]`, `{"release":1,"tools":[{"name":"a","definition":{}}]}`,
		`[{"name":"a"},{"name":"a"}]`, `{"format":"x","tools":[{"name":"a"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("fuzz.json", data)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		names := map[string]bool{}
		for _, tool := range s.Tools {
			if tool.Name == "" || names[tool.Name] {
				t.Fatalf("accepted an empty or duplicate name %q", tool.Name)
			}
			names[tool.Name] = true
			if !json.Valid(tool.Canonical) {
				t.Fatalf("canonical form is not JSON: %s", tool.Canonical)
			}
			var again any
			_ = json.Unmarshal(tool.Canonical, &again)
			if string(Canonical(again)) != string(tool.Canonical) {
				t.Fatalf("canonical form is not stable: %s", tool.Canonical)
			}
			// A lean tool's members, read from its canonical form, are
			// its tree's.
			def := tool.Definition()
			keys := append(slices.Sorted(maps.Keys(def)), "missing")
			lean := Tool{Name: tool.Name, Canonical: tool.Canonical}
			got := lean.Members(keys)
			if negativeZero(def) {
				def = lean.Definition() // canonical JSON writes -0 as 0
			}
			if !reflect.DeepEqual(got, def) {
				t.Fatalf("Members %v, the definition %v", got, def)
			}
		}
		back, err := Parse("embedded", s.Marshal())
		if err != nil {
			t.Fatalf("embedded form does not read back: %v", err)
		}
		if back.Hash() != s.Hash() {
			t.Fatalf("embedded form changed the hash")
		}
	})
}
