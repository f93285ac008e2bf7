// Package atomicfile writes files so that a reader never sees half of one:
// the bytes go to a temporary file beside the target, which is then renamed
// over it. A failed write leaves the old file, if any, as it was.
//
// Only regular files are replaced: a device, a named pipe or a terminal
// (--out /dev/null, /dev/stdout, a fifo another program reads) is written
// in place, and a symbolic link keeps pointing where it did, the file it
// names replaced. Renaming over /dev/null as root would otherwise leave a
// regular file there for every program on the machine.
package atomicfile

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// bufSize is the buffer of a write: enough that a large report costs few
// system calls, small enough that the many small files of an answer cache
// (a write each) do not each allocate and clear a megabyte.
const bufSize = 64 << 10

// Write streams what write produces into a temporary file in the
// directory of path (made if missing), then renames it over path. The
// writer write receives is buffered; the file is flushed and closed
// before the rename.
func Write(path string, write func(io.Writer) error) error {
	return replace(path, write, true)
}

// replace is Write; with buffered false, write's writer is the file
// itself, for a caller that writes its bytes in one call. An answer cache
// writes a new file for every answer, so a path that does not exist yet
// is not looked at further: no link in it can be resolved (EvalSymlinks
// fails on it), and its directory is made only when the temporary file
// cannot be made for want of it (tempBeside).
func replace(path string, write func(io.Writer) error, buffered bool) error {
	fi, err := os.Stat(path)
	switch {
	case err == nil && !fi.Mode().IsRegular() && !fi.IsDir():
		return writeInPlace(path, write)
	case !errors.Is(err, fs.ErrNotExist):
		if real, err := filepath.EvalSymlinks(path); err == nil {
			path = real
		}
	}
	return viaTemp(path, write, buffered)
}

// viaTemp writes what write produces to a temporary file in path's
// directory (tempBeside) and renames it over path.
func viaTemp(path string, write func(io.Writer) error, buffered bool) error {
	f, err := tempBeside(path)
	if err != nil {
		return err
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if !buffered {
		if err := write(f); err != nil {
			return fail(err)
		}
	} else {
		bw := bufio.NewWriterSize(f, bufSize)
		if err := write(bw); err != nil {
			return fail(err)
		}
		if err := bw.Flush(); err != nil {
			return fail(err)
		}
	}
	if err := f.Chmod(0o644); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// tempBeside makes a temporary file in path's directory, making the
// directory first when it is missing.
func tempBeside(path string) (*os.File, error) {
	dir, pattern := filepath.Dir(path), "."+filepath.Base(path)+".tmp*"
	f, err := os.CreateTemp(dir, pattern)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		f, err = os.CreateTemp(dir, pattern)
	}
	return f, err
}

// writeInPlace writes to something that is not a regular file, such as a
// device or a named pipe, through its own path.
func writeInPlace(path string, write func(io.Writer) error) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(f, bufSize)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// WriteFile writes data to path atomically (see Write).
func WriteFile(path string, data []byte) error {
	// One write of data needs no buffer: a buffer a file was 64 kB
	// allocated and cleared, for files that are often a kilobyte or two.
	return replace(path, bytesOf(data), false)
}

// bytesOf is a write of data, in one call.
func bytesOf(data []byte) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	}
}
