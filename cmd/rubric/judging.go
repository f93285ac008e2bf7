package main

import (
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/internal/runflags"
)

// host starts this invocation's plugins: the built-ins and the config's.
func (a *app) host() runflags.Host {
	return runflags.Host{V: a.v, Local: a.local, TrustLocal: a.trustLocal, Builtins: builtins, Log: a.logger(), Early: a.early}
}

// session starts the plugin host and a scan session of the command's
// flags; judging says the command has the judge flags. Closing it ends
// the judge and every plugin.
func (a *app) session(judging bool) (*run.Session, func(), error) {
	s, done, err := a.host().Session(judging, a.stderr)
	a.sess = s
	return s, done, err
}

// sessionOptions are the options of a session of the command's flags,
// with the plugin host started; closeHost ends it.
func (a *app) sessionOptions(judging bool) (run.Options, func(), error) {
	return a.host().SessionOptions(judging, a.stderr)
}
