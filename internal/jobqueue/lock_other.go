//go:build !unix

package jobqueue

import "context"

// noLocks is the SQLite presence where flock is missing: a queue never
// knows itself alone, so a dead worker's jobs wait for River's rescuer.
type noLocks struct{}

func lockFiles(string) (presence, error) { return noLocks{}, nil }

func (noLocks) enter(context.Context) (bool, error) { return false, nil }
func (noLocks) opened()                             {}
func (noLocks) close()                              {}
