package ask

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// readTwice is how an answer was read before it was read once: decoded
// for the formulas, decoded again to be validated, then written out.
func readTwice(q *rubric.Question, text []byte) (json.RawMessage, error) {
	text = unfence(text)
	if len(bytes.TrimSpace(text)) == 0 {
		return nil, errEmptyAnswer
	}
	v, err := lang.FromJSON(text)
	if err != nil {
		return nil, fmt.Errorf("the answer is not JSON: %v (it begins %q)", err, prefix(text, 80))
	}
	if err := q.Validate(text); err != nil {
		return nil, err
	}
	return lang.MarshalCanonical(v)
}

// TestReadAnswerReadsOnce: readAnswer reads plain JSON once for both the
// schema and the formulas, and gives the bytes and the errors the two
// reads gave, for answers that pass, answers the schema refuses, text
// that is not JSON and JSON jsonscan leaves to encoding/json; and the
// value it hands on is what decoding the bytes it gives reads, numbers
// that the bytes write as integers (3.0, 1e3, -0.0) included.
func TestReadAnswerReadsOnce(t *testing.T) {
	r, err := rubric.Load("answers.hcl", []byte(`
rubric "answers" {
  version = "1"
  grades  = { A = 0 }
  question "q" {
    kind    = "test.q"
    per     = "tool"
    input   = "{'name': tool.name}"
    system  = "Answer."
    user    = "{{ .name }}"
    answer_schema = <<-JSON
      {"type": "object", "required": ["n", "why"],
       "properties": {"n": {"type": "integer", "minimum": 1, "maximum": 5}, "why": {"type": "string"},
                      "w": {"type": "number"}, "tags": {"type": "array", "items": {"type": "string"}},
                      "nums": {"type": "array"}, "m": {"type": "object"}}}
    JSON
  }
  tool {
    score = "answers.q.n"
  }
  surface {
    score = "sum(tools.map(t, t.score))"
  }
}
`))
	if err != nil {
		t.Fatal(err)
	}
	q := r.Questions[0]
	for _, text := range []string{
		`{"n": 3, "why": "clear"}`,
		`{"why": "a \"quoted\" reason\nover two lines", "n": 5, "tags": ["a", "b"], "w": 0.25}`,
		"```json\n{\"n\": 1, \"why\": \"fenced\"}\n```",
		`{"n": 2, "why": "exponent", "w": 1e3}`,
		`{"n": 2, "why": "big", "w": 123456789012345678901234567890}`,
		`{"n": 2, "why": "surrogate \ud83d\ude00"}`,
		`{"n": 2, "why": "integral", "w": 3.0}`,
		`{"n": 2, "why": "negative zero", "w": -0.0, "tags": ["x"]}`,
		`{"n": 2, "why": "first", "why": "twice"}`,
		`{"n": 2, "why": "nested", "w": 2.50, "tags": []}`,
		`{"n": 2, "why": "listed", "nums": [1, [2.0]]}`,
		`{"n": 2, "why": "deep", "nums": [3.0, 1, 2.5, [1e2, {"k": 7.0}]], "m": {"a": 4.0, "b": {"c": -0.0, "d": [0.5]}}}`,
		`{"n": 7, "why": "out of range"}`,
		`{"n": 2}`,
		`{"n": "2", "why": "a string"}`,
		`{"n": 2, "why": "x"} trailing`,
		`not json at all`,
		``,
	} {
		want, wantErr := readTwice(q, []byte(text))
		if _, _, err := readAnswer(q, []byte(text)); text == "" && fmt.Sprint(err) != "the answer is empty: the judge gave no text" {
			t.Errorf("an empty answer: %v", err)
		}
		got, value, gotErr := readAnswer(q, []byte(text))
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) || string(got) != string(want) {
			t.Errorf("%q: read once gives %s, %v; read twice gave %s, %v", text, got, gotErr, want, wantErr)
		}
		if gotErr != nil {
			continue
		}
		decoded, err := lang.FromJSON(got)
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if !reflect.DeepEqual(value, decoded) {
			t.Errorf("%q: hands on %#v, but its bytes %s read %#v", text, value, got, decoded)
		}
	}
}
