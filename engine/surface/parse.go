package surface

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
)

// The shapes Parse recognises, as recorded in Surface.Format.
const (
	FormatToolsList = "tools/list" // {"tools":[...]}, or inside {"result":{...}}
	FormatArray     = "array"      // [...]
	FormatCapture   = "capture"    // {"server":{...},"tools":[...]}
	FormatRegistry  = "registry"   // {"release","server","tools":[{"name","definition","qualityScore"}]}
)

// Error is a malformed surface: it names the file and the place, as
// line:col for JSON syntax and as a JSON path for shape errors.
type Error struct {
	File string
	Line int    // 1-based; 0 when Path is used instead
	Col  int    // 1-based
	Path string // such as $.tools[3].name
	Msg  string
}

func (e *Error) Error() string {
	switch {
	case e.Line > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	case e.Path != "":
		return fmt.Sprintf("%s: %s: %s", e.File, e.Path, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.File, e.Msg)
}

// Parse reads a surface from data; name is used in errors and as Source.
//
// It accepts a tools/list result ({"tools":[...]}), the same inside a
// JSON-RPC response ({"result":{"tools":[...]}}), a bare array of tools, a
// capture ({"server":{...},"tools":[...]}) and a registry capture
// ({"release":...,"server":{...},"tools":[{"name","definition","qualityScore"}]}).
// Every tool must be an object with a non-empty string name, and names must
// be unique.
func Parse(name string, data []byte) (*Surface, error) {
	p := parser{file: name, data: data}
	return p.parse()
}

type parser struct {
	file string
	data []byte
}

func (p *parser) errAt(path, format string, args ...any) error {
	return &Error{File: p.file, Path: path, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) syntax(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// Offset counts the bytes read, the offending one included.
		off := se.Offset
		if off > 0 && off <= int64(len(p.data)) && !strings.Contains(se.Error(), "end of JSON input") {
			off--
		}
		line, col := position(p.data, off)
		return &Error{File: p.file, Line: line, Col: col, Msg: "invalid JSON: " + se.Error()}
	}
	if errors.Is(err, errEmpty) {
		return &Error{File: p.file, Msg: "empty file: want a tools/list result, an array of tools or a capture"}
	}
	return &Error{File: p.file, Msg: "invalid JSON: " + err.Error()}
}

var errEmpty = errors.New("empty")

// position turns a byte offset into a 1-based line and column.
func position(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

func (p *parser) parse() (*Surface, error) {
	trimmed := bytes.TrimSpace(p.data)
	if len(trimmed) == 0 {
		return nil, p.syntax(errEmpty)
	}
	if !json.Valid(p.data) {
		var v any
		return nil, p.syntax(json.Unmarshal(p.data, &v))
	}
	s := &Surface{Source: p.file}
	if trimmed[0] == '[' {
		var raw []json.RawMessage
		if err := json.Unmarshal(p.data, &raw); err != nil {
			return nil, p.syntax(err)
		}
		s.Format = FormatArray
		return s, p.tools(s, raw, "$", false)
	}
	if trimmed[0] != '{' {
		return nil, p.errAt("$", "want an object or an array of tools, found %s", kindOfRaw(trimmed))
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(p.data, &top); err != nil {
		return nil, p.syntax(err)
	}
	path := "$"
	if res, ok := top["result"]; ok {
		if e, ok := top["error"]; ok {
			return nil, p.errAt("$.error", "the server answered with an error: %s", bytes.TrimSpace(e))
		}
		path = "$.result"
		top = nil
		if err := json.Unmarshal(res, &top); err != nil || top == nil {
			return nil, p.errAt(path, "want an object holding tools, found %s", kindOfRaw(res))
		}
	}
	rawTools, ok := top["tools"]
	if !ok {
		return nil, p.errAt(path, "no \"tools\" member: want a tools/list result, an array of tools or a capture")
	}
	var raw []json.RawMessage
	if err := json.Unmarshal(rawTools, &raw); err != nil {
		return nil, p.errAt(path+".tools", "want an array of tools, found %s", kindOfRaw(rawTools))
	}
	if srv, ok := top["server"]; ok {
		if err := p.decodeObject(srv, &s.Server, path+".server", "an object"); err != nil {
			return nil, err
		}
	}
	if f, ok := top["format"]; ok {
		// A surface embedded in a report keeps its original format and source.
		var format, source string
		_ = json.Unmarshal(f, &format)
		_ = json.Unmarshal(top["source"], &source)
		if format != "" {
			defer func() { s.Format, s.Source = format, source }()
		}
	}
	_, hasRelease := top["release"]
	registry := hasRelease || (len(raw) > 0 && isRegistryEntry(raw[0]))
	switch {
	case registry:
		s.Format = FormatRegistry
		if rel, ok := top["release"]; ok {
			if s.Server == nil {
				s.Server = map[string]any{}
			}
			var v any
			if json.Unmarshal(rel, &v) == nil && v != nil {
				s.Server["release"] = v
			}
		}
	case s.Server != nil:
		s.Format = FormatCapture
	default:
		s.Format = FormatToolsList
	}
	return s, p.tools(s, raw, path+".tools", registry)
}

func isRegistryEntry(raw json.RawMessage) bool {
	var probe struct {
		Definition  json.RawMessage `json:"definition"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	return json.Unmarshal(raw, &probe) == nil && probe.Definition != nil && probe.InputSchema == nil
}

// tools decodes each tool, in parallel for large surfaces, then checks names.
func (p *parser) tools(s *Surface, raw []json.RawMessage, path string, registry bool) error {
	s.Tools = make([]Tool, len(raw))
	errs := make([]error, len(raw))
	decode := func(i int) {
		s.Tools[i], errs[i] = p.tool(raw[i], fmt.Sprintf("%s[%d]", path, i), registry)
	}
	workers := runtime.GOMAXPROCS(0)
	if len(raw) < 256 || workers < 2 {
		for i := range raw {
			decode(i)
		}
	} else {
		var wg sync.WaitGroup
		chunk := (len(raw) + workers - 1) / workers
		for lo := 0; lo < len(raw); lo += chunk {
			hi := min(lo+chunk, len(raw))
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := lo; i < hi; i++ {
					decode(i)
				}
			}()
		}
		wg.Wait()
	}
	if err := firstError(errs); err != nil {
		return err
	}
	seen := make(map[string]int, len(s.Tools))
	for i, t := range s.Tools {
		if j, dup := seen[t.Name]; dup {
			return p.errAt(fmt.Sprintf("%s[%d].name", path, i), "duplicate tool name %q (first at %s[%d])", t.Name, path, j)
		}
		seen[t.Name] = i
	}
	return nil
}

func firstError(errs []error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func (p *parser) tool(raw json.RawMessage, path string, registry bool) (Tool, error) {
	var def map[string]any
	var published map[string]any
	if registry {
		var entry map[string]any
		if err := p.decodeObject(raw, &entry, path, "a registry entry object"); err != nil {
			return Tool{}, err
		}
		d, ok := entry["definition"].(map[string]any)
		if !ok {
			return Tool{}, p.errAt(path+".definition", "want the tool's definition object, found %s", kindOf(entry["definition"]))
		}
		def = d
		if outer, ok := entry["name"].(string); ok {
			if inner, has := def["name"]; !has {
				def["name"] = outer
			} else if inner != outer {
				return Tool{}, p.errAt(path+".name", "entry name %q differs from its definition's name %v", outer, inner)
			}
		}
		published = map[string]any{}
		for k, v := range entry {
			if k != "definition" && k != "name" {
				published[k] = v
			}
		}
	} else if err := p.decodeObject(raw, &def, path, "a tool object"); err != nil {
		return Tool{}, err
	}
	name, ok := def["name"].(string)
	if !ok {
		if _, has := def["name"]; has {
			return Tool{}, p.errAt(path+".name", "want a string, found %s", kindOf(def["name"]))
		}
		return Tool{}, p.errAt(path, "tool has no \"name\"")
	}
	if name == "" {
		return Tool{}, p.errAt(path+".name", "tool name is empty")
	}
	t := NewTool(name, def)
	t.Published = published
	return t, nil
}

// decodeObject decodes raw into *m, which must be a JSON object.
func (p *parser) decodeObject(raw json.RawMessage, m *map[string]any, path, want string) error {
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return p.errAt(path, "want %s, found %s", want, kindOfRaw(raw))
	}
	if err := json.Unmarshal(raw, m); err != nil {
		return p.errAt(path, "cannot read %s: %s", want, strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

func kindOfRaw(raw []byte) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return "invalid JSON"
	}
	return kindOf(v)
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}
