package lang

import (
	"reflect"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// jsonMap is a map of Go values (decoded JSON, a metric, a signal) as a
// formula sees it. It is the map itself, so making one allocates nothing,
// where cel-go's map of Go values allocates a wrapper and an accessor:
// every step into a definition (tool.inputSchema.properties) made one
// afresh, about a tenth of a judged score's allocations. Lookups and
// sizes are answered here as cel-go answers them; what is rare (equality,
// iteration, conversion) is handed to cel-go's map.
type jsonMap map[string]any

// cel is m as cel-go's own map of Go values.
func (m jsonMap) cel() traits.Mapper { return types.NewStringInterfaceMap(Adapter, m) }

// ConvertToNative implements ref.Val.
func (m jsonMap) ConvertToNative(t reflect.Type) (any, error) { return m.cel().ConvertToNative(t) }

// ConvertToType implements ref.Val.
func (m jsonMap) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.MapType:
		return m
	case types.TypeType:
		return types.MapType
	}
	return m.cel().ConvertToType(t)
}

// Equal implements ref.Val.
func (m jsonMap) Equal(other ref.Val) ref.Val { return m.cel().Equal(other) }

// Type implements ref.Val.
func (m jsonMap) Type() ref.Type { return types.MapType }

// Value implements ref.Val: the Go map.
func (m jsonMap) Value() any { return map[string]any(m) }

// Contains implements traits.Container.
func (m jsonMap) Contains(key ref.Val) ref.Val {
	_, found := m.Find(key)
	return types.Bool(found)
}

// Get implements traits.Indexer.
func (m jsonMap) Get(key ref.Val) ref.Val {
	v, found := m.Find(key)
	if !found {
		return types.ValOrErr(v, "no such key: %v", key)
	}
	return v
}

// Find implements traits.Mapper: only a string names an entry.
func (m jsonMap) Find(key ref.Val) (ref.Val, bool) {
	s, ok := key.(types.String)
	if !ok {
		return nil, false
	}
	v, found := m[string(s)]
	if !found {
		return nil, false
	}
	return Adapter.NativeToValue(v), true
}

// Iterator implements traits.Iterable.
func (m jsonMap) Iterator() traits.Iterator { return m.cel().Iterator() }

// Fold implements traits.Foldable, with each entry as it is.
func (m jsonMap) Fold(f traits.Folder) {
	for k, v := range m {
		if !f.FoldEntry(k, v) {
			break
		}
	}
}

// Size implements traits.Sizer.
func (m jsonMap) Size() ref.Val { return types.Int(len(m)) }

// IsZeroValue says whether m is empty, as cel-go's maps do.
func (m jsonMap) IsZeroValue() bool { return len(m) == 0 }

// String writes m as cel-go writes a map.
func (m jsonMap) String() string { return types.Format(m) }
