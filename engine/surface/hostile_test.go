package surface

import (
	"errors"
	"strings"
	"testing"
)

// nested is a tool whose inputSchema nests n levels of properties.
func nested(n int) string {
	return `{"tools":[{"name":"deep","inputSchema":` + strings.Repeat(`{"properties":{"a":`, n) + `{}` + strings.Repeat(`}}`, n) + `}]}`
}

func TestHostileDefinitions(t *testing.T) {
	million := strings.Repeat("9", 1_000_000)
	tests := []struct {
		name string
		data string
		want string // the whole error; "" = accepted
	}{
		{"a schema nested 2,000 deep", nested(2000), `t.json: $.tools[0]: tool "deep" nests more than 64 levels deep; rubric reads definitions up to 64 levels (the deepest published ones nest about 20)`},
		{"at the depth bound", nested(31), ""},
		{"just past the depth bound", nested(32), `t.json: $.tools[0]: tool "deep" nests more than 64 levels deep; rubric reads definitions up to 64 levels (the deepest published ones nest about 20)`},
		{"1e400", `{"tools":[{"name":"a","inputSchema":{"maximum":1e400}}]}`, "t.json:1:48: the number 1e400 is too large to read: rubric reads numbers up to about 1.8e308"},
		{"a million digits", `{"tools":[{"name":"a","inputSchema":{"maximum":` + million + `}}]}`, "t.json:1:48: the number " + million[:48] + "… (1000000 bytes) is too large to read: rubric reads numbers up to about 1.8e308"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("t.json", []byte(tc.data))
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var se *Error
			if !errors.As(err, &se) || err.Error() != tc.want {
				t.Fatalf("error:\n got %.300v\nwant %s", err, tc.want)
			}
		})
	}
}
