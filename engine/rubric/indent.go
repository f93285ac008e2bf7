package rubric

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/rubricmcp/rubric/internal/jsonenc"
)

// indentJSON writes v as encoding/json writes it with two spaces of
// indent and HTML escaping off, without the final newline. Prompts fence
// parts of every tool's definition this way (an input schema, its
// annotations), so it is written by jsonenc for the values decoded JSON
// holds without encoding/json's reflection and buffers; any other value
// goes through encoding/json. TestIndentJSONMatchesEncodingJSON holds the two to the
// same bytes.
func indentJSON(v any) (string, error) {
	if b, ok := jsonenc.Append(nil, v, true, 0); ok {
		return string(b), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}
