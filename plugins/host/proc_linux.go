package host

import (
	"os/exec"
	"syscall"
)

// isolate gives a plugin that starts processes of its own a process group
// of its own, so that sweep can end its descendants too, and makes every
// plugin hear of the host's death: it gets SIGTERM (Pdeathsig), on which
// a plugin built with plugins/sdk kills its whole group, and a plugin
// that is not simply ends.
func isolate(cmd *exec.Cmd, group bool) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: group, Pdeathsig: syscall.SIGTERM}
}

// sweep kills whatever is left in the plugin's process group.
func sweep(pid int, group bool) {
	if group && pid > 0 {
		_ = syscall.Kill(-pid, syscall.SIGKILL)
	}
}
