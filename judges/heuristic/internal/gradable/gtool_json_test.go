package gradable

import (
	"encoding/json"
	"testing"
)

// A Gradable question about a tool whose members have odd types (a
// string for an inputSchema) is answered, not refused: the odd member
// reads as absent.
func TestToolMembersOfOddTypes(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		params  bool // has an inputSchema
		title   bool
		descrip bool
	}{
		{"well formed", `{"name":"a","title":"A","description":"d","inputSchema":{"type":"object"}}`, true, true, true},
		{"string inputSchema", `{"name":"a","description":"d","inputSchema":"nope"}`, false, false, true},
		{"array inputSchema, numeric title", `{"name":"a","title":7,"inputSchema":[1,2]}`, false, false, false},
		{"null members", `{"name":"a","title":null,"description":null,"inputSchema":null,"annotations":null}`, false, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var in struct {
				Tools []gTool `json:"tools"`
			}
			if err := json.Unmarshal([]byte(`{"tools":[`+tc.in+`]}`), &in); err != nil {
				t.Fatal(err)
			}
			g := in.Tools[0]
			if g.Name != "a" || (g.InputSchema != nil) != tc.params || (g.Title != nil) != tc.title || (g.Description != nil) != tc.descrip {
				t.Fatalf("decoded %+v", g)
			}
		})
	}
}
