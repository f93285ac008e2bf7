package jsonstr

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

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

// lenCases are strings at the edges of escaping, for Len.
var lenCases = []string{
	"", "plain", "q\"b\\", "\b\f\n\r\t\x01\x1f\x7f", "<&>", "é ✓ 😀", "a\u2028b\u2029", "bad\xffbyte", "\xc3", "\xe2\x80", "\xed\xa0\x80",
}

// TestLen: Len is the length Append writes, in both forms.
func TestLen(t *testing.T) {
	for _, s := range lenCases {
		checkLen(t, s)
	}
}

func checkLen(t *testing.T, s string) {
	t.Helper()
	for _, f := range []Form{Canonical, EncodingJSON} {
		if got, want := Len(s, f), len(Append(nil, s, f)); got != want {
			t.Errorf("Len(%q, %d) = %d, Append writes %d", s, f, got, want)
		}
	}
}

// FuzzLen: whatever the bytes, Len counts what Append writes.
func FuzzLen(f *testing.F) {
	for _, s := range lenCases {
		f.Add(s)
	}
	f.Fuzz(checkLen)
}

// TestSafeRun: the word-at-a-time step, over a string or bytes, stops
// where a byte-by-byte scan stops, for every byte value at every place
// in and around a word, from every start.
func TestSafeRun(t *testing.T) {
	byteWise := func(s string, i int) int {
		for i < len(s) && s[i] < utf8.RuneSelf && safeASCII[s[i]] {
			i++
		}
		return i
	}
	base := "abcdefghijklmnopqrst"
	for c := range 256 {
		for p := range len(base) {
			s := base[:p] + string([]byte{byte(c)}) + base[p+1:]
			for i := range len(s) + 1 {
				if got, want := SafeRun(s, i), byteWise(s, i); got != want {
					t.Fatalf("byte %#x at %d, from %d: stopped at %d, want %d", c, p, i, got, want)
				}
				if got, want := SafeRun([]byte(s), i), byteWise(s, i); got != want {
					t.Fatalf("byte %#x at %d, from %d: stopped at %d, want %d", c, p, i, got, want)
				}
			}
		}
	}
}

// BenchmarkAppend quotes a tool description as most are: plain ASCII
// text with a quoted word.
//
//	go test ./internal/jsonstr -run '^$' -bench Append
func BenchmarkAppend(b *testing.B) {
	s := strings.Repeat(`Search the user's notes by words and return the matching "notes", newest first. `, 4)
	buf := make([]byte, 0, 1024)
	for b.Loop() {
		buf = Append(buf[:0], s, EncodingJSON)
	}
}
