package ask

import (
	"bytes"
	"encoding/json"

	"github.com/rubricmcp/rubric/internal/jsonscan"
)

// decodeJSON decodes JSON as templates see it: numbers print as written
// (json.Number), objects are map[string]any, arrays []any. Every
// question's input is decoded once for its templates, so the plain JSON
// the engine writes is read by jsonscan, and anything else by
// encoding/json, which gives the same values.
func decodeJSON(b []byte) (any, error) {
	if v, ok := jsonscan.Decode(b); ok {
		return v, nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}
