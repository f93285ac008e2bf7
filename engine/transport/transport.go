// Package transport defines how the engine obtains a surface: a Transport
// turns a target (a file, a command to spawn, a URL) into the tools a server
// shows.
//
// The engine depends only on this interface. Transports are served as
// out-of-process plugins (see plugins/host); the built-in ones live under
// plugins/transports.
package transport

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/rubricmcp/rubric/engine/surface"
)

// Default limits, used where a Limits field is zero.
const (
	DefaultStartTimeout   = 60 * time.Second
	DefaultRequestTimeout = 30 * time.Second
	DefaultMaxBytes       = 64 << 20
	DefaultMaxTools       = 10000
)

// Target is what to read a surface from.
type Target struct {
	// Location is a path, a URL or a command name, depending on the transport.
	Location string
	// Args are the arguments of a command.
	Args []string
	// Dir is the working directory of a command; empty means the caller's.
	Dir string
	// Env holds extra environment variables for a command.
	Env map[string]string
	// Headers holds extra HTTP headers.
	Headers map[string]string
	// Limits bound what reading the target may cost.
	Limits Limits
	// StrictStdout refuses a spawned server at its first line on stdout
	// that is not a JSON-RPC message. By default a few such lines (a
	// banner, a stray log line) are skipped, with a warning.
	StrictStdout bool
	// FollowRedirects lets an HTTP transport follow a redirect to another
	// origin (scheme, host, port), to which it then sends none of the
	// target's headers. By default such a redirect is refused.
	FollowRedirects bool
}

// Limits bound a transport's work. A zero field means its default.
type Limits struct {
	// StartTimeout bounds the time from starting a server to its answer to
	// initialize.
	StartTimeout time.Duration
	// RequestTimeout bounds the wait for each later answer.
	RequestTimeout time.Duration
	// MaxBytes bounds the size of one response (or of a file).
	MaxBytes int64
	// MaxTools bounds the number of tools.
	MaxTools int
}

// WithDefaults returns l with every zero field set to its default.
func (l Limits) WithDefaults() Limits {
	if l.StartTimeout <= 0 {
		l.StartTimeout = DefaultStartTimeout
	}
	if l.RequestTimeout <= 0 {
		l.RequestTimeout = DefaultRequestTimeout
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultMaxBytes
	}
	if l.MaxTools <= 0 {
		l.MaxTools = DefaultMaxTools
	}
	return l
}

// ExportBytes bounds what a whole export may read, every page of a list
// together: four times MaxBytes (of l with its defaults). The plugin host
// accepts a surface document of that size, plus its framing.
func (l Limits) ExportBytes() int64 { return 4 * l.WithDefaults().MaxBytes }

// String returns the target as a user would type it.
func (t Target) String() string {
	if len(t.Args) == 0 {
		return t.Location
	}
	return t.Location + " " + strings.Join(t.Args, " ")
}

// Transport exports the surface of a target.
type Transport interface {
	// Name is the transport's name, such as "file" or "stdio".
	Name() string
	// Export reads the target's tools. Errors say what happened in words a
	// user can act on.
	Export(ctx context.Context, t Target) (*surface.Surface, error)
}

// Sized formats a byte count for a message: "64 MiB", "12 KiB", or
// "1500 bytes" when it is not a whole number of either.
func Sized(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return strconv.FormatInt(n>>20, 10) + " MiB"
	case n >= 1<<10 && n%(1<<10) == 0:
		return strconv.FormatInt(n>>10, 10) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
