// Package file is the transport that reads a surface from a JSON file: a
// tools/list result, a bare array of tools, a capture or a registry capture
// (see surface.Parse).
package file

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
)

// DefaultMaxBytes is the largest file read unless told otherwise.
const DefaultMaxBytes = 1 << 30

// Transport reads surfaces from files.
type Transport struct {
	// MaxBytes bounds the size of the file; 0 means DefaultMaxBytes.
	MaxBytes int64
	// Stdin is what the target "-" reads; os.Stdin when nil.
	Stdin io.Reader
}

// Name implements transport.Transport.
func (Transport) Name() string { return "file" }

// Export implements transport.Transport; "-" reads standard input.
func (t Transport) Export(ctx context.Context, target transport.Target) (*surface.Surface, error) {
	limit := t.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	var data []byte
	var err error
	name := target.Location
	if name == "-" {
		name = "<stdin>"
		in := t.Stdin
		if in == nil {
			in = os.Stdin
		}
		data, err = readLimited(in, limit, 0)
	} else {
		data, err = readFile(name, limit)
	}
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return surface.Parse(name, data)
}

// readFile reads a whole file into a buffer of its size, refusing a file
// larger than limit before reading it.
func readFile(name string, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("cannot read surface: %w", err)
	}
	defer f.Close()
	var size int64
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	if size > limit {
		return nil, tooLarge(name, limit)
	}
	data, err := readLimited(f, limit, size)
	if err != nil {
		return nil, fmt.Errorf("cannot read surface: %w", err)
	}
	return data, nil
}

// readLimited reads r to its end into a buffer sized for hint bytes, and
// fails past limit bytes.
func readLimited(r io.Reader, limit, hint int64) ([]byte, error) {
	buf := bytes.NewBuffer(make([]byte, 0, hint+bytes.MinRead))
	n, err := buf.ReadFrom(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if n > limit {
		return nil, tooLarge("the surface", limit)
	}
	return buf.Bytes(), nil
}

func tooLarge(name string, limit int64) error {
	return fmt.Errorf("%s is larger than %d bytes (raise --max-bytes)", name, limit)
}
