//go:build !linux

package procgroup

import "syscall"

// Attr adds nothing where there are no process groups or parent-death
// signals.
func Attr(bool, syscall.Signal) *syscall.SysProcAttr { return nil }

// KillGroup returns ErrUnsupported: the caller kills the process itself.
func KillGroup(int) error { return ErrUnsupported }

// KillMarked finds nothing where processes cannot be listed with their
// environment.
func KillMarked(string) int { return 0 }
