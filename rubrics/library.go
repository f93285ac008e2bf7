package rubrics

import "github.com/rubricmcp/rubric/engine/rubric"

// library lets a rubric extend a built-in one by its name.
type library struct{}

func init() { rubric.Library = library{} }

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
