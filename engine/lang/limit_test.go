package lang

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
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

// TestNativeShared: a value holding one long string many times (each
// finding carries the text it was found in) is held once in memory, and
// NativeShared counts it once; Native, for values written out whole,
// counts every copy. A value whose distinct strings are too large is
// refused by both.
func TestNativeShared(t *testing.T) {
	text := strings.Repeat("x", 8<<20)
	// Maps a formula built, as {'text': t.text, 'start': m.start} does.
	var sameVals, distinctVals []ref.Val
	for i := range 20 {
		sameVals = append(sameVals, types.NewRefValMap(Adapter, map[ref.Val]ref.Val{types.String("text"): types.String(text), types.String("start"): types.Int(i)}))
		distinctVals = append(distinctVals, types.NewRefValMap(Adapter, map[ref.Val]ref.Val{types.String("text"): types.String(text + strconv.Itoa(i))}))
	}
	same, distinct := types.NewRefValList(Adapter, sameVals), types.NewRefValList(Adapter, distinctVals)
	if _, err := Native(same); !errors.As(err, &ValueTooLargeError{}) {
		t.Errorf("Native of twenty copies of 8 MiB: %v, want ValueTooLargeError", err)
	}
	v, err := NativeShared(same)
	if err != nil {
		t.Fatalf("NativeShared of twenty copies of 8 MiB: %v", err)
	}
	if l := v.([]any); len(l) != 20 || l[19].(map[string]any)["text"] != text {
		t.Errorf("NativeShared changed the value")
	}
	if _, err := NativeShared(distinct); !errors.As(err, &ValueTooLargeError{}) {
		t.Errorf("NativeShared of twenty distinct 8 MiB strings: %v, want ValueTooLargeError", err)
	}
	// Two long strings, each many times: the first one counted and the
	// others are kept apart, and each is counted once.
	other := strings.Repeat("y", 8<<20)
	var twoVals []ref.Val
	for i := range 20 {
		twoVals = append(twoVals, types.String(text), types.String(other), types.Int(i))
	}
	if _, err := NativeShared(types.NewRefValList(Adapter, twoVals)); err != nil {
		t.Errorf("NativeShared of twenty copies each of two 8 MiB strings: %v", err)
	}
}
