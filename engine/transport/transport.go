// Package transport defines how the engine obtains a surface: a Transport
// turns a target (a file, a command to spawn, a URL) into the tools a server
// shows.
//
// The engine depends only on this interface, which it owns. Transports are
// served as out-of-process plugins: the plugin host (plugins/host) returns
// a Transport that speaks to one, and a plugin implements one (served by
// plugins/sdk); the built-in ones live under plugins/transports.
package transport

import (
	"context"
	"fmt"
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
	// Unset names environment variables a command does not inherit from
	// the environment it is started in (a client configuration's
	// "env": {"X": null}); Env sets a name after it is unset.
	Unset []string
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
	// Sandbox confines a spawned server; the zero value runs it as a
	// plain child process.
	Sandbox Sandbox
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

// Check refuses a limit of zero or less, which WithDefaults would
// otherwise read as "the default" without saying so; its messages name
// the command line's flags.
func (l Limits) Check() error {
	switch {
	case l.StartTimeout <= 0:
		return fmt.Errorf("--start-timeout %s: give a duration above zero, such as 60s", l.StartTimeout)
	case l.RequestTimeout <= 0:
		return fmt.Errorf("--request-timeout %s: give a duration above zero, such as 30s", l.RequestTimeout)
	case l.MaxBytes <= 0:
		return fmt.Errorf("--max-bytes %d: give a size above zero, such as 64MiB", l.MaxBytes)
	case l.MaxTools <= 0:
		return fmt.Errorf("--max-tools %d: give a count above zero, such as %d", l.MaxTools, DefaultMaxTools)
	}
	return nil
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
	// Describe says what the transport is: its name, version, the target
	// schemes it reads and where its targets are.
	Describe(ctx context.Context) (Info, error)
	// Export reads the target's tools. Errors say what happened in words a
	// user can act on.
	Export(ctx context.Context, t Target) (*surface.Surface, error)
}

// Plugin is a transport started as a plugin process: what the plugin host
// returns.
type Plugin interface {
	Transport
	// Close ends it.
	Close()
}

// Info describes a transport.
type Info struct {
	// Name is the transport's name, such as "file" or "stdio".
	Name    string `json:"name"`
	Version string `json:"version"`
	// Schemes are the target schemes it reads, such as "http" and
	// "https": a target written SCHEME://... must use one of them.
	Schemes []string `json:"schemes"`
	// Locality says what a target's location names.
	Locality Locality `json:"locality"`
}

// Locality is what a target's location names, so that a caller that
// reads one target in several places (the gate reads each side from its
// own checkout) knows what to move: a command runs in the target's
// directory, a path is a file, an endpoint is the same wherever it is
// read from.
type Locality string

// The localities.
const (
	// Command: the location and arguments are a command to start, in
	// Target.Dir.
	Command Locality = "command"
	// Path: the location is a file's path (or SCHEME://path for one of
	// the transport's schemes).
	Path Locality = "path"
	// Endpoint: the location is an address served from elsewhere. A
	// transport that does not say is taken to read an endpoint.
	Endpoint Locality = "endpoint"
)

// Of returns l, or Endpoint when l is empty or unknown: a plugin that
// does not say where its targets are is not moved.
func (l Locality) Of() Locality {
	switch l {
	case Command, Path:
		return l
	}
	return Endpoint
}

// PathOf returns the file path a target of a Path transport names: its
// location without a SCHEME:// prefix for one of the transport's
// schemes.
func (i Info) PathOf(location string) string {
	for _, s := range i.Schemes {
		if rest, ok := strings.CutPrefix(location, s+"://"); ok {
			return rest
		}
	}
	return location
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

// Measured formats a byte count that was measured rather than set, for
// a reader: "2.2 MiB (2321178 bytes)", "2 KiB (2048 bytes)", or
// "512 bytes" under a KiB.
func Measured(n int64) string {
	for _, u := range []struct {
		size int64
		name string
	}{{1 << 30, "GiB"}, {1 << 20, "MiB"}, {1 << 10, "KiB"}} {
		// A count a little under the unit, which rounds to 1.0 of it,
		// is written in it, not as 1024.0 of the next smaller one.
		if n < u.size-u.size/2048 {
			continue
		}
		v := strconv.FormatFloat(float64(n)/float64(u.size), 'f', 1, 64)
		if n%u.size == 0 {
			v = strconv.FormatInt(n/u.size, 10)
		}
		return v + " " + u.name + " (" + strconv.FormatInt(n, 10) + " bytes)"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}

// sizeUnits are the units ParseSize knows, lower-cased.
var sizeUnits = map[string]int64{
	"": 1, "b": 1,
	"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30,
	"kb": 1000, "mb": 1000 * 1000, "gb": 1000 * 1000 * 1000,
}

// MaxSize is the largest size ParseSize takes, 1 PiB: far past any
// surface, and small enough that the bounds rubric derives from a size
// (ExportBytes is four times it) cannot overflow.
const MaxSize = 1 << 50

// ParseSize reads "1048576", "64MiB", "512 KiB", "1GiB" (also KB, MB, GB
// as powers of 1000), up to MaxSize.
func ParseSize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	digits := len(t) - len(strings.TrimLeft(t, "0123456789"))
	mult, ok := sizeUnits[strings.ToLower(strings.TrimSpace(t[digits:]))]
	n, err := strconv.ParseInt(t[:digits], 10, 64)
	if !ok || err != nil || n <= 0 {
		return 0, fmt.Errorf("%q: want a positive size such as 67108864, 64MiB or 1GiB", s)
	}
	if n > MaxSize/mult {
		return 0, fmt.Errorf("%q: want a size of at most 1048576GiB (1 PiB)", s)
	}
	return n * mult, nil
}
