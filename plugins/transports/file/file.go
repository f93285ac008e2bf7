// Package file is the transport that reads a surface from a JSON file: a
// tools/list result, a bare array of tools, a capture or a registry capture
// (see surface.Parse). "-" reads standard input.
package file

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/buildinfo"
)

// Transport reads surfaces from files.
type Transport struct {
	// Stdin is what the target "-" reads; os.Stdin when nil.
	Stdin io.Reader
}

// Name implements transport.Transport.
func (Transport) Name() string { return "file" }

// Describe implements transport.Transport: a file, at a path or a
// file:// URL.
func (Transport) Describe(context.Context) (transport.Info, error) {
	return transport.Info{Name: "file", Version: buildinfo.Version(), Schemes: []string{"file"}, Locality: transport.Path}, nil
}

// Export implements transport.Transport.
func (t Transport) Export(ctx context.Context, target transport.Target) (*surface.Surface, error) {
	name, data, err := t.ExportDocument(ctx, target)
	if err != nil {
		return nil, err
	}
	return surface.Parse(name, data)
}

// ExportDocument implements protocol.DocumentExporter: the file's bytes,
// unparsed, refused past the target's byte limit before reading.
func (t Transport) ExportDocument(ctx context.Context, target transport.Target) (string, []byte, error) {
	limit := target.Limits.WithDefaults().MaxBytes
	name := strings.TrimPrefix(target.Location, "file://")
	var data []byte
	var err error
	if name == "-" {
		name = "<stdin>"
		in := t.Stdin
		if in == nil {
			in = os.Stdin
		}
		data, err = readLimited(in, name, limit, 0)
	} else {
		data, err = readFile(name, limit)
	}
	if err != nil {
		return "", nil, err
	}
	if err := ctx.Err(); err != nil {
		return "", nil, err
	}
	return name, data, nil
}

// ExportPath implements protocol.PathExporter: the absolute path and
// size of the target's file, checked as a read would check it (it opens,
// and is within the byte limit), for a host that reads it itself; path ""
// for standard input or anything but a regular file, whose bytes are
// sent instead.
func (t Transport) ExportPath(ctx context.Context, target transport.Target) (string, string, int64, error) {
	name := strings.TrimPrefix(target.Location, "file://")
	if name == "-" {
		return "", "", 0, nil
	}
	// Look before opening: opening a named pipe takes its writer's one
	// connection, and the bytes it had sent would be lost when this
	// look closes it, so only a regular file is opened here.
	if st, err := os.Stat(name); err == nil && !st.Mode().IsRegular() {
		return "", "", 0, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return "", "", 0, openError(err, name)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return "", "", 0, nil
	}
	if limit := target.Limits.WithDefaults().MaxBytes; st.Size() > limit {
		return "", "", 0, tooLarge(name, limit)
	}
	abs, err := filepath.Abs(name)
	if err != nil {
		return "", "", 0, nil
	}
	return name, abs, st.Size(), ctx.Err()
}

// readFile reads a whole file into a buffer of its size, refusing a file
// larger than limit before reading it.
func readFile(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, openError(err, name)
	}
	defer f.Close()
	var size int64
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	if size > limit {
		return nil, tooLarge(name, limit)
	}
	data, err := readLimited(f, name, limit, size)
	if err != nil && !transport.IsPermanent(err) { // too large is said already
		err = boundedread.Named(err, "surface file", name, surfaceNext)
	}
	return data, err
}

// readLimited reads r to its end into a buffer sized for hint bytes, and
// fails past limit bytes.
func readLimited(r io.Reader, name string, limit, hint int64) ([]byte, error) {
	buf := bytes.NewBuffer(make([]byte, 0, hint+bytes.MinRead))
	n, err := buf.ReadFrom(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if n > limit {
		return nil, tooLarge(name, limit)
	}
	return buf.Bytes(), nil
}

// surfaceNext is what to give instead of a surface file that is not
// there.
const surfaceNext = "give the path of a tools/list JSON file, an http(s) URL, or -- COMMAND to start the server"

// openError is a file that cannot be opened: for good when it does not
// exist or may not be read, which another attempt cannot change.
func openError(err error, name string) error {
	err = boundedread.Named(err, "surface file", name, surfaceNext)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
		return transport.Permanent(err)
	}
	return err
}

// tooLarge is a file over the byte limit, for good: only a larger
// --max-bytes reads it.
func tooLarge(name string, limit int64) error {
	return transport.Permanent(fmt.Errorf("%s is larger than %s (raise --max-bytes)", name, transport.Sized(limit)))
}
