package procgroup

import (
	"errors"
	"syscall"
)

// Attr returns the attributes to start a child with: with group it leads a
// process group of its own; death, when not 0, is the signal it gets if
// its parent dies first.
func Attr(group bool, death syscall.Signal) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: group, Pdeathsig: death}
}

// KillGroup kills every process in the group pid leads. A group already
// gone is not an error.
func KillGroup(pid int) error {
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil && !errors.Is(err, syscall.ESRCH) {
		return err
	}
	return nil
}
