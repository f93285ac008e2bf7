package heuristic

import (
	"encoding/json"
	"strconv"

	"github.com/rubricmcp/rubric/judges/heuristic/internal/tdqs"
)

// decodeToolInput reads a tdqs.tool question's input into in, to the
// values encoding/json gives: the engine writes it as plain canonical
// JSON, which readToolInput reads without reflection, and only as far as
// the cues read it (about a tenth of this judge's time at 5,000 tools
// went to encoding/json); anything it is unsure of goes to encoding/json.
func decodeToolInput(input []byte, in *tdqs.ToolInput) error {
	if readToolInput(input, in) {
		return nil
	}
	*in = tdqs.ToolInput{}
	return decode(input, KindTool, in)
}

// floatNumbers turns the json.Numbers in v into float64 in place, as
// encoding/json decodes numbers into an any; false when one does not fit
// a float64 (encoding/json refuses it).
func floatNumbers(v any) bool {
	var ok bool
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			if x[k], ok = floatNumber(e); !ok {
				return false
			}
		}
	case []any:
		for i, e := range x {
			if x[i], ok = floatNumber(e); !ok {
				return false
			}
		}
	}
	return true
}

// floatNumber is e as a float64 when it is a json.Number, else e with
// its own numbers turned (floatNumbers).
func floatNumber(e any) (any, bool) {
	if n, ok := e.(json.Number); ok {
		f, err := strconv.ParseFloat(string(n), 64)
		return f, err == nil
	}
	return e, floatNumbers(e)
}
