//go:build !linux

package claudecli

import (
	"os"
	"syscall"
)

// sysProcAttr adds nothing where there are no process groups to start
// claude in, or no parent-death signal.
func sysProcAttr() *syscall.SysProcAttr { return nil }

// kill ends p; what p started is left to end with it.
func kill(p *os.Process) error { return p.Kill() }
