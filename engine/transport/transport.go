// Package transport defines how the engine obtains a surface: a Transport
// turns a target (a file, a command to spawn, a URL) into the tools a server
// shows.
//
// The engine depends only on this interface; built-in transports live under
// plugins/, and out-of-process plugins adapt to the same interface.
package transport

import (
	"context"

	"github.com/rubricmcp/rubric/engine/surface"
)

// Target is what to read a surface from.
type Target struct {
	// Location is a path, a URL or a command name, depending on the transport.
	Location string
	// Args are the arguments of a command.
	Args []string
	// Env and Headers are extra environment variables and HTTP headers.
	Env     map[string]string
	Headers map[string]string
}

// String returns the target as a user would type it.
func (t Target) String() string {
	s := t.Location
	for _, a := range t.Args {
		s += " " + a
	}
	return s
}

// Transport exports the surface of a target.
type Transport interface {
	// Name is the transport's name, such as "file" or "stdio".
	Name() string
	// Export reads the target's tools. Errors say what happened in words a
	// user can act on.
	Export(ctx context.Context, t Target) (*surface.Surface, error)
}
