package cache

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCalibrations: stats names the stopped calibrations whose marks are
// in place; clear keeps them and forgets the notes of marks that are
// gone or hold another calibration's nonce.
func TestCalibrations(t *testing.T) {
	dir := t.TempDir()
	s := &Store{dir: filepath.Join(dir, "cache")}
	mark := func(name, nonce string) string {
		p := filepath.Join(dir, "."+name+".resume.json")
		if err := os.WriteFile(p, []byte(`{"nonce":"`+nonce+`"}`), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := []struct {
		name, nonce string
		mark        string // the mark's path; "" when it is gone
		live        bool
	}{
		{"in place", "aa01", mark("kept", "aa01"), true},
		{"removed by hand", "bb02", "", false},
		{"another calibration's since", "cc03", mark("again", "ffff"), false},
	}
	for _, c := range cases {
		m := c.mark
		if m == "" {
			m = filepath.Join(dir, ".gone.resume.json")
		}
		if err := s.KeepCalibration(Calibration{Mark: m, Out: strings.TrimSuffix(m, ".resume.json"), Nonce: c.nonce}); err != nil {
			t.Fatal(err)
		}
	}
	var want []string
	for _, c := range cases {
		if c.live {
			want = append(want, c.nonce)
		}
	}
	nonces := func(cs []Calibration) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Nonce)
		}
		return out
	}
	st, err := s.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if got := nonces(st.Calibrations); !slices.Equal(got, want) {
		t.Fatalf("stats: calibrations %v, want %v", got, want)
	}
	var out strings.Builder
	if err := st.Write(&out, false); err != nil {
		t.Fatal(err)
	}
	if line := "calibrations: 1 calibration stopped before it was written: the same calibrate command run again takes it up; remove its mark to start afresh: " + cases[0].mark; !strings.Contains(out.String(), line) {
		t.Fatalf("stats printed\n%s\nwant a line starting %s", out.String(), line)
	}
	// A cache with an answer, so that clear does not take it for another
	// folder.
	if err := s.Put(Entry{Key: strings.Repeat("a", 64), Answer: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	st, err = s.Clear()
	if err != nil {
		t.Fatal(err)
	}
	if got := nonces(st.Calibrations); !slices.Equal(got, want) {
		t.Fatalf("clear: kept %v, want %v", got, want)
	}
	left, _ := filepath.Glob(filepath.Join(s.dir, "calibrations", "*.json"))
	if len(left) != 1 || filepath.Base(left[0]) != "aa01.json" {
		t.Fatalf("clear left the notes %v, want only aa01.json", left)
	}
	if _, err := os.Stat(cases[0].mark); err != nil {
		t.Fatalf("clear touched a mark: %v", err)
	}
	if err := s.DropCalibration("aa01"); err != nil {
		t.Fatal(err)
	}
	if st, err = s.Stats(); err != nil || len(st.Calibrations) != 0 {
		t.Fatalf("after drop: %v, %v", st.Calibrations, err)
	}
}
