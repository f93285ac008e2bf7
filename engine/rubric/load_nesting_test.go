package rubric

import (
	"errors"
	"strings"
	"testing"
)

// Deep nesting is refused with the place where it passes the bound,
// before the parser could overflow its stack; nesting inside comments is
// not counted.
func TestDeepNesting(t *testing.T) {
	valid := "rubric \"x\" {\n  version = \"1\"\n  tool { score = \"1\" }\n  surface { score = \"2\" }\n  grades = { A = 0 }\n}\n"
	tests := []struct {
		name      string
		src       string
		line, col int // 0: loads
	}{
		{"100,000 nested objects", "rubric \"x\" {\n  v = " + strings.Repeat("{a = ", 100_000) + strings.Repeat("}", 100_000) + "\n}\n", 2, 7 + 5*(MaxNesting-1)},
		{"100,000 nested lists", "rubric \"x\" {\n  v = " + strings.Repeat("[", 100_000) + "\n}\n", 2, 7 + MaxNesting - 1},
		{"nested interpolations", `rubric "x" { v = "` + strings.Repeat(`${"`, 50_000) + "\n}\n", 1, 20 + 3*(MaxNesting-1)},
		{"brackets in a comment", "# " + strings.Repeat("[", 100_000) + "\n" + valid, 0, 0},
		{"brackets in a block comment", "/* " + strings.Repeat("(", 100_000) + " */\n" + valid, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load("deep.hcl", []byte(tc.src))
			if tc.line == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			var le *Error
			if !errors.As(err, &le) || len(le.Diagnostics) != 1 {
				t.Fatalf("err = %v, want one diagnostic", err)
			}
			d := le.Diagnostics[0]
			if d.Line != tc.line || d.Col != tc.col || !strings.Contains(d.Msg, "nests more than 200 levels") {
				t.Fatalf("got %s, want deep.hcl:%d:%d: …nests more than 200 levels…", d, tc.line, tc.col)
			}
			if Name("deep.hcl", []byte(tc.src)) != "" {
				t.Fatal("Name read a name from a file too deep to parse")
			}
		})
	}
}
