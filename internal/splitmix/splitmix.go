// Package splitmix is the SplitMix64 generator: a sequence its seed fixes
// on every platform and Go version, which a record that must recompute to
// the same bytes needs (math/rand/v2 keeps the right to change how it
// reduces to a range). Calibration's bootstrap and the heuristic judge's
// agreement tests draw from it.
package splitmix

// Source is a SplitMix64 generator; its zero value is the one seeded 0.
// It is not safe for concurrent use.
type Source struct{ state uint64 }

// New returns the generator seeded with seed.
func New(seed uint64) *Source { return &Source{state: seed} }

// Uint64 is the next number of the sequence.
func (s *Source) Uint64() uint64 {
	s.state += 0x9e3779b97f4a7c15
	z := s.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// IntN is a number in [0, n) for n > 0; the modulo bias is below 1e-15 for
// the sample sizes calibration sees.
func (s *Source) IntN(n int) int { return int(s.Uint64() % uint64(n)) }
