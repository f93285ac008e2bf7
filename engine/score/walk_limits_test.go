package score

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/surface"
)

// TestWalkOfRepeatsStaysTracked: texts and string_values walk the whole
// value they are given. A signal or a let that repeats the tool's
// description is bounded by the engine only by its longest member (a
// list of n copies of n characters counts n), so a walk of it costs
// about n*n/10 while the estimate of one value of n said about 2n: the
// formula ran untracked, past its cost limit. Each formula here must be
// stopped by the limit, through the engine's own path.
func TestWalkOfRepeatsStaysTracked(t *testing.T) {
	// A description of desc characters repeated once for each of xs
	// numbers of the tool (flat), or for each pair or triple of them
	// (nested): 8,192 copies of 8,192 characters charge about 6,700,000
	// units against a limit of about 5,200,000; 91*91 copies of 8,192
	// about 6,800,000 against 1,000,000; 32*32*32 copies of 350 about
	// 1,250,000 against 1,000,000 (lets of lets, each cheap to make, of
	// a tool short enough that a list of lists estimated as a list of
	// strings ran untracked).
	const flat = "tool._meta.xs.map(a, tool.description)"
	const nested = "tool._meta.xs.map(a, tool._meta.xs.map(b, tool.description))"
	const triple = `r1 = "tool._meta.xs.map(a, tool.description)"
      r2 = "tool._meta.xs.map(a, r1)"
      rep = "tool._meta.xs.map(a, r2)"`
	for _, tt := range []struct {
		name, let, signal, metric string
		desc, xs                  int
	}{
		{"texts of a signal", "", flat, "size(texts(signals.rep))", 8192, 8192},
		{"texts of a signal, with keys", "", flat, "size(texts(signals.rep, true))", 8192, 8192},
		{"string_values of a signal", "", flat, "size(string_values(signals.rep))", 8192, 8192},
		{"texts of a nested signal", "", nested, "size(texts(signals.rep))", 8192, 91},
		{"string_values of a nested signal", "", nested, "size(string_values(signals.rep))", 8192, 91},
		{"texts of a let", "rep = \"" + flat + "\"", "", "size(texts(rep))", 8192, 8192},
		{"string_values of a let", "rep = \"" + flat + "\"", "", "size(string_values(rep))", 8192, 8192},
		// A let is a list of its checked type: a list of lists was
		// estimated as a list of strings.
		{"texts of a let of nested lists", triple, "", "size(texts(rep))", 350, 32},
		{"string_values of a let of nested lists", triple, "", "size(string_values(rep))", 350, 32},
		{"texts of a metric", "", "", "size(texts(metrics.rep))", 8192, 8192},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var body strings.Builder
			if tt.let != "" {
				fmt.Fprintf(&body, "    let {\n      %s\n    }\n", tt.let)
			}
			if tt.signal != "" {
				fmt.Fprintf(&body, "    signals { rep = %q }\n", tt.signal)
			}
			if strings.Contains(tt.metric, "metrics.rep") {
				fmt.Fprintf(&body, "    metric \"rep\" { value = %q }\n", flat)
			}
			fmt.Fprintf(&body, "    metric \"walked\" { value = %q }\n", tt.metric)
			src := "rubric \"w\" {\n  version = \"1\"\n  tool {\n" + body.String() +
				"    score = \"metrics.walked > 0 ? 1 : 0\"\n  }\n  surface { score = \"min(tools.map(t, t.score))\" }\n  grades = { A = 0 }\n}\n"
			r, err := rubric.Load("w.hcl", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			xs := make([]any, tt.xs)
			for i := range xs {
				xs[i] = 0
			}
			b, err := json.Marshal(map[string]any{"tools": []any{map[string]any{
				"name": "read", "description": strings.Repeat("x", tt.desc),
				"inputSchema": map[string]any{"type": "object"}, "_meta": map[string]any{"xs": xs},
			}}})
			if err != nil {
				t.Fatal(err)
			}
			s, err := surface.Parse("s.json", b)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Run(context.Background(), r, s, Options{})
			if err == nil || !strings.Contains(err.Error(), "cost limit") {
				t.Errorf("%s: got error %v, want the cost limit", tt.metric, err)
			}
		})
	}
}
