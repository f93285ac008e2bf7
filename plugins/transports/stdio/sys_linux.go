package stdio

import "syscall"

// sysProcAttr kills the server if rubric dies first. The server stays in
// rubric's process group, which the plugin host kills as a whole afterwards.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
