package mcpserver

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/rubricmcp/rubric/internal/nearest"
	"github.com/rubricmcp/rubric/internal/termtext"
)

// params are a tool's arguments as its input schema declares them: the
// arguments are checked against them before the tool's work starts, so
// that a misspelt argument is refused (every schema says
// additionalProperties: false) rather than left out unnoticed, and one of
// the wrong type is named rather than read as missing.
type params struct {
	tool     string
	names    []string // sorted
	props    map[string]param
	required []string
}

// param is one argument: its JSON type and its description.
type param struct {
	Type        string `json:"type"`
	Description string `json:"description"`
}

// paramsOf reads the top-level properties of a tool's input schema.
func paramsOf(tool, schema string) params {
	var s struct {
		Properties map[string]param `json:"properties"`
		Required   []string         `json:"required"`
	}
	if err := json.Unmarshal([]byte(schema), &s); err != nil {
		panic(fmt.Sprintf("mcpserver: the input schema of %s is not JSON: %v", tool, err))
	}
	p := params{tool: tool, props: s.Properties, required: s.Required}
	for n := range s.Properties {
		p.names = append(p.names, n)
	}
	slices.Sort(p.names)
	return p
}

// maxArg bounds a string argument, in bytes: every one is a name, an
// id, a path, a URL or a judge reference, none of which is longer than
// a path may be (PATH_MAX). A longer one is refused without being
// quoted back, where its error would have copied it, a megabyte of it,
// into the model's context.
const maxArg = 4096

// quoted is s as an error message quotes what a client sent: Go-quoted,
// so that a control character is seen rather than obeyed, and cut short.
func quoted(s string) string { return termtext.QuoteStart([]byte(s), 80) }

// tooLong refuses the string argument name, n bytes long, saying what
// it should hold.
func tooLong(name string, n int, what string) error {
	return fmt.Errorf("%s is %d bytes long, more than the %d an argument may be: %s", name, n, maxArg, what)
}

// check refuses an argument the tool does not declare, naming the one
// meant when it is near, one whose value is not of its declared type, a
// string longer than maxArg, and a required one left out or empty:
// "give report_id", where the tool would have looked up the empty id
// and said there is no report "".
func (p params) check(args map[string]any) error {
	given := make([]string, 0, len(args))
	for k := range args {
		given = append(given, k)
	}
	slices.Sort(given)
	for _, k := range given {
		q, ok := p.props[k]
		if !ok {
			near := ""
			if n := nearest.Key(k, p.names); n != "" {
				near = fmt.Sprintf(" (did you mean %q?)", n)
			}
			return fmt.Errorf("%s has no argument %s%s: its arguments are %s", p.tool, quoted(k), near, strings.Join(p.names, ", "))
		}
		if got := jsonType(args[k]); got != q.Type {
			return fmt.Errorf("%s must be %s, not %s: %s", k, article(q.Type), article(got), q.Description)
		}
		if v, ok := args[k].(string); ok && len(v) > maxArg {
			return tooLong(k, len(v), q.Description)
		}
	}
	for _, k := range p.required {
		if v, ok := args[k]; !ok || v == "" {
			return fmt.Errorf("give %s: %s", k, p.props[k].Description)
		}
	}
	return nil
}

// jsonType is the JSON Schema type of a decoded JSON value.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64, json.Number, int, int64:
		return "number"
	case []any:
		return "array"
	}
	return "object"
}

// article is a type with its article, as "a string", "an object".
func article(t string) string {
	switch t {
	case "null":
		return "null"
	case "object", "array":
		return "an " + t
	}
	return "a " + t
}
