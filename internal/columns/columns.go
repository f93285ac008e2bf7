// Package columns prints rows of text in aligned columns, for the
// commands' side-by-side tables.
package columns

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Write prints rows in columns two spaces apart, each line after indent;
// align holds 'l' or 'r' for each column (missing columns align left).
// Trailing spaces are cut.
func Write(w io.Writer, indent string, align string, rows [][]string) {
	widths := map[int]int{}
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		b.WriteString(indent)
		for i, c := range r {
			if i > 0 {
				b.WriteString("  ")
			}
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if i < len(align) && align[i] == 'r' {
				b.WriteString(pad + c)
			} else {
				b.WriteString(c + pad)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}
