package prestart

import "syscall"

// attr is the process attributes of a companion, as procgroup.Attr gives
// them for a plugin that leads a group (group) or not, ended by SIGTERM
// when rubric dies.
func attr(group bool) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: group, Pdeathsig: syscall.SIGTERM}
}
