package surface

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// alreadyCases are tool texts, each marked with whether the check must
// take it as canonical; any it takes must be exactly what Canonical
// writes of it.
var alreadyCases = []struct {
	text string
	want bool
}{
	{`{"name":"a"}`, true},
	{`{"description":"x","inputSchema":{"properties":{"p":{"enum":[1,-2,2.5,1e+21,1e-7,true,false,null],"type":"string"}},"type":"object"},"name":"a"}`, true},
	{`{"description":"line\nbreak \"quoted\" \\ tab\t \u001f","name":"a"}`, true},
	{`{"description":"é ☃ 😀 <&> ` + "\u2028" + `","name":"a"}`, true},
	{`{"a":{},"b":[],"name":"a"}`, true},
	{`{"name":"a","rubric/server":"web"}`, true},
	{`{"name":"a","x":123456789012345}`, true},
	{`{"name":"a","x":1234567890123456789}`, false}, // written 1234567890123456800
	{`{"name":"a","x":1.0}`, false},
	{`{"name":"a","x":1E2}`, false},
	{`{"name":"a","x":-0}`, false},
	{`{"name":"a","x":0.1}`, true},
	{`{"name":"a","x":-0.5}`, true},
	{`{"name":"a","x":1e-06}`, false},
	{`{"name":"a","x":0.000001}`, true},
	{`{"name":"a", "x":1}`, false},
	{`{"x":1,"name":"a"}`, false},
	{`{"name":"a","name":"b"}`, false},
	{`{"description":"\u003c","name":"a"}`, false},
	{`{"description":"\/","name":"a"}`, false},
	{`{"description":"\ud83d\ude00","name":"a"}`, false},
	{"{\"description\":\"caf\xe9\",\"name\":\"a\"}", false},
	{`{"n\u0061me":"a"}`, false},
	{`{"name":""}`, false},
	{`{"name":7}`, false},
	{`{"description":"no name"}`, false},
	{`["name","a"]`, false},
	{`{"name":"a"`, false},
	{`{"name":"a"}x`, false},
	{`{"name":"a","x":` + strings.Repeat("[", MaxDepth-1) + strings.Repeat("]", MaxDepth-1) + `}`, true},
	{`{"name":"a","x":` + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + `}`, false},
}

// agreesCanonical fails t when the check takes text as canonical and it
// is not, or names it otherwise than its name member.
func agreesCanonical(t *testing.T, c *canonicalCheck, text []byte) bool {
	t.Helper()
	name, server, ok := c.alreadyCanonical(text)
	if !ok {
		return false
	}
	var v map[string]any
	if err := json.Unmarshal(text, &v); err != nil {
		t.Fatalf("%s taken as canonical, but encoding/json: %v", text, err)
	}
	if got := Canonical(v); !bytes.Equal(got, text) {
		t.Fatalf("%s taken as canonical, but Canonical writes %s", text, got)
	}
	if depth(v, MaxDepth+1) > MaxDepth {
		t.Fatalf("%.80s taken, but nests past MaxDepth", text)
	}
	if n, _ := v["name"].(string); n != name || n == "" {
		t.Fatalf("%s: name %q, want %q", text, name, n)
	}
	if s, has := v[ServerKey].(string); has != (server != nil) || (has && *server != s) {
		t.Fatalf("%s: server %v, want %q", text, server, s)
	}
	return true
}

func TestAlreadyCanonical(t *testing.T) {
	var c canonicalCheck
	for _, tt := range alreadyCases {
		if got := agreesCanonical(t, &c, []byte(tt.text)); got != tt.want {
			t.Errorf("%.100s: taken as canonical %v, want %v", tt.text, got, tt.want)
		}
	}
}

// TestAlreadyCanonicalTakesWhatRubricWrites: every tool of a surface
// rubric wrote (the corpus, written back) is taken as it stands.
func TestAlreadyCanonicalTakesWhatRubricWrites(t *testing.T) {
	var c canonicalCheck
	n := 0
	for _, f := range captures() {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := mustParse(t, string(b))
		for _, tool := range s.Tools {
			if s.Format != FormatRegistry && !agreesCanonical(t, &c, tool.Canonical) {
				t.Errorf("%s: tool %q not taken: %.100s", f, tool.Name, tool.Canonical)
			}
			n++
		}
	}
	if n < 100 {
		t.Fatalf("only %d tools", n)
	}
}

// FuzzAlreadyCanonical: whatever the check takes as canonical is.
func FuzzAlreadyCanonical(f *testing.F) {
	for _, c := range alreadyCases {
		f.Add([]byte(c.text))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		agreesCanonical(t, &canonicalCheck{}, text)
	})
}
