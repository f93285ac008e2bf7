package rubric

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/rubricmcp/rubric/internal/jsonscan"
)

// compileSchema compiles a schema as the loader does, with its shape.
func compileSchema(t testing.TB, src string) (*jsonschema.Schema, *answerShape) {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(src))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("test.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("test.json")
	if err != nil {
		t.Fatal(err)
	}
	return s, newAnswerShape(doc)
}

// TestAnswerShapeAgreesWithTheValidator: for each schema, whether it has a
// shape, and for each answer whether the shape accepts it. An answer the
// shape accepts is one the validator accepts; one it leaves to the
// validator is either refused by it or written in a way the shape does not
// vouch for (an integer written 1.0).
func TestAnswerShapeAgreesWithTheValidator(t *testing.T) {
	const rated = `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "additionalProperties": false,
		"required": ["scores", "flag", "summary"],
		"properties": {"scores": {"type": "object", "additionalProperties": false, "required": ["a"],
			"properties": {"a": {"$ref": "#/$defs/rated"}, "b": {"$ref": "#/$defs/rated"}}},
			"flag": {"type": "boolean"}, "summary": {"type": "string", "description": "two sentences"}},
		"$defs": {"rated": {"type": "object", "additionalProperties": false, "required": ["score", "justification"],
			"properties": {"score": {"type": "integer", "minimum": 1, "maximum": 5}, "justification": {"type": "string"}}}}}`
	const listed = `{"type": "object", "properties": {
		"names": {"type": "array", "items": {"type": "string", "minLength": 2}, "uniqueItems": true},
		"level": {"enum": ["low", "high"]}, "n": {"type": ["number", "null"], "minimum": -3},
		"rest": {"type": "object", "additionalProperties": {"type": "integer"}}}}`
	for _, tt := range []struct {
		name, schema string
		shaped       bool
		answers      map[string]bool // answer: accepted by the shape
	}{
		{"rated", rated, true, map[string]bool{
			`{"scores": {"a": {"score": 3, "justification": "ok"}}, "flag": false, "summary": "s"}`:                                       true,
			`{"scores": {"a": {"score": 5, "justification": ""}, "b": {"score": 1, "justification": "x"}}, "flag": true, "summary": "é"}`: true,
			`{"scores": {"a": {"score": 3.0, "justification": "ok"}}, "flag": false, "summary": "s"}`:                                     false,
			`{"scores": {"a": {"score": 3e0, "justification": "ok"}}, "flag": false, "summary": "s"}`:                                     false,
			`{"scores": {"a": {"score": 6, "justification": "ok"}}, "flag": false, "summary": "s"}`:                                       false,
			`{"scores": {"a": {"score": 0, "justification": "ok"}}, "flag": false, "summary": "s"}`:                                       false,
			`{"scores": {"a": {"score": 3.5, "justification": "ok"}}, "flag": false, "summary": "s"}`:                                     false,
			`{"scores": {"a": {"score": "3", "justification": "ok"}}, "flag": false, "summary": "s"}`:                                     false,
			`{"scores": {"a": {"score": 3}}, "flag": false, "summary": "s"}`:                                                              false,
			`{"scores": {"a": {"score": 3, "justification": "ok", "more": 1}}, "flag": false, "summary": "s"}`:                            false,
			`{"scores": {"a": {"score": 3, "justification": "ok"}}, "flag": false, "summary": "s", "extra": null}`:                        false,
			`{"scores": {"a": {"score": 3, "justification": "ok"}}, "flag": "no", "summary": "s"}`:                                        false,
			`{"scores": {"a": {"score": 3, "justification": "ok"}}, "flag": null, "summary": "s"}`:                                        false,
			`{"scores": {}, "flag": false, "summary": "s"}`:                                                                               false,
			`{"scores": {"a": {"score": 99999999999999999999, "justification": "ok"}}, "flag": false, "summary": "s"}`:                    false,
			`[]`:   false,
			`null`: false,
		}},
		{"listed", listed, true, map[string]bool{
			`{}`: true,
			`{"names": ["ab", "cd"], "level": "low", "n": 2, "rest": {"x": 1, "y": -2}}`: true,
			`{"n": null, "other": [1, "x"]}`:                                             true,
			`{"n": -3}`:                                                                  true,
			`{"n": -4}`:                                                                  false,
			`{"n": -2.5}`:                                                                false,
			`{"n": 2.5}`:                                                                 false, // left to the validator
			`{"names": ["ab", "ab"]}`:                                                    false,
			`{"names": ["a"]}`:                                                           false,
			`{"names": ["éé"]}`:                                                          true,
			`{"names": [1]}`:                                                             false,
			`{"level": "mid"}`:                                                           false,
			`{"level": 1}`:                                                               false,
			`{"rest": {"x": "1"}}`:                                                       false,
			`{"rest": {"x": 1.5}}`:                                                       false,
			`"text"`:                                                                     false,
		}},
		{"no type at the top", `{"properties": {"a": {"type": "string"}}}`, true, map[string]bool{
			`"any"`: true, `3`: true, `{"a": "x"}`: true, `{"a": 3}`: false,
		}},
		{"another draft", `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"}`, false, nil},
		{"a keyword beyond", `{"type": "object", "properties": {"a": {"type": "string", "pattern": "^x"}}}`, false, nil},
		{"boolean subschema", `{"type": "object", "properties": {"a": true}}`, false, nil},
		{"enum of numbers", `{"enum": [1, 2]}`, false, nil},
		{"minimum written 1.0", `{"type": "integer", "minimum": 1.0}`, false, nil},
		{"a $ref elsewhere", `{"$ref": "#/properties/a", "properties": {"a": {"type": "string"}}}`, false, nil},
		{"nested $defs", `{"type": "object", "properties": {"a": {"$defs": {"x": {"type": "string"}}}}}`, false, nil},
	} {
		schema, shape := compileSchema(t, tt.schema)
		if (shape != nil) != tt.shaped {
			t.Errorf("%s: shaped %v, want %v", tt.name, shape != nil, tt.shaped)
			continue
		}
		for answer, want := range tt.answers {
			v, ok := jsonscan.Decode([]byte(answer))
			if !ok {
				t.Fatalf("%s: %s is not plain JSON", tt.name, answer)
			}
			got := shape.accepts(v)
			if got != want {
				t.Errorf("%s: shape accepts %s: %v, want %v", tt.name, answer, got, want)
			}
			if err := schema.Validate(v); got && err != nil {
				t.Errorf("%s: shape accepts %s, which the validator refuses: %v", tt.name, answer, err)
			}
		}
	}
}

// FuzzAnswerShapeNeverAcceptsMore holds the shape's one promise on
// answers nobody wrote down: whatever plain JSON the shape of a built-in
// rubric's answer schema (or of the test's own, which use every keyword a
// shape holds) accepts, the schema validator accepts too. Before it
// fuzzes, it fails unless every answer schema of the built-in rubrics has
// a shape, so that their answers are checked without the validator's
// machinery.
func FuzzAnswerShapeNeverAcceptsMore(f *testing.F) {
	type pair struct {
		schema *jsonschema.Schema
		shape  *answerShape
	}
	var pairs []pair
	files, err := filepath.Glob("../../rubrics/*.hcl")
	if err != nil || len(files) == 0 {
		f.Fatalf("no built-in rubrics: %v", err)
	}
	for _, file := range files {
		r, err := LoadFile(file)
		if err != nil {
			f.Fatalf("%s: %v", file, err)
		}
		for _, q := range r.Questions {
			if q.shape == nil {
				f.Fatalf("%s: question %q: its answer schema has no shape", filepath.Base(file), q.Name)
			}
			pairs = append(pairs, pair{q.schema, q.shape})
		}
	}
	for _, src := range []string{
		`{"type": "object", "additionalProperties": false, "required": ["s"], "properties": {"s": {"$ref": "#/$defs/r"}},
		  "$defs": {"r": {"type": "integer", "minimum": 1, "maximum": 5}}}`,
		`{"type": "object", "properties": {"names": {"type": "array", "items": {"type": "string", "minLength": 2}, "uniqueItems": true},
		  "level": {"enum": ["low", "high"]}, "n": {"type": ["number", "null"], "minimum": -3},
		  "rest": {"type": "object", "additionalProperties": {"type": "integer"}}}}`,
	} {
		schema, shape := compileSchema(f, src)
		pairs = append(pairs, pair{schema, shape})
	}
	for _, seed := range []string{
		`{"s": 3}`, `{"s": 3.0}`, `{"s": 6}`, `{"names": ["ab", "ab"]}`, `{"names": ["é"]}`, `{"n": null, "level": "low"}`,
		`{"rest": {"x": 1e0}}`, `{"scores": {"purpose_clarity": {"score": 4, "justification": "j"}}}`, `[]`, `"x"`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, answer string) {
		v, ok := jsonscan.Decode([]byte(answer))
		if !ok {
			return
		}
		for i, p := range pairs {
			if p.shape.accepts(v) {
				if err := p.schema.Validate(v); err != nil {
					t.Errorf("schema %d: the shape accepts %s, which the validator refuses: %v", i, answer, err)
				}
			}
		}
	})
}
