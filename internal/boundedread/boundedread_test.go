package boundedread

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, n int) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, bytes.Repeat([]byte("x"), n), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name    string
		path    string
		max     int64
		wantLen int
		tooBig  bool
	}{
		{"empty", write("empty", 0), 10, 0, false},
		{"below the limit", write("small", 9), 10, 9, false},
		{"at the limit", write("exact", 10), 10, 10, false},
		{"one byte over", write("over", 11), 10, 0, true},
		{"larger than a chunk", write("big", 3*chunk+5), 4 * chunk, 3*chunk + 5, false},
		{"dev zero", "/dev/zero", 2*chunk + 3, 0, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b, err := ReadFile(context.Background(), tc.path, tc.max)
			if tc.tooBig {
				var tl *TooLargeError
				if !errors.As(err, &tl) || tl.Max != tc.max || !strings.Contains(err.Error(), "--max-file-size") {
					t.Fatalf("err = %v, want a TooLargeError for %d bytes naming the flag", err, tc.max)
				}
				return
			}
			if err != nil || len(b) != tc.wantLen {
				t.Fatalf("got %d bytes, %v; want %d bytes", len(b), err, tc.wantLen)
			}
		})
	}
}

func TestReadFileMissing(t *testing.T) {
	_, err := ReadFile(context.Background(), filepath.Join(t.TempDir(), "nope"), 0)
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("err = %v, want one that is os.ErrNotExist", err)
	}
}

func TestTooLargeMessage(t *testing.T) {
	tests := []struct {
		max  int64
		want string
	}{
		{DefaultMax, "r.json is larger than 64MiB; raise the limit with --max-file-size"},
		{1 << 30, "r.json is larger than 1GiB; raise the limit with --max-file-size"},
		{3 << 10, "r.json is larger than 3KiB; raise the limit with --max-file-size"},
		{1000, "r.json is larger than 1000B; raise the limit with --max-file-size"},
	}
	for _, tc := range tests {
		if got := (&TooLargeError{Name: "r.json", Max: tc.max}).Error(); got != tc.want {
			t.Errorf("max %d: %q, want %q", tc.max, got, tc.want)
		}
	}
}

func fifo(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	return p
}

// A named pipe nobody writes blocks the open; cancelling the context
// still ends the read.
func TestReadFileCancelledOnSilentPipe(t *testing.T) {
	p := fifo(t)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := ReadFile(ctx, p, 0)
		errc <- err
	}()
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	// Let an abandoned open finish: on Linux, opening a pipe for reading
	// and writing never blocks, and it completes any open waiting on it.
	if w, err := os.OpenFile(p, os.O_RDWR, 0); err == nil {
		w.Close()
	}
}

// A named pipe that never ends is cut off at the limit.
func TestReadFileEndlessPipe(t *testing.T) {
	p := fifo(t)
	stop := make(chan struct{})
	go func() {
		w, err := os.OpenFile(p, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		zeros := make([]byte, 64<<10)
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := w.Write(zeros); err != nil {
				return
			}
		}
	}()
	defer close(stop)
	_, err := ReadFile(context.Background(), p, 3*chunk)
	var tl *TooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("err = %v, want a TooLargeError", err)
	}
}

// endless yields zeros for ever and cancels the context on its third read.
type endless struct {
	reads  int
	cancel context.CancelFunc
}

func (e *endless) Read(p []byte) (int, error) {
	e.reads++
	if e.reads == 3 {
		e.cancel()
	}
	clear(p)
	return len(p), nil
}

func TestReadAll(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	b, err := ReadAll(ctx, strings.NewReader("hello"), "in", 5)
	if err != nil || string(b) != "hello" {
		t.Fatalf("got %q, %v", b, err)
	}
	if _, err := ReadAll(ctx, strings.NewReader("hello!"), "in", 5); !errors.As(err, new(*TooLargeError)) {
		t.Fatalf("six bytes under a limit of five: err = %v, want a TooLargeError", err)
	}
	e := &endless{cancel: cancel}
	if _, err := ReadAll(ctx, e, "in", 1<<40); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if e.reads != 3 {
		t.Errorf("read %d times after the context was cancelled on the third", e.reads)
	}
}
