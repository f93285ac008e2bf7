package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"

	"go.yaml.in/yaml/v3"

	"github.com/rubricmcp/rubric/engine/gate"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/localconfig"
	"github.com/rubricmcp/rubric/rubrics"
)

// gateRubrics reads the gate's rubric from each side's own files
// (run.SideRubrics): a rubric file of the repository, or the rubric a
// config file of the repository chooses, is read as the base has it
// and scores both sides, so that a pull request cannot weaken its own
// gate; the head's takes effect once merged. A built-in, or a file
// outside the repository, is the same for both sides.
type gateRubrics struct {
	// given is the rubric as the command loaded it, from the working
	// tree; ref is how it was named.
	given *rubric.Rubric
	ref   string
	// fromConfig says that no flag or environment variable named the
	// rubric: a config file chose it (or none did, and def is used), so
	// each side's own config file chooses for that side. config is
	// --config when given, headConfig the config file read.
	fromConfig bool
	config     string
	headConfig string
	// def is the rubric when no config file names one; user is what
	// the user's own config file (outside the repository) names, or def.
	def, user string
	sides     map[string]*sideRubric
}

// sideRubric is one side's rubric, or why it has none.
type sideRubric struct {
	rev string
	ref string // the rubric the side names
	how string // "chosen by REV:rubric.yaml", when a config file chose
	r   *rubric.Rubric
	err error
}

// newGateRubrics says how the gate reads each side's rubric, or returns
// nil when both sides are scored with r as given: a built-in named by a
// flag or the environment.
func (a *app) newGateRubrics(r *rubric.Rubric, ref string, fromConfig bool) *gateRubrics {
	if !fromConfig && rubrics.FileIn(ref, "") == "" {
		return nil
	}
	g := &gateRubrics{given: r, ref: ref, fromConfig: fromConfig, def: defaultRubric, sides: map[string]*sideRubric{}}
	if fromConfig {
		g.config = a.v.GetString("config")
		g.headConfig = a.v.ConfigFileUsed()
		g.user = userConfigRubric(defaultRubric)
	}
	return g
}

// Read reads the side's rubric: the working tree's is the one given.
func (g *gateRubrics) Read(ctx context.Context, t run.Tree) error {
	sr := &sideRubric{rev: t.Side.Rev}
	g.sides[t.Side.Name] = sr
	if t.Side.Rev == "" {
		sr.ref, sr.r = g.ref, g.given
		if g.fromConfig && g.headConfig != "" {
			sr.how = "chosen by " + g.headConfig
		}
		return nil
	}
	sr.ref, sr.how, sr.err = g.choice(t)
	if sr.err == nil {
		sr.r, sr.err = g.load(ctx, t, sr.ref)
	}
	return nil
}

// choice is the rubric the side names: the one given, or, when a config
// file chose it, what the side's own config file says.
func (g *gateRubrics) choice(t run.Tree) (ref, how string, err error) {
	if !g.fromConfig {
		return g.ref, "", nil
	}
	path, _ := sideConfig(t, g.config)
	if path == "" {
		// No config file of this side's own: the user's, or the default.
		return g.user, "", nil
	}
	val, ok, err := configRubric(path)
	if errors.Is(err, fs.ErrNotExist) {
		return g.user, "", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("%s: %s", t.Name(path), t.Message(err))
	}
	if !ok {
		return g.def, "the default, as " + t.Name(path) + " names none", nil
	}
	return val, "chosen by " + t.Name(path), nil
}

// load reads ref, a built-in or a file, as the side has it, until ctx
// ends, as every command reads a rubric.
func (g *gateRubrics) load(ctx context.Context, t run.Tree, ref string) (*rubric.Rubric, error) {
	file := rubrics.FileIn(ref, t.Dir)
	if file == "" {
		return rubrics.FindContext(ctx, ref)
	}
	path, _ := t.Path(file)
	r, err := rubric.LoadFileContext(ctx, path, boundedread.Limit())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("there is no %s", t.Name(path))
	}
	if err != nil {
		return nil, errors.New(t.Message(err))
	}
	r.File = file // as named: the checkout is gone once the gate ends
	return r, nil
}

// Choose is the base's rubric when both sides have one: the same as the
// head's, or else the one the change is gated by. A side without one
// leaves the other's, said in the report.
func (g *gateRubrics) Choose() (*rubric.Rubric, *gate.RubricChange, error) {
	b, h := g.sides["base"], g.sides["head"]
	if b == nil || h == nil {
		return nil, nil, fmt.Errorf("the gate read the rubric of only one side")
	}
	change := &gate.RubricChange{BaseRef: b.ref, HeadRef: h.ref}
	if b.r != nil {
		rb := score.RubricOf(b.r)
		change.Base = &rb
	}
	if h.r != nil {
		rh := score.RubricOf(h.r)
		change.Head = &rh
	}
	switch {
	case b.r == nil && h.r == nil:
		return nil, nil, fmt.Errorf("neither side has its rubric: the base's: %v; the head's: %v", b.err, h.err)
	case b.r == nil:
		change.Used, change.BaseError = "head", b.err.Error()
		change.Note = fmt.Sprintf("the base (%s) has no rubric %s%s (%v), so both sides are scored with the head's %s, which this change brings: it decides its own gate, so review it",
			b.rev, b.ref, withHow(b.how), b.err, sideText(h))
		return h.r, change, nil
	case h.r == nil:
		change.Used = "base"
		change.Note = fmt.Sprintf("the head (%s) has no rubric %s%s (%v): both sides are scored with the base's %s", h.rev, h.ref, withHow(h.how), h.err, sideText(b))
		return b.r, change, nil
	case b.r.Digest == h.r.Digest:
		return h.r, nil, nil
	}
	change.Used = "base"
	if b.ref == h.ref {
		change.Note = fmt.Sprintf("the head changes the rubric %s (base %s, head %s): both sides are scored with the base's; the change takes effect once merged",
			h.ref, versionText(b.r), versionText(h.r))
	} else {
		change.Note = fmt.Sprintf("the head changes the rubric from %s to %s: both sides are scored with the base's; the change takes effect once merged", sideText(b), sideText(h))
	}
	return b.r, change, nil
}

// sideText names a side's rubric: what it names, its version and digest,
// and which config file chose it.
func sideText(s *sideRubric) string {
	if s.how == "" {
		return fmt.Sprintf("%s (%s)", s.ref, versionText(s.r))
	}
	return fmt.Sprintf("%s (%s; %s)", s.ref, versionText(s.r), s.how)
}

func withHow(how string) string {
	if how == "" {
		return ""
	}
	return " (" + how + ")"
}

func versionText(r *rubric.Rubric) string {
	return fmt.Sprintf("%s %s, %s", r.Name, r.Version, report.ShortHash(r.Digest))
}

// configRubric is the rubric key of the config file at path, and
// whether it has one.
func configRubric(path string) (string, bool, error) {
	look, err := configKeys(path)
	if err != nil {
		return "", false, err
	}
	_, v := look("rubric")
	switch {
	case v == nil:
		return "", false, nil
	case v.Kind != yaml.ScalarNode:
		return "", false, fmt.Errorf("line %d: rubric is not one name or path", v.Line)
	case v.Tag == "!!null" || v.Value == "":
		return "", false, nil
	}
	return v.Value, true, nil
}

// userConfigRubric is the rubric the user's own config file names
// ($XDG_CONFIG_HOME/rubric/rubric.yaml), or def: what a side without a
// config file of its own reads.
func userConfigRubric(def string) string {
	dir := localconfig.UserDir()
	if dir == "" {
		return def
	}
	if v, ok, err := configRubric(localconfig.FileIn(dir)); err == nil && ok {
		return v
	}
	return def
}

// configKeys reads the top-level keys of the config file at path
// (localconfig.TopKeys) for the gate's readers of a side's config file,
// one wording for a file that is not YAML.
func configKeys(path string) (look func(key string) (k, v *yaml.Node), err error) {
	look, err = localconfig.TopKeys(path)
	if notYAML, ok := errors.AsType[*localconfig.NotYAMLError](err); ok {
		return nil, fmt.Errorf("not a config file: %w", notYAML.Err)
	}
	return look, err
}
