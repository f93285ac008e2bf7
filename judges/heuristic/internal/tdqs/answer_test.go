package tdqs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
)

// TestAppendJSONAgreesWithEncodingJSON: a tool answer appended as JSON
// is byte for byte what encoding/json writes with HTML escaping off, as
// the judge wrote it before: for the answer about every corpus tool
// (with and without its siblings), and for answers whose text needs
// every kind of escape (quotes, backslashes, each control character,
// HTML's <, > and &, DEL, bytes that are not UTF-8, U+2028 and U+2029,
// letters past ASCII).
func TestAppendJSONAgreesWithEncodingJSON(t *testing.T) {
	var answers []toolAnswer
	for _, tools := range surfacetest.CorpusTools(t) {
		var names []string
		for _, tool := range tools {
			name, _ := tool["name"].(string)
			names = append(names, name)
		}
		for _, tool := range tools {
			for _, siblings := range [][]string{nil, names} {
				a, err := Tool(&ToolInput{Tool: tool, Siblings: siblings})
				if err != nil {
					continue
				}
				answers = append(answers, a.(toolAnswer))
			}
		}
	}
	if len(answers) < 100 {
		t.Fatalf("only %d corpus answers", len(answers))
	}
	var odd []string
	for c := range 0x20 {
		odd = append(odd, string(rune(c)))
	}
	odd = append(odd, `"quoted" \ back\slash`, "<b>&amp;</b>", "\x7f", "bad \xff \xfe\xfd byte", "\xe2\x80", "\u2028 and \u2029",
		"é ü 日本語 😀", "", "Heuristic: \"x\"\n\tend", "\u2027\u202a", "\xed\xa0\x80 surrogate bytes")
	for i, s := range odd {
		a := answers[i%len(answers)]
		a.Summary = s
		a.Scores.UsageGuidelines.Justification = s + s
		a.AnnotationContradiction = i%2 == 0
		answers = append(answers, a)
	}
	for _, a := range answers {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(a); err != nil {
			t.Fatal(err)
		}
		want := bytes.TrimRight(buf.Bytes(), "\n")
		if got := a.AppendJSON(nil); !bytes.Equal(got, want) {
			t.Errorf("AppendJSON = %s, want %s", got, want)
		}
	}
}

// TestDimFormatsAsFmt: a justification is "Heuristic: " and its format
// written with its arguments byte for byte as fmt writes them, for the
// verbs dim writes itself (%s of a string or bytes, %q of a string with
// every kind of escape, %d of negative and large ints, %%) and for what
// it leaves to fmt (a float, a width, a missing or an extra argument, a
// verb of the wrong type, a trailing %).
func TestDimFormatsAsFmt(t *testing.T) {
	for _, c := range []struct {
		format string
		args   []any
	}{
		{"plain text.", nil},
		{"%s; %s and %d%% of %d.", []any{"a", "b", -3, 1 << 40}},
		{"%q opens with %q.", []any{"say \"hi\"\n\t\\ é \x00 \xff", "✓"}},
		{"%s disclosing %s.", []any{"x", []byte("y, z")}},
		{"%.0f%% of them", []any{12.5}},
		{"%5s|%-3d|%+q", []any{"a", 1, "é"}},
		{"%s and %s", []any{"only one"}},
		{"%s", []any{"one", "extra"}},
		{"%d words", []any{"not an int"}},
		{"%q", []any{7}},
		{"%x", []any{"hex"}},
		{"ends in %", nil},
		{"%v", []any{true}},
	} {
		got := dim(3, c.format, c.args...).Justification
		if want := "Heuristic: " + fmt.Sprintf(c.format, c.args...); got != want {
			t.Errorf("dim(%q, %v) = %q, want %q", c.format, c.args, got, want)
		}
	}
}
