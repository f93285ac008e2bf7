package sdk

import (
	"os"
	"os/signal"
	"syscall"
)

// endGroupOnTerm makes SIGTERM end the plugin together with everything it
// started, when the plugin leads a process group of its own (the host
// starts it so, and sends SIGTERM as its parent-death signal). So an MCP
// server spawned by a transport, and that server's own children, do not
// outlive a host that was killed outright.
func endGroupOnTerm() {
	if syscall.Getpgrp() != os.Getpid() {
		return
	}
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM)
	go func() {
		<-term
		_ = syscall.Kill(0, syscall.SIGKILL)
	}()
}
