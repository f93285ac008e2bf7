package ask

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/internal/jsonscan"
)

// decodeJSON decodes JSON as templates see it: numbers print as written
// (json.Number), objects are map[string]any, arrays []any. Every
// question's input is decoded once for its templates, so the plain JSON
// the engine writes is read by jsonscan, and anything else by
// encoding/json, which gives the same values.
func decodeJSON(b []byte) (any, error) {
	if v, ok := jsonscan.Decode(b); ok {
		return v, nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return v, nil
}

// TemplateInput is what decodeJSON gives for lang.MarshalCanonical(n),
// worked out from n, a plain value as lang.Native returns it, without
// writing and reading the JSON: integers and exact numbers become the
// json.Number MarshalCanonical writes, a fraction the string it writes,
// a binary float or a json.Number the number encoding/json writes for it,
// objects map[string]any and lists []any. ok is false for a value whose
// JSON might read back otherwise (a string that is not UTF-8, which the
// JSON replaces, a number it would not write, a type it hands to
// encoding/json); the caller then leaves the input to be decoded.
func TemplateInput(n any) (v any, ok bool) {
	v, _, ok = templateValue(n)
	return v, ok
}

// templateValue is TemplateInput; changed says v is not n itself. A map
// or list whose values need no change (the strings, booleans and nulls of
// most of a definition) is used as it is, not copied: the templates only
// read it. A value left as it was is returned as n, the interface it came
// in, never x boxed again (a string or a list would be copied into a new
// interface each time: a third of this function's time at 5,000 tools).
func templateValue(n any) (v any, changed, ok bool) {
	switch x := n.(type) {
	case nil, bool:
		return n, false, true
	case string:
		return n, false, utf8.ValidString(x)
	case int64:
		if 0 <= x && x < int64(len(smallNumbers)) {
			return smallNumbers[x], true, true
		}
		return json.Number(strconv.FormatInt(x, 10)), true, true
	case int:
		if 0 <= x && x < len(smallNumbers) {
			return smallNumbers[x], true, true
		}
		return json.Number(strconv.Itoa(x)), true, true
	case float64:
		// A number of a definition as read (a schema's default, say),
		// written as encoding/json writes it and read back as written: a
		// whole one from 0 up (a minimum, a length) is the table's, the
		// digits encoding/json writes for it, where writing it went
		// through encoding/json's encoder for every one of every tool.
		if 0 <= x && x < float64(len(smallNumbers)) && x == math.Trunc(x) && !math.Signbit(x) {
			return smallNumbers[int(x)], true, true
		}
		b, err := lang.MarshalCanonical(x)
		if err != nil {
			return nil, false, false
		}
		return json.Number(b), true, jsonscan.ValidNumber(string(b))
	case json.Number:
		return n, false, jsonscan.ValidNumber(string(x))
	case num.Num:
		d := x.String()
		if strings.Contains(d, "/") {
			return x.Exact(), true, true
		}
		return json.Number(d), true, jsonscan.ValidNumber(d)
	case []any:
		if x == nil {
			return []any{}, true, true // written [], read back empty
		}
		var out []any
		for i, e := range x {
			ev, ch, ok := templateValue(e)
			if !ok {
				return nil, false, false
			}
			if ch && out == nil {
				out = slices.Clone(x)
			}
			if out != nil {
				out[i] = ev
			}
		}
		if out == nil {
			return n, false, true
		}
		return out, true, true
	case map[string]any:
		if x == nil {
			return map[string]any{}, true, true // written {}, read back empty
		}
		var out map[string]any
		for k, e := range x {
			if !utf8.ValidString(k) {
				return nil, false, false
			}
			ev, ch, ok := templateValue(e)
			if !ok {
				return nil, false, false
			}
			if ch {
				if out == nil {
					out = maps.Clone(x)
				}
				out[k] = ev
			}
		}
		if out == nil {
			return n, false, true
		}
		return out, true, true
	}
	return nil, false, false
}

// fromScanned is lang.FromScanned(v) for v, a value jsonscan.Decode
// read; exact says some number became an exact one (num.Num), without
// which settled has nothing to change.
func fromScanned(v any) (_ any, exact bool, err error) {
	v, err = lang.ReplaceLeaves(v, func(n json.Number) (any, error) {
		x, err := lang.ExactNumber(n)
		if _, ok := x.(num.Num); ok {
			exact = true
		}
		return x, err
	})
	return v, exact, err
}

// smallNumbers are the json.Numbers of the integers from 0 up, each made
// into an interface once: a definition's integers (a minimum, a length,
// a default) are mostly small, and templateValue made a new json.Number
// interface for each, at every tool.
var smallNumbers = func() (t [1024]any) {
	for i := range t {
		t[i] = json.Number(strconv.Itoa(i))
	}
	return t
}()

// settled makes v, a value lang.FromJSON read, into what lang.FromJSON
// reads from v's canonical JSON (lang.MarshalCanonical), changing its
// lists and maps in place: the same value, but for an exact number that
// the canonical JSON writes as an integer (an answer's 3.0 or 1e2), which
// reads back as an integer, and one with no finite decimal, which it
// writes as a string.
func settled(v any) (any, error) {
	return lang.ReplaceLeaves(v, func(n num.Num) (any, error) {
		d := n.String()
		if strings.Contains(d, "/") {
			return n.Exact(), nil
		}
		return lang.ExactNumber(json.Number(d))
	})
}
