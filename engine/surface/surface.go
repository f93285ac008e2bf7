// Package surface models what an MCP server shows a model: its tools, as one
// canonical, hashed value.
//
// A Surface is read from any of the shapes a tools/list result travels in
// (see Parse). Each tool keeps its definition exactly as the server sent it,
// decoded into plain Go values for the rubric language, and its canonical
// JSON (sorted keys, no insignificant white space) with a sha256. Equal hashes
// mean equal definitions, so there is nothing new to score.
package surface

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"sort"
	"sync"

	"github.com/rubricmcp/rubric/internal/jsonscan"
)

// Surface is one server's tools at one moment, plus where they came from.
type Surface struct {
	// Source says where the surface was read (a file path, a command, a URL).
	Source string `json:"source,omitempty"`
	// Format names the shape the tools were read from (see Parse).
	Format string `json:"format,omitempty"`
	// Server holds what is known of the server (serverInfo, package, command)
	// exactly as given; it does not enter the hash.
	Server map[string]any `json:"server,omitempty"`
	// Tools are in the order the server listed them.
	Tools []Tool `json:"tools"`
	// Warnings are what the transport noticed while reading the tools and
	// a report should say (lines a server wrote on stdout that were
	// skipped, a redirect followed). They do not enter the hash.
	Warnings []string `json:"warnings,omitempty"`
}

// Tool is one tool definition.
type Tool struct {
	// Name is the tool's name, unique within its surface.
	Name string
	// Def is the definition decoded from JSON: maps, slices, strings,
	// float64, bool and nil. It is nil for a tool read by ParseLean:
	// read the definition through Definition.
	Def map[string]any
	// Canonical is the definition's canonical JSON.
	Canonical []byte
	// Hash is "sha256:" + the hex sha256 of Canonical.
	Hash string
}

// NewTool builds a Tool from a decoded definition, computing its canonical
// form and hash. The definition must carry its name.
func NewTool(name string, def map[string]any) Tool {
	c := Canonical(def)
	return Tool{Name: name, Def: def, Canonical: c, Hash: HashBytes(c)}
}

// Definition returns the tool's decoded definition: Def, or when a
// lean parse kept none, its canonical JSON decoded again, the same values
// (a fresh copy each call, which the caller may keep or drop).
func (t Tool) Definition() map[string]any { return t.definition(false) }

// DefinitionInPlace is Definition, but the strings of a lean tool's
// definition (those without escapes, nearly all) share Canonical's bytes
// instead of each being copied: no allocation and no copy for them. It
// is for a definition read while the tool is scored and then let go, as
// the score's per-tool pass does: the canonical forms a parse makes are
// never written again, and they live as long as the surface. A caller
// that writes to Canonical afterwards must use Definition.
func (t Tool) DefinitionInPlace() map[string]any { return t.definition(true) }

// definition is Definition, or with inPlace DefinitionInPlace.
func (t Tool) definition(inPlace bool) map[string]any {
	if t.Def != nil || t.Canonical == nil {
		return t.Def
	}
	d := decoders.Get().(*decoder)
	d.inPlace = inPlace
	v, _ := d.decodeOrUnmarshal(t.Canonical)
	d.B, d.inPlace = nil, false
	decoders.Put(d)
	def, _ := v.(map[string]any)
	return def
}

// Members returns the members of the tool's definition called keys, as
// Definition would give them, in a map of its own: the definition cut
// down to those of keys it has. A lean tool's members are read from its
// canonical JSON without building the rest of its tree.
func (t Tool) Members(keys []string) map[string]any {
	out := make(map[string]any, len(keys))
	if t.Def == nil && t.Canonical != nil {
		vals := make([][]byte, len(keys))
		if jsonscan.Members(t.Canonical, keys, vals) {
			d := decoders.Get().(*decoder)
			defer func() { d.B = nil; decoders.Put(d) }()
			for i, raw := range vals {
				if raw == nil {
					continue
				}
				v, ok := d.decodeOrUnmarshal(raw)
				if !ok {
					return t.cut(keys) // what Definition makes of it
				}
				out[keys[i]] = v
			}
			return out
		}
	}
	return t.cut(keys)
}

// cut is Members read from the decoded definition.
func (t Tool) cut(keys []string) map[string]any {
	def := t.Definition()
	out := make(map[string]any, len(keys))
	for _, k := range keys {
		if v, ok := def[k]; ok {
			out[k] = v
		}
	}
	return out
}

// Decoded returns s with every tool's Def decoded (see Definition): s
// itself when none is missing, otherwise a copy, s unchanged. For a
// consumer that reads each definition many times.
func (s *Surface) Decoded() *Surface {
	lean := false
	for _, t := range s.Tools {
		if t.Def == nil {
			lean = true
			break
		}
	}
	if !lean {
		return s
	}
	c := *s
	c.Tools = make([]Tool, len(s.Tools))
	for i, t := range s.Tools {
		t.Def = t.Definition()
		c.Tools[i] = t
	}
	return &c
}

// decoders decode definitions for Definition.
var decoders = sync.Pool{New: func() any { return newDecoder() }}

// Hash is the surface hash: the sha256 of the canonical JSON array of the
// tools' canonical definitions, sorted by name. Listing order and server
// information do not move it; any change to any definition does.
func (s *Surface) Hash() string {
	idx := make([]int, len(s.Tools))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return s.Tools[idx[a]].Name < s.Tools[idx[b]].Name })
	h := sha256.New()
	h.Write([]byte{'['})
	for i, j := range idx {
		if i > 0 {
			h.Write([]byte{','})
		}
		h.Write(s.Tools[j].Canonical)
	}
	h.Write([]byte{']'})
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	return HashName(sum)
}

// Tool returns the tool with the given name.
func (s *Surface) Tool(name string) (Tool, bool) {
	for _, t := range s.Tools {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

// HashBytes returns "sha256:" and the hex sha256 of b.
func HashBytes(b []byte) string { return HashName(sha256.Sum256(b)) }

// HashName returns "sha256:" and the hex of sum, a sha256, written in
// one string: a hash named for every tool and every question of a run.
func HashName(sum [sha256.Size]byte) string {
	const prefix = "sha256:"
	var name [len(prefix) + 2*sha256.Size]byte
	copy(name[:], prefix)
	hex.Encode(name[len(prefix):], sum[:])
	return string(name[:])
}

// Marshal returns what WriteTo writes.
func (s *Surface) Marshal() []byte {
	var buf bytes.Buffer
	_, _ = s.WriteTo(&buf)
	return buf.Bytes()
}

// WriteTo writes the surface in a shape Parse reads back to the same
// hashes: a capture ({"server","tools"}), or for a surface read from a
// registry capture, its entries ({"name","definition"}) without what the
// registry published beside them, which is no part of a surface. The
// format and source are kept beside them.
func (s *Surface) WriteTo(w io.Writer) (int64, error) {
	cw := &countWriter{w: w}
	b := make([]byte, 0, 4096)
	b = append(b, `{"format":`...)
	b = appendString(b, s.Format)
	if s.Server != nil {
		b = append(b, `,"server":`...)
		b = appendCanonical(b, s.Server)
	}
	b = append(b, `,"source":`...)
	b = appendString(b, s.Source)
	registry := s.Format == FormatRegistry
	if registry {
		b = append(b, `,"release":null`...)
	}
	b = append(b, `,"tools":[`...)
	for i, t := range s.Tools {
		if i > 0 {
			b = append(b, ',')
		}
		if registry {
			b = append(b, `{"name":`...)
			b = appendString(b, t.Name)
			b = append(b, `,"definition":`...)
			b = append(b, t.Canonical...)
			b = append(b, '}')
		} else {
			b = append(b, t.Canonical...)
		}
		if len(b) > 1<<16 {
			if cw.write(b); cw.err != nil {
				return cw.n, cw.err
			}
			b = b[:0]
		}
	}
	b = append(b, ']')
	if len(s.Warnings) > 0 {
		b = append(b, `,"warnings":[`...)
		for i, w := range s.Warnings {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, w)
		}
		b = append(b, ']')
	}
	b = append(b, '}')
	cw.write(b)
	return cw.n, cw.err
}

type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) write(b []byte) {
	if c.err != nil {
		return
	}
	n, err := c.w.Write(b)
	c.n += int64(n)
	c.err = err
}
