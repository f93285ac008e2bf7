package lang

import (
	"fmt"
	"reflect"
	"sync/atomic"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// Record is a CEL map with a few fixed string keys, for the values the
// engine hands formulas (a check's results, a parameter). It reads like any
// map in a formula but costs a slice, not a Go map, and its values are CEL
// values already, so nothing is converted on each access.
type Record struct {
	keys []string
	vals []ref.Val
	// weight is Weight of the record plus one, once weighed; 0 before.
	// A parameter's record is an item of several checks of a tool, each
	// of which weighs its items (see Weight).
	weight atomic.Uint64
}

// RecordOf returns a record of keys and their values, which must be as
// many. Both slices are kept, not copied: keys may be shared between
// records, and neither may change.
func RecordOf(keys []string, vals []ref.Val) *Record {
	if len(keys) != len(vals) {
		panic(fmt.Sprintf("lang.RecordOf: %d keys, %d values", len(keys), len(vals)))
	}
	return &Record{keys: keys, vals: vals}
}

var _ traits.Mapper = (*Record)(nil)

func (r *Record) index(key ref.Val) int {
	k, ok := key.(types.String)
	if !ok {
		return -1
	}
	for i, name := range r.keys {
		if name == string(k) {
			return i
		}
	}
	return -1
}

// Find implements traits.Mapper.
func (r *Record) Find(key ref.Val) (ref.Val, bool) {
	if i := r.index(key); i >= 0 {
		return r.vals[i], true
	}
	return nil, false
}

// Get implements traits.Indexer.
func (r *Record) Get(key ref.Val) ref.Val {
	if v, ok := r.Find(key); ok {
		return v
	}
	return types.NewErr("no such key: %v", key)
}

// Contains implements traits.Container.
func (r *Record) Contains(key ref.Val) ref.Val { return types.Bool(r.index(key) >= 0) }

// Size implements traits.Sizer.
func (r *Record) Size() ref.Val { return types.Int(len(r.keys)) }

// Iterator implements traits.Iterable: it yields the keys.
func (r *Record) Iterator() traits.Iterator {
	return types.NewStringList(Adapter, r.keys).Iterator()
}

// Type implements ref.Val: a record is a map.
func (r *Record) Type() ref.Type { return types.MapType }

// Value implements ref.Val.
func (r *Record) Value() any { return r.native() }

func (r *Record) native() map[string]any {
	m := make(map[string]any, len(r.keys))
	for i, k := range r.keys {
		v, err := Native(r.vals[i])
		if err != nil {
			v = r.vals[i].Value()
		}
		m[k] = v
	}
	return m
}

// ConvertToNative implements ref.Val.
func (r *Record) ConvertToNative(t reflect.Type) (any, error) {
	m := r.native()
	if reflect.TypeOf(m).AssignableTo(t) {
		return m, nil
	}
	return nil, fmt.Errorf("cannot convert a record to %v", t)
}

// ConvertToType implements ref.Val.
func (r *Record) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.MapType:
		return r
	case types.TypeType:
		return types.MapType
	}
	return types.NewErr("type conversion error from map to '%s'", t)
}

// Equal implements ref.Val: equal to any map with the same keys and values.
func (r *Record) Equal(other ref.Val) ref.Val {
	m, ok := other.(traits.Mapper)
	if !ok || m.Size() != r.Size() {
		return types.False
	}
	for i, k := range r.keys {
		v, found := m.Find(types.String(k))
		if !found || equalOp(r.vals[i], v) != types.True {
			return types.False
		}
	}
	return types.True
}
