package lang

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/internal/heavytest"
)

// boundDoubling is a chain of n cel.bind, each variable bound to the one before
// it combined with itself by step (X stands for it), the first to init;
// the formula yields last(the last variable).
func boundDoubling(init, step, last string, n int) string {
	var b strings.Builder
	for i := range n {
		val := init
		if i > 0 {
			val = strings.ReplaceAll(step, "X", fmt.Sprintf("v%d", i-1))
		}
		fmt.Fprintf(&b, "cel.bind(v%d, %s, ", i, val)
	}
	b.WriteString(strings.ReplaceAll(last, "X", fmt.Sprintf("v%d", n-1)))
	b.WriteString(strings.Repeat(")", n))
	return b.String()
}

// TestFormulasCannotBuildHugeValues: the cost limit bounds steps, and a
// value that holds another twice doubles at every step of a cel.bind
// chain for the price of one; each formula below would build gigabytes
// (before the bound, the first ran untracked and grew past 4 GB, the
// second and third ran out of memory), and each now fails with an error
// saying why, in a fraction of a second.
func TestFormulasCannotBuildHugeValues(t *testing.T) {
	heavytest.Later(t)
	e, err := NewEnv(Var{"tool", Object})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, src string
		want      string // in the error
	}{
		{"a string doubled", boundDoubling("'xxxxxxxx'", "X + X", "size(X)", 32), "cost limit"},
		{"canonical_json of a map shared at every level", boundDoubling("{'a': 'b'}", "{'l': X, 'r': X}", "size(canonical_json(X))", 40), "larger than the 128 MiB"},
		{"a list doubled, then written out", boundDoubling("['x']", "X + X", "canonical_json(X)", 45), "larger than the 128 MiB"},
		{"a shared map as the formula's value", boundDoubling("{'a': 'b'}", "{'l': X, 'r': X}", "X", 40), "larger than the 128 MiB"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, ds := e.Compile(tt.src, nil)
			if ds != nil {
				t.Fatal(ds)
			}
			// As the engine evaluates a tool's formulas: the data is small.
			v, err := p.EvalSized(Vars{"tool": map[string]any{"name": "t"}}, 64)
			if err == nil {
				_, err = Native(v)
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %v, want an error containing %q", err, tt.want)
			}
		})
	}
}

// TestNativeRefusesValuesPastTheBound: the bound is counted on what is
// built, and a list that is too long is refused before it is allocated.
func TestNativeRefusesValuesPastTheBound(t *testing.T) {
	heavytest.Later(t)
	long := strings.Repeat("x", MaxValueBytes/2)
	if _, err := Native(Adapter.NativeToValue([]any{long})); err != nil {
		t.Fatalf("half the bound: %v", err)
	}
	_, err := Native(Adapter.NativeToValue([]any{long, long, long}))
	if !errors.As(err, new(ValueTooLargeError)) {
		t.Fatalf("one and a half times the bound: got %v", err)
	}
}

// TestRoundBoundsItsDigits: round(x, 1e9) hung (10^1e9 is a billion-digit
// number); digits past MaxRoundDigits either way are an error naming the
// bound, and those within it round as before.
func TestRoundBoundsItsDigits(t *testing.T) {
	e, err := NewEnv()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		src  string
		want string // the exact result, or a part of the error
	}{
		{"round(2.85, 1)", "29/10"},
		{"round(1.5, 100)", "3/2"},
		{"round(1234.5, -100)", "0"},
		{"round(1.5, 1000000000)", "outside the -100 to 100"},
		{"round(1.5, -1000000000)", "outside the -100 to 100"},
		{"round(1.5, 101)", "outside the -100 to 100"},
	}
	for _, tt := range tests {
		p, ds := e.Compile(tt.src, nil)
		if ds != nil {
			t.Fatal(ds)
		}
		v, err := p.Eval(nil)
		got := ""
		if err != nil {
			got = err.Error()
		} else if n, nerr := ToNum(v); nerr == nil {
			got = n.Exact()
		}
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s = %q, want %q", tt.src, got, tt.want)
		}
	}
}

// TestEvalStopsWhenCancelled: a formula whose work grows with its data
// runs with cost tracking on large data, and there it looks at its
// context as it goes, so a cancelled run stops inside one formula rather
// than after it. The context is cancelled before the evaluation starts:
// its 200 x 200 comparisons are never all made.
func TestEvalStopsWhenCancelled(t *testing.T) {
	e, err := NewEnv(Var{"tool", Object})
	if err != nil {
		t.Fatal(err)
	}
	p, ds := e.Compile("tool.items.map(a, tool.items.filter(b, b == a).size()).size()", nil)
	if ds != nil {
		t.Fatal(ds)
	}
	items := make([]any, 200)
	for i := range items {
		items[i] = int64(i)
	}
	vars := Vars{"tool": map[string]any{"items": items}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = p.EvalSizedContext(ctx, vars, 1<<40)
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("cancelled: err = %v, want one that says the formula was interrupted and wraps context.Canceled", err)
	}
	// The same evaluation with a live context completes.
	v, err := p.EvalSizedContext(context.Background(), vars, 1<<40)
	if err != nil || v.Value() != int64(200) {
		t.Fatalf("not cancelled: %v, %v; want 200", v, err)
	}
}

// TestNativeOfBuiltMaps: a map a formula builds is ranged over directly
// (not through its reflecting iterator); what it gives, and the error for
// a key with no JSON form, are those of any other map.
func TestNativeOfBuiltMaps(t *testing.T) {
	e, err := NewEnv(Var{"tool", Object})
	if err != nil {
		t.Fatal(err)
	}
	tool := map[string]any{"name": "t", "inputSchema": map[string]any{"type": "object"}}
	tests := []struct {
		src, want string // want: the canonical JSON, or a part of the error
	}{
		{"{'b': [1, {'c': 'd'}], 'a': true, 'e': {'f': null}}", `{"a":true,"b":[1,{"c":"d"}],"e":{"f":null}}`},
		{"{'name': tool.name, 'schema': tool.inputSchema, 'more': {'x': 1.5}}", `{"more":{"x":1.5},"name":"t","schema":{"type":"object"}}`},
		{"{}", `{}`},
		{"{1: 'x'}", "a map key is int"},
		{"{'a': {true: 1}}", "a map key is bool"},
	}
	for _, tt := range tests {
		p, ds := e.Compile(tt.src, nil)
		if ds != nil {
			t.Fatal(tt.src, ds)
		}
		v, err := p.EvalSized(Vars{"tool": tool}, 64)
		if err != nil {
			t.Fatal(tt.src, err)
		}
		n, err := Native(v)
		got := ""
		if err != nil {
			got = err.Error()
		} else if b, err := MarshalCanonical(n); err != nil {
			t.Fatal(tt.src, err)
		} else {
			got = string(b)
		}
		if !strings.Contains(got, tt.want) {
			t.Errorf("Native(%s) = %s, want %s", tt.src, got, tt.want)
		}
	}
}
