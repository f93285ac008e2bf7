package ask

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/internal/jsonscan"
)

// referenceDecode is what decodeJSON did before it read JSON itself.
func referenceDecode(b []byte) (any, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// TestDecodeJSONMatchesEncodingJSON: decodeJSON gives the values (and the
// errors) encoding/json gives, for the corpus captures as written and in
// canonical JSON, tool by tool, and for documents at the edges: escapes,
// bytes that are not UTF-8, white space, numbers, trailing data, broken
// JSON.
func TestDecodeJSONMatchesEncodingJSON(t *testing.T) {
	heavytest.Later(t)
	docs := []string{
		`null`, `true`, `false`, `0`, `-0`, `1.50`, `1e5`, `-2.5E-3`, `123456789012345678901234567890`,
		`""`, `[]`, `{}`, ` { "a" : [ 1 , 2 ] } `, `{"a":1,"a":2}`, `[[],{},[{}]]`,
		`"\u00e9\n\"\\\/"`, `"\ud83d\ude00"`, `"\ud83d"`, "\"bad \xff utf-8\"", "\"ctl \x01\"", `"é😀"`,
		`1 2`, `{} x`, `[1,]`, `{"a"}`, `{"a":}`, `-`, `01`, `1.`, `.5`, `1e`, `tru`, `nul`, ``, `[`, `{"a":1`, `"open`,
		strings.Repeat("[", 1500) + strings.Repeat("]", 1500), strings.Repeat("[", 20000) + strings.Repeat("]", 20000),
		`{"<":"&amp;"}`, `"\u00E9\u0000b"`, `"é \n\t\b\f\r"`, `"\x"`, `"\u12"`, `"\uZZZZ"`, `"\ude00"`, "\"\\n\xff\"",
	}
	files, err := filepath.Glob(filepath.Join("..", "score", "testdata", "corpus", "*.tools.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus captures: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(b))
		v, err := lang.FromJSON(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range v.(map[string]any)["tools"].([]any) {
			c, err := lang.MarshalCanonical(tool)
			if err != nil {
				t.Fatal(err)
			}
			docs = append(docs, string(c))
			// The engine's own canonical JSON is read by the scanner, not
			// handed on: that is what the scanner is for.
			if _, ok := jsonscan.Decode(c); !ok {
				t.Errorf("the scanner hands %s to encoding/json", c)
			}
		}
	}
	for _, doc := range docs {
		want, wantErr := referenceDecode([]byte(doc))
		got, err := decodeJSON([]byte(doc))
		if (err == nil) != (wantErr == nil) || (err != nil && err.Error() != wantErr.Error()) {
			t.Fatalf("decodeJSON(%q): error %v, encoding/json: %v", doc, err, wantErr)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("decodeJSON(%q) = %#v, encoding/json gives %#v", doc, got, want)
		}
	}
}
