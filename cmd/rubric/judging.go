package main

import (
	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/internal/runflags"
)

// cacheStore opens the answer cache at --cache-dir, or the default one.
func (a *app) cacheStore() (*cache.Store, error) {
	return cache.Open(a.v.GetString("cache-dir"))
}

// session starts the plugin host and a scan session of the command's
// flags; judging says the command has the judge flags. Closing it ends
// the judge and every plugin.
func (a *app) session(judging bool) (*run.Session, func(), error) {
	plugins, closeHost, err := a.plugins()
	if err != nil {
		return nil, nil, err
	}
	o := run.Options{Plugins: plugins, Workers: a.v.GetInt("workers"), Version: version(), Log: a.logger(), RedactParams: a.redactParams()}
	if judging {
		if err := runflags.Judging(a.v, &o, a.stderr); err != nil {
			closeHost()
			return nil, nil, err
		}
	}
	s := run.New(o)
	a.sess = s
	return s, func() { s.Close(); closeHost() }, nil
}
