package eval_test

import (
	"reflect"
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score/eval"
	"github.com/rubricmcp/rubric/rubrics"
)

// TestSignalsAsNamedWithoutEntries: Signals gives a tool's signals the
// values Named gives them, each seeing the ones before it, and spends no
// allocation on the report entries Named makes (which signals never
// reach): the TDQS signals of a tool with a described parameter.
func TestSignalsAsNamedWithoutEntries(t *testing.T) {
	r, err := rubrics.Find("tdqs")
	if err != nil {
		t.Fatal(err)
	}
	tool := map[string]any{
		"name": "get_note", "description": "Read one note.",
		"inputSchema": map[string]any{"type": "object", "required": []any{"id"},
			"properties": map[string]any{"id": map[string]any{"type": "string", "description": "The note's id."}}},
	}
	scope := func() *eval.Scope {
		return &eval.Scope{Vars: lang.Vars{
			"tool": lang.ToolValue(tool), "signals": map[string]any{}, "surface": map[string]any{"tools": []any{tool}},
			"surface_signals": map[string]any{},
		}, Size: 64}
	}
	named, entries, nerr := eval.Named(r.Tool.Signals, scope(), "signals", "signal")
	if nerr != nil {
		t.Fatal(nerr)
	}
	if len(entries) != len(r.Tool.Signals) {
		t.Fatalf("Named made %d entries, want %d", len(entries), len(r.Tool.Signals))
	}
	signals, serr := eval.Signals(r.Tool.Signals, scope(), "signals", "signal")
	if serr != nil {
		t.Fatal(serr)
	}
	if !reflect.DeepEqual(signals, named) {
		t.Errorf("Signals = %v\nNamed = %v", signals, named)
	}
	count := func(f func([]*rubric.Metric, *eval.Scope)) float64 {
		return testing.AllocsPerRun(20, func() { f(r.Tool.Signals, scope()) })
	}
	withEntries := count(func(ms []*rubric.Metric, sc *eval.Scope) { eval.Named(ms, sc, "signals", "signal") })
	without := count(func(ms []*rubric.Metric, sc *eval.Scope) { eval.Signals(ms, sc, "signals", "signal") })
	// The entries' list, and an exact fraction for each number signal.
	if without > withEntries-2 {
		t.Errorf("Signals allocates %v times, Named %v: want at least the entries' list fewer", without, withEntries)
	}
}
