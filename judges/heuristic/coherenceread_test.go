package heuristic

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/judges/heuristic/internal/tdqs"
)

// TestDecodeCoherenceInputAgreesWithEncodingJSON: a coherence question's
// input read without reflection is the CoherenceInput encoding/json
// gives, with its error when it fails, for the input TDQS sends of every
// corpus server (which must be read so) and for input off that shape:
// nulls, members named in another case or repeated, values of the wrong
// type, tool counts that are not integers, escapes, broken JSON.
func TestDecodeCoherenceInputAgreesWithEncodingJSON(t *testing.T) {
	heavytest.Later(t)
	cases := []struct {
		input string
		takes bool // read without encoding/json
	}{
		{`{"server": "s", "toolCount": 2, "tools": [{"name": "a", "description": "d", "invocationCost": 3}, {"name": "b", "description": null}], "shadowCandidates": ["a (cost 9) may be shadowed by b (cost 1)"]}`, true},
		{`{"server": "", "toolCount": 0, "tools": [], "shadowCandidates": []}`, true},
		{`{"tools": null, "shadowCandidates": null, "server": null, "toolCount": null}`, true},
		{`{}`, true},
		{` { "tools" : [ null , { "name" : "a\u00e9\n" , "description" : "\"q\" \\ \/" } ] , "extra" : [1e999] } `, true},
		{`{"tools": [{"name": null, "description": "", "Name2": 1}], "shadowCandidates": [null, "x"]}`, true},
		{`{"toolCount": -3}`, true},
		{`{"toolCount": 1.5}`, false},
		{`{"toolCount": 1e2}`, false},
		{`{"toolCount": 99999999999999999999}`, false},
		{`{"toolCount": "2"}`, false},
		{`{"server": 1}`, false},
		{`{"server": "a", "server": "b"}`, false},
		{`{"Server": "a"}`, false},
		{`{"TOOLS": []}`, false},
		{`{"tools": [{"NAME": "a"}]}`, false},
		{`{"tools": [{"name": "a", "name": "b"}]}`, false},
		{`{"tools": [{"description": "a", "description": null}]}`, false},
		{`{"tools": [{"de\u0073cription": "escaped name"}]}`, true},
		{`{"tools": [{"\u017fcription": 1}]}`, true},
		{`{"tools": [{"name": 1}]}`, false},
		{`{"tools": [1]}`, false},
		{`{"tools": {"name": "a"}}`, false},
		{`{"shadowCandidates": [1]}`, false},
		{`{"shadowCandidates": "a"}`, false},
		{`{"tools": [{"name": "\ud83d\ude00"}]}`, false},
		{`{"tools": [{"name": "a"}]`, false},
		{`null`, false},
		{`[]`, false},
		{``, false},
	}
	for _, tools := range surfacetest.CorpusTools(t) {
		// TDQS's own input: each tool's name, description (null when
		// blank) and costs, and the shadowing candidates.
		var list []map[string]any
		for _, tool := range tools {
			d, _ := tool["description"].(string)
			var desc any = d
			if d == "" {
				desc = nil
			}
			list = append(list, map[string]any{"name": tool["name"], "description": desc, "requiredFieldCount": 1, "schemaDepth": 2, "unionChoiceCount": 0, "invocationCost": 3})
		}
		in, err := json.Marshal(map[string]any{"server": "corpus", "toolCount": len(tools), "tools": list, "shadowCandidates": []string{}})
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct {
			input string
			takes bool
		}{string(in), true})
	}
	for _, c := range cases {
		if got := readCoherenceInput([]byte(c.input), &tdqs.CoherenceInput{}); got != c.takes {
			t.Errorf("%.80s: read without encoding/json %v, want %v", c.input, got, c.takes)
		}
		var got, want tdqs.CoherenceInput
		gotErr := decodeCoherenceInput([]byte(c.input), &got)
		wantErr := decode([]byte(c.input), KindCoherence, &want)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			t.Errorf("%.80s: error %v, want %v", c.input, gotErr, wantErr)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%.80s: read as %s, want %s", c.input, coherenceString(got), coherenceString(want))
		}
	}
}

// coherenceString shows a coherence input with its pointers followed.
func coherenceString(in tdqs.CoherenceInput) string {
	s := fmt.Sprintf("server %q count %d tools [", in.Server, in.ToolCount)
	for _, t := range in.Tools {
		if t.Description == nil {
			s += fmt.Sprintf("{%q nil}", t.Name)
		} else {
			s += fmt.Sprintf("{%q %q}", t.Name, *t.Description)
		}
	}
	if in.ShadowCandidates == nil {
		return s + "] shadow nil"
	}
	return s + fmt.Sprintf("] shadow %q", *in.ShadowCandidates)
}
