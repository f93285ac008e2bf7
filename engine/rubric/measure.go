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

// indentedLen is the length of what appendIndented writes for v at the
// given depth, counted without writing it (nor sorting a map's keys); ok
// is false where appendIndented leaves v to encoding/json.
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

// blanks returns n spaces, a slice of one string shared by all calls
// when n is not too large.
func blanks(n int) string {
	if s := blankText(); n <= len(s) {
		return s[:n]
	}
	return strings.Repeat(" ", n)
}

var blankText = sync.OnceValue(func() string { return strings.Repeat(" ", 64<<10) })
