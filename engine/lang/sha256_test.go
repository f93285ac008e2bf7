package lang

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/internal/race"
)

// allocsCounted reports whether allocation counts mean what these tests
// say of them: under the race detector sync.Pool drops what is put back
// at random, so a path that reuses pooled scratch allocates now and then
// (TestFindFoldedASCII counted 6 against 5 under -race at load).
// make test's race pass skips the counts; its heavy pass, without
// -race, runs each test that counts (HEAVY_TESTS names them, which
// internal/heavytest checks), and counts.
func allocsCounted() bool { return !race.Enabled }

// TestSHA256Hex: the hex digest of the text's bytes, for empty, short and
// long texts, allocating the digest alone (not a copy of the text).
func TestSHA256Hex(t *testing.T) {
	for _, s := range []string{"", "abc", "é\x00", strings.Repeat(`{"name":"x"}`, 1000)} {
		sum := sha256.Sum256([]byte(s))
		if got, want := sha256Hex(s), hex.EncodeToString(sum[:]); got != want {
			t.Errorf("sha256Hex(%.20q) = %s, want %s", s, got, want)
		}
	}
	long := strings.Repeat("x", 64<<10)
	if !allocsCounted() {
		return
	}
	if n := testing.AllocsPerRun(20, func() { sha256Hex(long) }); n > 1 {
		t.Errorf("sha256Hex allocates %v times, want once (the digest)", n)
	}
}

// BenchmarkSHA256Hex hashes a definition-sized text (as a signal that
// hashes each tool's canonical JSON does).
func BenchmarkSHA256Hex(b *testing.B) {
	s := strings.Repeat(`{"name":"x","description":"a tool"}`, 45)
	b.ReportAllocs()
	for b.Loop() {
		sha256Hex(s)
	}
}
