package gradable

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/rubricmcp/rubric/internal/jsonpointer"
	"github.com/rubricmcp/rubric/internal/schemasize"
)

// This file keeps the arguments the harness invents inside the tool's own
// input schema: a checker validates them with a real JSON Schema
// validator (the one the rubric's schema_errors uses), and candidates
// offers, for a parameter, values built from its schema (enum, const,
// examples, default, pattern, length and numeric bounds, items) for the
// checker to choose from. A value that breaks the schema would be counted
// against the server; one the harness cannot build is left out and said.

// checker validates arguments against one tool's inputSchema. A nil
// checker, or one whose schema does not compile, accepts everything: the
// rubric then judges the arguments on its own.
type checker struct {
	s *jsonschema.Schema
}

// newChecker compiles a tool's inputSchema. References outside the
// schema are never fetched, and a schema of more objects than
// schemasize.MaxObjects is not compiled (it would cost the square of
// them).
func newChecker(schema map[string]any) *checker {
	if schema == nil {
		return nil
	}
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil || schemasize.TooLarge(doc) {
		return nil
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(noLoader{})
	const loc = "heuristic:input.json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil
	}
	s, err := c.Compile(loc)
	if err != nil {
		return nil
	}
	return &checker{s: s}
}

// noLoader refuses every reference outside the schema.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%s is outside the schema, and references are not fetched", url)
}

// failing returns the top-level members of args the schema rejects (a
// problem with the object itself, such as a missing required member,
// under ""), or nil when args are valid.
func (c *checker) failing(args map[string]any) map[string]bool {
	if c == nil {
		return nil
	}
	raw, err := json.Marshal(args)
	if err != nil {
		return map[string]bool{"": true}
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return map[string]bool{"": true}
	}
	verr := c.s.Validate(v)
	if verr == nil {
		return nil
	}
	out := map[string]bool{}
	ve, ok := verr.(*jsonschema.ValidationError)
	if !ok {
		out[""] = true
		return out
	}
	for _, u := range ve.BasicOutput().Errors {
		if u.Error == nil {
			continue
		}
		loc := strings.TrimPrefix(u.InstanceLocation, "/")
		first, _, _ := strings.Cut(loc, "/")
		out[jsonpointer.Unescape(first)] = true
	}
	if len(out) == 0 {
		out[""] = true
	}
	return out
}

// accepts reports whether the schema takes v as the member name of args
// (the other members as they are): no error is found under that member.
func (c *checker) accepts(args map[string]any, name string, v any) bool {
	if c == nil {
		return true
	}
	had, was := args[name]
	args[name] = v
	bad := c.failing(args)[name]
	if was {
		args[name] = had
	} else {
		delete(args, name)
	}
	return !bad
}

// checkers compiles each tool's checker once, on first use.
type checkers struct {
	once []sync.Once
	c    []*checker
}

func newCheckers(n int) *checkers {
	return &checkers{once: make([]sync.Once, n), c: make([]*checker, n)}
}

func (cs *checkers) of(i int, t gTool) *checker {
	cs.once[i].Do(func() { cs.c[i] = newChecker(t.InputSchema) })
	return cs.c[i]
}

// candidates returns values for a parameter built from its schema, the
// plainest first, after first (the value the caller would use if the
// schema took it): each enum value, the const, the examples, the
// default, samples of every variant, and values built to fit its
// pattern, lengths, bounds and items. The checker chooses among them.
func candidates(p gParam, root map[string]any, o sampleOptions, first any) []any {
	s := resolve(p.schema, root)
	out := []any{first}
	if c, ok := s["const"]; ok {
		out = append(out, c)
	}
	if e, ok := s["enum"].([]any); ok {
		out = append(out, e...)
	}
	if ex, ok := s["examples"].([]any); ok {
		out = append(out, ex...)
	}
	if d, ok := s["default"]; ok && d != nil {
		out = append(out, d)
	}
	for v := range 3 {
		vo := o
		vo.variant, vo.schemaFirst = v, false
		out = append(out, sampleSchema(p, s, vo, 0))
	}
	out = append(out, built(p, s, root, o, 0)...)
	return out
}

// resolve follows a local "$ref" ("#/$defs/x") of s within root, and
// takes the first branch of anyOf or oneOf that is not null when s says
// nothing of its own type; it returns s otherwise.
func resolve(s, root map[string]any) map[string]any {
	for range 8 {
		ref, ok := s["$ref"].(string)
		if !ok || !strings.HasPrefix(ref, "#") || root == nil {
			break
		}
		at, _ := jsonpointer.Resolve(root, strings.TrimPrefix(ref, "#"))
		next, ok := at.(map[string]any)
		if !ok {
			return s
		}
		s = next
	}
	if schemaType(s) != "" {
		return s
	}
	for _, k := range []string{"anyOf", "oneOf", "allOf"} {
		bs, _ := s[k].([]any)
		for _, b := range bs {
			if m, ok := b.(map[string]any); ok && m["type"] != "null" {
				return resolve(m, root)
			}
		}
	}
	return s
}

// built returns values made to fit a schema's own constraints when no
// sample does: strings that match its pattern and lengths, numbers
// within its bounds and multiple, arrays of fitting items, objects with
// fitting required members.
func built(p gParam, s, root map[string]any, o sampleOptions, depth int) []any {
	s = resolve(s, root)
	if depth > 3 {
		return nil
	}
	switch schemaType(s) {
	case "integer", "number":
		return numbers(s)
	case "boolean":
		return []any{true, false}
	case "array":
		items, _ := s["items"].(map[string]any)
		if items == nil {
			items = map[string]any{}
		}
		n := 1
		if m, ok := s["minItems"].(float64); ok && m > 1 {
			n = int(m)
		}
		if n > 16 {
			return nil
		}
		var out []any
		for _, first := range []bool{true, false} {
			list := make([]any, 0, n)
			for i := range n {
				io := o
				io.variant, io.schemaFirst = i, first && i == 0
				vs := built(p, items, root, io, depth+1)
				v := sampleSchema(p, resolve(items, root), io, depth+1)
				if len(vs) > i && !first {
					v = vs[i]
				}
				list = append(list, v)
			}
			out = append(out, list)
		}
		return out
	case "object":
		m := map[string]any{}
		for _, q := range params(s) {
			if q.required {
				vs := built(q, q.schema, root, o, depth+1)
				if len(vs) > 0 {
					m[q.name] = vs[0]
				} else {
					m[q.name] = sampleSchema(q, resolve(q.schema, root), o, depth+1)
				}
			}
		}
		return []any{m}
	}
	return strs(p, s, o)
}

// numbers returns numbers within a schema's bounds, on its multipleOf.
func numbers(s map[string]any) []any {
	lo, hasLo := s["minimum"].(float64)
	if x, ok := s["exclusiveMinimum"].(float64); ok {
		lo, hasLo = math.Floor(x)+1, true
	}
	hi, hasHi := s["maximum"].(float64)
	if x, ok := s["exclusiveMaximum"].(float64); ok {
		hi, hasHi = math.Ceil(x)-1, true
	}
	var xs []float64
	if hasLo {
		xs = append(xs, lo)
	}
	if hasHi {
		xs = append(xs, hi)
	}
	if hasLo && hasHi {
		xs = append(xs, math.Floor((lo+hi)/2))
	}
	xs = append(xs, 1, 0)
	if m, ok := s["multipleOf"].(float64); ok && m > 0 {
		for i, x := range xs {
			xs[i] = math.Ceil(x/m) * m
		}
	}
	out := make([]any, 0, len(xs))
	for _, x := range xs {
		if schemaType(s) == "integer" {
			out = append(out, int64(math.Round(x)))
		} else {
			out = append(out, x)
		}
	}
	return out
}

// strs returns strings that fit a schema's pattern and lengths: the
// sample cut or padded to the lengths, and strings generated from the
// pattern with each repetition taken 1, 2, 4, 8 or 0 times.
func strs(p gParam, s map[string]any, o sampleOptions) []any {
	base, _ := sampleSchema(p, s, o, 0).(string)
	if base == "" {
		base = "sample"
	}
	lo, hi := 0, -1
	if m, ok := s["minLength"].(float64); ok {
		lo = int(m)
	}
	if m, ok := s["maxLength"].(float64); ok {
		hi = int(m)
	}
	fit := func(x string) string {
		if hi >= 0 && utf8.RuneCountInString(x) > hi {
			x = string([]rune(x)[:hi])
		}
		for utf8.RuneCountInString(x) < lo {
			x += "x"
		}
		return x
	}
	out := []any{fit(base)}
	pat, _ := s["pattern"].(string)
	if pat == "" {
		return out
	}
	re, err := syntax.Parse(pat, syntax.Perl)
	if err != nil {
		return out
	}
	check, err := regexp.Compile(pat)
	if err != nil {
		return out
	}
	for _, rep := range []int{1, 2, 4, 8, 0, 16} {
		var b strings.Builder
		generate(&b, re, rep)
		x := b.String()
		if check.MatchString(x) {
			out = append(out, x)
		}
		if y := fit(x); y != x && check.MatchString(y) {
			out = append(out, y)
		}
	}
	return out
}

// generate writes a string that the regular expression re matches, each
// open repetition taken rep times (at least its minimum), the first
// alternative of each choice, and for a class its most ordinary member.
func generate(b *strings.Builder, re *syntax.Regexp, rep int) {
	switch re.Op {
	case syntax.OpLiteral:
		b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		b.WriteRune(classRune(re.Rune))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte('a')
	case syntax.OpCapture:
		generate(b, re.Sub[0], rep)
	case syntax.OpStar:
		for range rep {
			generate(b, re.Sub[0], rep)
		}
	case syntax.OpPlus:
		for range max(rep, 1) {
			generate(b, re.Sub[0], rep)
		}
	case syntax.OpQuest:
		if rep > 0 {
			generate(b, re.Sub[0], rep)
		}
	case syntax.OpRepeat:
		n := max(re.Min, rep)
		if re.Max >= 0 {
			n = min(n, re.Max)
		}
		for range n {
			generate(b, re.Sub[0], rep)
		}
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			generate(b, sub, rep)
		}
	case syntax.OpAlternate:
		generate(b, re.Sub[0], rep)
	}
}

// classRune picks a member of a character class (pairs of lo, hi): a
// lower-case letter, a digit, an upper-case letter, a hyphen or an
// underscore when the class holds one, else its first member.
func classRune(ranges []rune) rune {
	in := func(r rune) bool {
		for i := 0; i+1 < len(ranges); i += 2 {
			if ranges[i] <= r && r <= ranges[i+1] {
				return true
			}
		}
		return false
	}
	for _, span := range [][2]rune{{'a', 'z'}, {'0', '9'}, {'A', 'Z'}, {'-', '-'}, {'_', '_'}, {'.', '.'}} {
		for r := span[0]; r <= span[1]; r++ {
			if in(r) {
				return r
			}
		}
	}
	if len(ranges) == 0 {
		return 'a'
	}
	return ranges[0]
}
