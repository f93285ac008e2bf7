// Package boundedread reads whole files with a size limit and a context:
// a rubric, a report, a capture or an answers file named on the command
// line (or by a record) may be /dev/zero, a named pipe nobody writes, or
// simply too big, and reading one must neither exhaust memory nor ignore
// Ctrl-C.
package boundedread

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"sync/atomic"
	"syscall"
)

// DefaultMax is the limit every file rubric reads whole has unless the
// user raises it (the CLI's --max-file-size), the same as the largest
// surface a transport reads by default (--max-bytes): far above any
// rubric, report, capture or answers file written by hand or by rubric
// for a large server, far below what would exhaust a machine's memory.
const DefaultMax int64 = 64 << 20

// limit is the process's limit, 0 for DefaultMax.
var limit atomic.Int64

// SetLimit sets the limit of every read that is given none (max <= 0)
// and what Limit returns: the CLI sets it once from --max-file-size, and
// a plugin from what the host passes it (LimitEnv). n <= 0 restores
// DefaultMax.
func SetLimit(n int64) { limit.Store(max(n, 0)) }

// Limit is the process's limit: DefaultMax unless SetLimit raised or
// lowered it.
func Limit() int64 {
	if n := limit.Load(); n > 0 {
		return n
	}
	return DefaultMax
}

// LimitEnv is the environment variable, a number of bytes, through which
// rubric passes its limit to the plugins it starts.
const LimitEnv = "RUBRIC_PLUGIN_MAX_FILE_SIZE"

// SetLimitFromEnv sets the limit from LimitEnv when it holds a number of
// bytes above 0, as a plugin does when it starts.
func SetLimitFromEnv() {
	if n, err := strconv.ParseInt(os.Getenv(LimitEnv), 10, 64); err == nil && n > 0 {
		SetLimit(n)
	}
}

// chunk is how much is read between two looks at the context.
const chunk = 1 << 20

// TooLargeError is returned when a file holds more than the limit.
type TooLargeError struct {
	Name string // the file, as given
	Max  int64  // the limit, in bytes
}

// Error says how to raise the limit.
func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s is larger than %s; raise the limit with --max-file-size", e.Name, Size(e.Max))
}

// Size writes a byte count the way the flag accepts it: 256MiB, 64KiB, 100B.
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dGiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dMiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dKiB", n>>10)
	}
	return fmt.Sprintf("%dB", n)
}

// ReadFile returns the contents of the file at path, or a *TooLargeError
// once it has read more than max bytes (max <= 0 means Limit()). It
// stops reading when ctx is done and then returns ctx's error, also while
// the open or a read is blocked (a named pipe with no writer): that
// blocked call is left to finish on its own.
func ReadFile(ctx context.Context, path string, max int64) ([]byte, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	type result struct {
		b   []byte
		err error
	}
	stop := make(chan struct{})
	done := make(chan result, 1)
	go func() {
		f, err := os.Open(path)
		if err != nil {
			done <- result{nil, err}
			return
		}
		defer f.Close()
		var hint int64
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			hint = fi.Size()
		}
		b, err := read(f, path, max, hint, stop)
		done <- result{b, err}
	}()
	select {
	case r := <-done:
		return r.b, r.err
	case <-ctx.Done():
		close(stop)
		return nil, ctx.Err()
	}
}

// ReadAll reads r to its end, like io.ReadAll, but refuses more than max
// bytes (max <= 0 means Limit()) with a *TooLargeError naming name,
// and stops between reads when ctx is done.
func ReadAll(ctx context.Context, r io.Reader, name string, max int64) ([]byte, error) {
	b, err := read(r, name, max, 0, ctx.Done())
	if err == errStopped {
		return nil, ctx.Err()
	}
	return b, err
}

// errStopped is what read returns once stop is closed.
var errStopped = errors.New("stopped")

// read reads at most max+1 bytes of r, looking at stop between chunks;
// hint is the expected size, when known, so that a regular file is read
// into one buffer of its size.
func read[T any](r io.Reader, name string, max, hint int64, stop <-chan T) ([]byte, error) {
	if max <= 0 {
		max = Limit()
	}
	size := int64(chunk)
	if hint > 0 {
		size = min(hint, max) + 1
	}
	b := make([]byte, 0, size)
	for {
		select {
		case <-stop:
			return nil, errStopped
		default:
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		want := min(int64(cap(b)-len(b)), chunk, max+1-int64(len(b)))
		n, err := r.Read(b[len(b) : len(b)+int(want)])
		b = b[:len(b)+n]
		if int64(len(b)) > max {
			return nil, &TooLargeError{Name: name, Max: max}
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// FileError is a file that could not be read, named as what it is to
// the user (a rubric file, a report, a lock file) with what to do next:
// "report nosuch.json does not exist: give ...", where the bare error
// would say "open nosuch.json: no such file or directory".
type FileError struct {
	// What the file is, as the user knows it: "rubric file", "report".
	What string
	// Path is the file, as given.
	Path string
	// Next says what to do when the file is not there or is a
	// directory: "write one with rubric lock".
	Next string
	// Err is the error of the read.
	Err error
}

// Error names the file and why it could not be read: missing, a
// directory, not permitted or another failure, with what to do next
// where the reader gave it.
func (e *FileError) Error() string {
	next := ""
	if e.Next != "" {
		next = ": " + e.Next
	}
	switch {
	case errors.Is(e.Err, fs.ErrNotExist):
		return fmt.Sprintf("%s %s does not exist%s", e.What, e.Path, next)
	case errors.Is(e.Err, syscall.EISDIR):
		return fmt.Sprintf("%s %s is a directory, not a file%s", e.What, e.Path, next)
	case errors.Is(e.Err, fs.ErrPermission):
		return fmt.Sprintf("%s %s cannot be read: permission denied (check the file's mode, or run as its owner)", e.What, e.Path)
	}
	return fmt.Sprintf("cannot read %s %s: %s", e.What, e.Path, Reason(e.Err)) // the path is said already
}

// Reason is what went wrong in err, without the path a PathError names:
// for a message that names the file itself, or whose path (a temporary
// file's) means nothing to the user.
func Reason(err error) string {
	if pe := (*fs.PathError)(nil); errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// Unwrap returns the error of the read.
func (e *FileError) Unwrap() error { return e.Err }

// Named is err, an error of reading the file at path (ReadFile's), as a
// FileError saying what the file is and what to do next; a file larger
// than the limit, and a read cancelled, keep their own words.
func Named(err error, what, path, next string) error {
	if err == nil {
		return nil
	}
	var tl *TooLargeError
	if errors.As(err, &tl) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return &FileError{What: what, Path: path, Next: next, Err: err}
}
