package lang

import (
	"math"
	"unicode/utf8"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/checker"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
)

// joinStrings estimates CEL's join (the strings extension) by the
// strings it joins. The extension sizes l.join(sep) by how many strings
// l holds, as if each were one character long ([s].join(sep) one
// character more than sep), so a formula that read a join of the
// data's strings was estimated as reading a string as long as the list
// and ran untracked past its limit (TestJoinSizedByItsStrings). Joining
// n strings of at most e characters with a separator of at most s gives
// at most n*e + (n-1)*s characters; the tracker charges a join a unit,
// a tenth of a unit for each string and one more, and a unit for each
// character of the result, and so does this. The strings' bound is the
// estimator's (see stringsSizer); with an estimator that has none the
// join has no bound. After the extension, whose estimate it replaces.
func joinStrings() cel.EnvOption {
	return cel.CostEstimatorOptions(
		checker.OverloadCostEstimate("list_join", estimateJoin),
		checker.OverloadCostEstimate("list_join_string", estimateJoin))
}

// stringsSizer is an estimator that bounds the length of each string of
// a list: false when it knows no bound.
type stringsSizer interface {
	stringsSize(list checker.AstNode) (uint64, bool)
}

// estimateJoin is the estimate of target.join(args...) (see
// joinStrings).
func estimateJoin(estimator checker.CostEstimator, target *checker.AstNode, args []checker.AstNode) *checker.CallEstimate {
	if target == nil {
		return nil
	}
	unbounded := &checker.CallEstimate{CostEstimate: checker.CostEstimate{Min: 1, Max: math.MaxUint64}}
	n, ok := knownSize(estimator, *target)
	if !ok {
		return unbounded
	}
	sizer, ok := estimator.(stringsSizer)
	if !ok {
		return unbounded
	}
	each, ok := sizer.stringsSize(*target)
	if !ok {
		return unbounded
	}
	sep := uint64(0)
	if len(args) == 1 {
		if sep, ok = knownSize(estimator, args[0]); !ok {
			return unbounded
		}
	}
	const most = math.MaxUint64 / 4
	if n >= math.MaxUint32 || each >= math.MaxUint32 || sep >= math.MaxUint32 {
		return unbounded
	}
	out := uint64(0)
	if n > 0 {
		out = n*each + (n-1)*sep
	}
	if out >= most {
		return unbounded
	}
	// ceil((n+1)/10) as the tracker works it out in floating point, at
	// most this.
	read := (n+1)/10 + 1
	return estimated(1+read+out, out)
}

// knownSize is the largest size of n the estimate knows: what cel-go
// worked out, or else what estimator says; false for none.
func knownSize(estimator checker.CostEstimator, n checker.AstNode) (uint64, bool) {
	if sz := n.ComputedSize(); sz != nil {
		return sz.Max, true
	}
	if sz := estimator.EstimateSize(n); sz != nil {
		return sz.Max, true
	}
	return 0, false
}

// stringsBound bounds the length of each string of a list: at most
// scale times the data's bound, plus fixed.
type stringsBound struct {
	scale, fixed uint64
}

// constantStrings are the functions that return a list of strings each
// no longer than a constant, whatever they read: scripts (a script's
// name).
var constantStrings = map[string]uint64{
	"scripts": longestScriptName(),
}

// maxScripts bounds how many scripts Scripts returns: each of
// Unicode's at most once, and Unknown.
var maxScripts = uint64(len(scriptNames)) + 1

// longestScriptName is the length of the longest name RuneScript gives.
func longestScriptName() uint64 {
	n := len("Unknown")
	for _, s := range scriptNames {
		n = max(n, len(s))
	}
	return uint64(n)
}

// stringsOf is the bound of each string of the list e, within sc, as
// shapes works it out (see shapes.of): the list's elements' bound when
// they have one (a list of the data, a map over one that keeps their
// length); for a list written out, the longest of its literal strings
// and of its elements' bounds; for a call of constantStrings, its
// constant. False when some string may be longer than any multiple of
// the data's bound (s + s).
func (sh shapes) stringsOf(e celast.Expr, sc *dataScope) (stringsBound, bool) {
	switch e.Kind() {
	case celast.ListKind:
		var out stringsBound
		for _, el := range e.AsList().Elements() {
			if el.Kind() == celast.LiteralKind {
				s, ok := el.AsLiteral().(types.String)
				if !ok {
					return stringsBound{}, false
				}
				out.fixed = max(out.fixed, uint64(utf8.RuneCountInString(string(s))))
				continue
			}
			scale := sh.of(el, sc).bound()
			if scale == 0 {
				return stringsBound{}, false
			}
			out.scale = max(out.scale, scale)
		}
		return out, true
	case celast.CallKind:
		if n, ok := constantStrings[e.AsCall().FunctionName()]; ok && !e.AsCall().IsMemberFunction() {
			return stringsBound{fixed: n}, true
		}
	}
	scale := sh.of(e, sc).elem().bound()
	return stringsBound{scale: scale}, scale != 0
}

// stringsSize is the static estimator's bound of each string of list,
// the target of a join or a distinct (see joinStrings, estimateDistinct
// and localBounds).
func (b sizeBound) stringsSize(list checker.AstNode) (uint64, bool) {
	sb, ok := b.joined[list.Expr().ID()]
	if !ok || (sb.scale > 0 && b.max >= (math.MaxUint64/2)/sb.scale) {
		return 0, false
	}
	return sb.scale*b.max + sb.fixed, true
}

// stringsSize is the static estimator's bound, or, for a list that is a
// path into a variable of the data (not into the tool), the longest
// string the data holds in it when that is shorter.
func (b *dataBound) stringsSize(list checker.AstNode) (uint64, bool) {
	n, ok := b.sizeBound.stringsSize(list)
	if d, known := b.derived.elems[list.Expr().ID()]; known && (!ok || d < n) {
		n, ok = d, true
	}
	path := b.dataPath(list)
	if _, ofData := b.sizeBound.estimateSize(list); !ofData || path == nil {
		return n, ok
	}
	pb := b.at(append(path[:len(path):len(path)], "@items"))
	if !pb.ok || (ok && pb.n >= n) {
		return n, ok
	}
	return pb.n, true
}
