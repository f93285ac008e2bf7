package ask

import (
	"testing"

	"github.com/rubricmcp/rubric/engine/surface"
)

// TestInputHashIsPinned: the hash an answer is kept under, alone and
// beside a shared value, is what it has always been: the hash of the
// input's canonical JSON, or of {"input": input, "shared": hash}. The
// cache's keys are made of it, so it must never move.
func TestInputHashIsPinned(t *testing.T) {
	shared := NewShared([]byte(`{"names":["a","b"]}`))
	for _, tt := range []struct {
		input  string
		shared *Shared
		want   string
	}{
		{`{"tool":"a"}`, nil, surface.HashBytes([]byte(`{"tool":"a"}`))},
		{`{"tool":"a"}`, shared, surface.HashBytes([]byte(`{"input":{"tool":"a"},"shared":"` + shared.Hash + `"}`))},
		{`{"tool":"a"}`, shared, "sha256:c7e7049c15ffeab71d1a96d779f12f4c1150bff610818a523ad78498b34f1f94"},
		{``, shared, surface.HashBytes([]byte(`{"input":,"shared":"` + shared.Hash + `"}`))},
	} {
		if got := InputHash([]byte(tt.input), tt.shared); got != tt.want {
			t.Errorf("%q: %s, want %s", tt.input, got, tt.want)
		}
	}
}

// BenchmarkInputHash hashes a TDQS-sized input beside a shared value, as
// every tool's question of a TDQS run is hashed.
//
//	go test ./engine/ask -run '^$' -bench InputHash -benchmem
func BenchmarkInputHash(b *testing.B) {
	shared := NewShared([]byte(`{"names":["a","b"]}`))
	input := make([]byte, 2048)
	for i := range input {
		input[i] = 'a'
	}
	b.ReportAllocs()
	for b.Loop() {
		InputHash(input, shared)
	}
}
