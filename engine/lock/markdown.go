package lock

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/markdown"
)

// Summary names the tools that differ and how, at most limit of them,
// for a sentence: `read_file changed, send_report added and 2 more`.
func Summary(changes []Change, limit int) string {
	var parts []string
	for i, c := range changes {
		if i == limit {
			break
		}
		parts = append(parts, fmt.Sprintf("%s %s", report.EscapeControls(c.Tool, false), c.Kind))
	}
	s := strings.Join(parts, ", ")
	if more := len(changes) - len(parts); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}

// Differ says how many tools differ from a lock: "1 tool differs",
// "2 tools differ".
func Differ(n int) string {
	if n == 1 {
		return "1 tool differs"
	}
	return fmt.Sprintf("%d tools differ", n)
}

// WriteMarkdown writes the changes for a Markdown summary, below a
// heading the caller writes: a table of the tools that differ, then the
// diff as WriteText prints it, in a fenced block that nothing a server
// wrote can close. With no change it writes a sentence saying so.
func WriteMarkdown(w io.Writer, changes []Change) error {
	b := bufio.NewWriter(w)
	if len(changes) == 0 {
		b.WriteString("Every tool is as locked.\n")
		return b.Flush()
	}
	b.WriteString("| tool | change | fields |\n|---|---|---|\n")
	for _, c := range changes {
		paths := make([]string, len(c.Fields))
		for i, f := range c.Fields {
			paths[i] = f.Path
		}
		fmt.Fprintf(b, "| %s | %s | %s |\n", markdown.CellCode(c.Tool), c.Kind, markdown.Codes(paths))
	}
	var text strings.Builder
	if err := WriteText(&text, changes); err != nil {
		return err
	}
	lines := strings.Split(strings.TrimSuffix(text.String(), "\n"), "\n")
	longest := 0
	for i, l := range lines {
		// Control characters are shown escaped, so a server's text
		// cannot move the reader's terminal nor end the block.
		lines[i] = report.EscapeControls(l, false)
		longest = max(longest, longestRun(lines[i], '`'))
	}
	fence := strings.Repeat("`", max(3, longest+1))
	fmt.Fprintf(b, "\n%s\n%s\n%s\n", fence, strings.Join(lines, "\n"), fence)
	return b.Flush()
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c rune) int {
	longest, run := 0, 0
	for _, r := range s {
		if r == c {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// Approve is the command that writes the lock file file again, given
// the server's command or target, approving what changed since it was
// locked: rubric lock, with --lock-file when file is not DefaultFile
// (rubric lock alone writes DefaultFile, and a check of file would fail
// again), the name quoted for a shell when it must be.
func Approve(file string) string {
	if filepath.Clean(file) == DefaultFile {
		return "rubric lock"
	}
	return "rubric lock --lock-file " + shellWord(file)
}

// shellWord is s as one word for a POSIX shell: as it is when it holds
// nothing a shell reads specially, else in single quotes.
func shellWord(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=+,@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
