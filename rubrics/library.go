package rubrics

import (
	_ "embed"
	"encoding/json"
	"fmt"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// library lets a rubric extend a built-in one by its name.
type library struct{}

// compiledTable holds the built-in rubrics' formulas compiled when rubric
// was built, and indexJSON their names, versions, titles and digests (go
// generate ./rubrics writes both; TestGeneratedAreCurrent in
// internal/precompile checks that they are what the generator writes
// now). A table of another build is not used, and an index entry of
// another text is not either: the rubric is then compiled as it loads.
//
//go:generate go run ./internal/precompile compiled.bin index.json
var (
	//go:embed compiled.bin
	compiledTable []byte
	//go:embed index.json
	indexJSON []byte
)

func init() {
	rubric.Library = library{}
	lang.UseCompiled(compiledTable)
	// A rubric's load starts making on other cores what it needs made
	// before it compiles: for a built-in rubric, on the machine of a
	// one-tool score, about a third of its load.
	rubric.Background = func(f func()) { go f() }
}

// Source returns a built-in rubric's file, as diagnostics name it, and
// its text.
func (library) Source(name string) (string, []byte, bool) {
	bs, err := List()
	if err != nil {
		return "", nil, false
	}
	for _, b := range bs {
		if b.Name == name {
			src, err := files.ReadFile(b.File)
			return "builtin:" + b.File, src, err == nil
		}
	}
	return "", nil, false
}

// Names are the built-in rubrics' names.
func (library) Names() []string { return Names() }

// Generate compiles every built-in rubric afresh and returns what
// compiled.bin holds, the table of their formulas (see
// lang.UseCompiled), and what index.json holds (see Summaries).
func Generate() (table, index []byte, err error) {
	stop := lang.RecordCompiled()
	bs, err := List()
	if err != nil {
		stop()
		return nil, nil, err
	}
	idx := summaryIndex{Lang: lang.Version}
	for _, b := range bs {
		src, err := files.ReadFile(b.File)
		var r *rubric.Rubric
		if err == nil {
			r, err = rubric.Load("builtin:"+b.File, src)
		}
		if err != nil {
			stop()
			return nil, nil, fmt.Errorf("built-in rubric %s: %w", b.File, err)
		}
		idx.Rubrics = append(idx.Rubrics, summaryOf(b, src, r))
	}
	table = stop()
	index, err = json.MarshalIndent(idx, "", "  ")
	return table, append(index, '\n'), err
}
