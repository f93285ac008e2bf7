//go:build !linux

package prestart

import "syscall"

// attr is nil where a companion is not started ahead: without Pdeathsig,
// one left waiting could outlive a rubric that was killed.
func attr(bool) *syscall.SysProcAttr { return nil }
