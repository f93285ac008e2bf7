package columns

import (
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	tests := []struct {
		name   string
		indent string
		align  string
		rows   [][]string
		want   string
	}{
		{"left by default", "", "", [][]string{{"a", "bb"}, {"ccc", "d"}}, "a    bb\nccc  d\n"},
		{"right where asked", "  ", "lr", [][]string{{"tool", "1"}, {"x", "100"}}, "  tool    1\n  x     100\n"},
		{"runes, not bytes", "", "", [][]string{{"é", "z"}, {"ab", "y"}}, "é   z\nab  y\n"},
		{"ragged rows, trailing spaces cut", "", "", [][]string{{"a", ""}, {"bb"}}, "a\nbb\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			Write(&b, tt.indent, tt.align, tt.rows)
			if b.String() != tt.want {
				t.Errorf("got\n%q\nwant\n%q", b.String(), tt.want)
			}
		})
	}
}
