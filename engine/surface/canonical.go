package surface

import (
	"math"
	"slices"
	"sync"

	"github.com/rubricmcp/rubric/internal/jsonenc"
	"github.com/rubricmcp/rubric/internal/jsonstr"
	"github.com/rubricmcp/rubric/internal/scratch"
)

// Canonical returns the canonical JSON of a decoded JSON value: object keys
// sorted by their UTF-8 bytes, no insignificant white space, strings escaped
// only where JSON requires it, and numbers written as ECMAScript writes them
// (1.0 becomes 1, 1E2 becomes 100), as in RFC 8785.
func Canonical(v any) []byte {
	ks := keyStacks.Get().(*[]string)
	b, _ := scratch.Bytes(func(dst []byte) ([]byte, error) { return appendCanonicalKeys(dst, v, ks), nil })
	clear(*ks)
	*ks = (*ks)[:0]
	keyStacks.Put(ks)
	return b
}

// slab holds the canonical forms of many tools one after the other, for
// a parser that makes many: each tool's is written in place and kept as a
// piece of the slab, instead of in a buffer of its own that is grown as
// it is written and then copied out at its size.
type slab struct {
	buf  []byte
	keys []string
}

// slabSize is the room a slab starts with; a tool longer than what is
// left grows it into a new one, where the next tools go.
const slabSize = 1 << 20

// canonical writes v's canonical form into the slab and returns it, as
// long as it is (its capacity too, so nothing appended to it reaches the
// next tool's).
func (s *slab) canonical(v any) []byte {
	if cap(s.buf)-len(s.buf) < slabSize/16 {
		s.buf = make([]byte, 0, slabSize)
	}
	start := len(s.buf)
	// A tool longer than the room left grows the slab into a new one;
	// the tools before it keep theirs.
	s.buf = appendCanonicalKeys(s.buf, v, &s.keys)
	return s.buf[start:len(s.buf):len(s.buf)]
}

// keyStacks hold the member names of the objects being written, sorted,
// the innermost last: one slice reused instead of one made per object.
var keyStacks = sync.Pool{New: func() any { s := make([]string, 0, 64); return &s }}

func appendCanonical(b []byte, v any) []byte {
	var ks []string
	return appendCanonicalKeys(b, v, &ks)
}

func appendCanonicalKeys(b []byte, v any, ks *[]string) []byte {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		if x {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case float64:
		return appendNumber(b, x)
	case string:
		return appendString(b, x)
	case []any:
		b = append(b, '[')
		for i, e := range x {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendCanonicalKeys(b, e, ks)
		}
		return append(b, ']')
	case map[string]any:
		base := len(*ks)
		for k := range x {
			*ks = append(*ks, k)
		}
		// Members written below push their own names past these; keys
		// stays valid if that moves the stack.
		keys := (*ks)[base:]
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			b = appendCanonicalKeys(b, x[k], ks)
		}
		*ks = (*ks)[:base]
		return append(b, '}')
	default:
		// Only values produced by encoding/json reach here; anything else is
		// a programming error, written visibly rather than dropped.
		return appendString(b, "!unsupported")
	}
}

func appendNumber(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	if f == 0 {
		return append(b, '0') // -0 too
	}
	return jsonenc.AppendFloat(b, f)
}

func appendString(b []byte, s string) []byte {
	return jsonstr.Append(b, s, jsonstr.Canonical)
}
