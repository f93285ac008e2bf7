package ghaction

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCut(t *testing.T) {
	lines := strings.Repeat("0123456789\n", 100) // 1,100 bytes
	for _, c := range []struct {
		name    string
		text    string
		limit   int
		wantCut bool
	}{
		{"fits", lines, 1100, false},
		{"one byte over", lines, 1099, true},
		{"far over", lines, 400, true},
		{"one long line of two-byte runes", strings.Repeat("é", 1000), 501, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, cut := Cut([]byte(c.text), c.limit, "see the artifact")
			if cut != c.wantCut {
				t.Fatalf("cut = %v, want %v", cut, c.wantCut)
			}
			if len(out) > c.limit {
				t.Errorf("%d bytes, over the limit %d", len(out), c.limit)
			}
			if !utf8.Valid(out) {
				t.Error("cut inside a character")
			}
			if !cut {
				if string(out) != c.text {
					t.Error("text that fits was changed")
				}
				return
			}
			if !bytes.Contains(out, []byte("This report was cut at")) || !bytes.Contains(out, []byte("see the artifact")) {
				t.Errorf("no note in %q", out[max(0, len(out)-200):])
			}
			kept, _, _ := strings.Cut(string(out), "\n\n> [!NOTE]")
			if strings.Contains(c.text, "\n") && !strings.HasSuffix(kept, "\n") {
				t.Errorf("kept text ends inside a line: %q", kept[max(0, len(kept)-20):])
			}
		})
	}
}

// TestAppendSummary: what the step wrote before counts against the limit,
// and a summary already full takes nothing more.
func TestAppendSummary(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary.md")
	if err := os.WriteFile(path, bytes.Repeat([]byte("x"), SummaryLimit-2000), 0o644); err != nil {
		t.Fatal(err)
	}
	report := []byte(strings.Repeat("| tool | A |\n", 1000))
	cut, err := AppendSummary(path, report, "the full report is gate.md in the job's artifact")
	if err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(path)
	if !cut || st.Size() > SummaryLimit {
		t.Errorf("cut %v, size %d (limit %d)", cut, st.Size(), SummaryLimit)
	}
	cut, err = AppendSummary(path, report, "")
	if err != nil || !cut {
		t.Errorf("full summary: cut %v, err %v", cut, err)
	}
	if st2, _ := os.Stat(path); st2.Size() != st.Size() {
		t.Errorf("a full summary grew from %d to %d", st.Size(), st2.Size())
	}
	if _, err := AppendSummary("", report, ""); err == nil || !strings.Contains(err.Error(), "GITHUB_STEP_SUMMARY is not set") {
		t.Errorf("no path: %v", err)
	}
}
