// Package lock pins the tool definitions a user approved, and says what
// changed since: a rug pull (a server that changes a tool after it was
// approved) shows as a changed tool with a field-level diff.
//
// A lock file (rubric.lock.json) holds the server's identity as the
// transport recorded it, where the surface was read, the surface hash, and
// each tool's hash and canonical definition, sorted by name. Verify reads
// the server again and compares tool by tool: added, removed, changed.
//
// A lock of a client configuration's servers (NewSet) holds the same for
// each server, by its name in the configuration, under "servers".
package lock

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/rubricmcp/rubric/internal/linediff"
	"io"
	"sort"
	"strings"
	"unicode"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/atomicfile"
	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/jsonpointer"
	"github.com/rubricmcp/rubric/internal/jsonpos"
)

// Version is the lock file format's version.
const Version = 1

// DefaultFile is the lock file's name when none is given.
const DefaultFile = "rubric.lock.json"

// File is a lock file.
type File struct {
	LockVersion int `json:"lock_version"`
	// Server is what is known of the server (serverInfo, package,
	// command), as the surface recorded it.
	Server map[string]any `json:"server,omitempty"`
	// Source is where the surface was read.
	Source string `json:"source,omitempty"`
	// Hash is the surface hash of the locked tools.
	Hash  string `json:"hash,omitempty"`
	Tools []Tool `json:"tools,omitempty"`
	// Config, in a lock of a client configuration's servers, is the
	// configuration file, and Servers each server's lock (the fields
	// above are then empty).
	Config  string   `json:"config,omitempty"`
	Servers []Server `json:"servers,omitempty"`
}

// Server is one server's lock in a lock of a client configuration.
type Server struct {
	Name   string         `json:"name"`
	Server map[string]any `json:"server,omitempty"`
	Source string         `json:"source,omitempty"`
	Hash   string         `json:"hash"`
	Tools  []Tool         `json:"tools"`
}

// Lock is the server's lock as a single-server File, to Diff against.
func (s Server) Lock() *File {
	return &File{LockVersion: Version, Server: s.Server, Source: s.Source, Hash: s.Hash, Tools: s.Tools}
}

// NewSet locks the tools of each member, by its name, in the order
// given; config is the configuration they were read from.
func NewSet(config string, members []surface.Member) *File {
	f := &File{LockVersion: Version, Config: config, Servers: []Server{}}
	for _, m := range members {
		one := New(m.Surface)
		f.Servers = append(f.Servers, Server{Name: m.Name, Server: one.Server, Source: one.Source, Hash: one.Hash, Tools: one.Tools})
	}
	return f
}

// Find returns the lock of the server named name in a lock of a client
// configuration.
func (f *File) Find(name string) (Server, bool) {
	for _, s := range f.Servers {
		if s.Name == name {
			return s, true
		}
	}
	return Server{}, false
}

// Tool is one approved tool definition.
type Tool struct {
	Name string `json:"name"`
	Hash string `json:"hash"`
	// Definition is the tool's canonical JSON.
	Definition json.RawMessage `json:"definition"`
}

// New locks the tools of s.
func New(s *surface.Surface) *File {
	f := &File{LockVersion: Version, Server: s.Server, Source: s.Source, Hash: s.Hash(), Tools: []Tool{}}
	for _, t := range s.Tools {
		f.Tools = append(f.Tools, Tool{Name: t.Name, Hash: t.Hash, Definition: json.RawMessage(t.Canonical)})
	}
	sort.Slice(f.Tools, func(i, j int) bool { return f.Tools[i].Name < f.Tools[j].Name })
	return f
}

// Write writes the lock file to path atomically (internal/atomicfile),
// indented, with a final newline.
func (f *File) Write(path string) error {
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(path, append(b, '\n')); err != nil {
		return fmt.Errorf("write the lock file: %w", err)
	}
	return nil
}

// Read reads a lock file, within the limit of every file read whole
// (--max-file-size).
func Read(path string) (*File, error) {
	b, err := boundedread.ReadFile(context.Background(), path, boundedread.Limit())
	if err != nil {
		return nil, boundedread.Named(err, "lock file", path, "write one with rubric lock")
	}
	var f File
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		de := jsonpos.Decoding(path, b, err)
		return nil, fmt.Errorf("%s: not a lock file: %s (a lock file is the JSON rubric lock writes, each tool's definition as approved; write it again with rubric lock)", de.Where(), de.Msg)
	}
	if f.LockVersion != Version {
		return nil, fmt.Errorf("%s has lock_version %d; this rubric reads version %d (write it again with rubric lock)", path, f.LockVersion, Version)
	}
	if err := f.check(); err != nil {
		return nil, fmt.Errorf("%s was edited or damaged: %v; a lock is trusted only as rubric lock wrote it: run rubric lock again and review the diff before committing it", path, err)
	}
	return &f, nil
}

// check recomputes what a lock's hashes say of its definitions: each
// tool's hash from its definition as stored, and the surface hash from
// them all. A reviewer approves the definitions they read in the lock,
// while verify compares the server with the hashes; a lock whose text
// says one thing and whose hashes pin another is refused.
func (f *File) check() error {
	if len(f.Servers) > 0 {
		for _, s := range f.Servers {
			if err := checkTools(s.Hash, s.Tools); err != nil {
				return fmt.Errorf("server %q: %v", s.Name, err)
			}
		}
		if f.Hash != "" || len(f.Tools) > 0 {
			return fmt.Errorf("it holds both servers and a lock of its own")
		}
		return nil
	}
	return checkTools(f.Hash, f.Tools)
}

// checkTools checks each tool's hash against its definition and hash
// against the surface hash of the definitions.
func checkTools(hash string, tools []Tool) error {
	s := &surface.Surface{Tools: make([]surface.Tool, 0, len(tools))}
	for _, t := range tools {
		var def any
		if err := json.Unmarshal(t.Definition, &def); err != nil {
			return fmt.Errorf("tool %q's definition is not JSON (%v)", t.Name, err)
		}
		m, ok := def.(map[string]any)
		if !ok {
			return fmt.Errorf("tool %q's definition is not a JSON object", t.Name)
		}
		if name, _ := m["name"].(string); name != t.Name && !strings.HasSuffix(t.Name, "/"+name) {
			return fmt.Errorf("tool %q's definition is named %q", t.Name, name)
		}
		st := surface.NewTool(t.Name, m)
		if st.Hash != t.Hash {
			return fmt.Errorf("tool %q's definition does not hash to the hash beside it", t.Name)
		}
		s.Tools = append(s.Tools, st)
	}
	if got := s.Hash(); got != hash {
		return fmt.Errorf("its hash is not the hash of its tools' definitions")
	}
	return nil
}

// Change is one tool that is not as it was locked.
type Change struct {
	Tool string `json:"tool"`
	// Kind is "added", "removed" or "changed".
	Kind string `json:"kind"`
	// Fields are the differences of a changed tool, by JSON pointer.
	Fields []FieldDiff `json:"fields,omitempty"`
}

// FieldDiff is one difference inside a definition.
type FieldDiff struct {
	// Path is the JSON pointer of the member (/description,
	// /inputSchema/properties/q/description).
	Path string `json:"path"`
	// Old and New are the values as compact JSON; "" for a member that
	// was not there.
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
	// Text is a line diff when both values are strings of more than one
	// line.
	Text []string `json:"text,omitempty"`
}

// Diff compares the locked tools with the tools of s, in name order.
func Diff(locked *File, s *surface.Surface) ([]Change, error) {
	now := map[string]surface.Tool{}
	for _, t := range s.Tools {
		now[t.Name] = t
	}
	var out []Change
	seen := map[string]bool{}
	for _, lt := range locked.Tools {
		seen[lt.Name] = true
		t, ok := now[lt.Name]
		if !ok {
			out = append(out, Change{Tool: lt.Name, Kind: "removed"})
			continue
		}
		if t.Hash == lt.Hash {
			continue
		}
		var was any
		if err := json.Unmarshal(lt.Definition, &was); err != nil {
			return nil, fmt.Errorf("the lock file's definition of %q is not JSON: %v (write it again with rubric lock)", lt.Name, err)
		}
		var is any
		if err := json.Unmarshal(t.Canonical, &is); err != nil {
			return nil, err
		}
		c := Change{Tool: lt.Name, Kind: "changed"}
		diffValues("", was, is, &c.Fields)
		out = append(out, c)
	}
	var added []string
	for _, t := range s.Tools {
		if !seen[t.Name] {
			added = append(added, t.Name)
		}
	}
	sort.Strings(added)
	for _, n := range added {
		out = append(out, Change{Tool: n, Kind: "added"})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Tool < out[j].Tool })
	return out, nil
}

// diffValues appends the differences between a and b under path: members
// of objects one by one, anything else as a whole.
func diffValues(path string, a, b any, out *[]FieldDiff) {
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok {
		keys := map[string]bool{}
		for k := range am {
			keys[k] = true
		}
		for k := range bm {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		for _, k := range sorted {
			p := path + "/" + jsonpointer.Escape(k)
			av, ina := am[k]
			bv, inb := bm[k]
			switch {
			case !ina:
				*out = append(*out, FieldDiff{Path: p, New: compact(bv)})
			case !inb:
				*out = append(*out, FieldDiff{Path: p, Old: compact(av)})
			default:
				diffValues(p, av, bv, out)
			}
		}
		return
	}
	ca, cb := compact(a), compact(b)
	if ca == cb {
		return
	}
	d := FieldDiff{Path: path, Old: ca, New: cb}
	as, aok := a.(string)
	bs, bok := b.(string)
	if aok && bok && (strings.Contains(as, "\n") || strings.Contains(bs, "\n")) {
		d.Text = lineDiff(strings.Split(as, "\n"), strings.Split(bs, "\n"))
	}
	*out = append(*out, d)
}

func compact(v any) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
	return strings.TrimSuffix(buf.String(), "\n")
}

// lineDiff is a line diff of a and b: unchanged lines start with two
// spaces, removed ones with "- ", added ones with "+ "; texts too long to
// compare are shown whole, removed and added.
func lineDiff(a, b []string) []string {
	d, _ := linediff.Lines(a, b)
	out := make([]string, len(d))
	for i, l := range d {
		out[i] = l.String()
	}
	return out
}

// trailingShown writes out the spaces and tabs that end a line of a line
// diff ("\x20", "\t"): a line that changed only there would otherwise
// print the same as the line it replaced.
func trailingShown(l string) string {
	body := strings.TrimRight(l, " \t")
	if len(body) == len(l) {
		return l
	}
	var b strings.Builder
	b.WriteString(body)
	for _, r := range l[len(body):] {
		if r == '\t' {
			b.WriteString(`\t`)
		} else {
			b.WriteString(`\x20`)
		}
	}
	return b.String()
}

// spacesShown writes out the spaces other than U+0020 (a no-break space,
// an ideographic space), which print as a plain space.
func spacesShown(s string) string {
	if !strings.ContainsFunc(s, otherSpace) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if otherSpace(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// otherSpace reports whether r is a space that is not U+0020.
func otherSpace(r rune) bool { return r != ' ' && unicode.Is(unicode.Zs, r) }

// WriteText prints the changes, one tool a paragraph, or that nothing
// changed, with control and invisible characters, spaces other than
// U+0020 and the spaces that end a line of a line diff written as escapes.
func WriteText(w io.Writer, changes []Change) error {
	var b strings.Builder
	if len(changes) == 0 {
		b.WriteString("verified: every tool is as locked\n")
	}
	for _, c := range changes {
		fmt.Fprintf(&b, "%s: %s\n", c.Kind, c.Tool)
		for _, f := range c.Fields {
			switch {
			case f.Old == "":
				fmt.Fprintf(&b, "  %s added: %s\n", f.Path, f.New)
			case f.New == "":
				fmt.Fprintf(&b, "  %s removed (was %s)\n", f.Path, f.Old)
			case f.Text != nil:
				fmt.Fprintf(&b, "  %s:\n", f.Path)
				for _, l := range f.Text {
					fmt.Fprintf(&b, "    %s\n", trailingShown(l))
				}
			default:
				fmt.Fprintf(&b, "  %s:\n    - %s\n    + %s\n", f.Path, f.Old, f.New)
			}
		}
	}
	// A server's text (a name, a key, a value) reaches a terminal with
	// its control, format and invisible characters written out, so that
	// what changed is what the reviewer sees.
	lines := strings.SplitAfter(b.String(), "\n")
	for i, l := range lines {
		body := strings.TrimSuffix(l, "\n")
		lines[i] = spacesShown(report.EscapeControls(body, false)) + l[len(body):]
	}
	_, err := io.WriteString(w, strings.Join(lines, ""))
	return err
}
