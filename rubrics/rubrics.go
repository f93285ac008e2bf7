// Package rubrics holds the rubrics built into the rubric binary and finds
// a rubric by name or by path.
package rubrics

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/rubricmcp/rubric/engine/rubric"
)

//go:embed *.hcl
var files embed.FS

// Builtin describes one built-in rubric.
type Builtin struct {
	Name string // the rubric's own name, such as schema-quality
	File string // the embedded file, such as schema-quality-v1.hcl
}

var (
	loadOnce sync.Once
	loaded   map[string]*rubric.Rubric
	loadErr  error
	list     []Builtin
)

func loadAll() {
	loaded = map[string]*rubric.Rubric{}
	entries, _ := fs.ReadDir(files, ".")
	for _, e := range entries {
		src, err := files.ReadFile(e.Name())
		if err != nil {
			loadErr = err
			return
		}
		r, err := rubric.Load("builtin:"+e.Name(), src)
		if err != nil {
			loadErr = fmt.Errorf("built-in rubric %s: %w", e.Name(), err)
			return
		}
		loaded[r.Name] = r
		list = append(list, Builtin{Name: r.Name, File: e.Name()})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name < list[j].Name })
}

// List returns the built-in rubrics, by name.
func List() ([]Builtin, error) {
	loadOnce.Do(loadAll)
	return list, loadErr
}

// Source returns the text of a built-in rubric.
func Source(name string) ([]byte, error) {
	bs, err := List()
	if err != nil {
		return nil, err
	}
	for _, b := range bs {
		if b.Name == name {
			return files.ReadFile(b.File)
		}
	}
	return nil, fmt.Errorf("no built-in rubric named %q (built in: %s)", name, names(bs))
}

// Find returns the built-in rubric named ref, or loads the file at ref. A
// ref holding a path separator or ending in .hcl is always a file.
func Find(ref string) (*rubric.Rubric, error) {
	if strings.ContainsRune(ref, os.PathSeparator) || strings.HasSuffix(ref, ".hcl") {
		return rubric.LoadFile(ref)
	}
	bs, err := List()
	if err != nil {
		return nil, err
	}
	if r, ok := loaded[ref]; ok {
		return r, nil
	}
	if _, err := os.Stat(ref); err == nil {
		return rubric.LoadFile(ref)
	}
	return nil, fmt.Errorf("no rubric %q: name a built-in rubric (%s) or the path of a .hcl file", ref, names(bs))
}

func names(bs []Builtin) string {
	ns := make([]string, len(bs))
	for i, b := range bs {
		ns[i] = b.Name
	}
	return strings.Join(ns, ", ")
}
