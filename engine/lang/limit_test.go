package lang

import (
	"math"
	"testing"
)

// TestLimitFor: a formula's cost limit stays its own until the data's
// length at CostPerByte a byte passes it, then grows with the length in
// powers of two (a few copies of a formula a run), never below what the
// length asks for.
func TestLimitFor(t *testing.T) {
	tests := []struct {
		base, n, want uint64
	}{
		{CostLimit, 0, CostLimit},
		{CostLimit, 2_000, CostLimit},
		{CostLimit, CostLimit / CostPerByte, CostLimit},
		{CostLimit, CostLimit/CostPerByte + 1, CostLimit + 1<<20},
		{CostLimit, 600_000, CostLimit + 1<<26},
		{CostLimit, 64 << 20, CostLimit + 64<<26},
		{CostLimit + 5*CostPerItem, 600_000, CostLimit + 5*CostPerItem + 1<<26},
		{CostLimit, math.MaxUint64 / 2, math.MaxUint64},
	}
	for _, tt := range tests {
		got := LimitFor(tt.base, tt.n)
		if got != tt.want {
			t.Errorf("LimitFor(%d, %d) = %d, want %d", tt.base, tt.n, got, tt.want)
		}
		if tt.n < math.MaxUint64/CostPerByte && got < tt.n*CostPerByte {
			t.Errorf("LimitFor(%d, %d) = %d, below CostPerByte a byte", tt.base, tt.n, got)
		}
	}
}
