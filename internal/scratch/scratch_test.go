package scratch

import (
	"errors"
	"strings"
	"testing"
	"unsafe"
)

// TestBytes: the copy is what fill wrote, at its exact length, and stays
// so when the buffer is reused; an error comes back with nil.
func TestBytes(t *testing.T) {
	for _, tt := range []struct {
		name string
		text string
		err  error
	}{
		{"empty", "", nil},
		{"short", `{"a":1}`, nil},
		{"longer than the first buffer", strings.Repeat("x", 10000), nil},
		{"larger than what is kept", strings.Repeat("y", keep+1), nil},
		{"error", "partial", errors.New("bad value")},
	} {
		fill := func(dst []byte) ([]byte, error) { return append(dst, tt.text...), tt.err }
		got, err := Bytes(fill)
		str, serr := String(fill)
		if err != tt.err || serr != tt.err {
			t.Fatalf("%s: errors %v and %v, want %v", tt.name, err, serr, tt.err)
		}
		if tt.err != nil {
			if got != nil || str != "" {
				t.Errorf("%s: got %q and %q with an error, want nil and \"\"", tt.name, got, str)
			}
			continue
		}
		if str != tt.text {
			t.Errorf("%s: String gave %d bytes, want %d", tt.name, len(str), len(tt.text))
		}
		if string(got) != tt.text || cap(got) != len(tt.text) {
			t.Errorf("%s: got %d bytes (cap %d), want %d exactly", tt.name, len(got), cap(got), len(tt.text))
		}
		// Reusing the buffer must not change what was handed out.
		if _, err := Bytes(func(dst []byte) ([]byte, error) { return append(dst, strings.Repeat("z", len(tt.text))...), nil }); err != nil {
			t.Fatal(err)
		}
		if string(got) != tt.text {
			t.Errorf("%s: the copy changed when the buffer was reused", tt.name)
		}
	}
}

// TestLargeIsNotCopied: a document larger than the buffers kept is
// handed out in the buffer fill grew, which is not reused, not in a
// copy; a smaller one is a copy, and the buffer goes back for reuse.
func TestLargeIsNotCopied(t *testing.T) {
	for _, tt := range []struct {
		name   string
		n      int
		shared bool
	}{
		{"small", 100, false},
		{"kept", keep / 2, false},
		{"larger than what is kept", keep + 1, true},
	} {
		var grown []byte
		fill := func(dst []byte) ([]byte, error) {
			grown = append(dst, strings.Repeat("x", tt.n)...)
			return grown, nil
		}
		b, err := Bytes(fill)
		if err != nil {
			t.Fatal(err)
		}
		if shared := &b[0] == &grown[0]; shared != tt.shared || len(b) != tt.n || cap(b) != tt.n {
			t.Errorf("%s: Bytes shares the buffer %v (want %v), len %d cap %d", tt.name, shared, tt.shared, len(b), cap(b))
		}
		s, err := String(fill)
		if err != nil {
			t.Fatal(err)
		}
		if shared := unsafe.StringData(s) == &grown[0]; shared != tt.shared || s != strings.Repeat("x", tt.n) {
			t.Errorf("%s: String shares the buffer %v, want %v", tt.name, shared, tt.shared)
		}
	}
}
