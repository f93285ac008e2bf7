package transport

import (
	"fmt"
	"strings"
)

// Sandbox kinds.
const (
	// SandboxBwrap runs a spawned server under bubblewrap (internal/sandbox).
	SandboxBwrap = "bwrap"
)

// How a sandbox shows the working directory to the server.
const (
	// CwdReadOnly shows it read-only (the default).
	CwdReadOnly = "ro"
	// CwdWritable shows it writable: the only host directory the server
	// can change.
	CwdWritable = "rw"
	// CwdHidden does not show it; the server starts in its private HOME.
	CwdHidden = "none"
)

// Sandbox says how a spawned server is confined: what of the host it
// sees, what it may change and whether it reaches the network.
type Sandbox struct {
	// Kind names the sandbox: empty for none, or SandboxBwrap.
	Kind string
	// Net lets the server use the host's network; by default it has a
	// network of its own with nothing but a loopback device.
	Net bool
	// Cwd is how the working directory is shown: CwdReadOnly (also when
	// empty), CwdWritable or CwdHidden.
	Cwd string
	// ReadOnly lists more host paths shown read-only at the same place,
	// such as a toolchain installed under the home directory.
	ReadOnly []string
}

// Enabled reports whether a sandbox is asked for.
func (s Sandbox) Enabled() bool { return s.Kind != "" }

// Check refuses an unknown kind or working-directory mode, and options
// given without a sandbox; its messages name the command line's flags.
func (s Sandbox) Check() error {
	switch s.Kind {
	case "", SandboxBwrap:
	default:
		return fmt.Errorf("--sandbox %q: the only sandbox is %q (bubblewrap)", s.Kind, SandboxBwrap)
	}
	switch s.Cwd {
	case "", CwdReadOnly, CwdWritable, CwdHidden:
	default:
		return fmt.Errorf("--sandbox-cwd %q: give %s (read-only, the default), %s (writable) or %s (hidden)", s.Cwd, CwdReadOnly, CwdWritable, CwdHidden)
	}
	if s.Kind == "" {
		var given []string
		if s.Net {
			given = append(given, "--sandbox-net")
		}
		if s.Cwd != "" {
			given = append(given, "--sandbox-cwd")
		}
		if len(s.ReadOnly) > 0 {
			given = append(given, "--sandbox-ro")
		}
		if len(given) > 0 {
			return fmt.Errorf("%s without a sandbox: add --sandbox %s", strings.Join(given, " and "), SandboxBwrap)
		}
	}
	return nil
}
