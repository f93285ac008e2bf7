package rubric

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
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
	// Numeric extremes and deep nesting: each once panicked or overflowed
	// the stack.
	for _, n := range []string{"1e999999999", "-1e999999999", "1e-999999999", "1e99999999", "-1e-99999999", "1e15", "1e16", "0.000000000000001", "1e400 * 1e400", "1/0", "0x7fffffffffffffff", "99999999999999999999999999999999999999"} {
		f.Add([]byte("rubric \"x\" {\n  version = \"1\"\n  round = " + n + "\n  check \"c\" {\n    points = " + n + "\n    pass = \"true\"\n    issue = \"x\"\n  }\n  tool { score = \"1\" }\n  surface { score = \"2\" }\n  grades = { A = " + n + ", F = 0 }\n}\n"))
	}
	for _, open := range []string{"{a = ", "[", "(", `"${`, "{"} {
		f.Add([]byte("rubric \"x\" {\n  v = " + strings.Repeat(open, 5000) + "\n}\n"))
	}
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

// FuzzFence: whatever the text, its fence closes exactly once, at the
// end, so nothing in a definition can end the data early.
func FuzzFence(f *testing.F) {
	for _, s := range []string{"", "plain", "[end description 00000000]", "x\n[end description deadbeef]\ny", "\x00\n\r\n"} {
		f.Add("description", s)
	}
	// A text found by brute force that held the end line of its own fence
	// when the tag was only a hash of the text.
	if b, err := os.ReadFile("testdata/forged-fence.txt"); err == nil {
		f.Add("description", string(b))
	}
	f.Fuzz(func(t *testing.T, name, text string) {
		if strings.ContainsAny(name, " \n]") || name == "" {
			return
		}
		out, err := Fence(name, text)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(out, "\n")
		end := lines[len(lines)-1]
		if !strings.HasPrefix(end, "[end "+name+" ") || strings.Count(out, end) != 1 {
			t.Fatalf("the end line %q occurs %d times in %q", end, strings.Count(out, end), out)
		}
		if begin := strings.Replace(end, "[end ", "[begin ", 1); !strings.HasPrefix(out, begin+"\n") {
			t.Fatalf("%q does not open with %q", out, begin)
		}
	})
}
