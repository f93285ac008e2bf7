package lang

import (
	"math"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common"
)

// splitPieces estimates CEL's split (the strings extension) with one
// piece more than the extension does. The extension takes a string of n
// characters to split into at most n pieces, but one of n separators
// splits into n+1, and the empty string into one, itself: a macro over
// the split of an empty string was estimated at no iteration and ran
// one, so such a macro whose body scans the data inside a scan of it
// ran untracked at any cost (TestSplitEstimatedWithItsLastPiece). The tracker charges
// a split a unit, a tenth of a unit a character read (its target and
// one more), a unit a piece and a list's base cost; so does this, for
// at most n+1 pieces. After the extension, whose estimate it replaces.
func splitPieces() cel.EnvOption {
	return cel.CostEstimatorOptions(
		checker.OverloadCostEstimate("string_split_string", estimateSplit),
		checker.OverloadCostEstimate("string_split_string_int", estimateSplit))
}

// estimateSplit is the estimate of a split of target (see splitPieces).
func estimateSplit(estimator checker.CostEstimator, target *checker.AstNode, _ []checker.AstNode) *checker.CallEstimate {
	if target == nil {
		return nil
	}
	n := uint64(math.MaxUint64)
	if sz := (*target).ComputedSize(); sz != nil {
		n = sz.Max
	} else if sz := estimator.EstimateSize(*target); sz != nil {
		n = sz.Max
	}
	if n >= math.MaxUint64/2 {
		return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: math.MaxUint64}}
	}
	pieces := n + 1
	read := uint64(math.Ceil(float64(n+1) * common.StringTraversalCostFactor))
	return &checker.CallEstimate{
		CostEstimate: checker.CostEstimate{Min: 1, Max: 1 + read + pieces + common.ListCreateBaseCost},
		ResultSize:   &checker.SizeEstimate{Min: 1, Max: pieces},
	}
}
