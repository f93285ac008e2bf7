package host

import (
	"os/exec"
	"syscall"
)

// isolate makes the plugin die with the host (Pdeathsig) and, for a plugin
// that starts processes of its own, leads a process group of its own, so
// that sweep can end its descendants too.
func isolate(cmd *exec.Cmd, group bool) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: group, Pdeathsig: syscall.SIGKILL}
}

// sweep kills whatever is left in the plugin's process group.
func sweep(pid int, group bool) {
	if group && pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}
