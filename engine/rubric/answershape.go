package rubric

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// answerShape is an answer schema written with the few keywords answers
// need (type, properties, required, additionalProperties, items, enum of
// strings, integer minimum and maximum, minLength, uniqueItems, and $ref
// into $defs), checked by walking the answer directly: the schema
// validator's general machinery cost a tenth of a second over 5,000
// answers. It only ever accepts: an answer it accepts is one the schema
// validator accepts, and an answer it cannot vouch for (one the schema
// refuses, or a number written as 1.0 or 1e2) is left to the validator,
// which decides, and words the error.
type answerShape struct {
	types     []string // "" when any type will do
	ref       *answerShape
	props     map[string]*answerShape
	required  []string
	closed    bool         // additionalProperties is false
	extra     *answerShape // additionalProperties' schema
	items     *answerShape
	enum      []string
	hasEnum   bool
	min, max  *int64
	minLength int
	unique    bool
}

// draft2020 is the only $schema a shape is made for (the validator's
// default draft too).
const draft2020 = "https://json-schema.org/draft/2020-12/schema"

// newAnswerShape returns the shape of the schema doc (as
// jsonschema.UnmarshalJSON reads it), or nil when doc uses anything
// beyond what a shape holds.
func newAnswerShape(doc any) *answerShape {
	root, ok := doc.(map[string]any)
	if !ok {
		return nil
	}
	if s, ok := root["$schema"]; ok && s != draft2020 {
		return nil
	}
	defs := map[string]*answerShape{}
	raw, _ := root["$defs"].(map[string]any)
	if _, ok := root["$defs"]; ok && raw == nil {
		return nil
	}
	// Every definition gets its shape before any is read, so that a $ref
	// finds it, however the definitions refer to each other.
	for name := range raw {
		defs[name] = &answerShape{}
	}
	c := shapeCompiler{defs: defs}
	for name, d := range raw {
		if !c.fill(defs[name], d, false) {
			return nil
		}
	}
	s := &answerShape{}
	if !c.fill(s, root, true) {
		return nil
	}
	return s
}

// shapeCompiler fills shapes, with the root's definitions at hand.
type shapeCompiler struct {
	defs map[string]*answerShape
}

// fill makes s the shape of schema doc; false when doc uses anything a
// shape does not hold. Only the root may hold $schema and $defs.
func (c shapeCompiler) fill(s *answerShape, doc any, root bool) bool {
	m, ok := doc.(map[string]any)
	if !ok {
		return false
	}
	s.minLength = -1
	for k, v := range m {
		switch k {
		case "$schema", "$defs":
			if !root {
				return false
			}
		case "description", "title":
		case "type":
			switch t := v.(type) {
			case string:
				s.types = []string{t}
			case []any:
				for _, e := range t {
					name, ok := e.(string)
					if !ok {
						return false
					}
					s.types = append(s.types, name)
				}
			default:
				return false
			}
			for _, t := range s.types {
				switch t {
				case "object", "array", "string", "integer", "number", "boolean", "null":
				default:
					return false
				}
			}
		case "$ref":
			ref, _ := v.(string)
			name, ok := strings.CutPrefix(ref, "#/$defs/")
			if !ok || strings.ContainsAny(name, "/~%") || c.defs[name] == nil {
				return false
			}
			s.ref = c.defs[name]
		case "properties":
			ps, ok := v.(map[string]any)
			if !ok {
				return false
			}
			s.props = make(map[string]*answerShape, len(ps))
			for name, p := range ps {
				s.props[name] = &answerShape{}
				if !c.fill(s.props[name], p, false) {
					return false
				}
			}
		case "required":
			rs, ok := v.([]any)
			if !ok {
				return false
			}
			for _, r := range rs {
				name, ok := r.(string)
				if !ok {
					return false
				}
				s.required = append(s.required, name)
			}
		case "additionalProperties":
			switch a := v.(type) {
			case bool:
				s.closed = !a
			default:
				s.extra = &answerShape{}
				if !c.fill(s.extra, a, false) {
					return false
				}
			}
		case "items":
			s.items = &answerShape{}
			if !c.fill(s.items, v, false) {
				return false
			}
		case "enum":
			es, ok := v.([]any)
			if !ok {
				return false
			}
			s.hasEnum = true
			for _, e := range es {
				str, ok := e.(string)
				if !ok {
					return false
				}
				s.enum = append(s.enum, str)
			}
		case "minimum", "maximum":
			n, ok := plainInt(v)
			if !ok {
				return false
			}
			if k == "minimum" {
				s.min = &n
			} else {
				s.max = &n
			}
		case "minLength":
			n, ok := plainInt(v)
			if !ok || n < 0 || n > 1<<30 {
				return false
			}
			s.minLength = int(n)
		case "uniqueItems":
			u, ok := v.(bool)
			if !ok {
				return false
			}
			s.unique = u
		default:
			return false
		}
	}
	return true
}

// plainInt reads a number written as digits alone, with an optional
// minus sign, that fits an int64; a number written any other way (1.0,
// 1e2) is not one a shape vouches for.
func plainInt(v any) (int64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	digits := strings.TrimPrefix(string(n), "-")
	if digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
		return 0, false
	}
	i, err := strconv.ParseInt(string(n), 10, 64)
	return i, err == nil
}

// accepts reports whether v (as jsonscan reads it) satisfies the shape
// for sure; false means the schema validator is to decide.
func (s *answerShape) accepts(v any) bool {
	if s.ref != nil && !s.ref.accepts(v) {
		return false
	}
	if len(s.types) > 0 && !s.typed(v) {
		return false
	}
	if s.hasEnum {
		if str, ok := v.(string); !ok || !slices.Contains(s.enum, str) {
			return false
		}
	}
	switch x := v.(type) {
	case json.Number:
		if s.min != nil || s.max != nil {
			n, ok := plainInt(x)
			if !ok || s.min != nil && n < *s.min || s.max != nil && n > *s.max {
				return false
			}
		}
	case string:
		if s.minLength >= 0 && utf8.RuneCountInString(x) < s.minLength {
			return false
		}
	case map[string]any:
		for _, r := range s.required {
			if _, ok := x[r]; !ok {
				return false
			}
		}
		for k, e := range x {
			if p, ok := s.props[k]; ok {
				if !p.accepts(e) {
					return false
				}
				continue
			}
			if s.closed || s.extra != nil && !s.extra.accepts(e) {
				return false
			}
		}
	case []any:
		if s.items != nil {
			for _, e := range x {
				if !s.items.accepts(e) {
					return false
				}
			}
		}
		if s.unique && !uniqueStrings(x) {
			return false
		}
	}
	return true
}

// typed reports whether v is of one of the shape's types, for sure.
func (s *answerShape) typed(v any) bool {
	for _, t := range s.types {
		switch x := v.(type) {
		case nil:
			if t == "null" {
				return true
			}
		case bool:
			if t == "boolean" {
				return true
			}
		case string:
			if t == "string" {
				return true
			}
		case json.Number:
			if t == "number" {
				return true
			}
			if t == "integer" {
				if _, ok := plainInt(x); ok {
					return true
				}
			}
		case map[string]any:
			if t == "object" {
				return true
			}
		case []any:
			if t == "array" {
				return true
			}
		}
	}
	return false
}

// uniqueStrings reports whether xs are strings, each different: the
// lists of unique items a shape vouches for.
func uniqueStrings(xs []any) bool {
	seen := make(map[string]bool, len(xs))
	for _, x := range xs {
		s, ok := x.(string)
		if !ok || seen[s] {
			return false
		}
		seen[s] = true
	}
	return true
}
