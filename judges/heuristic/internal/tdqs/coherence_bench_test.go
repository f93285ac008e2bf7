package tdqs

import (
	"fmt"
	"testing"
)

// BenchmarkCoherence answers a coherence question over the corpus tools
// repeated with numbered names (as bench/gen makes them): many copies of
// each description, so many look-alike pairs.
func BenchmarkCoherence(b *testing.B) {
	pool := corpusTools(b)
	for _, n := range []int{1000, 5000, 20000} {
		in := &CoherenceInput{Server: "bench", ToolCount: n}
		for i := range n {
			t := pool[i%len(pool)]
			if copy := i / len(pool); copy > 0 {
				t.Name = fmt.Sprintf("%s_%d", t.Name, copy)
			}
			in.Tools = append(in.Tools, t)
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				scoreCoherence(in)
			}
		})
	}
}
