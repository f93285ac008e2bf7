// Package linediff compares two texts line by line, by their longest
// common subsequence of lines, for the places that show a person what
// changed in a definition (rubric verify, the gate's HTML page).
package linediff

// MaxLines bounds the texts Lines compares: its work and memory are the
// product of the two line counts.
const MaxLines = 2000

// Line is one line of a diff. Op is ' ' for a line in both texts, '-' for
// a line of the first only, '+' for a line of the second only.
type Line struct {
	Op   byte
	Text string
}

// Removed reports whether the line is of the first text only.
func (l Line) Removed() bool { return l.Op == '-' }

// Added reports whether the line is of the second text only.
func (l Line) Added() bool { return l.Op == '+' }

// String is the line as a diff prints it: its Op, a space, its text.
func (l Line) String() string { return string(l.Op) + " " + l.Text }

// Lines is the diff of a to b: unchanged lines, a's lines removed, b's
// lines added, in an order that reads as a's lines turned into b's. When
// either text has more than MaxLines lines, it is every line of a removed
// and every line of b added, and ok is false.
func Lines(a, b []string) (diff []Line, ok bool) {
	n, m := len(a), len(b)
	if n > MaxLines || m > MaxLines {
		diff = make([]Line, 0, n+m)
		for _, l := range a {
			diff = append(diff, Line{'-', l})
		}
		for _, l := range b {
			diff = append(diff, Line{'+', l})
		}
		return diff, false
	}
	// lcs[i][j] is the length of the longest common subsequence of a[i:]
	// and b[j:].
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	diff = make([]Line, 0, n+m-int(lcs[0][0]))
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			diff = append(diff, Line{' ', a[i]})
			i++
			j++
		case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
			diff = append(diff, Line{'-', a[i]})
			i++
		default:
			diff = append(diff, Line{'+', b[j]})
			j++
		}
	}
	return diff, true
}
