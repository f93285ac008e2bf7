package report

import (
	"encoding/json"
	"strings"
	"testing"
)

// compactCases are JSON values, and texts that are not, at the edges of
// what compactJSON reads.
var compactCases = []struct {
	text    string
	compact bool
}{
	{`null`, true}, {`true`, true}, {`false`, true}, {`0`, true}, {`-0.5e+10`, true}, {`12E-3`, true},
	{`""`, true}, {`"a \" \\ \/ \b \f \n \r \t \u00e9 \uD83D\uDE00"`, true}, {"\"é \u2028 <&> \xff\"", true},
	{`{}`, true}, {`[]`, true}, {`{"a":[1,{"b":null}],"c":"d"}`, true}, {`[[[[]]],{}]`, true},
	{strings.Repeat("[", 1000) + strings.Repeat("]", 1000), true},
	{strings.Repeat("[", 1002) + strings.Repeat("]", 1002), false}, // deeper than it follows: left to encoding/json
	{``, false}, {` 1`, false}, {`1 `, false}, {`[1, 2]`, false}, {`{"a": 1}`, false}, {"[\n]", false},
	{`01`, false}, {`-`, false}, {`1.`, false}, {`.5`, false}, {`1e`, false}, {`+1`, false}, {`NaN`, false},
	{`tru`, false}, {`truex`, false}, {`nul`, false}, {`"`, false}, {`"abc`, false}, {`"\x"`, false}, {`"\u12"`, false},
	{`"\u12G4"`, false}, {"\"tab\there\"", false}, {`[1,]`, false}, {`[,1]`, false}, {`{"a"}`, false},
	{`{"a":}`, false}, {`{a:1}`, false}, {`{"a":1,}`, false}, {`[1]]`, false}, {`{}{}`, false}, {`[`, false}, {`{`, false},
}

// TestCompactJSON: a value compactJSON takes is written by encoding/json
// as it is, so writing it as it is changes no byte of a report; one it
// refuses is left to encoding/json.
func TestCompactJSON(t *testing.T) {
	for _, tt := range compactCases {
		if got := compactJSON([]byte(tt.text)); got != tt.compact {
			t.Errorf("%.40q: compact %v, want %v", tt.text, got, tt.compact)
		}
		checkCompact(t, []byte(tt.text))
	}
}

// checkCompact fails when compactJSON takes b and encoding/json would
// not write b as it is.
func checkCompact(t *testing.T, b []byte) {
	t.Helper()
	if !compactJSON(b) {
		return
	}
	got, err := encode(json.RawMessage(b), "")
	if err != nil || string(got) != string(b) {
		t.Errorf("%.40q: taken as compact, but encoding/json writes %.40q (%v)", b, got, err)
	}
}

// FuzzCompactJSON: whatever the bytes, compactJSON takes only what
// encoding/json writes unchanged.
func FuzzCompactJSON(f *testing.F) {
	for _, tt := range compactCases {
		f.Add([]byte(tt.text))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkCompact(t, b) })
}
