// Package procgroup starts child processes in process groups of their own,
// with a signal for when their parent dies, and kills such a group whole,
// where the system has both (Linux). Elsewhere children start as usual and
// only a process itself can be killed.
package procgroup

import "errors"

// ErrUnsupported is what KillGroup returns where there are no process
// groups to kill.
var ErrUnsupported = errors.New("process groups are not supported here")
