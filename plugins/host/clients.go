package host

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/prestart"
	"github.com/rubricmcp/rubric/internal/redact"
	"github.com/rubricmcp/rubric/plugins/protocol"
)

// Transport is a running transport plugin. It implements
// transport.Transport.
type Transport struct {
	h    *Host
	pr   *process
	c    *protocol.TransportClient
	info transport.Info
}

// dispense starts p, which must be of kind, and returns its client.
func dispense[C any](ctx context.Context, h *Host, p Plugin, kind string) (*process, C, error) {
	var c C
	if p.Kind != kind {
		return nil, c, fmt.Errorf("%s is a %s plugin, not a %s", p.Name, p.Kind, kind)
	}
	pr, raw, err := h.start(ctx, p)
	if err != nil {
		return nil, c, err
	}
	c, ok := raw.(C)
	if !ok {
		h.stop(pr)
		return nil, c, fmt.Errorf("plugin %q did not serve a %s", p.Name, kind)
	}
	return pr, c, nil
}

// Transport starts p, a transport plugin, and asks what it is.
func (h *Host) Transport(ctx context.Context, p Plugin) (*Transport, error) {
	pr, c, err := dispense[*protocol.TransportClient](ctx, h, p, protocol.KindTransport)
	if err != nil {
		return nil, err
	}
	// A built-in runs on this machine as this user, so a file it names
	// is read here rather than sent through gRPC; an external plugin
	// may be a wrapper around something remote or confined, and streams.
	c.LocalFiles = p.Builtin()
	// A built-in is described here, as its process would describe it
	// (the same code, and a companion of the same build): a round trip
	// less before the export, on the path of every small score.
	var info transport.Info
	if p.transport != nil {
		info, err = p.transport().Describe(ctx)
	} else {
		info, err = boundedValue(ctx, h, pr, "describe", func(ctx context.Context) (transport.Info, error) {
			return c.Describe(ctx)
		})
	}
	if err != nil {
		h.stop(pr)
		return nil, err
	}
	return &Transport{h: h, pr: pr, c: c, info: info}, nil
}

// Name implements transport.Transport.
func (t *Transport) Name() string { return t.pr.p.Name }

// Describe implements transport.Transport: what the plugin said of
// itself when it started.
func (t *Transport) Describe(context.Context) (transport.Info, error) { return t.info, nil }

// Info is what the plugin said of itself when it started.
func (t *Transport) Info() transport.Info { return t.info }

// Handles reports whether the plugin names scheme among its schemes.
func (t *Transport) Handles(scheme string) bool { return slices.Contains(t.info.Schemes, scheme) }

// PID is the plugin process's id.
func (t *Transport) PID() int { return t.pr.pid() }

// Export implements transport.Transport: the plugin reads the target and
// the host parses the document it sends. The document may be at most
// 4 × the response limit plus 1 MiB (several pages of a list), and hold at
// most the limit's number of tools.
func (t *Transport) Export(ctx context.Context, target transport.Target) (*surface.Surface, error) {
	// The credentials it is given for the server are hidden from what
	// is quoted of it, should it print them and crash.
	t.pr.secrets.add(redact.Credentials(target.Env, target.Headers)...)
	limits := target.Limits.WithDefaults()
	maxDoc := 4*limits.MaxBytes + 1<<20
	var source string
	var doc []byte
	err := t.h.bounded(ctx, t.pr, "export", func(ctx context.Context) (err error) {
		source, doc, err = t.c.ExportDocument(ctx, target, maxDoc)
		return err
	})
	if errors.Is(err, protocol.ErrTooLarge) {
		return nil, transport.Permanent(fmt.Errorf("the %s transport sent %v (raise --max-bytes)", t.Name(), err))
	}
	if err != nil {
		return nil, err
	}
	// A score's start runs the collector at a higher target
	// (prestart): a surface of more than a few tools is parsed and
	// scored under the usual one.
	if len(doc) > smallSurface {
		prestart.Started()
	}
	if source == "" {
		source = target.String()
	}
	s, err := surface.ParseLean(source, doc)
	if err != nil {
		return nil, err
	}
	// Every transport's limit, enforced here too: a plugin may not.
	if len(s.Tools) > limits.MaxTools {
		return nil, transport.Permanent(fmt.Errorf("%s holds %d tools, more than %d (raise --max-tools)", source, len(s.Tools), limits.MaxTools))
	}
	return s, nil
}

// smallSurface is the largest document (a few dozen tools) scored under
// the collector's target of a score's start.
const smallSurface = 256 << 10

// Close ends the plugin process, in the background: the host's Close
// waits for it to have ended.
func (t *Transport) Close() { t.h.stopLater(t.pr) }

// Judge is a running judge plugin, configured. It implements
// judge.Judge.
type Judge struct {
	h  *Host
	pr *process
	c  *protocol.JudgeClient
	id judge.Identity
}

// Judge starts p, a judge plugin, and configures it.
func (h *Host) Judge(ctx context.Context, p Plugin, cfg judge.Config) (*Judge, error) {
	pr, c, err := dispense[*protocol.JudgeClient](ctx, h, p, protocol.KindJudge)
	if err != nil {
		return nil, err
	}
	pr.secrets.add(optionSecrets(cfg.Options)...)
	id, err := boundedValue(ctx, h, pr, "configure", func(ctx context.Context) (judge.Identity, error) {
		return c.Configure(ctx, cfg)
	})
	if err != nil {
		var crash *CrashError
		var timeout *TimeoutError
		if !errors.As(err, &crash) && !errors.As(err, &timeout) && !errors.Is(err, protocol.ErrUnimplemented) && ctx.Err() == nil {
			err = fmt.Errorf("the judge %q refused its configuration: %w", p.Name, err)
		}
		h.stop(pr)
		return nil, err
	}
	if err := checkIdentity(p, id); err != nil {
		h.stop(pr)
		return nil, err
	}
	return &Judge{h: h, pr: pr, c: c, id: id}, nil
}

// checkIdentity refuses the identity a judge configured when it names no
// plugin or no version: every cache key and report holds the identity,
// so two judges that both left it empty would share each other's cached
// answers, and a report could not say who answered.
func checkIdentity(p Plugin, id judge.Identity) error {
	var missing []string
	if id.Plugin == "" {
		missing = append(missing, "plugin")
	}
	if id.Version == "" {
		missing = append(missing, "version")
	}
	if len(missing) == 0 {
		return nil
	}
	return fmt.Errorf("the judge plugin %q (%s) configured an identity with no %s: its Configure must return the identity it answers under (judge.Identity: plugin, version, and the provider, model and parameters that shape its answers), which every cache key and report holds", p.Name, p.Path, strings.Join(missing, " and no "))
}

// DescribeJudge starts p, a judge plugin, asks its identity before any
// configuration (so a judge that needs a model or a file still answers),
// and ends it.
func (h *Host) DescribeJudge(ctx context.Context, p Plugin) (judge.Identity, error) {
	pr, c, err := dispense[*protocol.JudgeClient](ctx, h, p, protocol.KindJudge)
	if err != nil {
		return judge.Identity{}, err
	}
	defer h.stop(pr)
	return boundedValue(ctx, h, pr, "describe", func(ctx context.Context) (judge.Identity, error) {
		return c.Describe(ctx)
	})
}

// Identity is the identity the plugin gave when configured.
func (j *Judge) Identity() judge.Identity { return j.id }

// Describe implements judge.Judge: the plugin's identity before
// configuration.
func (j *Judge) Describe(ctx context.Context) (judge.Identity, error) {
	return boundedValue(ctx, j.h, j.pr, "describe", func(ctx context.Context) (judge.Identity, error) {
		return j.c.Describe(ctx)
	})
}

// Configure implements judge.Judge: the plugin is configured again, and
// answers under the identity it returns from then on.
func (j *Judge) Configure(ctx context.Context, cfg judge.Config) (judge.Identity, error) {
	j.pr.secrets.add(optionSecrets(cfg.Options)...)
	id, err := boundedValue(ctx, j.h, j.pr, "configure", func(ctx context.Context) (judge.Identity, error) {
		return j.c.Configure(ctx, cfg)
	})
	if err != nil {
		return judge.Identity{}, err
	}
	if err := checkIdentity(j.pr.p, id); err != nil {
		return judge.Identity{}, err
	}
	j.id = id
	return id, nil
}

// SHA256 is the hex sha256 of the plugin's executable, as a report
// records it: empty for a built-in (the rubric binary itself), the pin
// when the config pins it, else the file's digest (empty when it cannot
// be read).
func (j *Judge) SHA256() string { return j.pr.p.Digest() }

// Name is the plugin's name.
func (j *Judge) Name() string { return j.pr.p.Name }

// Ask implements judge.Judge: the plugin answers one question.
func (j *Judge) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	return boundedValue(ctx, j.h, j.pr, "ask", func(ctx context.Context) (judge.Answer, error) {
		return j.c.Ask(ctx, q)
	})
}

// Capabilities implements judge.Capable: what the plugin advertised in
// its latest identity.
func (j *Judge) Capabilities() []string { return j.c.Capabilities() }

// Batcher returns the plugin's batch side when it advertised
// judge.CapabilityBatch: its calls fail as Ask's do when the plugin dies.
func (j *Judge) Batcher() (judge.Batcher, bool) {
	if _, ok := j.c.Batcher(); !ok {
		return nil, false
	}
	return batcher{j}, true
}

// batcher is a judge plugin's batch side; it finds batches by their
// label when the plugin advertised judge.CapabilityBatchLabels.
type batcher struct{ j *Judge }

var _ judge.BatchFinder = batcher{}

// SubmitBatch implements judge.Batcher.
func (b batcher) SubmitBatch(ctx context.Context, items []judge.BatchItem) (string, error) {
	return boundedValue(ctx, b.j.h, b.j.pr, "submit a batch", func(ctx context.Context) (string, error) {
		return b.j.c.SubmitBatch(ctx, items)
	})
}

// PollBatch implements judge.Batcher.
func (b batcher) PollBatch(ctx context.Context, id string) (judge.BatchStatus, error) {
	return boundedValue(ctx, b.j.h, b.j.pr, "poll a batch", func(ctx context.Context) (judge.BatchStatus, error) {
		return b.j.c.PollBatch(ctx, id)
	})
}

// CollectBatch implements judge.Batcher.
func (b batcher) CollectBatch(ctx context.Context, id string) ([]judge.BatchResult, error) {
	return boundedValue(ctx, b.j.h, b.j.pr, "collect a batch", func(ctx context.Context) ([]judge.BatchResult, error) {
		return b.j.c.CollectBatch(ctx, id)
	})
}

// LabelsBatches implements judge.BatchFinder: true when the plugin
// advertised judge.CapabilityBatchLabels.
func (b batcher) LabelsBatches() bool { return b.j.c.LabelsBatches() }

// SubmitLabeledBatch implements judge.BatchFinder.
func (b batcher) SubmitLabeledBatch(ctx context.Context, items []judge.BatchItem, nonce string) (string, error) {
	return boundedValue(ctx, b.j.h, b.j.pr, "submit a batch", func(ctx context.Context) (string, error) {
		return b.j.c.SubmitLabeledBatch(ctx, items, nonce)
	})
}

// FindBatch implements judge.BatchFinder.
func (b batcher) FindBatch(ctx context.Context, label judge.BatchLabel) (judge.BatchFound, error) {
	return boundedValue(ctx, b.j.h, b.j.pr, "look for a batch", func(ctx context.Context) (judge.BatchFound, error) {
		return b.j.c.FindBatch(ctx, label)
	})
}

// PID is the plugin process's id.
func (j *Judge) PID() int { return j.pr.pid() }

// Close ends the plugin process.
func (j *Judge) Close() { j.h.stop(j.pr) }

var (
	_ judge.Judge         = (*Judge)(nil)
	_ transport.Transport = (*Transport)(nil)
)
