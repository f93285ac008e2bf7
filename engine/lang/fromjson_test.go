package lang

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"testing"

	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
)

// referenceFromJSON is FromJSON as it was before plain JSON was read by
// jsonscan.
func referenceFromJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return exactNumbers(v)
}

// TestFromJSONUnchanged: FromJSON gives the values and errors it gave
// through encoding/json alone, for the corpus captures and their tools in
// canonical JSON, answers as judges write them, and broken documents.
func TestFromJSONUnchanged(t *testing.T) {
	docs := []string{
		`{"score": 4, "justification": "ok"}`, "```json\n{}\n```", `{"a": 1.25, "b": -3, "c": 1e400, "d": 12345678901234567890}`,
		`1 ]`, `1 2`, `{} x`, `[1,]`, ``, `"\ud83d\ude00"`, "\"\xff\"", ` [ {"x": null} ] `,
	}
	for _, f := range surfacetest.CorpusFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, string(b))
		v, err := referenceFromJSON(b)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range v.(map[string]any)["tools"].([]any) {
			c, err := MarshalCanonical(tool)
			if err != nil {
				t.Fatal(err)
			}
			docs = append(docs, string(c))
		}
	}
	for _, doc := range docs {
		want, wantErr := referenceFromJSON([]byte(doc))
		got, err := FromJSON([]byte(doc))
		if fmt.Sprint(err) != fmt.Sprint(wantErr) || !reflect.DeepEqual(got, want) {
			t.Fatalf("FromJSON(%.60q) = %#v, %v; before: %#v, %v", doc, got, err, want, wantErr)
		}
	}
}
