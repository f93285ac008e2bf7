package host

import (
	"context"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/plugins/protocol"
)

// Launcher starts the catalog's plugins on the host: it is what a scan
// session (engine/run) starts its judge and transports with.
type Launcher struct {
	Host    *Host
	Catalog *Catalog
}

// Judge implements run.Plugins: the judge plugin ref names, started and
// configured.
func (l Launcher) Judge(ctx context.Context, ref string, cfg judge.Config) (judge.Plugin, error) {
	p, err := l.Catalog.Find(protocol.KindJudge, ref)
	if err != nil {
		return nil, err
	}
	j, err := l.Host.Judge(ctx, p, cfg)
	if err != nil {
		return nil, err
	}
	return j, nil
}

// FindJudge implements run.JudgeFinder: the error Judge gives for a
// judge plugin ref that does not exist, without starting it.
func (l Launcher) FindJudge(ref string) error {
	_, err := l.Catalog.Find(protocol.KindJudge, ref)
	return err
}

// CheckJudgeOptions implements run.JudgeOptionChecker: a built-in judge
// checks the names of its options in process (judge.OptionChecker), as
// its plugin process would when configured; any other judge, or one not
// found, is not checked.
func (l Launcher) CheckJudgeOptions(name string, options map[string]string) error {
	p, err := l.Catalog.Find(protocol.KindJudge, name)
	if err != nil || p.judge == nil {
		return nil
	}
	if c, ok := p.judge().(judge.OptionChecker); ok {
		return c.CheckOptions(options)
	}
	return nil
}

// Transport implements run.Plugins: the transport plugin named name,
// started.
func (l Launcher) Transport(ctx context.Context, name string) (transport.Plugin, error) {
	p, err := l.Catalog.Find(protocol.KindTransport, name)
	if err != nil {
		return nil, err
	}
	t, err := l.Host.Transport(ctx, p)
	if err != nil {
		return nil, err
	}
	return t, nil
}
