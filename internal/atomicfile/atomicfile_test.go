package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	broken := errors.New("the writer failed")
	tests := []struct {
		name    string
		old     string // "" for no file before
		write   func(io.Writer) error
		want    string // the file's content afterwards
		wantErr error
	}{
		{name: "new file", write: text("fresh"), want: "fresh"},
		{name: "replaces", old: "old", write: text("new"), want: "new"},
		{name: "a failed write keeps the old file", old: "old", write: func(w io.Writer) error {
			_, _ = io.WriteString(w, "half")
			return broken
		}, want: "old", wantErr: broken},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "sub", "out.json")
			if tt.old != "" {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(tt.old), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			err := Write(path, tt.write)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("Write: %v, want %v", err, tt.wantErr)
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(b) != tt.want {
				t.Errorf("file holds %q, want %q", b, tt.want)
			}
			left, _ := filepath.Glob(filepath.Join(dir, "sub", ".out.json.tmp*"))
			if len(left) > 0 {
				t.Errorf("temporary files left behind: %v", left)
			}
		})
	}
}

func TestWriteFileMode(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := WriteFile(path, []byte("x")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", st.Mode().Perm())
	}
}

func text(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}
