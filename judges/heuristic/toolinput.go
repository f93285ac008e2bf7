package heuristic

import (
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
