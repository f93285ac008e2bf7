package lang

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types/ref"
)

// indexData is an object holding a map m of one entry, whose key is a
// string of n characters, and k, the same key as another string (so
// that a lookup hashes and compares all of it), under d.
func indexData(n int) map[string]any {
	key := strings.Repeat("k", n)
	other := strings.Clone(key)
	return map[string]any{"d": map[string]any{"m": map[string]any{key: 1.0}, "k": other}}
}

// trackedCost evaluates p on act under the tracker as the engine's
// tracked program does, with no limit: its value and the charge.
func trackedCost(p *Program, act any) (ref.Val, uint64, error) {
	prg, err := p.env.Program(p.checked, cel.CostTracking(callCosts{}))
	if err != nil {
		return nil, 0, err
	}
	out, det, err := prg.Eval(act)
	if err != nil {
		return out, 0, err
	}
	return out, *det.ActualCost(), nil
}

// BenchmarkMapIndexByKeyLength measures a lookup of a map by a key read
// from the data, untracked, with a key of one character and one of
// 100,000, and reports the time per unit the tracker charges it: the
// work of a lookup grows with its key (it is hashed and compared whole).
func BenchmarkMapIndexByKeyLength(b *testing.B) {
	e, err := NewEnv(Var{"d", Dyn})
	if err != nil {
		b.Fatal(err)
	}
	p, ds := e.Compile("d.m[d.k]", nil)
	if ds != nil {
		b.Fatal(ds)
	}
	fast, err := p.env.Program(p.checked, cel.EvalOptions(cel.OptOptimize))
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{1, 100_000} {
		act := Vars(indexData(n))
		_, charged, err := trackedCost(p, act)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("key=%d", n), func(b *testing.B) {
			for b.Loop() {
				if _, _, err := fast.Eval(act); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(charged), "ns/unit")
			b.ReportMetric(float64(charged), "units")
		})
	}
}
