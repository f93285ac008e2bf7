package host

import (
	"strings"
	"sync"

	"github.com/hashicorp/go-hclog"
	"github.com/rubricmcp/rubric/plugins/protocol"
)

// heldLog is the logger go-plugin writes through for one plugin. Its
// messages about the process ending go to debug: the host words a crash
// itself, with the exit status and the end of the plugin's stderr. The
// plugin's own warnings and errors are held until it ends, then logged,
// unless an error the host returned already quoted them: a failed run
// then shows its one error, not the same words again as [ERROR] lines.
//
// Everything it logs, at once or when held, has the values rubric gave
// the plugin hidden (secrets): go-plugin relays the plugin's stderr
// through it line by line.
type heldLog struct {
	hclog.Logger
	held    *held
	secrets *secrets
}

// held is what a plugin's loggers hold until it ends.
type held struct {
	mu     sync.Mutex
	lines  []heldLine
	quoted bool
}

type heldLine struct {
	log   hclog.Logger
	level hclog.Level
	msg   string
	args  []any
	// secrets are hidden again when the line is logged: a transport
	// learns more of them with each export.
	secrets *secrets
}

// goPluginEnding are go-plugin's own warnings and errors about a process
// that ended or was killed, which the host reports in its own words.
var goPluginEnding = map[string]bool{
	"plugin process exited":            true,
	"plugin failed to exit gracefully": true,
}

func newHeldLog(l hclog.Logger, s *secrets) heldLog {
	return heldLog{Logger: l, held: &held{}, secrets: s}
}

func (l heldLog) hold(level hclog.Level, msg string, args []any) {
	msg, args = l.secrets.hide(msg), l.secrets.hideArgs(args)
	if goPluginEnding[msg] {
		l.Logger.Debug(msg, args...)
		return
	}
	if rest, now := logNow(args); now {
		l.Logger.Log(level, msg, rest...)
		return
	}
	l.held.mu.Lock()
	defer l.held.mu.Unlock()
	if len(l.held.lines) < maxHeld {
		l.held.lines = append(l.held.lines, heldLine{l.Logger, level, msg, args, l.secrets})
	}
}

// maxHeld bounds the lines held for one plugin; the end of its stderr is
// in its tail as well.
const maxHeld = 100

// Log implements hclog.Logger.
func (l heldLog) Log(level hclog.Level, msg string, args ...any) {
	if level >= hclog.Warn && level != hclog.Off {
		l.hold(level, msg, args)
		return
	}
	if level < l.Logger.GetLevel() {
		return // below the log's level: nothing to hide
	}
	l.Logger.Log(level, l.secrets.hide(msg), l.secrets.hideArgs(args)...)
}

// Trace implements hclog.Logger.
func (l heldLog) Trace(msg string, args ...any) { l.Log(hclog.Trace, msg, args...) }

// Debug implements hclog.Logger.
func (l heldLog) Debug(msg string, args ...any) { l.Log(hclog.Debug, msg, args...) }

// Info implements hclog.Logger.
func (l heldLog) Info(msg string, args ...any) { l.Log(hclog.Info, msg, args...) }

// Warn implements hclog.Logger.
func (l heldLog) Warn(msg string, args ...any) { l.hold(hclog.Warn, msg, args) }

// Error implements hclog.Logger.
func (l heldLog) Error(msg string, args ...any) { l.hold(hclog.Error, msg, args) }

// Named implements hclog.Logger.
func (l heldLog) Named(name string) hclog.Logger {
	return heldLog{Logger: l.Logger.Named(name), held: l.held, secrets: l.secrets}
}

// ResetNamed implements hclog.Logger.
func (l heldLog) ResetNamed(name string) hclog.Logger {
	return heldLog{Logger: l.Logger.ResetNamed(name), held: l.held, secrets: l.secrets}
}

// With implements hclog.Logger.
func (l heldLog) With(args ...any) hclog.Logger {
	return heldLog{Logger: l.Logger.With(l.secrets.hideArgs(args)...), held: l.held, secrets: l.secrets}
}

// quote marks what is held as quoted by an error the host returned.
func (h *held) quote() {
	h.mu.Lock()
	h.quoted = true
	h.mu.Unlock()
}

// flush logs what is held, unless it was quoted, and forgets it.
func (h *held) flush() {
	h.mu.Lock()
	lines, quoted := h.lines, h.quoted
	h.lines = nil
	h.mu.Unlock()
	if quoted {
		return
	}
	for _, l := range lines {
		l.log.Log(l.level, l.secrets.hide(l.msg), l.secrets.hideArgs(l.args)...)
	}
}

// logNow reports whether the arguments of a plugin's log entry ask for it
// to be logged at once, and returns them without that mark and without
// the plugin's own timestamp and hclog fields, which a message shown at
// once does not need.
func logNow(args []any) ([]any, bool) {
	now := false
	var rest []any
	for i := 0; i+1 < len(args); i += 2 {
		switch args[i] {
		case protocol.LogNowKey:
			now = args[i+1] == true
		case "timestamp":
		default:
			if k, ok := args[i].(string); ok && strings.HasPrefix(k, "@") {
				continue // hclog's own fields (@module, @caller)
			}
			rest = append(rest, args[i], args[i+1])
		}
	}
	if len(args)%2 == 1 {
		rest = append(rest, args[len(args)-1])
	}
	return rest, now
}
