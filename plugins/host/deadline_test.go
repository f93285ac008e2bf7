package host

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/plugins/protocol"
)

// stageTimer is a CallTimer whose clock ends once reached says so: when
// the plugin has said it is inside the call that will never end, not
// after a wait. A call that ends first stops its clock.
func stageTimer(reached <-chan struct{}) func(time.Duration) (<-chan time.Time, func()) {
	return func(time.Duration) (<-chan time.Time, func()) {
		c, stop := make(chan time.Time, 1), make(chan struct{})
		go func() {
			select {
			case <-reached:
				c <- time.Time{}
			case <-stop:
			}
		}()
		return c, func() { close(stop) }
	}
}

// TestCallDeadline: a plugin that stays alive but stops answering in the
// middle of a call no longer holds the host forever: once the deadline
// passes, the call returns a TimeoutError naming the plugin, the call,
// the wait and the setting to raise. The calls before it, answered, are
// untouched by the deadline. The plugin never answers the call, so the
// deadline, however it is timed, decides nothing but when.
func TestCallDeadline(t *testing.T) {
	t.Run("judge", func(t *testing.T) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		arrived := make(chan struct{})
		go func() {
			if c, err := l.Accept(); err == nil {
				c.Close()
				close(arrived)
			}
		}()
		h := New(Options{StartTimeout: time.Minute, JudgeTimeout: 3 * time.Second, CallTimer: stageTimer(arrived)})
		defer h.Close()
		j, err := h.Judge(context.Background(), self(t, protocol.KindJudge, "judge"), judge.Config{Model: "m"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := j.Ask(context.Background(), judge.Question{Kind: "echo", Input: []byte(`{}`)}); err != nil {
			t.Fatalf("an answered question: %v", err)
		}
		_, err = j.Ask(context.Background(), judge.Question{Kind: "hang", Subject: l.Addr().String()})
		var te *TimeoutError
		if !errors.As(err, &te) {
			t.Fatalf("error %T: %v", err, err)
		}
		want := `the judge plugin "judge" (pid ` + strconv.Itoa(j.PID()) + `) did not answer ask within 3s: raise --judge-timeout (config key judge-timeout) if it needs longer, or fix the plugin`
		if !strings.HasPrefix(err.Error(), want) {
			t.Errorf("error:\n%v\nwant it to begin:\n%s", err, want)
		}
		if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
			t.Errorf("the timeout reads as the run's own end: %v", err)
		}
	})
	t.Run("transport", func(t *testing.T) {
		fifo := filepath.Join(t.TempDir(), "pid")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		// The transport writes its server's pid to the target before it
		// hangs: reading it is knowing it is there.
		arrived := make(chan struct{})
		go func() {
			os.ReadFile(fifo)
			close(arrived)
		}()
		h := New(Options{StartTimeout: time.Minute, ExportTimeout: 2 * time.Minute, CallTimer: stageTimer(arrived)})
		defer h.Close()
		tr, err := h.Transport(context.Background(), self(t, protocol.KindTransport, "transport"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = tr.Export(context.Background(), transport.Target{Location: fifo})
		var te *TimeoutError
		if !errors.As(err, &te) || te.During != "export" || te.Waited != 2*time.Minute {
			t.Fatalf("error %T: %v", err, err)
		}
		// The server the transport reads may be what stopped: the
		// message does not blame the plugin alone.
		want := `the transport plugin "transport" (pid ` + strconv.Itoa(tr.PID()) + `) did not finish reading the target within 2m0s: raise --export-timeout (config key export-timeout) if the server needs longer to start and list its tools; else the server, or the plugin, which is still running, stopped answering`
		if !strings.HasPrefix(err.Error(), want) {
			t.Errorf("error:\n%v\nwant it to begin:\n%s", err, want)
		}
	})
}

// TestDeadlineSetting: the setting a TimeoutError tells the user to
// raise is the one whose value the call waited: a judge's describe and
// configure, which end its start, wait at least --plugin-start-timeout,
// and name it when it is the longer; they named --judge-timeout, whose
// raise below the start timeout changed nothing.
func TestDeadlineSetting(t *testing.T) {
	h := New(Options{StartTimeout: time.Minute, JudgeTimeout: 10 * time.Second, ExportTimeout: 2 * time.Minute})
	defer h.Close()
	for _, c := range []struct {
		kind, what string
		d          time.Duration
		setting    string
	}{
		{protocol.KindJudge, "ask", 10 * time.Second, "judge-timeout"},
		{protocol.KindJudge, "configure", time.Minute, "plugin-start-timeout"},
		{protocol.KindJudge, "describe", time.Minute, "plugin-start-timeout"},
		{protocol.KindTransport, "describe", 2 * time.Minute, "export-timeout"},
		{protocol.KindTransport, "export", 2 * time.Minute, "export-timeout"},
	} {
		if d, setting := h.deadline(c.kind, c.what); d != c.d || setting != c.setting {
			t.Errorf("%s %s: %s, --%s; want %s, --%s", c.kind, c.what, d, setting, c.d, c.setting)
		}
	}
}
