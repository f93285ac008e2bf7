package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// TestScanProgressOnTerminal scans on a terminal 40 columns wide, one
// server failing: the progress line is drawn (and cut to the width),
// the failure's log line is on a line of its own, and the screen is
// left with no progress line on it, half-drawn or whole, and the
// summary on lines of its own.
func TestScanProgressOnTerminal(t *testing.T) {
	t.Setenv("COLUMNS", "40")
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer ptmx.Close()
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 24, Cols: 40}); err != nil {
		t.Fatal(err)
	}
	read := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(ptmx) // until the terminal's other end is closed
		read <- b
	}()
	dir := t.TempDir()
	list := filepath.Join(dir, "servers.json")
	capture, err := filepath.Abs(filepath.Join(corpusDir, "memory.tools.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(list, []byte(`[
 {"name": "memory", "target": "`+capture+`"},
 {"name": "a-server-with-a-name-longer-than-the-terminal-is-wide", "command": ["sh", "-c", "echo broken >&2; exit 3"]}
]`), 0o644); err != nil {
		t.Fatal(err)
	}
	code := execute([]string{"scan", list, "--out", filepath.Join(dir, "out"), "--attempts", "1", "--no-cache", "--db", "memory"}, tty, tty)
	tty.Close()
	raw := <-read
	if code != 0 {
		t.Fatalf("exit %d:\n%s", code, raw)
	}
	if !bytes.Contains(raw, []byte("\rscan: ")) {
		t.Errorf("no progress line was drawn:\n%q", raw)
	}
	screen := terminalScreen(raw)
	for _, line := range screen {
		if len([]rune(line)) > 40 && strings.HasPrefix(line, "scan:") {
			t.Errorf("a progress line wider than the terminal: %q", line)
		}
		if strings.Contains(line, "scan: ") {
			t.Errorf("the screen is left with a progress line on it: %q\nscreen:\n%s", line, strings.Join(screen, "\n"))
		}
	}
	want := []string{"[WARN]  rubric: server failed:", "2 servers: 1 scored, 1 failed", "leaderboard: "}
	var starts []string
	for _, line := range screen {
		for _, w := range want {
			if strings.HasPrefix(line, w) {
				starts = append(starts, w)
			}
		}
	}
	if strings.Join(starts, "|") != strings.Join(want, "|") {
		t.Errorf("lines starting %q, want each of %q at the start of a line of its own, in order; screen:\n%s", starts, want, strings.Join(screen, "\n"))
	}
}

// terminalScreen is what b leaves on a terminal that knows only carriage
// returns and new lines (as a dumb one does; the progress line uses no
// other control), each line without its trailing spaces. Wrapping is not
// simulated: a line wider than the terminal stays one line.
func terminalScreen(b []byte) []string {
	var lines []string
	var cur []rune
	col := 0
	for _, r := range string(b) {
		switch r {
		case '\r':
			col = 0
		case '\n':
			lines = append(lines, strings.TrimRight(string(cur), " "))
			cur, col = nil, 0
		default:
			if col < len(cur) {
				cur[col] = r
			} else {
				cur = append(cur, r)
			}
			col++
		}
	}
	if s := strings.TrimRight(string(cur), " "); s != "" {
		lines = append(lines, s)
	}
	return lines
}
