package transport

import "errors"

// Permanent marks err as a failure that trying the target again cannot
// fix, as it stands: a file that does not exist, a command that cannot
// be found, a server cut off for what it wrote (anything but JSON-RPC on
// stdout, a message past the byte limit, a tools/list that breaks the
// protocol). A caller that retries (rubric scan's --attempts) fails such
// a target at once, with the reason. An error left unmarked may be
// transient (a server that exited or timed out, a network that failed)
// and is tried again. The mark crosses the plugin protocol.
// Permanent(nil) is nil.
func Permanent(err error) error {
	if err == nil {
		return nil
	}
	return &permanentError{err: err}
}

// IsPermanent reports whether err, or an error it wraps, was marked with
// Permanent.
func IsPermanent(err error) bool {
	var p *permanentError
	return errors.As(err, &p)
}

type permanentError struct{ err error }

func (e *permanentError) Error() string { return e.err.Error() }
func (e *permanentError) Unwrap() error { return e.err }
