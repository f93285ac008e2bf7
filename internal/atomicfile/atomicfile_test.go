package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
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

// TestWriteNamedPipe: a named pipe (like /dev/null or /dev/stdout, not a
// regular file) is written through, and is still a pipe afterwards.
func TestWriteNamedPipe(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	got := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(path) // blocks until the writer opens, then reads to its close
		got <- string(b)
	}()
	if err := WriteFile(path, []byte("through")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&os.ModeNamedPipe == 0 {
		// The reader may wait forever on the pipe that was replaced.
		t.Fatalf("%s is now %v, want a named pipe still", path, fi.Mode())
	}
	if s := <-got; s != "through" {
		t.Errorf("the reader got %q, want %q", s, "through")
	}
}

// TestWriteThroughSymlink: a link to a file keeps being a link, and the
// file it names gets the new content.
func TestWriteThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target, link := filepath.Join(dir, "real.json"), filepath.Join(dir, "link.json")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(link, []byte("new")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("%s is no longer a link: %v %v", link, fi.Mode(), err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new" {
		t.Errorf("the linked file holds %q, want %q", b, "new")
	}
}

// TestWriteFileIntoMissingDirectories: a new file is written into
// directories made when missing (as an answer cache's first answer in a
// shard is), replaced by the next write, with mode 0644, and no
// temporary file is left.
func TestWriteFileIntoMissingDirectories(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "answers", "ab", "abc.json")
	for _, text := range []string{"first", "second"} {
		if err := WriteFile(path, []byte(text)); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil || string(b) != text {
			t.Fatalf("file holds %q (%v), want %q", b, err, text)
		}
	}
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v (%v), want 0644", fi.Mode().Perm(), err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "answers", "ab", ".abc.json.tmp*")); len(left) > 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}
