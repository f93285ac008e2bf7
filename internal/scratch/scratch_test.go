package scratch

import (
	"errors"
	"strings"
	"testing"
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
