package lang

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"testing"
)

// compiledCase is a formula of the table tests, with the data it is
// evaluated on.
type compiledCase struct {
	src     string
	globals map[string]any
	lets    []Let
}

var compiledCases = []compiledCase{
	{src: "0.1 + 0.2 == 0.3"},
	{src: "size(tool.name) * 0.25 + weights.bonus", globals: map[string]any{"weights": map[string]any{"bonus": 2}}},
	{src: "params(tool).filter(p, has(p.description)).map(p, p.name)"},
	{src: "mean(tools.map(t, size(t.name)))"},
	{src: "short ? 'short' : long_name", lets: []Let{{Name: "short", Src: "size(tool.name) < 5"}, {Name: "long_name", Src: "tool.name + ' is long'"}}},
}

var compiledVars = map[string]any{
	"tool": map[string]any{"name": "read_file", "inputSchema": map[string]any{"type": "object", "properties": map[string]any{
		"path": map[string]any{"type": "string", "description": "where"}, "n": map[string]any{"type": "integer"}}}},
	"tools": []any{map[string]any{"name": "a"}, map[string]any{"name": "abcd"}},
}

// compileAll compiles every case in a fresh environment and says what
// each gives: its canonical form, its type, its cost ladder, what it
// reads and its value on compiledVars.
func compileAll(t *testing.T) []string {
	t.Helper()
	env, err := NewEnv(Var{"tool", Object}, Var{"tools", Objects}, Var{"weights", Object})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range compiledCases {
		p, ds := env.CompileLets(c.src, nil, c.globals, c.lets)
		if ds != nil {
			t.Fatalf("%s: %v", c.src, ds)
		}
		v, err := p.EvalIn(p.In(Vars(compiledVars)))
		if err != nil {
			t.Fatalf("%s: %v", c.src, err)
		}
		got, err := Native(v)
		if err != nil {
			t.Fatal(err)
		}
		apart := "-"
		if a, lets := p.Apart(); a != nil {
			apart = fmt.Sprintf("%s %d lets", a.Canonical, len(lets))
		}
		out = append(out, fmt.Sprintf("%s | %s | %d | %v | %v | %s", p.Canonical, typeName(p.Out), p.fastUpTo, p.reads, got, apart))
	}
	return out
}

// recordTable compiles every case while recording, and returns what
// they gave and the table.
func recordTable(t *testing.T) ([]string, []byte) {
	t.Helper()
	stop := RecordCompiled()
	want := compileAll(t)
	table := stop()
	t.Cleanup(func() { UseCompiled(nil) })
	return want, table
}

// TestCompiledTable: a formula found in the table of formulas compiled
// ahead of time is taken from it, and gives what compiling it gives;
// compiled again when it is not found, and then records nothing.
func TestCompiledTable(t *testing.T) {
	want, table := recordTable(t)
	UseCompiled(table)
	before := compiledUsed.Load()
	got := compileAll(t)
	// The lets are compiled apart too (a formula reading them as
	// variables, and each let): every one comes from the table.
	if used := compiledUsed.Load() - before; used < int64(len(compiledCases)) {
		t.Errorf("%d formulas came from the table, want at least %d", used, len(compiledCases))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("from the table:\n got %s\nwant %s", got[i], want[i])
		}
	}
	again, err := encodeAndDecode(table)
	if err != nil || !bytes.Equal(again, table) {
		t.Errorf("the table does not survive decoding and encoding again (%v)", err)
	}
}

func encodeAndDecode(table []byte) ([]byte, error) {
	m, err := decodeCompiled(table, compiledStamp())
	if err != nil {
		return nil, err
	}
	return encodeCompiled(compiledStamp(), m), nil
}

// TestCompiledTableIgnored: a table that is damaged, cut short, or made
// by another build (its stamp differs) is not used, and an entry whose
// syntax tree does not decode is compiled afresh: the formulas give the
// same results all the same.
func TestCompiledTableIgnored(t *testing.T) {
	want, table := recordTable(t)
	entries, err := decodeCompiled(table, compiledStamp())
	if err != nil {
		t.Fatal(err)
	}
	broken := compiledTable{entries: map[[32]byte]compiledEntry{}, groups: entries.groups}
	for k, e := range entries.entries {
		e.checked = []byte("\xff\xff not a syntax tree")
		broken.entries[k] = e
	}
	flipped := bytes.Clone(table)
	flipped[len(flipped)/2] ^= 1
	tests := []struct {
		name  string
		table []byte
	}{
		{"one bit flipped", flipped},
		{"cut short", table[:len(table)-40]},
		{"empty", []byte{}},
		{"another build", encodeCompiled("another build", entries)},
		{"entries that do not decode", encodeCompiled(compiledStamp(), broken)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			UseCompiled(tt.table)
			before := compiledUsed.Load()
			got := compileAll(t)
			if used := compiledUsed.Load() - before; used != 0 {
				t.Errorf("%d formulas came from an unusable table", used)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("compiled afresh:\n got %s\nwant %s", got[i], want[i])
				}
			}
		})
	}
}

// TestCompiledTableKeys: an entry is found only for the same
// environment's variables, the same wanted type and the same text.
func TestCompiledTableKeys(t *testing.T) {
	base := compiledKey("tool:map(string, dyn);", "-", "tool.name")
	for _, k := range [][3]string{
		{"tool:map(string, dyn);weights:map(string, dyn);", "-", "tool.name"},
		{"tool:dyn;", "-", "tool.name"},
		{"tool:map(string, dyn);", "string", "tool.name"},
		{"tool:map(string, dyn);", "-", "tool.name "},
		{"tool:map(string, dyn)", ";-", "tool.name"},
	} {
		if compiledKey(k[0], k[1], k[2]) == base {
			t.Errorf("%q has the key of another formula", k)
		}
	}
}

// TestCompiledGroupAhead: the formulas compiled after a Begin while
// recording are the table's group of that id, in order; decoded ahead,
// their syntax trees are each taken by the compile of their formula,
// which gives what compiling it gives.
func TestCompiledGroupAhead(t *testing.T) {
	stop := RecordCompiled()
	Begin("cases")
	want := compileAll(t)
	table := stop()
	t.Cleanup(func() { UseCompiled(nil) })
	parsed, err := decodeCompiled(table, compiledStamp())
	if err != nil {
		t.Fatal(err)
	}
	group := parsed.groups["cases"]
	if len(group) < len(compiledCases) || len(parsed.groups) != 1 {
		t.Fatalf("groups %v: want one, cases, of at least %d formulas", slices.Collect(maps.Keys(parsed.groups)), len(compiledCases))
	}
	for _, k := range group {
		if _, ok := parsed.entries[k]; !ok {
			t.Errorf("the group names a formula the table does not hold")
		}
	}
	tests := []struct {
		name  string
		group string
		late  bool // the loader compiles the group before Ahead runs
		ahead int
	}{
		{"the group", "cases", false, len(group)},
		{"another group", "other", false, 0},
		{"the group, Ahead late", "cases", true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			UseCompiled(table)
			if tt.late {
				compileAll(t)
			}
			Ahead(tt.group)
			precompiled.mu.Lock()
			ahead := len(precompiled.ahead)
			precompiled.mu.Unlock()
			if ahead != tt.ahead {
				t.Errorf("%d trees decoded ahead, want %d", ahead, tt.ahead)
			}
			before := compiledUsed.Load()
			got := compileAll(t)
			if used := compiledUsed.Load() - before; used < int64(len(compiledCases)) {
				t.Errorf("%d formulas came from the table, want at least %d", used, len(compiledCases))
			}
			precompiled.mu.Lock()
			left := len(precompiled.ahead)
			precompiled.mu.Unlock()
			if left != 0 {
				t.Errorf("%d trees decoded ahead were not taken", left)
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("decoded ahead:\n got %s\nwant %s", got[i], want[i])
				}
			}
		})
	}
}

// TestCompiledNumOrNull: a formula recorded while checked as a number is
// found in the table when it is checked as a number or null (a surface's
// score), as before that type existed: the table of the built-in
// rubrics is keyed so, and a miss would compile it again at every start.
func TestCompiledNumOrNull(t *testing.T) {
	env, err := NewEnv(Var{"tools", Objects})
	if err != nil {
		t.Fatal(err)
	}
	const src = "mean(tools.map(t, size(t.name)))"
	stop := RecordCompiled()
	if _, ds := env.Compile(src, NumType); ds != nil {
		t.Fatal(ds)
	}
	table := stop()
	UseCompiled(table)
	t.Cleanup(func() { UseCompiled(nil) })
	before := compiledUsed.Load()
	if _, ds := env.Compile(src, NumOrNullType); ds != nil {
		t.Fatal(ds)
	}
	if compiledUsed.Load() == before {
		t.Error("a formula checked as a number or null missed the table recorded for a number")
	}
}
