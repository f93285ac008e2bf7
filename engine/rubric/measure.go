package rubric

import (
	"encoding/json"
	"fmt"
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
	plan     *lengthPlan
}

// lengthPlan returns p's plan for measuring, or nil.
func (p *Prompt) lengthPlan() *lengthPlan {
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

// A lengthPlan measures a template without executing it
// (text/template's reflection costs more than the measuring itself, at
// thousands of tools a run): it is the template's nodes, vetted to be
// text, ranges and actions whose pipelines are a field, or a call of
// fence, default, join or printf on string constants, fields and such
// calls. That is all a prompt that shows a definition's fields needs,
// and a list of tools (TDQS's coherence question, which the template
// measured in 32 allocations a tool). It answers only where it is
// sure to agree with the template: each field present in a
// map[string]any, a range over a []any, a list joined a []any and a
// printed value a string, a json.Number or a bool; anywhere else (a
// missing key, a value of another type, a fence encoding/json writes)
// the template is executed.
type lengthPlan struct {
	nodes []parse.Node
	// constants holds each string constant of the nodes as an any, made
	// once: the value of default("(none)", ...), say, where making it a
	// call was an allocation.
	constants map[*parse.StringNode]any
}

// planLength returns the plan that measures t, or nil when t holds
// anything else (see lengthPlan).
func planLength(t *template.Template) *lengthPlan {
	if t == nil || t.Tree == nil || t.Tree.Root == nil || len(t.Templates()) != 1 {
		return nil
	}
	plan := &lengthPlan{nodes: t.Tree.Root.Nodes, constants: map[*parse.StringNode]any{}}
	if !plan.planned(plan.nodes) {
		return nil
	}
	return plan
}

// planned reports whether a plan can measure nodes.
func (plan *lengthPlan) planned(nodes []parse.Node) bool {
	for _, n := range nodes {
		switch x := n.(type) {
		case *parse.TextNode:
		case *parse.ActionNode:
			if !plan.plannedPipe(x.Pipe, true) {
				return false
			}
		case *parse.RangeNode:
			if !plan.plannedPipe(x.Pipe, false) || !plan.planned(x.List.Nodes) || x.ElseList != nil && !plan.planned(x.ElseList.Nodes) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// plannedPipe reports whether p is one command, with no variable, that
// is a field or a planned call; fence only when printed, the whole of
// an action (printed is true), where its text's length is all that
// counts.
func (plan *lengthPlan) plannedPipe(p *parse.PipeNode, printed bool) bool {
	return p != nil && !p.IsAssign && len(p.Decl) == 0 && len(p.Cmds) == 1 && plan.plannedCall(p.Cmds[0].Args, printed)
}

// plannedCall reports whether args is a field, or a call of fence(name,
// value), default(value, value), join(sep, value) or printf(format,
// values...) with the name, separator and format string constants.
func (plan *lengthPlan) plannedCall(args []parse.Node, printed bool) bool {
	if len(args) == 1 {
		_, ok := args[0].(*parse.FieldNode)
		return ok
	}
	id, ok := args[0].(*parse.IdentifierNode)
	if !ok {
		return false
	}
	_, constant := args[1].(*parse.StringNode)
	switch id.Ident {
	case "fence":
		return printed && constant && len(args) == 3 && plan.plannedArg(args[2])
	case "join":
		return constant && len(args) == 3 && plan.plannedArg(args[2])
	case "default":
		return len(args) == 3 && plan.plannedArg(args[1]) && plan.plannedArg(args[2])
	case "printf":
		for _, a := range args[2:] {
			if !plan.plannedArg(a) {
				return false
			}
		}
		return constant
	}
	return false
}

// plannedArg reports whether n is a string constant, a field or a
// planned call in parentheses.
func (plan *lengthPlan) plannedArg(n parse.Node) bool {
	switch x := n.(type) {
	case *parse.StringNode:
		plan.constants[x] = x.Text
		return true
	case *parse.FieldNode:
		return true
	case *parse.PipeNode:
		return len(x.Cmds) == 1 && len(x.Cmds[0].Args) > 1 && plan.plannedPipe(x, false)
	}
	return false
}

// measure is the length of what the plan's template writes for input;
// ok is false where the template must be executed to know.
func (plan *lengthPlan) measure(input any) (n int, ok bool) {
	if plan == nil {
		return 0, false
	}
	return plan.measureNodes(plan.nodes, input)
}

// measureNodes is the length of what planned nodes write with dot.
func (plan *lengthPlan) measureNodes(nodes []parse.Node, dot any) (n int, ok bool) {
	for _, node := range nodes {
		m := 0
		switch x := node.(type) {
		case *parse.TextNode:
			m, ok = len(x.Text), true
		case *parse.ActionNode:
			m, ok = plan.measureAction(x.Pipe.Cmds[0].Args, dot)
		case *parse.RangeNode:
			m, ok = plan.measureRange(x, dot)
		}
		if !ok {
			return 0, false
		}
		n += m
	}
	return n, true
}

// measureAction is the length of what an action prints: a fence's text
// framed, or the value of a field or call.
func (plan *lengthPlan) measureAction(args []parse.Node, dot any) (int, bool) {
	if id, ok := args[0].(*parse.IdentifierNode); ok && id.Ident == "fence" {
		v, ok := plan.evalArg(args[2], dot)
		if !ok {
			return 0, false
		}
		text, isText := v.(string)
		m := len(text)
		if !isText {
			if m, ok = indentedLen(v, 0); !ok {
				return 0, false
			}
		}
		return m + 2*len(args[1].(*parse.StringNode).Text) + fenceFrame, true
	}
	v, ok := plan.evalCall(args, dot)
	if !ok {
		return 0, false
	}
	return printedLen(v)
}

// measureRange is the length of what a range over a list writes: its
// body for each item, with the item as dot, or its else for none.
func (plan *lengthPlan) measureRange(r *parse.RangeNode, dot any) (int, bool) {
	v, ok := plan.evalCall(r.Pipe.Cmds[0].Args, dot)
	items, isList := v.([]any)
	if !ok || !isList {
		return 0, false
	}
	if len(items) == 0 {
		if r.ElseList == nil {
			return 0, true
		}
		return plan.measureNodes(r.ElseList.Nodes, dot)
	}
	n := 0
	for _, item := range items {
		m, ok := plan.measureNodes(r.List.Nodes, item)
		if !ok {
			return 0, false
		}
		n += m
	}
	return n, true
}

// evalCall is the value of a planned field or call (fence aside), as
// the template computes it: the same functions on the same values.
func (plan *lengthPlan) evalCall(args []parse.Node, dot any) (any, bool) {
	if len(args) == 1 {
		return field(dot, args[0].(*parse.FieldNode).Ident)
	}
	switch args[0].(*parse.IdentifierNode).Ident {
	case "default":
		def, ok1 := plan.evalArg(args[1], dot)
		v, ok2 := plan.evalArg(args[2], dot)
		return orDefault(def, v), ok1 && ok2
	case "join":
		// The template refuses anything but a list (nil included).
		v, ok := plan.evalArg(args[2], dot)
		items, isList := v.([]any)
		if !ok || !isList {
			return nil, false
		}
		return joinAny(items, args[1].(*parse.StringNode).Text), true
	case "printf":
		var buf [8]any
		values := buf[:0]
		for _, a := range args[2:] {
			v, ok := plan.evalArg(a, dot)
			if !ok {
				return nil, false
			}
			values = append(values, v)
		}
		return fmt.Sprintf(args[1].(*parse.StringNode).Text, values...), true
	}
	return nil, false
}

// evalArg is the value of a planned argument.
func (plan *lengthPlan) evalArg(n parse.Node, dot any) (any, bool) {
	switch x := n.(type) {
	case *parse.StringNode:
		return plan.constants[x], true
	case *parse.FieldNode:
		return field(dot, x.Ident)
	case *parse.PipeNode:
		return plan.evalCall(x.Cmds[0].Args, dot)
	}
	return nil, false
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
