package rubric

import (
	"encoding/json"
	"strings"
	"sync"
	"text/template"
	"text/template/parse"

	"github.com/rubricmcp/rubric/internal/jsonscan"
	"github.com/rubricmcp/rubric/internal/jsonstr"
)

// measuring is a prompt's template as measured (see Prompt.renderedLen):
// a copy whose fence writes blanks of the length of the fenced text, in
// place of the text, when every fence of the template is printed as it
// is, so that nothing but its length reaches the prompt. It is made when
// first measured; tmpl stays nil for a template that uses a fence's text
// otherwise (passes it to another function, say), which is measured by
// writing it.
type measuring struct {
	once sync.Once
	tmpl *template.Template
	// plan, when not nil, measures the template without executing it.
	planOnce sync.Once
	plan     lengthPlan
}

// lengthPlan returns p's plan for measuring, or nil.
func (p *Prompt) lengthPlan() lengthPlan {
	m := p.measuring
	if m == nil {
		return nil
	}
	m.planOnce.Do(func() { m.plan = planLength(p.tmpl) })
	return m.plan
}

// measureTemplate returns p's template for measuring, or nil.
func (p *Prompt) measureTemplate() *template.Template {
	m := p.measuring
	if m == nil {
		return nil
	}
	m.once.Do(func() {
		for _, t := range p.tmpl.Templates() {
			if t.Tree != nil && !fencesPrinted(t.Tree.Root) {
				return
			}
		}
		c, err := p.tmpl.Clone()
		if err != nil {
			return
		}
		m.tmpl = c.Funcs(template.FuncMap{"fence": measureFence})
	})
	return m.tmpl
}

// fencesPrinted reports whether every call of fence under n is the whole
// of an action that prints it, {{ fence "name" .value }}, with no fence
// among its arguments.
func fencesPrinted(n parse.Node) bool {
	switch x := n.(type) {
	case *parse.ListNode:
		if x == nil {
			return true
		}
		for _, c := range x.Nodes {
			if !fencesPrinted(c) {
				return false
			}
		}
		return true
	case *parse.ActionNode:
		p := x.Pipe
		if len(p.Decl) == 0 && len(p.Cmds) == 1 && len(p.Cmds[0].Args) > 0 {
			if id, ok := p.Cmds[0].Args[0].(*parse.IdentifierNode); ok && id.Ident == "fence" {
				for _, a := range p.Cmds[0].Args[1:] {
					if !fencesPrinted(a) {
						return false
					}
				}
				return true
			}
		}
		return fencesPrinted(p)
	case *parse.PipeNode:
		if x == nil {
			return true
		}
		for _, c := range x.Cmds {
			if !fencesPrinted(c) {
				return false
			}
		}
		return true
	case *parse.CommandNode:
		for _, a := range x.Args {
			if !fencesPrinted(a) {
				return false
			}
		}
		return true
	case *parse.IdentifierNode:
		return x.Ident != "fence"
	case *parse.ChainNode:
		return fencesPrinted(x.Node)
	case *parse.IfNode:
		return fencesPrinted(x.Pipe) && fencesPrinted(x.List) && fencesPrinted(x.ElseList)
	case *parse.RangeNode:
		return fencesPrinted(x.Pipe) && fencesPrinted(x.List) && fencesPrinted(x.ElseList)
	case *parse.WithNode:
		return fencesPrinted(x.Pipe) && fencesPrinted(x.List) && fencesPrinted(x.ElseList)
	case *parse.TemplateNode:
		return fencesPrinted(x.Pipe)
	}
	return true
}

// fenceFrame is what Fence adds to a text besides the name twice: the
// begin and end lines' brackets, spaces and line breaks, and two tags of
// 8 hex digits.
const fenceFrame = len("[begin  ]\n") + len("\n[end  ]") + 2*8

// measureFence is Fence as measured: blanks as long as what Fence
// returns, without the tag's hashing or the fenced copy. A value Fence
// leaves to encoding/json is fenced as Fence fences it, errors included.
func measureFence(name string, v any) (string, error) {
	n := 0
	if text, ok := v.(string); ok {
		n = len(text)
	} else if n, ok = indentedLen(v, 0); !ok {
		return Fence(name, v)
	}
	return blanks(n + 2*len(name) + fenceFrame), nil
}

// indentedLen is the length of what jsonenc.Append writes for v indented
// at the given depth, counted without writing it (nor sorting a map's
// keys); ok is false where jsonenc leaves v to encoding/json.
func indentedLen(v any, depth int) (int, bool) {
	switch x := v.(type) {
	case nil:
		return len("null"), true
	case bool:
		if x {
			return len("true"), true
		}
		return len("false"), true
	case string:
		return jsonstr.Len(x, jsonstr.EncodingJSON), true
	case json.Number:
		return len(x), jsonscan.ValidNumber(string(x))
	case int64:
		return intLen(x), true
	case int:
		return intLen(int64(x)), true
	case []any:
		if x == nil {
			return len("null"), true
		}
		if len(x) == 0 {
			return len("[]"), true
		}
		// [, then each value on a line of its own after a comma but the
		// first, then a line at depth with ].
		n := 1 + len(x) - 1 + len(x)*(1+2*(depth+1)) + 1 + 2*depth + 1
		for _, e := range x {
			m, ok := indentedLen(e, depth+1)
			if !ok {
				return 0, false
			}
			n += m
		}
		return n, true
	case map[string]any:
		if x == nil {
			return len("null"), true
		}
		if len(x) == 0 {
			return len("{}"), true
		}
		// As a list, each value after its quoted key and ": ".
		n := 1 + len(x) - 1 + len(x)*(1+2*(depth+1)+len(": ")) + 1 + 2*depth + 1
		for k, e := range x {
			m, ok := indentedLen(e, depth+1)
			if !ok {
				return 0, false
			}
			n += jsonstr.Len(k, jsonstr.EncodingJSON) + m
		}
		return n, true
	}
	return 0, false
}

// intLen is the length of x in decimal.
func intLen(x int64) int {
	n := 1
	if x < 0 {
		n++ // the sign; -9223372036854775808's digits are counted below
	}
	for x <= -10 || x >= 10 {
		x /= 10
		n++
	}
	return n
}

// blanks returns n spaces, a slice of one string shared by all calls
// when n is not too large.
func blanks(n int) string {
	if s := blankText(); n <= len(s) {
		return s[:n]
	}
	return strings.Repeat(" ", n)
}

var blankText = sync.OnceValue(func() string { return strings.Repeat(" ", 64<<10) })

// A lengthPlan measures a template made of text and of actions of three
// shapes, without executing it: {{ .a.b }}, {{ fence "name" .a.b }} and
// {{ fence "name" (default "text" .a.b) }}, which is all a prompt that
// shows a definition's fields needs (text/template's reflection costs
// more than the measuring itself, at thousands of tools a run). It
// answers only where it is sure to agree with the template: each field
// present in a map[string]any and a printed value a string, a
// json.Number or a bool; anywhere else (a missing key, a value of
// another type, a fence encoding/json writes) the template is executed.
type lengthPlan []lengthStep

// lengthStep is one node of a lengthPlan: fixed text (len(text)), or a
// field printed or fenced.
type lengthStep struct {
	text  int
	path  []string // the field's keys from dot; nil for text
	fence string   // the fence's name, when the field is fenced
	fenced,
	defaulted bool // the fence's value is default(def, field)
	def string
}

// planLength returns the plan that measures t, or nil when t holds
// anything else (see lengthPlan).
func planLength(t *template.Template) lengthPlan {
	if t == nil || t.Tree == nil || t.Tree.Root == nil || len(t.Templates()) != 1 {
		return nil
	}
	var plan lengthPlan
	for _, n := range t.Tree.Root.Nodes {
		switch x := n.(type) {
		case *parse.TextNode:
			plan = append(plan, lengthStep{text: len(x.Text)})
		case *parse.ActionNode:
			s, ok := planAction(x.Pipe)
			if !ok {
				return nil
			}
			plan = append(plan, s)
		default:
			return nil
		}
	}
	return plan
}

// planAction plans the action whose pipeline is p: a field, or a fence
// of a field or of default(text, field).
func planAction(p *parse.PipeNode) (lengthStep, bool) {
	if p == nil || p.IsAssign || len(p.Decl) > 0 || len(p.Cmds) != 1 {
		return lengthStep{}, false
	}
	args := p.Cmds[0].Args
	if len(args) == 1 {
		if f, ok := args[0].(*parse.FieldNode); ok {
			return lengthStep{path: f.Ident}, true
		}
		return lengthStep{}, false
	}
	if id, ok := args[0].(*parse.IdentifierNode); !ok || id.Ident != "fence" || len(args) != 3 {
		return lengthStep{}, false
	}
	name, ok := args[1].(*parse.StringNode)
	if !ok {
		return lengthStep{}, false
	}
	s := lengthStep{fenced: true, fence: name.Text}
	switch v := args[2].(type) {
	case *parse.FieldNode:
		s.path = v.Ident
		return s, true
	case *parse.PipeNode:
		if v.IsAssign || len(v.Decl) > 0 || len(v.Cmds) != 1 || len(v.Cmds[0].Args) != 3 {
			return lengthStep{}, false
		}
		a := v.Cmds[0].Args
		id, ok1 := a[0].(*parse.IdentifierNode)
		def, ok2 := a[1].(*parse.StringNode)
		f, ok3 := a[2].(*parse.FieldNode)
		if !ok1 || !ok2 || !ok3 || id.Ident != "default" {
			return lengthStep{}, false
		}
		s.path, s.defaulted, s.def = f.Ident, true, def.Text
		return s, true
	}
	return lengthStep{}, false
}

// measure is the length of what the plan's template writes for input;
// ok is false where the template must be executed to know.
func (plan lengthPlan) measure(input any) (n int, ok bool) {
	if plan == nil {
		return 0, false
	}
	for _, s := range plan {
		if s.path == nil {
			n += s.text
			continue
		}
		v, ok := field(input, s.path)
		if !ok {
			return 0, false
		}
		if !s.fenced {
			m, ok := printedLen(v)
			if !ok {
				return 0, false
			}
			n += m
			continue
		}
		if s.defaulted {
			v = orDefault(s.def, v)
		}
		text, isText := v.(string)
		m := len(text)
		if !isText {
			if m, ok = indentedLen(v, 0); !ok {
				return 0, false
			}
		}
		n += m + 2*len(s.fence) + fenceFrame
	}
	return n, true
}

// field is the value at path under dot, when every step is a key present
// in a map[string]any.
func field(dot any, path []string) (any, bool) {
	for _, k := range path {
		m, ok := dot.(map[string]any)
		if !ok {
			return nil, false
		}
		if dot, ok = m[k]; !ok {
			return nil, false
		}
	}
	return dot, true
}

// printedLen is the length of v as a template prints it, for the values
// printed as they are written.
func printedLen(v any) (int, bool) {
	switch x := v.(type) {
	case string:
		return len(x), true
	case json.Number:
		return len(x), true
	case bool:
		if x {
			return len("true"), true
		}
		return len("false"), true
	}
	return 0, false
}
