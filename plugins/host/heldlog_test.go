package host

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"

	"github.com/rubricmcp/rubric/plugins/sdk"
)

// A plugin's warnings and errors reach the log when it ends, unless an
// error the host returned quoted them; go-plugin's words about a process
// that ended are debug lines.
func TestHeldLog(t *testing.T) {
	for _, c := range []struct {
		name   string
		quoted bool
		log    func(hclog.Logger)
		want   []string // lines of the log at warn level, in order
	}{
		{"a warning, run ends well", false, func(l hclog.Logger) { l.Named("p").Warn("rate limited") }, []string{"[WARN]  judge.x.p: rate limited"}},
		{"an error through Log", false, func(l hclog.Logger) { l.Log(hclog.Error, "bad answer") }, []string{"[ERROR] judge.x: bad answer"}},
		{"quoted by the crash error", true, func(l hclog.Logger) { l.Named("p").Error("dying"); l.Warn("and more") }, nil},
		{"the process exited", false, func(l hclog.Logger) { l.Error("plugin process exited", "error", "signal: killed") }, nil},
		{"info passes at once", false, func(l hclog.Logger) { l.Info("hello") }, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var out bytes.Buffer
			base := hclog.New(&hclog.LoggerOptions{Output: &out, Level: hclog.Warn, DisableTime: true})
			l := newHeldLog(base.Named("judge.x"), &secrets{})
			c.log(l)
			if out.Len() != 0 {
				t.Fatalf("logged before the plugin ended: %q", out.String())
			}
			if c.quoted {
				l.held.quote()
			}
			l.held.flush()
			got := strings.Split(strings.TrimSpace(out.String()), "\n")
			if out.Len() == 0 {
				got = nil
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("logged\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

// TestHeldLogNow: a plugin's warning marked to be shown at once (sdk.Warn)
// is logged when it arrives, without the mark, the plugin's timestamp and
// hclog's own fields, and is not logged again when the plugin ends, quoted
// or not.
func TestHeldLogNow(t *testing.T) {
	for _, quoted := range []bool{false, true} {
		var out bytes.Buffer
		base := hclog.New(&hclog.LoggerOptions{Output: &out, Level: hclog.Warn, DisableTime: true})
		l := newHeldLog(base.Named("transport.stdio"), &secrets{})
		// As go-plugin relays the entry sdk.Warn wrote.
		l.Named("rubric").Warn("server wrote junk", "@module", "plugin", sdk.NowKey, true, "server", "x", "timestamp", "2026-01-01T00:00:00.000Z")
		l.Warn("held until the end")
		want := "[WARN]  transport.stdio.rubric: server wrote junk: server=x\n"
		if out.String() != want {
			t.Errorf("logged at once %q, want %q", out.String(), want)
		}
		if quoted {
			l.held.quote()
			want = ""
		} else {
			want = "[WARN]  transport.stdio: held until the end\n"
		}
		out.Reset()
		l.held.flush()
		if out.String() != want {
			t.Errorf("quoted %v: logged at the end %q, want %q", quoted, out.String(), want)
		}
	}
}
