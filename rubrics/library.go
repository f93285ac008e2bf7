package rubrics

import (
	_ "embed"
	"fmt"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// library lets a rubric extend a built-in one by its name.
type library struct{}

// compiledTable holds the built-in rubrics' formulas compiled when rubric
// was built (go generate ./rubrics writes it; TestTableIsCurrent in
// internal/precompile checks that it is what the generator writes now).
// A table of another build is not used, so formulas are then compiled
// as they load.
//
//go:generate go run ./internal/precompile compiled.bin
//go:embed compiled.bin
var compiledTable []byte

func init() {
	rubric.Library = library{}
	lang.UseCompiled(compiledTable)
}

// CompileTable compiles every built-in rubric afresh and returns the
// table of their formulas that compiled.bin holds (see lang.UseCompiled).
func CompileTable() ([]byte, error) {
	stop := lang.RecordCompiled()
	bs, err := List()
	if err != nil {
		stop()
		return nil, err
	}
	for _, b := range bs {
		src, err := files.ReadFile(b.File)
		if err == nil {
			_, err = rubric.Load("builtin:"+b.File, src)
		}
		if err != nil {
			stop()
			return nil, fmt.Errorf("built-in rubric %s: %w", b.File, err)
		}
	}
	return stop(), nil
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
