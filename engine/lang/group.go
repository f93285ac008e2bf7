package lang

import (
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// groupFunctions are group_by(items, keys), a map from each key to every
// item with it, in order (index_by keeps the first only), so that a
// formula finds all the items that share a key (a tool name on several
// servers) in one step instead of comparing every pair; and omit(map,
// keys), the map without the members keys names, so that a formula can
// measure or compare a value without what a caller added to it.
func groupFunctions() cel.EnvOption {
	dyn := cel.DynType
	return cel.Lib(groupLib{
		cel.Function("group_by", cel.Overload("group_by_list_list", []*cel.Type{cel.ListType(dyn), cel.ListType(cel.StringType)}, cel.MapType(cel.StringType, cel.ListType(dyn)),
			cel.BinaryBinding(groupBy))),
		// omit takes any value, so that a declared object (the tool) is
		// omitted from as the map it is; anything else is no such overload.
		cel.Function("omit", cel.Overload("omit_dyn_list", []*cel.Type{dyn, cel.ListType(cel.StringType)}, cel.MapType(cel.StringType, dyn),
			cel.BinaryBinding(omit))),
	})
}

type groupLib []cel.EnvOption

func (g groupLib) CompileOptions() []cel.EnvOption   { return g }
func (groupLib) ProgramOptions() []cel.ProgramOption { return nil }

func groupBy(items, keys ref.Val) ref.Val {
	il, ok1 := items.(traits.Lister)
	kl, ok2 := keys.(traits.Lister)
	if !ok1 || !ok2 {
		return types.MaybeNoSuchOverloadErr(items)
	}
	n := int(il.Size().(types.Int))
	if m := int(kl.Size().(types.Int)); m != n {
		return types.NewErr("group_by: %d items but %d keys", n, m)
	}
	groups := map[string][]ref.Val{}
	var order []string
	for i := range n {
		k, ok := kl.Get(types.Int(i)).(types.String)
		if !ok {
			return types.NewErr("group_by: key %d is not a string", i)
		}
		if _, seen := groups[string(k)]; !seen {
			order = append(order, string(k))
		}
		groups[string(k)] = append(groups[string(k)], il.Get(types.Int(i)))
	}
	out := make(map[ref.Val]ref.Val, len(groups))
	for _, k := range order {
		out[types.String(k)] = types.NewRefValList(Adapter, groups[k])
	}
	return types.NewRefValMap(Adapter, out)
}

func omit(m, keys ref.Val) ref.Val {
	mm, ok1 := m.(traits.Mapper)
	kl, ok2 := keys.(traits.Lister)
	if !ok1 || !ok2 {
		return types.MaybeNoSuchOverloadErr(m)
	}
	drop := map[string]bool{}
	for i := range int(kl.Size().(types.Int)) {
		k, ok := kl.Get(types.Int(i)).(types.String)
		if !ok {
			return types.NewErr("omit: key %d is not a string", i)
		}
		drop[string(k)] = true
	}
	out := map[ref.Val]ref.Val{}
	for it := mm.Iterator(); it.HasNext() == types.True; {
		k := it.Next()
		if s, ok := k.(types.String); ok && drop[string(s)] {
			continue
		}
		out[k] = mm.Get(k)
	}
	return types.NewRefValMap(Adapter, out)
}
