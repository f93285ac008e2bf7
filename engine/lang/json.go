package lang

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unsafe"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/internal/jsonenc"
	"github.com/rubricmcp/rubric/internal/jsonscan"
	"github.com/rubricmcp/rubric/internal/jsonstr"
	"github.com/rubricmcp/rubric/internal/scratch"
)

// jsonFunctions are canonical_json(value), the value as compact JSON with
// sorted keys, and sha256(text), the hex digest of a string (together they
// hash a definition deterministically); band(x, grades), the grade of any
// value; and lower(text), lower case in every script (CEL's lowerAscii
// leaves É as it is).
func jsonFunctions() cel.EnvOption {
	return cel.Lib(jsonLib{})
}

type jsonLib struct{}

func (jsonLib) CompileOptions() []cel.EnvOption {
	return []cel.EnvOption{
		cel.Function("canonical_json", cel.Overload("canonical_json_dyn", []*cel.Type{cel.DynType}, cel.StringType,
			cel.UnaryBinding(func(v ref.Val) ref.Val {
				s, err := canonicalText(v)
				if err != nil {
					return types.NewErr("canonical_json: %v", err)
				}
				return types.String(s)
			}))),
		cel.Function("band", cel.Overload("band_dyn_map", []*cel.Type{cel.DynType, cel.MapType(cel.StringType, cel.DynType)}, cel.DynType,
			cel.BinaryBinding(band))),
		cel.Function("lower", cel.Overload("lower_string", []*cel.Type{cel.StringType}, cel.StringType,
			cel.UnaryBinding(func(v ref.Val) ref.Val { return types.String(strings.ToLower(string(v.(types.String)))) }))),
		cel.Function("sha256", cel.Overload("sha256_string", []*cel.Type{cel.StringType}, cel.StringType,
			cel.UnaryBinding(func(v ref.Val) ref.Val { return types.String(sha256Hex(string(v.(types.String)))) }))),
	}
}

func (jsonLib) ProgramOptions() []cel.ProgramOption { return nil }

// sha256Hex is the hex sha256 of s, hashed where its bytes are: a copy
// of s as a []byte (a definition's canonical JSON, for every tool) would
// be garbage as large as the text.
func sha256Hex(s string) string {
	sum := sha256.Sum256(unsafe.Slice(unsafe.StringData(s), len(s)))
	var out [2 * sha256.Size]byte
	hex.Encode(out[:], sum[:])
	return string(out[:])
}

// CanonicalJSON encodes a formula value as compact JSON with sorted keys
// and exact numbers, the same bytes for the same value every time.
func CanonicalJSON(v ref.Val) ([]byte, error) {
	if b, err := scratch.Bytes(func(dst []byte) ([]byte, error) { return appendValue(dst, v) }); err == nil {
		return b, nil
	}
	// The error is the one Native, then MarshalCanonical, meets.
	n, err := Native(v)
	if err != nil {
		return nil, err
	}
	return MarshalCanonical(n)
}

// canonicalText is CanonicalJSON as a string, copied once.
func canonicalText(v ref.Val) (string, error) {
	if s, err := scratch.String(func(dst []byte) ([]byte, error) { return appendValue(dst, v) }); err == nil {
		return s, nil
	}
	n, err := Native(v)
	if err != nil {
		return "", err
	}
	return scratch.String(func(dst []byte) ([]byte, error) { return appendCanonical(dst, n) })
}

// appendValue appends v's canonical JSON as MarshalCanonical writes what
// Native makes of it, without making it: the maps and lists a formula
// built are written from themselves, not copied into Go maps and lists
// first (a definition's canonical_json, a report value of many signals).
// The rest (numbers, strings, JSON data) is what Native gives, written as
// MarshalCanonical writes it. It spends the budget Native spends; on any
// error it stops, and the caller asks Native and MarshalCanonical for the
// error they meet, so that no message depends on which path found it.
func appendValue(dst []byte, v ref.Val) ([]byte, error) {
	budget := int64(MaxValueBytes)
	return appendValueBudget(dst, v, &budget)
}

func appendValueBudget(dst []byte, v ref.Val, budget *int64) ([]byte, error) {
	// The leaves most values are made of, written as appendCanonical
	// writes what native makes of them, spending what native spends, but
	// not boxed into an interface first (an allocation for every string,
	// large int and num of a report field or a definition signal).
	if charge, ok := leafBytes(v); ok {
		if *budget -= charge; *budget < 0 {
			return nil, ValueTooLargeError{}
		}
		return appendLeaf(dst, v)
	}
	if m, ok := v.(traits.Mapper); ok {
		if built, ok := m.Value().(map[ref.Val]ref.Val); ok {
			if *budget -= nodeBytes + mapBytes; *budget < 0 {
				return nil, ValueTooLargeError{}
			}
			var small [16]jsonMember[ref.Val]
			ms := small[:0]
			for k, e := range built {
				key, ok := k.(types.String)
				if !ok {
					return nil, errNotWritten
				}
				if *budget -= int64(len(key)); *budget < 0 {
					return nil, ValueTooLargeError{}
				}
				ms = append(ms, jsonMember[ref.Val]{string(key), e})
			}
			return appendObject(dst, ms, func(dst []byte, v ref.Val) ([]byte, error) { return appendValueBudget(dst, v, budget) })
		}
	}
	if l, ok := v.(interface {
		Size() ref.Val
		Get(ref.Val) ref.Val
	}); ok && v.Type() == types.ListType {
		if n, ok := l.Size().(types.Int); ok {
			if *budget -= nodeBytes; *budget < 0 || n < 0 || int64(n) > *budget/nodeBytes {
				return nil, ValueTooLargeError{}
			}
			dst = append(dst, '[')
			for i := range n {
				if i > 0 {
					dst = append(dst, ',')
				}
				var err error
				if dst, err = appendValueBudget(dst, l.Get(i), budget); err != nil {
					return nil, err
				}
			}
			return append(dst, ']'), nil
		}
	}
	n, err := native(v, budget, nil, false)
	if err != nil {
		return nil, err
	}
	return appendCanonical(dst, n)
}

// errNotWritten stops appendValue where Native would fail; the message
// is Native's to give.
var errNotWritten = errors.New("not written")

// MarshalCanonical encodes a plain value (as Native returns) as compact
// JSON with sorted keys; exact numbers are written as JSON numbers in
// their shortest exact decimal form, or as a fraction string when they
// have none.
func MarshalCanonical(v any) ([]byte, error) {
	return scratch.Bytes(func(dst []byte) ([]byte, error) { return appendCanonical(dst, v) })
}

// appendCanonical appends v as MarshalCanonical writes it. It writes the
// values formulas and decoders make (maps, lists, strings, integers,
// booleans, null, exact numbers) itself, byte for byte as encoding/json
// with HTML escaping off, sorted keys and jsonable's numbers writes them,
// without reflection or a copy of the value; any other value it hands to
// encoding/json.
func appendCanonical(dst []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		return strconv.AppendBool(dst, x), nil
	case string:
		return appendJSONString(dst, x), nil
	case int64:
		return strconv.AppendInt(dst, x, 10), nil
	case int:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case float64:
		// A definition's number as a surface decodes it: written here
		// as encoding/json writes it, where its encoder was set up, and
		// the value boxed again, for every number of every schema. It
		// refuses NaN and the infinities, with its own error.
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return appendEncoded(dst, x)
		}
		return jsonenc.AppendFloat(dst, x), nil
	case num.Num:
		return appendNum(dst, x)
	case json.Number:
		// encoding/json writes a valid one as it is; it writes "" as 0
		// and refuses any other, which appendEncoded leaves to it.
		if !jsonscan.ValidNumber(string(x)) {
			return appendEncoded(dst, x)
		}
		return append(dst, x...), nil
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			var err error
			if dst, err = appendCanonical(dst, e); err != nil {
				return nil, err
			}
		}
		return append(dst, ']'), nil
	case map[string]any:
		// The members are sorted as they are, not their keys looked up
		// again; a definition's maps are small, so their members sit on
		// the stack.
		var small [16]jsonMember[any]
		ms := small[:0]
		for k, e := range x {
			ms = append(ms, jsonMember[any]{k, e})
		}
		return appendObject(dst, ms, appendCanonical)
	}
	return appendEncoded(dst, jsonable(v))
}

// leafBytes is what native spends on v when v is a leaf appendLeaf
// writes: a node, and a string's bytes.
func leafBytes(v ref.Val) (int64, bool) {
	switch x := v.(type) {
	case types.String:
		return nodeBytes + int64(len(x)), true
	case types.Int, types.Bool, types.Null, Num:
		return nodeBytes, true
	}
	return 0, false
}

// appendLeaf appends v, a leaf leafBytes measures, as appendCanonical
// writes what native makes of it.
func appendLeaf(dst []byte, v ref.Val) ([]byte, error) {
	switch x := v.(type) {
	case types.String:
		return appendJSONString(dst, string(x)), nil
	case types.Int:
		return strconv.AppendInt(dst, int64(x), 10), nil
	case types.Bool:
		return strconv.AppendBool(dst, bool(x)), nil
	case Num:
		return appendNum(dst, x.N)
	}
	return append(dst, "null"...), nil
}

// appendNum appends n as appendCanonical writes an exact number: its
// shortest exact decimal, or the string of the fraction when it has none.
func appendNum(dst []byte, n num.Num) ([]byte, error) {
	if d := n.String(); !strings.Contains(d, "/") {
		if !jsonscan.ValidNumber(d) {
			return appendEncoded(dst, json.Number(d))
		}
		return append(dst, d...), nil
	}
	return appendJSONString(dst, n.Exact()), nil
}

// jsonMember is a JSON object's member: its key and its value, of a map of
// Go values or of formula values.
type jsonMember[V any] struct {
	key string
	val V
}

// appendObject appends ms, sorted by key, as a JSON object, each value
// written by write.
func appendObject[V any](dst []byte, ms []jsonMember[V], write func([]byte, V) ([]byte, error)) ([]byte, error) {
	slices.SortFunc(ms, func(a, b jsonMember[V]) int { return strings.Compare(a.key, b.key) })
	dst = append(dst, '{')
	for i, m := range ms {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJSONString(dst, m.key)
		dst = append(dst, ':')
		var err error
		if dst, err = write(dst, m.val); err != nil {
			return nil, err
		}
	}
	return append(dst, '}'), nil
}

// appendEncoded appends what encoding/json writes for v, HTML escaping
// off.
func appendEncoded(dst []byte, v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return append(dst, bytes.TrimSuffix(buf.Bytes(), []byte{'\n'})...), nil
}

// appendJSONString appends s quoted as encoding/json quotes it with HTML
// escaping off.
func appendJSONString(dst []byte, s string) []byte {
	return jsonstr.Append(dst, s, jsonstr.EncodingJSON)
}

// jsonable replaces exact numbers with JSON numbers, all the way down.
func jsonable(v any) any {
	switch x := v.(type) {
	case num.Num:
		if d := x.String(); !strings.Contains(d, "/") {
			return json.Number(d)
		}
		return x.Exact()
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonable(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonable(e)
		}
		return out
	}
	return v
}

// FromJSON decodes JSON for formulas: integers become ints, other numbers
// exact nums (never binary floats), objects maps and arrays lists.
func FromJSON(data []byte) (any, error) {
	// Answers and recorded values are plain JSON: read without
	// encoding/json's reflection when jsonscan can, to the same values.
	if v, ok := jsonscan.Decode(data); ok {
		return exactNumbers(v)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("more than one JSON value")
	}
	return exactNumbers(v)
}

// FromScanned makes a value jsonscan.Decode read into what FromJSON
// gives for the same text (integers ints, other numbers exact nums),
// changing its lists and maps in place.
func FromScanned(v any) (any, error) { return exactNumbers(v) }

func exactNumbers(v any) (any, error) {
	return ReplaceLeaves(v, ExactNumber)
}

// ExactNumber is a JSON number as formulas read it (see FromJSON): an
// int64 when it is an integer that fits, else an exact num.
func ExactNumber(n json.Number) (any, error) {
	if i, err := n.Int64(); err == nil {
		return i, nil
	}
	return num.Parse(n.String())
}

// ReplaceLeaves replaces each value of type T in v, a decoded JSON value
// (lists []any and maps map[string]any of leaves), with what f makes of
// it, changing v's lists and maps in place, and returns v (f's value when
// v itself is a T); it stops at f's first error. Only the values of type
// T are stored back: a value with none of them (an answer without a
// number to change) is read and not written, where storing every leaf of
// every map again cost as much as reading it.
func ReplaceLeaves[T any](v any, f func(T) (any, error)) (any, error) {
	switch x := v.(type) {
	case T:
		return f(x)
	case []any:
		for i, e := range x {
			n, replaced, err := replaceLeaf(e, f)
			if err != nil {
				return nil, err
			}
			if replaced {
				x[i] = n
			}
		}
	case map[string]any:
		for k, e := range x {
			n, replaced, err := replaceLeaf(e, f)
			if err != nil {
				return nil, err
			}
			if replaced {
				x[k] = n
			}
		}
	}
	return v, nil
}

// replaceLeaf is what ReplaceLeaves makes of e, a value in a list or a
// map: f's value, to be stored in e's place, when e is a T; otherwise e's
// own lists and maps changed in place, and nothing to store.
func replaceLeaf[T any](e any, f func(T) (any, error)) (_ any, replaced bool, err error) {
	switch x := e.(type) {
	case T:
		n, err := f(x)
		return n, true, err
	case []any, map[string]any:
		_, err := ReplaceLeaves(x, f)
		return nil, false, err
	}
	return nil, false, nil
}

// band returns the letter of the highest band whose minimum x reaches,
// given bands as a map of letter to minimum; null for null, "" below
// every band.
func band(x, bands ref.Val) ref.Val {
	if x.Type() == types.NullType {
		return types.NullValue
	}
	n, ok := toNum(x)
	if !ok {
		return types.NewErr("band: want a number, got %s", x.Type().TypeName())
	}
	m, ok := bands.(traits.Mapper)
	if !ok {
		return types.NewErr("band: want a map of letters to minimums")
	}
	best, letter := num.Num{}, ""
	found := false
	for it := m.Iterator(); it.HasNext() == types.True; {
		k := it.Next()
		min, ok := toNum(m.Get(k))
		if !ok {
			return types.NewErr("band: the minimum of %v is not a number", k)
		}
		if n.Cmp(min) >= 0 && (!found || min.Cmp(best) > 0) {
			best, letter, found = min, fmt.Sprint(k.Value()), true
		}
	}
	return types.String(letter)
}
