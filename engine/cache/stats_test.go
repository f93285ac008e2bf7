package cache

import (
	"strings"
	"testing"
)

// TestStatsWrite: the counts as rubric cache stats and clear print them,
// the size in binary units.
func TestStatsWrite(t *testing.T) {
	st := Stats{Dir: "/c", Answers: 3, Prompts: 1, Bytes: 2048}
	for _, tc := range []struct {
		name  string
		write func(*strings.Builder) error
		want  string
	}{
		{"text", func(b *strings.Builder) error { return st.Write(b, false) }, "cache:   /c\nanswers: 3\nprompts: 1\nsize:    2 KiB (2048 bytes)\n"},
		{"json", func(b *strings.Builder) error { return st.Write(b, true) }, "{\n  \"dir\": \"/c\",\n  \"answers\": 3,\n  \"prompts\": 1,\n  \"bytes\": 2048\n}\n"},
		{"removed", func(b *strings.Builder) error { return st.WriteRemoved(b) }, "removed 3 answers and 1 prompt, 2 KiB (2048 bytes), from /c\n"},
		{"removed one", func(b *strings.Builder) error { return Stats{Dir: "/c", Answers: 1, Bytes: 8}.WriteRemoved(b) }, "removed 1 answer and 0 prompts, 8 bytes, from /c\n"},
	} {
		var b strings.Builder
		if err := tc.write(&b); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("%s:\n%q\nwant\n%q", tc.name, b.String(), tc.want)
		}
	}
}
