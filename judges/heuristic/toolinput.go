package heuristic

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/rubricmcp/rubric/internal/jsonscan"
	"github.com/rubricmcp/rubric/judges/heuristic/internal/tdqs"
)

// decodeToolInput reads a tdqs.tool question's input into in, to the
// values encoding/json gives: the engine writes it as plain canonical
// JSON, so jsonscan reads it without reflection (about a tenth of this
// judge's time at 5,000 tools went to encoding/json), and anything it
// leaves, or that does not have the plain shape below, goes to
// encoding/json as before.
func decodeToolInput(input []byte, in *tdqs.ToolInput) error {
	if readToolInput(input, in) {
		return nil
	}
	*in = tdqs.ToolInput{}
	if v, ok := jsonscan.Decode(input); ok && fillToolInput(v, in) {
		return nil
	}
	*in = tdqs.ToolInput{}
	return decode(input, KindTool, in)
}

// fillToolInput fills in from an object whose "tool" is an object or
// null and whose "siblings" are strings or null, its numbers made
// float64 as encoding/json makes them in an any, and whose other members
// encoding/json would skip; false for anything else.
func fillToolInput(v any, in *tdqs.ToolInput) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for k, e := range m {
		switch k {
		case "tool":
			if e == nil {
				continue
			}
			t, ok := e.(map[string]any)
			if !ok || !floatNumbers(t) {
				return false
			}
			in.Tool = t
		case "siblings":
			if e == nil {
				continue
			}
			l, ok := e.([]any)
			if !ok {
				return false
			}
			names := make([]string, len(l))
			for i, x := range l {
				if names[i], ok = x.(string); !ok {
					return false
				}
			}
			in.Siblings = names
		default:
			// encoding/json matches field names without regard to case
			// (as bytes.EqualFold does): leave such input to it. Any
			// other member, such as the signals TDQS's question sends
			// beside the tool, it skips, and so is skipped here.
			if strings.EqualFold(k, "tool") || strings.EqualFold(k, "siblings") {
				return false
			}
		}
	}
	return true
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
