package calibrate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rubricmcp/rubric/engine/num"
)

// Val is one value set against another: a number, kept exact, or a
// label such as a tier.
type Val struct {
	Num    num.Num
	Text   string
	IsText bool
}

// NumVal returns the Val holding n.
func NumVal(n num.Num) Val { return Val{Num: n} }

// String writes a number in its shortest exact decimal, a label as it is.
func (v Val) String() string {
	if v.IsText {
		return v.Text
	}
	return v.Num.String()
}

// MarshalJSON writes a number as a JSON number (its shortest exact
// decimal; a fraction without one as a string "a/b") and a label as a
// string.
func (v Val) MarshalJSON() ([]byte, error) {
	if v.IsText {
		return json.Marshal(v.Text)
	}
	s := v.Num.String()
	if strings.Contains(s, "/") {
		return json.Marshal(s)
	}
	return []byte(s), nil
}

// UnmarshalJSON reads what MarshalJSON writes: a number, or a string
// (a label, or "a/b").
func (v *Val) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		if strings.Contains(s, "/") {
			if n, err := num.Parse(s); err == nil {
				*v = Val{Num: n}
				return nil
			}
		}
		*v = Val{Text: s, IsText: true}
		return nil
	}
	n, err := num.Parse(string(b))
	if err != nil {
		return err
	}
	*v = Val{Num: n}
	return nil
}

// Named is a value and the name it was matched by: a path such as "score"
// or "scores.clarity".
type Named struct {
	Name  string `json:"name"`
	Value Val    `json:"value"`
}

// Mean is an exact statistic, written with its value rounded to four
// decimals for reading and its exact fraction beside it.
type Mean struct{ num.Num }

// MarshalJSON writes {"value": rounded, "exact": "a/b"}.
func (m Mean) MarshalJSON() ([]byte, error) {
	return fmt.Appendf(nil, `{"value":%s,"exact":%q}`, m.Round(4).String(), m.Exact()), nil
}

// UnmarshalJSON reads the exact member back.
func (m *Mean) UnmarshalJSON(b []byte) error {
	var w struct {
		Exact string `json:"exact"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	n, err := num.Parse(w.Exact)
	if err != nil {
		return err
	}
	m.Num = n
	return nil
}

// maxLabel is the longest text kept as a label.
const maxLabel = 32

// isLabel reports whether a text is short enough, and free of white
// space, to be a label such as a tier ("A", "B") rather than prose such
// as a justification, which calibration never records.
func isLabel(s string) bool {
	if s == "" || utf8.RuneCountInString(s) > maxLabel {
		return false
	}
	return strings.IndexFunc(s, unicode.IsSpace) < 0
}

// flatten lists the values inside a JSON value with their dotted paths,
// in document order: every number, at any depth, and every label directly
// under the top (a tier, never a justification). Arrays, booleans and
// nulls are left out. prefix names the value itself; depth is its own
// depth (0 for a whole object whose members are at depth 1).
func flatten(raw []byte, prefix string, depth int) ([]Named, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var out []Named
	if err := walk(dec, prefix, depth, true, &out); err != nil {
		return nil, err
	}
	return out, nil
}

func walk(dec *json.Decoder, path string, depth int, keep bool, out *[]Named) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch t := tok.(type) {
	case json.Delim:
		inArray := t == '['
		for dec.More() {
			child := ""
			if !inArray {
				k, err := dec.Token()
				if err != nil {
					return err
				}
				child, _ = k.(string)
				if path != "" {
					child = path + "." + child
				}
			}
			if err := walk(dec, child, depth+1, keep && !inArray, out); err != nil {
				return err
			}
		}
		_, err := dec.Token() // the closing delimiter
		return err
	case json.Number:
		if keep && path != "" {
			n, err := num.Parse(t.String())
			if err != nil {
				return err
			}
			*out = append(*out, Named{Name: path, Value: Val{Num: n}})
		}
	case string:
		if keep && path != "" && depth <= 1 && isLabel(t) {
			*out = append(*out, Named{Name: path, Value: Val{Text: t, IsText: true}})
		}
	}
	return nil
}

// flattenValue is flatten for a value already decoded (as surface.Parse
// decodes it): the members of an object are taken in the order of their
// names, since a decoded object keeps no order.
func flattenValue(v any, prefix string, depth int) []Named {
	var out []Named
	walkValue(v, prefix, depth, true, &out)
	return out
}

func walkValue(v any, path string, depth int, keep bool, out *[]Named) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			child := k
			if path != "" {
				child = path + "." + k
			}
			walkValue(x[k], child, depth+1, keep, out)
		}
	case []any:
		for _, e := range x {
			walkValue(e, "", depth+1, false, out)
		}
	case float64:
		if keep && path != "" {
			if n, err := num.Float(x); err == nil {
				*out = append(*out, Named{Name: path, Value: Val{Num: n}})
			}
		}
	case json.Number:
		if keep && path != "" {
			if n, err := num.Parse(x.String()); err == nil {
				*out = append(*out, Named{Name: path, Value: Val{Num: n}})
			}
		}
	case string:
		if keep && path != "" && depth <= 1 && isLabel(x) {
			*out = append(*out, Named{Name: path, Value: Val{Text: x, IsText: true}})
		}
	}
}

// byName indexes named values.
func byName(vals []Named) map[string]Val {
	m := make(map[string]Val, len(vals))
	for _, v := range vals {
		if _, dup := m[v.Name]; !dup {
			m[v.Name] = v.Value
		}
	}
	return m
}

// label makes a path readable: its last part with "_" as spaces and the
// first letter in capitals ("scores.usage_notes" is "Usage notes").
func label(path string) string {
	s := path
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		s = s[i+1:]
	}
	s = strings.ReplaceAll(s, "_", " ")
	if s == "" {
		return path
	}
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[size:]
}

// lower is label without the capital: "purpose clarity".
func lower(path string) string {
	s := label(path)
	r, size := utf8.DecodeRuneInString(s)
	return string(unicode.ToLower(r)) + s[size:]
}
