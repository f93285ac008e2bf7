package mcpclient

import (
	"encoding/json"
	"testing"
)

// FuzzReadPage: any bytes as a tools/list result either fail with a
// message or give tool objects whose splice is one valid JSON document.
func FuzzReadPage(f *testing.F) {
	for _, seed := range []string{
		`{"tools":[{"name":"a"}],"nextCursor":"2"}`,
		`{"tools":[]}`,
		`{"tools":[1]}`,
		`{"tools":{}}`,
		`{"nextCursor":5,"tools":[]}`,
		`null`,
		`[]`,
		`{"tools":[{"name":"a","inputSchema":{"anyOf":[{}]}}],"nextCursor":null}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		tools, _, err := readPage(raw, 1)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("an empty message")
			}
			return
		}
		if !json.Valid(raw) {
			t.Fatalf("accepted invalid JSON %q", raw)
		}
		for i, tool := range tools {
			var m map[string]any
			if json.Unmarshal(tool, &m) != nil || m == nil {
				t.Fatalf("tools[%d] = %q is not an object", i, tool)
			}
		}
		var doc struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(splice(tools), &doc); err != nil || len(doc.Tools) != len(tools) {
			t.Fatalf("splice of %d tools: %v", len(tools), err)
		}
	})
}
