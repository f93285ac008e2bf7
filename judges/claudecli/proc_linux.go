package claudecli

import (
	"errors"
	"os"
	"syscall"
)

// sysProcAttr starts claude as the leader of a process group of its own,
// so that a cancelled question ends it together with anything it started,
// and kills it should the judge die first: leaving the judge's group, it
// no longer ends with it.
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

// kill ends the process group p leads.
func kill(p *os.Process) error {
	err := syscall.Kill(-p.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil // already gone
	}
	if err != nil {
		return p.Kill()
	}
	return nil
}
