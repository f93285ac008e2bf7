//go:build unix

package piddir

import (
	"errors"
	"os"
	"syscall"
)

// Alive reports whether a process with this id is running (or is a
// zombie not yet reaped). A process of another user counts as running.
func Alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// ownedByMe reports whether this process's user owns the file.
func ownedByMe(info os.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Getuid()
}
