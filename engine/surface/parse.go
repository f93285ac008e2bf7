package surface

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
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
	// Format is the format the document was read as (FormatRegistry...)
	// when the error was met among its tools; "" when it was met before
	// the format was known (JSON that does not parse, no tools member).
	Format string
}

// Error formats the error as file:line:col: msg, or file: path: msg.
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

// ParseToolsList reads data as a tools/list result ({"tools":[...]}) and
// as nothing else, for a transport that knows what it holds: a live
// server's tools are never taken for a registry capture, whatever keys
// the first of them carries.
func ParseToolsList(name string, data []byte) (*Surface, error) {
	p := parser{file: name, data: data, toolsList: true}
	return p.parse()
}

// ParseLean reads data as Parse does, but keeps of each tool its name,
// canonical JSON and hash, not its decoded definition: Def is nil, and
// Tool.Definition decodes the canonical JSON again when a definition is
// read. A large tools array is decoded tool by tool, each tree let go
// once its canonical JSON is written, so that a surface of 100,000 tools
// never holds all of their trees at once (they weigh about four times
// the text). The canonical JSON of a tool already written canonically is
// the piece of data it is, not a copy: data must not be written to
// while the surface is in use.
func ParseLean(name string, data []byte) (*Surface, error) {
	p := parser{file: name, data: data, lean: true}
	return p.parse()
}

type parser struct {
	file string
	data []byte
	// lean keeps no tool's tree: see ParseLean.
	lean bool
	// elems, when a lean parse split the tools array off the document,
	// are each tool's text, decoded one by one as the tools are built;
	// the document decoded holds an empty array in their place.
	elems [][]byte
	// whole forbids splitting the document: a lean parse that met a
	// tool it could not decode reads the whole document again, for the
	// error message.
	whole bool
	// toolsList forbids guessing the shape: see ParseToolsList.
	toolsList bool
	// set is an installed set written by WriteTo: each tool is named
	// SERVER/TOOL, as Union names it.
	set bool
}

func (p *parser) errAt(path, format string, args ...any) error {
	return &Error{File: p.file, Path: path, Msg: fmt.Sprintf(format, args...)}
}

// syntax words a JSON decoding error with its line and column.
func (p *parser) syntax(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		line, col := position(p.data, te.Offset)
		if n, ok := strings.CutPrefix(te.Value, "number "); ok {
			// The offset is past the number: point at its start.
			if off := bytes.LastIndex(p.data[:min(te.Offset, int64(len(p.data)))], []byte(n)); off >= 0 {
				line, col = position(p.data, int64(off))
			}
			// Valid JSON, but past what a float64 holds (1e400), or a
			// number a million digits long: say so in a line, not in the
			// number.
			return &Error{File: p.file, Line: line, Col: col, Msg: fmt.Sprintf("the number %s is too large to read: rubric reads numbers up to about 1.8e308", shortText(n))}
		}
		return &Error{File: p.file, Line: line, Col: col, Msg: "cannot read the JSON: " + shortText(strings.TrimPrefix(err.Error(), "json: "))}
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// Offset counts the bytes read, the offending one included.
		off := se.Offset
		if off > 0 && off <= int64(len(p.data)) && !strings.Contains(se.Error(), "end of JSON input") {
			off--
		}
		line, col := position(p.data, off)
		if off < int64(len(utf8BOM)) && bytes.HasPrefix(p.data, utf8BOM) {
			// An editor on Windows may save one; Go's decoder names
			// its first byte as a character, 'ï', which says nothing.
			return &Error{File: p.file, Line: 1, Col: 1, Msg: "invalid JSON: the file begins with a UTF-8 byte order mark (bytes EF BB BF), which JSON does not allow: save it as UTF-8 without one"}
		}
		return &Error{File: p.file, Line: line, Col: col, Msg: "invalid JSON: " + se.Error()}
	}
	if errors.Is(err, errEmpty) {
		return &Error{File: p.file, Msg: "empty file: want a tools/list result, an array of tools or a capture"}
	}
	return &Error{File: p.file, Msg: "invalid JSON: " + err.Error()}
}

var errEmpty = errors.New("empty")

// utf8BOM is the byte order mark some editors write at the start of a
// UTF-8 file.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

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
	if len(bytes.TrimSpace(p.data)) == 0 {
		return nil, p.syntax(errEmpty)
	}
	// A large tools array is decoded on every core; anything else, or
	// anything the split decoder is unsure of, in one pass, which also
	// words the error. The tools are then canonicalised and hashed in
	// parallel.
	var doc any
	ok := false
	if p.lean && !p.whole {
		var sp split
		if sp, ok = splitTools(p.data); ok {
			if doc, ok = decodeOuter(p.data, sp); ok {
				p.elems = sp.elems
			}
		}
	}
	if !ok && !p.lean {
		doc, ok = decodeParallel(p.data)
	}
	if !ok {
		if err := json.Unmarshal(p.data, &doc); err != nil {
			return nil, p.syntax(err)
		}
	}
	s := &Surface{Source: p.file}
	if list, ok := doc.([]any); ok {
		s.Format = FormatArray
		return p.done(s, p.tools(s, p.list(list), "$", false))
	}
	top, ok := doc.(map[string]any)
	if !ok {
		return nil, p.errAt("$", "want an object or an array of tools, found %s", kindOf(doc))
	}
	path := "$"
	if res, ok := top["result"]; ok {
		if e, ok := top["error"]; ok {
			return nil, p.errAt("$.error", "the server answered with an error: %s", Canonical(e))
		}
		path = "$.result"
		if top, ok = res.(map[string]any); !ok {
			return nil, p.errAt(path, "want an object holding tools, found %s", kindOf(res))
		}
	}
	rawTools, ok := top["tools"]
	if !ok {
		return nil, p.errAt(path, "no \"tools\" member: want a tools/list result, an array of tools or a capture")
	}
	list, ok := rawTools.([]any)
	if !ok {
		return nil, p.errAt(path+".tools", "want an array of tools, found %s", kindOf(rawTools))
	}
	if srv, ok := top["server"]; ok {
		if s.Server, ok = srv.(map[string]any); !ok {
			return nil, p.errAt(path+".server", "want an object, found %s", kindOf(srv))
		}
	}
	tl := p.list(list)
	_, hasRelease := top["release"]
	registry := !p.toolsList && (hasRelease || (tl.len() > 0 && isRegistryEntry(tl.first())))
	if f, ok := top["format"].(string); ok && f != "" {
		// A surface written by WriteTo (embedded in a report, or sent by a
		// transport plugin) keeps its original format and source, and its
		// format, not a guess, says whether the tools are registry entries.
		registry = f == FormatRegistry
		p.set = f == FormatSet
		source, _ := top["source"].(string)
		var warnings []string
		if ws, ok := top["warnings"].([]any); ok {
			for _, w := range ws {
				if w, ok := w.(string); ok {
					warnings = append(warnings, w)
				}
			}
		}
		defer func() { s.Format, s.Source, s.Warnings = f, source, warnings }()
	}
	switch {
	case registry:
		s.Format = FormatRegistry
		if rel := top["release"]; rel != nil {
			if s.Server == nil {
				s.Server = map[string]any{}
			}
			s.Server["release"] = rel
		}
	case s.Server != nil:
		s.Format = FormatCapture
	default:
		s.Format = FormatToolsList
	}
	if c, ok := top["nextCursor"].(string); ok && c != "" {
		// A tools/list result that names a next page is one page of the
		// list: what is scored is only what it holds, and the report
		// says so.
		if len(c) > 64 {
			c = strings.ToValidUTF8(c[:64], "") + "…"
		}
		s.Warnings = append(s.Warnings, fmt.Sprintf("%s.nextCursor is %s: the file holds one page of the server's tools/list, and the pages after it are not scored; capture every page (rubric reads them all from the server itself: rubric score URL, or rubric score -- COMMAND)", path, strconv.Quote(c)))
	}
	return p.done(s, p.tools(s, tl, path+".tools", registry))
}

// errUndecodable is a tool of a lean parse that could not be decoded:
// the document is read again whole, which words the error.
var errUndecodable = errors.New("undecodable tool")

// done is parse's end: a lean parse that met a tool it could not decode
// reads the document again whole.
func (p *parser) done(s *Surface, err error) (*Surface, error) {
	if errors.Is(err, errUndecodable) {
		q := parser{file: p.file, data: p.data, lean: true, whole: true, toolsList: p.toolsList}
		return q.parse()
	}
	if se := (*Error)(nil); errors.As(err, &se) && se.Format == "" {
		se.Format = s.Format
	}
	return s, err
}

// toolList is the tools array: its items decoded, or, in a lean parse
// that split the array off, each tool's text.
type toolList struct {
	vals  []any
	elems [][]byte
}

// list is the tools array of a document whose array decoded as list.
func (p *parser) list(list []any) toolList {
	if p.elems != nil {
		return toolList{elems: p.elems}
	}
	return toolList{vals: list}
}

func (l toolList) len() int {
	if l.elems != nil {
		return len(l.elems)
	}
	return len(l.vals)
}

// first is the first tool, decoded.
func (l toolList) first() any {
	if l.elems == nil {
		return l.vals[0]
	}
	v, _ := newDecoder().decodeOrUnmarshal(l.elems[0])
	return v
}

func isRegistryEntry(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	_, def := m["definition"]
	_, schema := m["inputSchema"]
	return def && !schema
}

// tools builds each tool, in parallel for large surfaces, then checks names.
func (p *parser) tools(s *Surface, list toolList, path string, registry bool) error {
	n := list.len()
	s.Tools = make([]Tool, n)
	errs := make([]error, n)
	// odd[i] names the text members of tool i that are not strings.
	odd := make([][]string, n)
	chunks(n, 256, func(lo, hi int) {
		var sl slab
		var d *decoder
		var cc canonicalCheck
		if list.elems != nil {
			d = newDecoder()
		}
		for i := lo; i < hi; i++ {
			v, raw := any(nil), []byte(nil)
			if d == nil {
				v = list.vals[i]
			} else {
				raw = list.elems[i]
				// A tool already in canonical form is kept as the piece
				// of the document it is (only a lean parse splits the
				// tools off, and it owns the document from then on).
				if name, server, ok := cc.alreadyCanonical(raw); ok && !registry {
					c := raw[:len(raw):len(raw)]
					s.Tools[i] = Tool{Name: name, Canonical: c, Hash: HashBytes(c)}
					if p.set && server != nil {
						s.Tools[i].Name = *server + "/" + name
					}
					continue
				}
				var ok bool
				if v, ok = d.decodeOrUnmarshal(raw); !ok {
					errs[i] = errUndecodable
					return
				}
			}
			s.Tools[i], errs[i] = p.tool(&sl, v, raw, i, path, registry)
			if errs[i] == nil {
				odd[i] = notText(v, registry)
			}
		}
	})
	for _, e := range errs {
		if errors.Is(e, errUndecodable) {
			return e
		}
	}
	if err := firstError(errs); err != nil {
		return err
	}
	s.Warnings = append(s.Warnings, notTextWarnings(s.Tools, odd)...)
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

// tool builds the tool of v, the i-th item of the array at list; raw,
// when known, is its text.
func (p *parser) tool(sl *slab, v any, raw []byte, i int, list string, registry bool) (Tool, error) {
	def, ok := v.(map[string]any)
	path := list + "[" + strconv.Itoa(i) + "]"
	if registry {
		entry := def
		if !ok {
			return Tool{}, p.errAt(path, "want a registry entry object, found %s", kindOf(v))
		}
		if def, ok = entry["definition"].(map[string]any); !ok {
			return Tool{}, p.errAt(path+".definition", "want the tool's definition object, found %s", kindOf(entry["definition"]))
		}
		if outer, ok := entry["name"].(string); ok {
			if inner, has := def["name"]; !has {
				def["name"] = outer
			} else if inner != outer {
				return Tool{}, p.errAt(path+".name", "entry name %q differs from its definition's name %v", outer, inner)
			}
		}
		// What the registry published beside the definition (its
		// qualityScore) is no part of the tool: calibration reads it from
		// the capture (package calibrate).
	} else if !ok {
		return Tool{}, p.errAt(path, "want a tool object, found %s", kindOf(v))
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
	if d := depth(def, MaxDepth+1); d > MaxDepth {
		return Tool{}, p.errAt(path, "tool %q nests more than %d levels deep; rubric reads definitions up to %d levels (the deepest published ones nest about 20)", shortText(name), MaxDepth, MaxDepth)
	}
	c := sl.canonical(def)
	t := Tool{Name: name, Def: def, Canonical: c, Hash: HashBytes(c)}
	if p.set {
		if srv, ok := def[ServerKey].(string); ok {
			t.Name = srv + "/" + name
		}
	}
	// The canonical JSON writes -0 as 0: a definition that holds a
	// negative zero keeps its tree, so that Definition gives back what
	// the server sent.
	if p.lean && !((raw == nil || bytes.Contains(raw, []byte("-0"))) && negativeZero(def)) {
		t.Def = nil
	}
	return t, nil
}

// textMembers are the members of a tool the MCP schema gives as strings
// and the rubrics read as text.
var textMembers = []string{"description", "title"}

// notText returns the members of textMembers that the tool v holds with
// a value other than a string (null counts as absent).
func notText(v any, registry bool) []string {
	def, _ := v.(map[string]any)
	if registry {
		def, _ = def["definition"].(map[string]any)
	}
	var odd []string
	for _, k := range textMembers {
		if x, has := def[k]; has && x != nil {
			if _, ok := x.(string); !ok {
				odd = append(odd, k+" is "+kindOf(x))
			}
		}
	}
	return odd
}

// notTextWarnings words what notText found, one warning per member,
// naming the first tool and how many more: the tool is scored as if the
// member were absent, which a report should say rather than score it
// silently.
func notTextWarnings(tools []Tool, odd [][]string) []string {
	type seen struct {
		first, what string
		n           int
	}
	var order []string
	by := map[string]*seen{}
	for i, o := range odd {
		for _, w := range o {
			k, _, _ := strings.Cut(w, " ")
			if by[k] == nil {
				by[k] = &seen{first: tools[i].Name, what: w}
				order = append(order, k)
			}
			by[k].n++
		}
	}
	out := make([]string, 0, len(order))
	for _, k := range order {
		s := by[k]
		name := shortText(s.first)
		switch s.n {
		case 1:
			out = append(out, fmt.Sprintf("tool %q: its %s, not a string, so it is read as no %s (MCP gives %s as a string)", name, s.what, k, k))
		default:
			others := "others"
			if s.n == 2 {
				others = "other"
			}
			out = append(out, fmt.Sprintf("tool %q and %d %s: the %s is not a string (%q's %s), so it is read as no %s (MCP gives %s as a string)", name, s.n-1, others, k, name, s.what, k, k))
		}
	}
	return out
}

// negativeZero reports whether v holds the number -0.
func negativeZero(v any) bool {
	switch x := v.(type) {
	case float64:
		return x == 0 && math.Signbit(x)
	case map[string]any:
		for _, e := range x {
			if negativeZero(e) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if negativeZero(e) {
				return true
			}
		}
	}
	return false
}

// MaxDepth bounds how deeply a tool's definition nests (the tool object is
// level 1, its inputSchema level 2): a schema nested 2,000 deep is no
// description of anything, and would make every prompt and every check
// that reads it as large as it is deep.
const MaxDepth = 64

// depth returns how deeply v nests, counting no further than most.
func depth(v any, most int) int {
	if most <= 0 {
		return 0
	}
	d := 0
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			if d = max(d, depth(e, most-1)); d >= most-1 {
				break
			}
		}
	case []any:
		for _, e := range x {
			if d = max(d, depth(e, most-1)); d >= most-1 {
				break
			}
		}
	default:
		return 0
	}
	return d + 1
}

// shortText is a text from the file as a message quotes it: at most 64
// bytes, however long it is.
func shortText(s string) string {
	if len(s) <= 64 {
		return s
	}
	return strings.ToValidUTF8(s[:48], "") + fmt.Sprintf("… (%d bytes)", len(s))
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
