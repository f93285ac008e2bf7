//go:build !linux

package host

import "os/exec"

// isolate does nothing where process groups and parent-death signals are
// not available; go-plugin still kills the plugin itself.
func isolate(*exec.Cmd, bool) {}

// sweep does nothing; see isolate.
func sweep(int, bool) {}
