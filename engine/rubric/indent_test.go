package rubric

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// referenceIndent is what indentJSON wrote before it wrote JSON itself.
func referenceIndent(v any) (string, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(buf.String(), "\n"), nil
}

func decodeNumbers(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestIndentJSONMatchesEncodingJSON: indentJSON writes what encoding/json
// writes, byte for byte, for every corpus capture's definitions and parts
// (decoded as prompts see them), for strings that need escaping, and for
// values it leaves to encoding/json.
func TestIndentJSONMatchesEncodingJSON(t *testing.T) {
	var values []any
	for _, src := range []string{
		`null`, `true`, `false`, `""`, `0`, `-0`, `1.50`, `1e5`, `-2.5E-3`, `123456789012345678901234567890`,
		`[]`, `{}`, `[[]]`, `{"a":{}}`, `[{}, [], null]`,
		`{"b": 1, "a": [1, "x", {"z": null, "y": false}], "": "empty key"}`,
		`"<script>&amp;</script>"`, `"line\u2028sep\u2029para"`, `"tab\tnl\nquote\"back\\ctl\u0001\u001f"`,
		`{"k\"ey": "v", "<": ">", "é": "ü", "😀": "\ud83d\ude00"}`,
	} {
		values = append(values, decodeNumbers(t, []byte(src)))
	}
	// Strings a decoder cannot produce but a template may pass.
	values = append(values, "bad \xff utf-8", map[string]any{"\xfe": []any{"\xc3"}}, json.Number(""), json.Number("01"),
		[]any(nil), map[string]any(nil), 3, 2.5, []string{"typed"}, map[string]string{"b": "1", "a": "2"})
	files, err := filepath.Glob(filepath.Join("..", "score", "testdata", "corpus", "*.tools.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus captures: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc := decodeNumbers(t, b).(map[string]any)
		values = append(values, doc["server"])
		for _, tool := range doc["tools"].([]any) {
			values = append(values, tool)
			for _, part := range tool.(map[string]any) {
				values = append(values, part)
			}
		}
	}
	for _, v := range values {
		want, wantErr := referenceIndent(v)
		got, err := indentJSON(v)
		if (err != nil) != (wantErr != nil) || got != want {
			t.Fatalf("indentJSON(%#v) = %q, %v; encoding/json gives %q, %v", v, got, err, want, wantErr)
		}
	}
}

// TestFenceTagUnchanged: the fence's tag is the one it always was, the
// first 4 bytes of sha256(name NUL i NUL text) for the first i whose end
// line the text does not hold, so prompts (and their byte counts) do not
// move.
func TestFenceTagUnchanged(t *testing.T) {
	tagOf := func(name string, i int, text string) string {
		sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d\x00%s", name, i, text)))
		return hex.EncodeToString(sum[:4])
	}
	texts := []string{"", "plain", "[end description 00000000]", "multi\nline\n"}
	// A text found by brute force that holds the end line of a tag.
	forged, err := os.ReadFile("testdata/forged-fence.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range append(texts, string(forged)) {
		i := 0
		for strings.Contains(text, "[end description "+tagOf("description", i, text)+"]") {
			i++
		}
		tag := tagOf("description", i, text)
		want := fmt.Sprintf("[begin description %s]\n%s\n[end description %s]", tag, text, tag)
		got, err := Fence("description", text)
		if err != nil || got != want {
			t.Errorf("Fence(%q) = %q, %v; want %q", text, got, err, want)
		}
	}
}
