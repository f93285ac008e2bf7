package cpuprofile

import (
	"os"
	"path/filepath"
	"testing"
)

// TestStart: without the variable nothing is written; with it the
// profile goes to the named file plus the suffix, whole once stopped.
func TestStart(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name, env, suffix, want string
	}{
		{name: "unset"},
		{name: "rubric", env: filepath.Join(dir, "cpu.out"), want: filepath.Join(dir, "cpu.out")},
		{name: "a plugin", env: filepath.Join(dir, "cpu.out"), suffix: ".judge-heuristic", want: filepath.Join(dir, "cpu.out.judge-heuristic")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(Env, tc.env)
			stop, err := Start(tc.suffix)
			if err != nil {
				t.Fatal(err)
			}
			stop()
			if tc.want == "" {
				if entries, _ := os.ReadDir(dir); len(entries) != 0 {
					t.Errorf("wrote %v with %s unset", entries, Env)
				}
				return
			}
			if st, err := os.Stat(tc.want); err != nil || st.Size() == 0 {
				t.Errorf("no profile at %s: %v", tc.want, err)
			}
		})
	}
	t.Setenv(Env, filepath.Join(dir, "missing", "cpu.out"))
	if _, err := Start(""); err == nil {
		t.Error("a profile in a missing directory started")
	}
}
