package host

import (
	"context"
	"fmt"
	"strings"

	"github.com/rubricmcp/rubric/internal/buildinfo"
	"github.com/rubricmcp/rubric/plugins/protocol"
)

// Row is one line of rubric plugins list.
type Row struct {
	Kind    string `json:"kind"`
	Name    string `json:"name"`
	Version string `json:"version"`
	From    string `json:"from"`
	Path    string `json:"path"`
	SHA256  string `json:"sha256"`
	// Pin is "built-in", "pinned", "unpinned" or "MISMATCH".
	Pin     string   `json:"pin"`
	Schemes []string `json:"schemes,omitempty"`
	Error   string   `json:"error,omitempty"`
	// NotStarted says why the plugin was listed without being started
	// to ask its version: it lies in the working directory, and the
	// user has not said to trust it.
	NotStarted string `json:"not_started,omitempty"`
}

// notStartedLocal is Row.NotStarted of a plugin in the working directory.
const notStartedLocal = "it is in the working directory (./.rubric/plugins), so listing does not start it; pass --trust-local-config to describe it"

// List describes every plugin of the catalog: built-ins (builtins) in
// process, external ones by starting each once. A plugin whose binary no
// longer matches its pin is not started.
func (h *Host) List(ctx context.Context, c *Catalog, builtins []protocol.Builtin) []Row {
	var rows []Row
	// Every built-in is the rubric binary: hash each file once.
	sums := map[string]string{}
	for _, p := range c.Plugins {
		// A built-in with a companion of rubric's build beside rubric is
		// served by the companion's binary (Host.start), not by rubric's;
		// a companion of another build refuses to start, and rubric
		// serves the built-in itself.
		path := p.Path
		if p.Companion != "" {
			if same, err := buildinfo.SameBuild(p.Path, p.Companion); err == nil && same {
				path = p.Companion
			}
		}
		r := Row{Kind: p.Kind, Name: p.Name, From: p.From, Path: path}
		sum, ok := sums[path]
		if !ok {
			var err error
			if sum, err = FileSHA256(path); err != nil {
				r.Error = err.Error()
			} else {
				sums[path] = sum
			}
		}
		r.SHA256 = sum
		switch {
		case p.Builtin():
			r.Pin = "built-in"
		case p.SHA256 == "":
			r.Pin = "unpinned"
		case strings.EqualFold(p.SHA256, sum):
			r.Pin = "pinned"
		default:
			r.Pin = "MISMATCH"
		}
		if p.Local && !h.trustLocal && r.Pin != "MISMATCH" {
			r.Version, r.NotStarted = "?", notStartedLocal
		} else if r.Pin != "MISMATCH" {
			var err error
			if p.Builtin() {
				r.Version, r.Schemes, err = describeBuiltin(ctx, builtins, p.Kind, p.Name)
			} else {
				r.Version, r.Schemes, err = h.describe(ctx, p)
			}
			if err != nil {
				r.Version, r.Error = "?", err.Error()
			}
		}
		rows = append(rows, r)
	}
	return rows
}

// describe starts an external plugin to ask its version. Its start
// and its answer are bounded by the host's own deadlines
// (--plugin-start-timeout), as they are for a run.
func (h *Host) describe(ctx context.Context, p Plugin) (string, []string, error) {
	if p.Kind == protocol.KindTransport {
		t, err := h.Transport(ctx, p)
		if err != nil {
			return "", nil, err
		}
		defer t.Close()
		return t.info.Version, t.info.Schemes, nil
	}
	id, err := h.DescribeJudge(ctx, p)
	if err != nil {
		return "", nil, err
	}
	return id.Version, nil, nil
}

// Problem says why the row's plugin cannot be used: its binary does not
// match its pin, or it could not be described. It is empty when the
// plugin can be used.
func (r Row) Problem() string {
	switch {
	case r.Pin == "MISMATCH":
		return fmt.Sprintf("its sha256 %s does not match the pin in plugins.%s.sha256", r.SHA256, r.Name)
	case r.Error != "":
		return r.Error
	}
	return ""
}
