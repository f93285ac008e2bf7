// Package file is the transport that reads a surface from a JSON file: a
// tools/list result, a bare array of tools, a capture or a registry capture
// (see surface.Parse).
package file

import (
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
}

// Name implements transport.Transport.
func (Transport) Name() string { return "file" }

// Export implements transport.Transport; "-" reads standard input.
func (t Transport) Export(ctx context.Context, target transport.Target) (*surface.Surface, error) {
	limit := t.MaxBytes
	if limit <= 0 {
		limit = DefaultMaxBytes
	}
	var r io.Reader
	name := target.Location
	if name == "-" {
		r, name = os.Stdin, "<stdin>"
	} else {
		f, err := os.Open(name)
		if err != nil {
			return nil, fmt.Errorf("cannot read surface: %w", err)
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than %d bytes (raise --max-bytes)", name, limit)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return surface.Parse(name, data)
}
