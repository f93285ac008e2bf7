package stage

import (
	"reflect"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score/eval"
	"github.com/rubricmcp/rubric/internal/race"
	"github.com/rubricmcp/rubric/rubrics"
)

// TestRequestInputIsNotCopied: the input a TDQS tool question's templates
// see is the map the input formula's value was made into, its signals
// (ints and nums among them) the same map too, not copies made to turn
// their numbers into JSON numbers; and the input reads as its JSON.
func TestRequestInputIsNotCopied(t *testing.T) {
	tool := map[string]any{"name": "get_note", "description": "Read one note.",
		"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{"type": "string"}}}}
	q, sc, req := toolRequest(t, tool)
	in, _ := req.Input.(map[string]any)
	sig, _ := in["signals"].(map[string]any)
	if in == nil || sig == nil {
		t.Fatalf("input %#v", req.Input)
	}
	// The templates' input is made from the value and must read as the
	// JSON written of it.
	back, err := lang.FromJSON(req.InputJSON)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := sig["paramCount"], back.(map[string]any)["signals"].(map[string]any)["paramCount"]; reflect.ValueOf(got).String() != "1" || want != int64(1) {
		t.Errorf("paramCount: template input %#v, JSON %#v", got, want)
	}
	// What request builds the input from is the templates' input
	// itself: TemplateInput copies no map of it.
	n := writtenInput(t, q, sc)
	tin, ok := ask.TemplateInput(n)
	if !ok {
		t.Fatal("no template input")
	}
	same := func(a, b any) bool { return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer() }
	nm := n.(map[string]any)
	if tm := tin.(map[string]any); !same(tm, nm) || !same(tm["signals"], nm["signals"]) {
		t.Error("TemplateInput copied the input or its signals")
	}
	// And request builds it so: fewer allocations than the same steps
	// with the input as Native gives it, which TemplateInput copies.
	// Counted without -race alone (make test's heavy pass), as below.
	if race.Enabled {
		return
	}
	asNative := testing.AllocsPerRun(20, func() {
		if _, err := eval.Bool(q.When, sc); err != nil {
			t.Fatal(err)
		}
		v, _ := sc.Eval(q.Input)
		n, _ := lang.Native(v)
		b, _ := lang.MarshalCanonical(n)
		ask.InputHash(b, nil)
		ask.TemplateInput(n)
	})
	got := testing.AllocsPerRun(20, func() {
		if _, _, err := request(q, sc, "get_note", nil); err != nil {
			t.Fatal(err)
		}
	})
	if got >= asNative {
		t.Errorf("request allocates %v times, as many as with the input copied (%v)", got, asNative)
	}
}

// TestRequestWritesTheTemplateInput: a question's input JSON is written
// from the templates' input, whose numbers are already JSON text, not
// from the value it was made of, whose numbers of the definition are
// binary floats: the same bytes, with no more allocations than the steps
// as they were (fewer while lang wrote each float through
// encoding/json's encoder; as many since it writes them itself).
func TestRequestWritesTheTemplateInput(t *testing.T) {
	// As a scan reads a definition: its numbers are binary floats.
	limit := map[string]any{"type": "integer", "minimum": float64(1), "maximum": float64(100), "default": float64(20), "multipleOf": float64(0.5)}
	tool := map[string]any{"name": "list_notes", "description": "List the notes.",
		"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"limit": limit}}}
	q, sc, req := toolRequest(t, tool)
	// The steps as they were: the JSON written of the value itself.
	before := func() ([]byte, any) {
		n := writtenInput(t, q, sc)
		b, err := lang.MarshalCanonical(n)
		if err != nil {
			t.Fatal(err)
		}
		in, _ := ask.TemplateInput(n)
		return b, in
	}
	b, in := before()
	if string(req.InputJSON) != string(b) {
		t.Errorf("input JSON\n%s\nwant\n%s", req.InputJSON, b)
	}
	if !reflect.DeepEqual(req.Input, in) {
		t.Errorf("template input %#v, want %#v", req.Input, in)
	}
	// Counted without -race alone (make test's heavy pass): under the
	// race detector sync.Pool drops values put back at random, so one
	// side allocates a scratch buffer again now and then (51 against 50
	// in a race pass).
	if race.Enabled {
		return
	}
	was := testing.AllocsPerRun(20, func() {
		if _, err := eval.Bool(q.When, sc); err != nil {
			t.Fatal(err)
		}
		b, _ := before()
		ask.InputHash(b, nil)
	})
	got := testing.AllocsPerRun(20, func() {
		if _, _, err := request(q, sc, "list_notes", nil); err != nil {
			t.Fatal(err)
		}
	})
	if got > was {
		t.Errorf("request allocates %v times, more than writing the value itself (%v)", got, was)
	}
}

// toolRequest is the request of TDQS's tool question about tool, with the
// question and the scope it was built in (the tool's signals set).
func toolRequest(t *testing.T, tool map[string]any) (*rubric.Question, *eval.Scope, ask.Request) {
	t.Helper()
	r, err := rubrics.Find("tdqs")
	if err != nil {
		t.Fatal(err)
	}
	q := r.Questions[0]
	if q.Name != "tool" {
		t.Fatalf("the first TDQS question is %q", q.Name)
	}
	sc := &eval.Scope{Vars: lang.Vars{"tool": lang.ToolValue(tool), "surface_signals": map[string]any{}}, Size: 64}
	signals, serr := eval.Signals(r.Tool.Signals, sc, "signals", "signal")
	if serr != nil {
		t.Fatal(serr)
	}
	sc.Set("signals", signals)
	req, ok, err := request(q, sc, tool["name"].(string), nil)
	if err != nil || !ok {
		t.Fatalf("request: %v, %v", ok, err)
	}
	return q, sc, req
}

// writtenInput is the value of q's input formula in sc, as the engine
// makes it to be written.
func writtenInput(t *testing.T, q *rubric.Question, sc *eval.Scope) any {
	t.Helper()
	v, err := sc.Eval(q.Input)
	if err != nil {
		t.Fatal(err)
	}
	n, err := lang.NativeWritten(v)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
