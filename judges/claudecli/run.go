package claudecli

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"syscall"
	"time"

	"github.com/rubricmcp/rubric/internal/procgroup"
	"github.com/rubricmcp/rubric/internal/termtext"
)

// stdoutLimit bounds what is kept of claude's standard output: far above
// any answer, far below what would hurt the plugin. A variable so that
// tests can lower it.
var stdoutLimit = 16 << 20

// Bounds on claude's end.
const (
	// waitDelay is how long claude's pipes may stay open after it exited
	// or was killed (a child of it may hold them) before they are closed.
	waitDelay = 2 * time.Second
	// stderrKeep is how much of the end of claude's stderr is kept.
	stderrKeep = 8 << 10
	// stderrLines is how many of its last lines an error quotes.
	stderrLines = 5
)

// output is what a finished claude process left.
type output struct {
	stdout bytes.Buffer   // up to stdoutLimit bytes
	over   bool           // stdout went past stdoutLimit; the rest was dropped
	stderr *termtext.Tail // the last stderrKeep bytes
	// err is how the process ended: nil for exit status 0, an
	// *exec.ExitError otherwise.
	err error
}

// run runs path with args in dir (the current directory when empty),
// stdin on its standard input, and waits for it to end. When ctx ends
// first, the process and everything it started are killed; the caller
// tells that case by ctx.Err(). The error is for a process that could not
// be started.
func run(ctx context.Context, path string, args []string, dir, stdin string) (*output, error) {
	out := &output{stderr: &termtext.Tail{Max: stderrKeep}}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = dir
	cmd.Stdin = strings.NewReader(stdin)
	cmd.Stdout = (*capped)(out)
	cmd.Stderr = out.stderr
	// claude leads a process group of its own, so that a cancelled
	// question ends it with anything it started, and it is killed should
	// the judge die first: out of the judge's group, it would not end
	// with it.
	cmd.SysProcAttr = procgroup.Attr(true, syscall.SIGKILL)
	cmd.Cancel = func() error {
		if err := procgroup.KillGroup(cmd.Process.Pid); err != nil {
			return cmd.Process.Kill()
		}
		return nil
	}
	cmd.WaitDelay = waitDelay
	if err := cmd.Start(); err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("cannot start %s: %w", path, unwrapExec(err))
	}
	out.err = cmd.Wait()
	return out, nil
}

// capped is the output, written as claude's stdout: it keeps the first
// stdoutLimit bytes and reads on, so that claude never blocks on a full
// pipe.
type capped output

// Write implements io.Writer; it never fails.
func (c *capped) Write(p []byte) (int, error) {
	keep := p
	if room := stdoutLimit - c.stdout.Len(); len(keep) > room {
		keep = keep[:max(room, 0)]
		c.over = true
	}
	c.stdout.Write(keep)
	return len(p), nil
}

// quoteLen is how much of unreadable output an error quotes.
const quoteLen = 200

// quoteStart quotes the first quoteLen bytes of s, marking a cut.
func quoteStart(s string) string {
	if len(s) <= quoteLen {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprintf("%q...", s[:quoteLen])
}
