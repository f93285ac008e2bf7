package rubric

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoad checks that loading any text never panics, that failures are
// *rubric.Error with positions inside the file, and that what loads has a
// stable digest.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("testdata/invalid/*.hcl")
	more, _ := filepath.Glob("../../rubrics/*.hcl")
	for _, name := range append(files, more...) {
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`rubric "x" {}`))
	f.Add([]byte(`rubric "x" { version = "1" tool { score = "1" } surface { score = "2" } grades = { A = 0 } }`))
	f.Fuzz(func(t *testing.T, src []byte) {
		r, err := Load("fuzz.hcl", src)
		if err != nil {
			var le *Error
			if !errors.As(err, &le) || len(le.Diagnostics) == 0 {
				t.Fatalf("error without diagnostics: %T %v", err, err)
			}
			for _, d := range le.Diagnostics {
				if d.Line < 1 || d.Col < 1 {
					t.Fatalf("diagnostic without a position: %s", d)
				}
			}
			return
		}
		again, err := Load("fuzz.hcl", src)
		if err != nil || again.Digest != r.Digest {
			t.Fatalf("the same text loaded twice gave %v / %s vs %s", err, again.Digest, r.Digest)
		}
	})
}
