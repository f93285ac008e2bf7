package lang

import (
	"encoding/json"
	"fmt"
	"iter"
	"maps"
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/internal/jsonscan"
)

// NumType is the CEL type of exact numbers, written `num` in formulas.
var NumType = cel.ObjectType("rubric.num")

// NumOrNullType is what a formula that may have no number to give
// yields (a surface's score: none for a surface without tools): a
// number, or null on some path (size(tools) == 0 ? null : mean(...)),
// whichever branch of a conditional comes first.
var NumOrNullType = types.NewNullableType(NumType)

// Num is the CEL value of an exact number.
type Num struct{ N num.Num }

// ConvertToNative implements ref.Val.
func (v Num) ConvertToNative(t reflect.Type) (any, error) {
	switch t {
	case reflect.TypeOf(num.Num{}):
		return v.N, nil
	case reflect.TypeOf(float64(0)):
		return v.N.Float64(), nil
	case reflect.TypeOf(""):
		return v.N.Exact(), nil
	}
	return nil, fmt.Errorf("cannot convert num to %v", t)
}

// ConvertToType implements ref.Val: a num converts to string, double and
// (when whole) int.
func (v Num) ConvertToType(t ref.Type) ref.Val {
	switch t {
	case types.StringType:
		return types.String(v.N.String())
	case types.DoubleType:
		return types.Double(v.N.Float64())
	case types.IntType:
		if !v.N.IsInt() {
			return types.NewErr("num %s is not a whole number", v.N.Exact())
		}
		return types.Int(v.N.Big().Num().Int64())
	case types.TypeType:
		return NumType
	case NumType:
		return v
	}
	return types.NewErr("type conversion error from num to '%s'", t)
}

// Equal implements ref.Val with exact comparison across numeric types.
func (v Num) Equal(other ref.Val) ref.Val {
	o, ok := toNum(other)
	if !ok {
		return types.False
	}
	return types.Bool(v.N.Cmp(o) == 0)
}

// Type implements ref.Val.
func (v Num) Type() ref.Type { return NumType }

// Value implements ref.Val.
func (v Num) Value() any { return v.N }

// toNum converts any numeric CEL value to an exact number. Doubles become
// the shortest decimal that reads back as them.
func toNum(v ref.Val) (num.Num, bool) {
	switch x := v.(type) {
	case Num:
		return x.N, true
	case types.Int:
		return num.Int(int64(x)), true
	case types.Uint:
		return num.Int(int64(x)), uint64(x) <= 1<<63-1
	case types.Double:
		n, err := num.Float(float64(x))
		return n, err == nil
	}
	return num.Num{}, false
}

func isNumeric(v ref.Val) bool {
	switch v.(type) {
	case Num, types.Int, types.Uint, types.Double:
		return true
	}
	return false
}

// adapter turns Go values into CEL values lazily, knowing num.Num.
type adapter struct{}

// Adapter is the type adapter of the rubric language; values built for
// evaluation (lists and maps of Go values) should be wrapped with it so that
// num.Num elements become nums.
var Adapter types.Adapter = adapter{}

// NativeToValue implements types.Adapter.
func (adapter) NativeToValue(v any) ref.Val {
	switch x := v.(type) {
	// A JSON leaf (most of what formulas read of a definition) is
	// converted here as cel-go's adapter converts it, without first
	// testing each value against ref.Val and then cel-go's many cases.
	case string:
		return types.String(x)
	case bool:
		return types.Bool(x)
	case int64:
		return types.Int(x)
	case float64:
		return types.Double(x)
	case nil:
		return types.NullValue
	case ref.Val:
		return x
	case num.Num:
		return Num{x}
	case map[string]any:
		return jsonMap(x)
	case []any:
		return types.NewDynamicList(Adapter, x)
	case []map[string]any:
		return types.NewDynamicList(Adapter, x)
	case int:
		return types.Int(x)
	}
	return types.DefaultTypeAdapter.NativeToValue(v)
}

// Native converts a CEL result to a plain Go value, all the way down:
// num.Num, int64, bool, string, []any, map[string]any or nil. A value
// larger than MaxValueBytes is refused (see ValueTooLargeError).
func Native(v ref.Val) (any, error) {
	budget := int64(MaxValueBytes)
	return native(v, &budget, nil, false)
}

// NativeWritten is Native with each number the formula computed (an int,
// a num, a double) in the form MarshalCanonical writes it: a json.Number
// of its text, or, for a fraction with no finite decimal, the string of
// it. The canonical JSON of the value is the same bytes as of Native's;
// it is for a value that is also read back as its JSON reads (a
// question's input, which the prompts' templates see with numbers as
// json.Number), so that the reader need not copy every map holding a
// number to change it. A number that has no valid JSON text stays a
// num.Num, as Native gives it.
func NativeWritten(v ref.Val) (any, error) {
	budget := int64(MaxValueBytes)
	return native(v, &budget, nil, true)
}

// written is n as NativeWritten gives it.
func written(n num.Num) any {
	d := n.String()
	if strings.Contains(d, "/") {
		return n.Exact()
	}
	if !jsonscan.ValidNumber(d) {
		return n
	}
	return json.Number(d)
}

// NativeShared is Native for a value kept in memory as it is (a signal
// the rubric's later formulas read), never written out whole: a long
// string it holds more than once counts its bytes once, since every copy
// shares them. A finding carries the text it was found in, so a hostile
// definition of many megabytes with a score of findings in it is held
// once, not once a finding, and is scored rather than refused.
func NativeShared(v ref.Val) (any, error) {
	budget := int64(MaxValueBytes)
	return native(v, &budget, &sharedStrings{}, false)
}

// sharedStrings are the long strings a value converted by NativeShared
// has counted, by where their bytes are: the first in first, the others
// in seen, made at the second (a signal holds one long string, the
// definition, far more often than two).
type sharedStrings struct {
	first sharedKey
	seen  map[sharedKey]bool
}

type sharedKey struct {
	data *byte
	n    int
}

// counted reports whether s was counted already, and records it.
func (c *sharedStrings) counted(s string) bool {
	if c == nil || len(s) < 256 {
		return false // short strings: counted each time, as Native does
	}
	k := sharedKey{unsafe.StringData(s), len(s)}
	if k == c.first || c.seen[k] {
		return true
	}
	if c.first.data == nil {
		c.first = k
		return false
	}
	if c.seen == nil {
		c.seen = map[sharedKey]bool{}
	}
	c.seen[k] = true
	return false
}

// MaxValueBytes bounds the size of one value a formula builds, as Native
// and canonical_json count it: each string's bytes, and nodeBytes for
// every value in it (NativeShared counts a long string it holds more
// than once a single time). The cost limit bounds a formula's steps, not what
// they build: a value may hold another twice (a map of a bound variable
// under two keys), so a chain of cel.bind doubles it at every step for
// the price of one. The bound is far above what any rubric builds from a
// large surface (a question's input listing every tool of 20,000), and it
// keeps the memory of a formula that repeats a value within a few hundred
// MiB.
const MaxValueBytes = 128 << 20

// nodeBytes is what one value (a number, a list's element, a map's entry)
// counts toward MaxValueBytes, and mapBytes what a map counts besides its
// entries: about what each takes in memory.
const (
	nodeBytes = 32
	mapBytes  = 256
)

// ValueTooLargeError is a value larger than MaxValueBytes.
type ValueTooLargeError struct{}

// Error says what the bound is and what usually causes it.
func (ValueTooLargeError) Error() string {
	return fmt.Sprintf("the formula built a value larger than the %d MiB a value may have: it repeats a value (a variable bound by cel.bind used twice, again and again), or the data is unusually large", MaxValueBytes>>20)
}

// native converts v, spending budget on what it builds; shared, when not
// nil, counts each long string's bytes once (see NativeShared).
func native(v ref.Val, budget *int64, shared *sharedStrings, numbers bool) (any, error) {
	if *budget -= nodeBytes; *budget < 0 {
		return nil, ValueTooLargeError{}
	}
	switch x := v.(type) {
	case Num:
		if numbers {
			return written(x.N), nil
		}
		return x.N, nil
	case types.Int:
		if numbers {
			return json.Number(strconv.FormatInt(int64(x), 10)), nil
		}
		return int64(x), nil
	case types.Uint:
		return uint64(x), nil
	case types.Double:
		n, err := num.Float(float64(x))
		if err != nil {
			return nil, err
		}
		if numbers {
			return written(n), nil
		}
		return n, nil
	case types.Bool:
		return bool(x), nil
	case types.String:
		if shared.counted(string(x)) {
			return string(x), nil
		}
		if *budget -= int64(len(x)); *budget < 0 {
			return nil, ValueTooLargeError{}
		}
		return string(x), nil
	case types.Null:
		return nil, nil
	case *types.Err:
		return nil, x
	}
	if l, ok := v.(interface {
		Size() ref.Val
		Get(ref.Val) ref.Val
	}); ok && v.Type() == types.ListType {
		n := int64(l.Size().(types.Int))
		// A list concatenated with itself is as long as it says before a
		// single element is read: refuse it before allocating.
		if n < 0 || n > *budget/nodeBytes {
			return nil, ValueTooLargeError{}
		}
		out := make([]any, n)
		for i := range n {
			e, err := native(l.Get(types.Int(i)), budget, shared, numbers)
			if err != nil {
				return nil, err
			}
			out[i] = e
		}
		return out, nil
	}
	if m, ok := v.(traits.Mapper); ok {
		if native, ok := m.Value().(map[string]any); ok {
			return native, nil // JSON data: already plain
		}
		if *budget -= mapBytes; *budget < 0 {
			return nil, ValueTooLargeError{}
		}
		if built, ok := m.Value().(map[ref.Val]ref.Val); ok {
			// A map the formula built: ranged over as it is, where its
			// iterator would copy out every key through reflection.
			return nativeEntries(maps.All(built), len(built), budget, shared, numbers)
		}
		return nativeEntries(mapperEntries(m), 0, budget, shared, numbers)
	}
	return v.Value(), nil
}

// nativeEntries is native for a map's entries (n of them, 0 when not
// known), spending budget on each key and value.
func nativeEntries(entries iter.Seq2[ref.Val, ref.Val], n int, budget *int64, shared *sharedStrings, numbers bool) (any, error) {
	out := make(map[string]any, n)
	for k, v := range entries {
		key, ok := k.(types.String)
		if !ok {
			return nil, fmt.Errorf("a map key is %s; only string keys have a JSON form", k.Type().TypeName())
		}
		if *budget -= int64(len(key)); *budget < 0 {
			return nil, ValueTooLargeError{}
		}
		e, err := native(v, budget, shared, numbers)
		if err != nil {
			return nil, err
		}
		out[string(key)] = e
	}
	return out, nil
}

// mapperEntries are m's entries in its iterator's order.
func mapperEntries(m traits.Mapper) iter.Seq2[ref.Val, ref.Val] {
	return func(yield func(k, v ref.Val) bool) {
		for it := m.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			if !yield(k, m.Get(k)) {
				return
			}
		}
	}
}

// ToNum converts a formula's result to an exact number, accepting nums,
// ints and doubles.
func ToNum(v ref.Val) (num.Num, error) {
	if e, ok := v.(*types.Err); ok {
		return num.Num{}, e
	}
	n, ok := toNum(v)
	if !ok {
		return num.Num{}, fmt.Errorf("want a number, got %s", v.Type().TypeName())
	}
	return n, nil
}
