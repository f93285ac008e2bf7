package lang

import (
	"math"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	"github.com/google/cel-go/common"
)

// sortSizes replaces the list extension's estimate of l.sort(), which
// sizes its result as the square of l's length, where a sort returns
// as many elements as it reads: a join or a distinct of a sorted list
// of n words was estimated as one of n*n words, and a formula that
// sorted each tool's words (Toolset's entries) was tracked, at the
// square of the tools, over any surface (TestSortSizedAsItsList). The
// charge estimated is the tracker's (the extension's trackListSelfCompare):
// 2.1 units a pair of elements (2 for elements other than strings and
// bytes, which the estimate does not tell apart in a dyn list), a list
// made and a call. After the extension, whose estimate it replaces.
func sortSizes() cel.EnvOption {
	var opts []checker.CostOption
	for _, t := range []string{"int", "uint", "double", "bool", "google.protobuf.Duration", "google.protobuf.Timestamp", "string", "bytes"} {
		opts = append(opts, checker.OverloadCostEstimate("list_"+t+"_sort", estimateSort))
	}
	return cel.CostEstimatorOptions(opts...)
}

// estimateSort is the estimate of target.sort() (see sortSizes).
func estimateSort(estimator checker.CostEstimator, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	if target == nil || len(args) != 0 {
		return nil
	}
	n, ok := knownSize(estimator, *target)
	if !ok || n >= math.MaxUint32 {
		return &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: math.MaxUint64}}
	}
	pairs := n * n
	return estimated(2*pairs+pairs/10+1+common.ListCreateBaseCost+1, n)
}
