package surface

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// The parallel decode must agree with json.Unmarshal whenever it answers.
func TestDecodeSplitAgreesWithUnmarshal(t *testing.T) {
	tool := func(i int) string {
		return fmt.Sprintf(`{"name":"t%d","description":"a \"quoted\" ]} [{ text","inputSchema":{"type":"object","properties":{"p":{"enum":[1,2.5,-3e2,true,null]}}}}`, i)
	}
	many := func(n int) string {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = tool(i)
		}
		return strings.Join(parts, " ,\n ")
	}
	tests := []struct {
		name, doc string
		split     bool // whether the fast path should answer
	}{
		{"array", "[" + many(3) + "]", true},
		{"tools/list", `{"tools":[` + many(3) + `],"nextCursor":null}`, true},
		{"envelope", `{"jsonrpc":"2.0","id":1,"result":{"tools":[` + many(3) + `]}}`, true},
		{"capture", `{"server":{"name":"s","tools":"not these"},"tools":[` + many(3) + `]}`, true},
		{"empty", `{"tools":[]}`, true},
		{"duplicate tools", `{"tools":[` + many(2) + `],"tools":[]}`, false},
		{"tools and result", `{"tools":[` + many(2) + `],"result":{"tools":[]}}`, false},
		{"no tools", `{"server":{}}`, false},
		{"broken tool", `{"tools":[` + many(2) + `,{"name":}]}`, false},
		{"broken outside", `{"tools":[` + many(2) + `],"x":}`, false},
		{"truncated", `{"tools":[` + many(2), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := decodeSplit([]byte(tt.doc), 0)
			if ok != tt.split {
				t.Fatalf("split answered %v, want %v", ok, tt.split)
			}
			if !ok {
				return
			}
			var want any
			if err := json.Unmarshal([]byte(tt.doc), &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("split decode differs from json.Unmarshal")
			}
		})
	}
}

// FuzzDecodeSplit checks the same on any input.
func FuzzDecodeSplit(f *testing.F) {
	for _, s := range []string{`[{"name":"a"}]`, `{"tools":[{"name":"a"},{"name":"b"}]}`, `{"result":{"tools":[1,"x",[]]}}`, `{"a":"\"","tools":[{}]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, ok := decodeSplit(data, 0)
		if !ok {
			return
		}
		var want any
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("split accepted what json.Unmarshal refuses: %v", err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("split decode differs from json.Unmarshal")
		}
	})
}
