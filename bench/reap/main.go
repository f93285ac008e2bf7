//go:build linux

// Command reap runs a command as a child subreaper and appends the
// processor time of the command and of every process below it to a
// file, one line a run: "command|wall s|user s|system s".
//
//	reap OUT COMMAND [ARG...]
//
// /usr/bin/time (or go test -exec with it) counts a process's children
// only as they are reaped by their parents: processes a command leaves
// behind, or whose parent is killed (Chromium's renderers, once the
// test stops the browser), are reaped by init and their time is lost.
// Linux hands them to the nearest subreaper instead, which reap is, so
// it waits for every descendant and counts them all. The HTML report's
// browser tests took 12.7 CPU-s under /usr/bin/time and 68.7 under
// reap. Linux only.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"time"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: reap OUT COMMAND [ARG...]: appends \"command|wall|user|system\" (seconds) to OUT")
		os.Exit(2)
	}
	// PR_SET_CHILD_SUBREAPER (36): orphans below us are re-parented to us.
	if _, _, errno := syscall.RawSyscall(syscall.SYS_PRCTL, 36, 1, 0); errno != 0 {
		fmt.Fprintf(os.Stderr, "reap: cannot become a subreaper (%v): it needs Linux 3.4 or later\n", errno)
		os.Exit(2)
	}
	start := time.Now()
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(os.Stderr, "reap: %v\n", err)
		os.Exit(2)
	}
	code := 0
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, 0, nil)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			break // ECHILD: every descendant is reaped
		}
		if pid == cmd.Process.Pid {
			code = ws.ExitStatus()
		}
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru); err != nil {
		fmt.Fprintf(os.Stderr, "reap: %v\n", err)
		os.Exit(2)
	}
	sec := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	f, err := os.OpenFile(os.Args[1], os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err == nil {
		_, err = fmt.Fprintf(f, "%s|%.2f|%.2f|%.2f\n", strings.Join(os.Args[2:], " "), time.Since(start).Seconds(), sec(ru.Utime), sec(ru.Stime))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "reap: %v\n", err)
		os.Exit(2)
	}
	os.Exit(code)
}
