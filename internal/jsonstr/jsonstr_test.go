package jsonstr

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/internal/race"
)

// TestForms: EncodingJSON matches encoding/json (HTML escaping off) and
// Canonical differs from it only where RFC 8785 says.
func TestForms(t *testing.T) {
	for _, tt := range []struct {
		in, canonical string
	}{
		{"plain", `"plain"`},
		{"q\"b\\", `"q\"b\\"`},
		{"\b\f\n\r\t\x01\x1f", `"\b\f\n\r\t\u0001\u001f"`},
		{"<&>", `"<&>"`},
		{"é ✓ 😀", `"é ✓ 😀"`},
		{"a\u2028b\u2029", "\"a\u2028b\u2029\""},
		{"bad\xffbyte", "\"bad\ufffdbyte\""},
	} {
		if got := string(Append(nil, tt.in, Canonical)); got != tt.canonical {
			t.Errorf("Canonical(%q) = %s, want %s", tt.in, got, tt.canonical)
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(tt.in); err != nil {
			t.Fatal(err)
		}
		want := bytes.TrimSuffix(buf.Bytes(), []byte{'\n'})
		if got := Append(nil, tt.in, EncodingJSON); !bytes.Equal(got, want) {
			t.Errorf("EncodingJSON(%q) = %s, want %s", tt.in, got, want)
		}
	}
}

// TestAppendGrowsOnce: a string without escapes is written into a buffer
// allocated once, however long, instead of one grown as it is written.
func TestAppendGrowsOnce(t *testing.T) {
	if race.Enabled {
		t.Skip("the race detector's instrumentation allocates on its own: counted in the pass without -race")
	}
	long := strings.Repeat("a plain description of a tool, ", 200)
	for _, f := range []Form{Canonical, EncodingJSON} {
		if n := testing.AllocsPerRun(20, func() { Append(nil, long, f) }); n != 1 {
			t.Errorf("form %d: %v allocations, want 1", f, n)
		}
	}
}
