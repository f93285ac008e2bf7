package heuristic

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/judges/heuristic/internal/tdqs"

	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
)

// TestDecodeToolInputAgreesWithEncodingJSON: a tool question's input read
// by jsonscan is the ToolInput encoding/json gives, for every tool of the
// corpus with its siblings, and for input off the plain shape (null,
// field names in another case, numbers past float64, siblings that are
// not strings, broken JSON), which must give encoding/json's values or
// error; and members that encoding/json skips (TDQS's signals).
func TestDecodeToolInputAgreesWithEncodingJSON(t *testing.T) {
	heavytest.Later(t)
	inputs := []string{
		`{"siblings": ["a", "b"], "tool": {"name": "t", "n": 1.5, "big": 12345678901234567890, "a": [1, {"b": -2e-3}, null, true]}}`,
		`{"siblings": [], "tool": {}}`,
		`{"siblings": null, "tool": null}`,
		`{"tool": {"name": "only a tool"}}`,
		`{}`,
		`{"Tool": {"name": "case"}, "SIBLINGS": ["x"]}`,
		`{"tool": {"n": 1e400}}`,
		`{"siblings": [1, 2]}`,
		`{"siblings": "a"}`,
		`{"tool": [1]}`,
		`{"tool": {"s": "\ud83d\ude00 surrogates"}}`,
		`{"tool": {"name": "x"}, "extra": 1}`,
		`{"tool": {"name": "x"}, "signals": {"paramCount": 2, "coverage": 1e400, "s": "\ud83d"}}`,
		`{"tool": {"name": "x"}, "Signals": [1, 2]}`,
		`{"tool": {"name": "x"}, "\u017fiblings": ["kelvin", "long s"], "\u212aey": 1}`,
		`{"tool": {"name": "x"}, "TOOL": {"name": "y"}}`,
		`[]`, `"tool"`, `null`, `{"tool": `, ``,
		`{"tool": {"name": "x"}} x`, `{"tool": {"name": "x"}} {}`, `{"tool": {"name": "x"}}` + "\n\t ",
		// Members the cues do not read: stepped over, but checked.
		`{"tool": {"name": "x", "inputSchema": {"$defs": {"a": {"maximum": 1e400}}, "properties": {"p": {"type": "object"}}}}}`,
		`{"tool": {"name": "x", "inputSchema": {"$defs": {"a": {"maximum": 1e300, "s": "1e400 \" }"}}, "properties": {"p": {"description": "d"}}}}}`,
		`{"tool": {"name": "x", "extra": [1, -2.5e3, {"k": [true, false, null]}], "inputSchema": {"properties": {}}}}`,
		`{"tool": {"name": "x", "extra": 1e999}}`,
		`{"tool": {"name": "x", "extra": "\ud83d"}}`,
		`{"tool": {"name": "x", "extra": "\ud83d\ude00"}}`,
		`{"tool": {"name": "first", "name": "last", "description": "a", "description": null}}`,
		`{"tool": {"name": "x", "inputSchema": {"properties": {"a": {}}, "properties": {"b": {"type": ["object", "null"]}}}}}`,
		`{"tool": {"name": "x", "inputSchema": null}}`,
		`{"tool": {"name": "x", "inputSchema": [1, 2]}}`,
		`{"tool": {"name": "x", "inputSchema": "schema"}}`,
		`{"tool": {"name": "x", "inputSchema": {"$ref": "#/x"}}}`,
		`{"tool": {"n\u0061me": "escaped", "title": "T", "annotations": {"readOnlyHint": true}, "outputSchema": {"type": "object"}}}`,
		` { "tool" : { "name" : "spaced" , "inputSchema" : { "properties" : { "q" : { "description" : "query" } } } } , "siblings" : [ "a" ] } `,
		`{"tool": {"name": "x", "extra": 1e400, "extra": 1}}`,
		`{"tool": {"name": 1e400, "name": "x"}}`,
		`{"tool": {"name": "x", "inputSchema": {"properties": {"a": {"maximum": 1e400}}, "properties": {}}}}`,
		`{"tool": {"name": "x"}, "tool": {"name": "y"}}`,
		`{"tool": {"name": "x"}, "siblings": ["a"], "siblings": null}`,
		`{"tool": "x"}`, `{"tool": 1}`, `{"siblings": {"a": 1}}`,
		// A parameter's schema, read as far as the cues read it.
		`{"tool": {"name": "x", "inputSchema": {"properties": {"a": {"type": "object", "properties": {"b": {"maximum": 1e400}}}}}}}`,
		`{"tool": {"name": "x", "inputSchema": {"properties": {"a": {"type": "object", "properties": {"b": {"maximum": 1e300}}}}}}}`,
		`{"tool": {"name": "x", "inputSchema": {"properties": {"a": {"enum": [1, 1e400]}}}}}`,
		`{"tool": {"name": "x", "inputSchema": {"properties": {"a": {"enum": [1, 2], "default": "d", "description": " "}}}}}`,
		`{"tool": {"name": "x", "inputSchema": {"properties": {"a": {"type": "array", "items": {"properties": {}, "enum": [3]}}}}}}`,
		`{"tool": {"name": "x", "inputSchema": {"properties": {"a": {"type": "array", "items": {"type": ["null", "object"], "minimum": 1e400}}}}}}`,
		`{"tool": {"name": "x", "inputSchema": {"properties": {"a": {"type": "array", "items": [{"type": "object"}]}}}}}`,
		`{"tool": {"name": "x", "inputSchema": {"properties": {"a": {"properties": [1, 2], "items": "x"}}}}}`,
		`{"tool": {"name": "x", "inputSchema": {"properties": {"a": {"description": "one", "description": "two"}}}}}`,
		`{"tool": {"name": "x", "inputSchema": {"properties": {"a": {"x": 1, "x": 2}}}}}`,
		`{"tool": {"name": "x", "inputSchema": {"properties": {"a": {}, "b": 1, "c": null, "d": {"description": 2}}}}}`,
		`{"tool": {"name": "x", "inputSchema": {"properties": {"p1": {}, "p2": {}, "p3": {}, "p4": {}, "p5": {}, "p6": {}, "p7": {}, "p8": {}, "p9": {}, "p10": {}, "p11": {}, "p12": {}, "p13": {}, "p14": {}, "p15": {}, "p16": {}, "p17": {}, "p18": {"type": "object"}}}}}`,
		`{"tool": {"name": "x", "inputSchema": {"properties": {"p1": {}, "p2": {}, "p3": {}, "p4": {}, "p5": {}, "p6": {}, "p7": {}, "p8": {}, "p9": {}, "p10": {}, "p11": {}, "p12": {}, "p13": {}, "p14": {}, "p15": {}, "p16": {}, "p17": {}, "p1": {"type": "object"}}}}}`,
		// Read straight into the cues' view: titles, hints, output schemas,
		// types and descriptions as encoding/json would give them.
		`{"tool": {"name": "x", "annotations": {"title": "A", "readOnlyHint": true, "readOnlyHint": "no", "destructiveHint": false, "idempotentHint": true, "openWorldHint": null}}}`,
		`{"tool": {"name": "x", "title": "", "annotations": {"title": "T\u00e9", "title": "Last"}}}`,
		`{"tool": {"name": "x", "title": 3, "annotations": {"title": "T"}}}`,
		`{"tool": {"name": "x", "title": "Own", "annotations": {"title": "T", "destructiveHint": true}}}`,
		`{"tool": {"name": "x", "annotations": {"title": 1, "readOnlyHint": false}, "title": "late"}}`,
		`{"tool": {"name": "x", "annotations": [1]}}`,
		`{"tool": {"name": "x", "annotations": null, "title": "\"q\""}}`,
		`{"tool": {"name": "x", "outputSchema": {}}}`,
		`{"tool": {"name": "x", "outputSchema": { "a" : 1 }}}`,
		`{"tool": {"name": "x", "outputSchema": [{"a": 1}]}}`,
		`{"tool": {"name": "x\u0041", "description": "a\nb \u00e9 \/ \\"}}`,
		`{"tool": {"name": "x", "inputSchema": {"properties": {"a": {"type": "\u006fbject"}, "b": {"type": ["str\u0069ng", "obj\u0065ct"]}, "c": {"description": "\u0020\t"}, "d": {"description": "\u00a0"}, "e": {"items": {"type": ["null", 1, "object"]}}}}}}`,
		`{"tool": {"name": "x", "inputSchema": {"properties": {"a": {"type": ["string", {"o": "object"}, ["object"]]}, "b": {"items": {"type": "object", "type": "string"}, "type": "object"}, "c": {"description": "\u2003"}}}}}`,
		`{"tool": {"name": "x", "inputSchema": {"properties": {"\u0070": {"description": "p"}, "q\"r": {"properties": {}}}}}}`,
		`{"tool": {"name": "x", "extra": 1234567890123456789012345678901234567890}}`,
		`{"tool": {"name": "x", "extra": 1` + strings.Repeat("0", 309) + `}}`,
		`{"tool": {"name": "x", "extra": -1` + strings.Repeat("0", 298) + `.5}}`,
		`{"tool": {"name": "x", "extra": 1e-400, "more": 0.5E+3}}`,
	}
	// Every cut of a rich input: broken JSON at each place the reader
	// could stand, which encoding/json refuses.
	rich := `{"siblings": ["a"], "tool": {"name": "x", "title": "T", "annotations": {"readOnlyHint": true}, "description": "d\n", "outputSchema": {"a": 1},` +
		` "inputSchema": {"type": "object", "properties": {"p": {"type": ["array"], "description": "q", "items": {"type": "object", "properties": {}}, "enum": [1.5]}, "r": 2}}}, "signals": {"n": 1}}`
	for i := range rich {
		inputs = append(inputs, rich[:i])
	}
	inputs = append(inputs, rich)
	for _, tools := range surfacetest.CorpusTools(t) {
		var names []string
		for _, tool := range tools {
			names = append(names, fmt.Sprint(tool["name"]))
		}
		for _, tool := range tools {
			in, err := json.Marshal(map[string]any{"tool": tool, "siblings": names})
			if err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, string(in))
			// TDQS's own input: the tool beside signals worked out from it.
			in, err = json.Marshal(map[string]any{"tool": tool, "signals": map[string]any{"paramCount": 2, "schemaDescriptionCoverage": 0.5, "inputHash": "0123"}})
			if err != nil {
				t.Fatal(err)
			}
			inputs = append(inputs, string(in))
			if !readToolInput(in, &tdqs.ToolInput{}) {
				t.Errorf("%.80s: TDQS's input is decoded whole", in)
			}
		}
	}
	for _, input := range inputs {
		var got, want tdqs.ToolInput
		gotErr := decodeToolInput([]byte(input), &got)
		wantErr := decode([]byte(input), KindTool, &want)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%.80s: error %v, want %v", input, gotErr, wantErr)
			continue
		}
		if wantErr != nil {
			continue
		}
		// The tool is read as far as the cues read it.
		if gv, wv := cueView(got), cueView(want); !reflect.DeepEqual(gv, wv) {
			t.Errorf("%.80s: read as %+v, want %+v", input, gv, wv)
		}
		if got.Tool == nil && got.View == nil {
			continue
		}
		ga, gerr := tdqs.Tool(&got)
		wa, werr := tdqs.Tool(&want)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) || !reflect.DeepEqual(ga, wa) {
			t.Errorf("%.80s: answered %v (%v), want %v (%v)", input, ga, gerr, wa, werr)
		}
	}
	if len(inputs) < 100 {
		t.Fatalf("only %d inputs", len(inputs))
	}
}

// cueView is a tool question's input as far as the TDQS cues read it
// (tdqs.readFacts): the siblings, and the tool's tdqs.ToolView (its own
// when the input was read partly, tdqs.ViewOf's of the decoded tool
// otherwise), its parameters in name order.
func cueView(in tdqs.ToolInput) tdqs.ToolInput {
	if in.View == nil {
		in.View = tdqs.ViewOf(in.Tool)
	}
	in.Tool = nil
	if in.View != nil {
		v := *in.View
		v.Params = slices.Clone(v.Params)
		slices.SortFunc(v.Params, func(a, b tdqs.ParamView) int { return strings.Compare(a.Name, b.Name) })
		in.View = &v
	}
	return in
}

// TestReadToolInputSteps: the partial read takes plain input, and leaves
// to the whole decode what it cannot be sure of (a number past float64
// anywhere in the tool, JSON jsonscan leaves to encoding/json, a repeated
// or differently cased tool, a name repeated in the tool or its input
// schema, a tool that is not an object).
func TestReadToolInputSteps(t *testing.T) {
	for _, c := range []struct {
		input string
		takes bool
	}{
		{`{"tool": {"name": "x", "inputSchema": {"$defs": {"a": {"maximum": 1e300}}, "properties": {"p": {}}}}}`, true},
		{`{"tool": {"name": "x", "inputSchema": {"$defs": {"a": {"maximum": 1e400}}, "properties": {"p": {}}}}}`, false},
		{`{"tool": {"name": "x", "extra": [1, {"k": -1e999}]}}`, false},
		{`{"tool": {"name": "x", "extra": "1e999"}}`, true},
		{`{"tool": {"name": "x", "extra": "\ud83d"}}`, false},
		{`{"tool": {"n\u0061me": "x", "name": "y"}}`, false},
		{`{"tool": {"name": "x", "inputSchema": {"properties": {}, "properties": {}}}}`, false},
		{`{"tool": {"name": "x", "inputSchema": {"properties": {"p": {"enum": [1e300], "properties": {"q": {"default": 1e300}}}}}}}`, true},
		{`{"tool": {"name": "x", "inputSchema": {"properties": {"p": {"enum": [1e400]}}}}}`, false},
		{`{"tool": {"name": "x", "inputSchema": {"properties": {"p": {"properties": {"q": {"default": -1e400}}}}}}}`, false},
		{`{"tool": {"name": "x", "inputSchema": {"properties": {"p": {"items": {"maximum": 1e400}}}}}}`, false},
		{`{"tool": {"name": "x", "inputSchema": {"properties": {"p": {}, "p": {}}}}}`, false},
		{`{"tool": {"name": "x", "inputSchema": {"properties": {"p": {"type": "string", "type": "object"}}}}}`, false},
		{`{"tool": {"name": "x"}, "signals": {"n": 1e999}}`, true},
		{`{"tool": {"name": "x"}, "tool": {"name": "y"}}`, false},
		{`{"tool": {"name": "x"}, "Tool": {"name": "y"}}`, false},
		{`{"tool": ["x"]}`, false},
		{`{"tool": null, "siblings": null}`, true},
		{`{"siblings": [1]}`, false},
		{`[]`, false},
	} {
		var in tdqs.ToolInput
		if got := readToolInput([]byte(c.input), &in); got != c.takes {
			t.Errorf("%s: read partly %v, want %v", c.input, got, c.takes)
		}
	}
}

// TestStringValueAllocatesOnce: a string with escapes is unescaped into
// one buffer that becomes the string, not copied again; one without is
// copied out of the input once.
func TestStringValueAllocatesOnce(t *testing.T) {
	for raw, want := range map[string]string{
		`"Lists pages.\nUse \"query\" to filter."`: "Lists pages.\nUse \"query\" to filter.",
		`"Lists pages."`: "Lists pages.",
		`"\u00e9"`:       "é",
	} {
		b := []byte(raw)
		got, ok := stringValue(b)
		if !ok || got != want {
			t.Errorf("stringValue(%s) = %q, %v; want %q", raw, got, ok, want)
		}
		if n := testing.AllocsPerRun(100, func() { _, _ = stringValue(b) }); n != 1 {
			t.Errorf("stringValue(%s) allocates %v times, want 1", raw, n)
		}
	}
}
