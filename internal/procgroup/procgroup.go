// Package procgroup starts child processes in process groups of their own,
// with a signal for when their parent dies, and kills such a group whole,
// where the system has both (Linux). Elsewhere children start as usual and
// only a process itself can be killed.
//
// A process that calls setsid() leaves its group; to end a whole session,
// its processes carry a mark in their environment (Mark), and KillMarked
// ends every process that still carries it (Linux). A process that
// empties its environment and then calls setsid() escapes both.
package procgroup

import "errors"

// ErrUnsupported is what KillGroup returns where there are no process
// groups to kill.
var ErrUnsupported = errors.New("process groups are not supported here")
