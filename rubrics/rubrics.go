// Package rubrics holds the rubrics built into the rubric binary and finds
// a rubric by name or by path.
package rubrics

import (
	"context"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/internal/boundedread"
)

//go:embed *.hcl
var files embed.FS

// Builtin describes one built-in rubric.
type Builtin struct {
	Name string // the rubric's own name, such as schema-quality
	File string // the embedded file, such as schema-quality-v1.hcl
}

var (
	indexOnce sync.Once
	list      []Builtin
	indexErr  error

	mu     sync.Mutex
	loaded = map[string]func() (*rubric.Rubric, error){} // compiled on first use, by name
)

// index lists the embedded files by the rubric names their file names
// give (NAME-vVERSION.hcl), without parsing them: every command that
// resolves a rubric lists them, and parsing five files for their names
// was a fifth of a one-tool scan's CPU. TestFileNamesAreRubricNames
// checks that each file's rubric block has the name its file gives.
func index() {
	entries, _ := fs.ReadDir(files, ".")
	for _, e := range entries {
		name, ok := nameOfFile(e.Name())
		if !ok {
			indexErr = fmt.Errorf("built-in rubric %s: the file name is not NAME-vVERSION.hcl", e.Name())
			return
		}
		list = append(list, Builtin{Name: name, File: e.Name()})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
}

// nameOfFile is the rubric name a built-in file's name gives: file
// without its "-vVERSION.hcl" suffix.
func nameOfFile(file string) (string, bool) {
	base, ok := strings.CutSuffix(file, ".hcl")
	if !ok {
		return "", false
	}
	i := strings.LastIndex(base, "-v")
	if i <= 0 || i+2 == len(base) || base[i+2] < '0' || base[i+2] > '9' {
		return "", false
	}
	return base[:i], true
}

// List returns the built-in rubrics, by name.
func List() ([]Builtin, error) {
	indexOnce.Do(index)
	return list, indexErr
}

// Names are the built-in rubrics' names, sorted; none when the embedded
// files cannot be read (List says why).
func Names() []string {
	bs, _ := List()
	var names []string
	for _, b := range bs {
		names = append(names, b.Name)
	}
	return names
}

// All compiles every built-in rubric, by name (Summaries tells their
// names, versions and digests without compiling them).
func All() ([]*rubric.Rubric, error) {
	bs, err := List()
	if err != nil {
		return nil, err
	}
	var out []*rubric.Rubric
	for _, b := range bs {
		r, err := builtin(b)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// Lint are the rubrics an agent's lint_tool call applies (rubric mcp), in
// order: quality of the schema and of the words, then safety.
var Lint = []string{"schema-quality", "tdqs", "tool-safety"}

// builtin compiles the built-in rubric b once; a second caller waits for
// the first's compile (see Preload).
func builtin(b Builtin) (*rubric.Rubric, error) {
	mu.Lock()
	load, ok := loaded[b.Name]
	if !ok {
		load = sync.OnceValues(func() (*rubric.Rubric, error) {
			src, err := files.ReadFile(b.File)
			if err != nil {
				return nil, err
			}
			r, err := rubric.Load("builtin:"+b.File, src)
			if err != nil {
				return nil, fmt.Errorf("built-in rubric %s: %w", b.File, err)
			}
			return r, nil
		})
		loaded[b.Name] = load
	}
	mu.Unlock()
	return load()
}

// Preload starts compiling the built-in rubric ref names in the
// background, so that a Find of it soon after finds it compiled or
// waits for the rest of the compile: a command that knows from its
// arguments which rubric it will load calls it first thing, and the
// compile overlaps the parsing of flags and configuration. A ref that
// is not a built-in's name is left to Find.
func Preload(ref string) {
	if b, path, err := resolve(ref); err == nil && path == "" {
		go builtin(b) // Find returns its error
	}
}

// Source returns the text of the rubric ref names, found as Find finds
// it, without compiling it: a rubric with a mistake can still be read.
func Source(ref string) ([]byte, error) { return SourceContext(context.Background(), ref) }

// SourceContext is Source whose read of a file ends with ctx (a FIFO
// that no one writes, say), bounded as Find's is.
func SourceContext(ctx context.Context, ref string) ([]byte, error) {
	b, path, err := resolve(ref)
	switch {
	case err != nil:
		return nil, err
	case path != "":
		return rubric.ReadFile(ctx, path, boundedread.Limit())
	}
	return files.ReadFile(b.File)
}

// Find returns the rubric ref names, compiled: a built-in by its name, or
// the file at a path. A ref holding a path separator or ending in .hcl is
// always a file; "builtin:FILE", as reports record a built-in, is the
// built-in rubric in FILE.
func Find(ref string) (*rubric.Rubric, error) { return FindContext(context.Background(), ref) }

// FindContext is Find whose reads of files (the rubric and what it
// reads: its parent, its tests' files) end with ctx, so that a command
// interrupted while one blocks (a FIFO that no one writes) stops.
func FindContext(ctx context.Context, ref string) (*rubric.Rubric, error) {
	b, path, err := resolve(ref)
	switch {
	case err != nil:
		return nil, err
	case path != "":
		return rubric.LoadFileContext(ctx, path, boundedread.Limit())
	}
	return builtin(b)
}

// resolve says what ref names: a built-in, or the path of a file.
func resolve(ref string) (Builtin, string, error) {
	if path := FileIn(ref, ""); path != "" {
		return Builtin{}, path, nil
	}
	file, recorded := strings.CutPrefix(ref, "builtin:")
	bs, err := List()
	if err != nil {
		return Builtin{}, "", err
	}
	for _, b := range bs {
		if recorded && b.File == file || !recorded && b.Name == ref {
			return b, "", nil
		}
	}
	return Builtin{}, "", fmt.Errorf("no rubric %q: name a built-in rubric (%s) or the path of a .hcl file", ref, names(bs))
}

// FileIn is the file ref names as Find reads it, or "" for a built-in
// (or nothing): a path or a name ending in .hcl, else a name that is no
// built-in's and that dir holds ("" for the working directory). ref
// stays as given, relative to dir.
func FileIn(ref, dir string) string {
	if strings.HasPrefix(ref, "builtin:") {
		return ""
	}
	if strings.ContainsRune(ref, os.PathSeparator) || strings.HasSuffix(ref, ".hcl") {
		return ref
	}
	if bs, err := List(); err == nil && slices.ContainsFunc(bs, func(b Builtin) bool { return b.Name == ref }) {
		return ""
	}
	if _, err := os.Stat(filepath.Join(dir, ref)); err == nil {
		return ref
	}
	return ""
}

func names(bs []Builtin) string {
	ns := make([]string, len(bs))
	for i, b := range bs {
		ns[i] = b.Name
	}
	return strings.Join(ns, ", ")
}

// WriteList writes the built-in rubrics as a table: name, version, title
// and digest (see Summaries: the rubrics are not compiled).
func WriteList(w io.Writer) error {
	all, err := Summaries()
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tVERSION\tTITLE\tDIGEST")
	for _, r := range all {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Name, r.Version, r.Title, r.Digest)
	}
	return tw.Flush()
}

// Flat returns the rubric ref names with its extends resolved, as one
// HCL file whose digest is the rubric's.
func Flat(ref string) ([]byte, error) { return FlatContext(context.Background(), ref) }

// FlatContext is Flat whose reads of files end with ctx.
func FlatContext(ctx context.Context, ref string) ([]byte, error) {
	b, path, err := resolve(ref)
	switch {
	case err != nil:
		return nil, err
	case path != "":
		src, err := rubric.ReadFile(ctx, path, boundedread.Limit())
		if err != nil {
			return nil, err
		}
		return rubric.FlatFile(ctx, path, src, boundedread.Limit())
	}
	src, err := files.ReadFile(b.File)
	if err != nil {
		return nil, err
	}
	return rubric.Flat("builtin:"+b.File, src)
}
