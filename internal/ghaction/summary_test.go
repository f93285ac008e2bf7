package ghaction

import (
	"bytes"
	"fmt"
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
			kept, _, _ := strings.Cut(string(out), "\n\n> [!NOTE]")
			// The note says how much was kept: what is there.
			note := fmt.Sprintf("This report was cut to its first %d of %d bytes", len(kept), len(c.text))
			if !bytes.Contains(out, []byte(note)) || !bytes.Contains(out, []byte("see the artifact")) {
				t.Errorf("no note %q in %q", note, out[max(0, len(out)-200):])
			}
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
	if !cut || st.Size() >= SummaryLimit {
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

// TestAppendSummaryBelowTheLimit: a report far over the limit leaves
// the summary strictly below GitHub's 1024k, which refuses a larger one,
// and the note counts the bytes of the report that are there.
func TestAppendSummaryBelowTheLimit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary.md")
	report := append(bytes.Repeat([]byte("x"), 3_000_000), '\n')
	cut, err := AppendSummary(path, report, "the full report is in the job's artifact")
	if err != nil || !cut {
		t.Fatalf("cut %v, err %v", cut, err)
	}
	b, _ := os.ReadFile(path)
	if len(b) >= SummaryLimit {
		t.Errorf("the summary is %d bytes, not below %d", len(b), SummaryLimit)
	}
	kept := bytes.Count(b, []byte("x"))
	if want := fmt.Sprintf("cut to its first %d of 3000001 bytes", kept); !bytes.Contains(b, []byte(want)) {
		t.Errorf("the note does not say %q: %q", want, b[len(b)-200:])
	}
}
