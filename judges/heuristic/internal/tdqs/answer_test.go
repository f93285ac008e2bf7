package tdqs

import (
	"bytes"
	"encoding/json"
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
