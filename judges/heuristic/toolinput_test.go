package heuristic

import (
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"testing"

	"github.com/rubricmcp/rubric/judges/heuristic/internal/tdqs"

	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
	"github.com/rubricmcp/rubric/internal/jsonscan"
)

// TestDecodeToolInputAgreesWithEncodingJSON: a tool question's input read
// by jsonscan is the ToolInput encoding/json gives, for every tool of the
// corpus with its siblings, and for input off the plain shape (null,
// field names in another case, numbers past float64, siblings that are
// not strings, broken JSON), which must give encoding/json's values or
// error; and members that encoding/json skips (TDQS's signals).
func TestDecodeToolInputAgreesWithEncodingJSON(t *testing.T) {
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
	}
	for _, f := range surfacetest.CorpusFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var capture struct {
			Tools []map[string]any `json:"tools"`
		}
		if err := json.Unmarshal(b, &capture); err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tool := range capture.Tools {
			names = append(names, fmt.Sprint(tool["name"]))
		}
		for _, tool := range capture.Tools {
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
			if v, ok := jsonscan.Decode(in); !ok || !fillToolInput(v, &tdqs.ToolInput{}) {
				t.Errorf("%.80s: TDQS's input is left to encoding/json", in)
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
		if wantErr == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("%.80s: read as %#v, want %#v", input, got, want)
		}
	}
	if len(inputs) < 100 {
		t.Fatalf("only %d inputs", len(inputs))
	}
}
