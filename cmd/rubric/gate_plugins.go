package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	pathpkg "path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"go.yaml.in/yaml/v3"

	"github.com/rubricmcp/rubric/engine/gate"
	"github.com/rubricmcp/rubric/internal/gitrev"
	"github.com/rubricmcp/rubric/plugins/host"
)

// pluginFields are the fields of a plugins.NAME entry that say which
// program starts under NAME, and with what: where it is, the digest it
// must have, and the host variables it sees (env), which a digest does
// not cover and which can change what the program answers (a variable
// that chooses its model, or where it sends the definitions).
var pluginFields = []string{"path", "sha256", "env"}

// basePlugins keeps a pull request from choosing the programs its own
// gate starts. The plugins rubric starts (plugins.NAME.path, sha256 and
// env) come from the config file; when that file is one of the repository's,
// the change being gated can edit it, and with --trust-local-config a
// judge the base names ("judge: mine") would run whatever program the
// head points "mine" at: one that rates every description well. When
// the head's entries differ from the base's in a path, a checksum or the
// variables the plugin sees (an entry added or removed too), the base's entries replace them before
// any plugin starts, for both sides, and the change returned says so;
// the head's take effect once merged. A config file outside the
// repository is the same for both sides; nil when there is nothing to
// say, and a base that does not resolve is left for the gate to report.
// A base's config file that is not YAML leaves the head's plugins, as
// it leaves the head's judge settings, and the change says to review
// them.
func (a *app) basePlugins(ctx context.Context, base string) (*gate.PolicyChange, error) {
	file := a.v.ConfigFileUsed()
	if base == "" || file == "" {
		return nil, nil
	}
	repo, err := baseRepo(ctx, base)
	if repo == nil {
		return nil, err
	}
	rel, in := repo.Rel(file)
	if !in {
		return nil, nil
	}
	baseName := base + ":" + strings.ReplaceAll(rel, string(os.PathSeparator), "/")
	var basePins map[string]any
	var baseErr error
	text, err := repo.Show(ctx, base, rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		baseName = ""
	case err != nil:
		return nil, fmt.Errorf("read the plugins of the base's config file %s: %w", baseName, err)
	default:
		var doc struct {
			Plugins map[string]any `yaml:"plugins"`
		}
		if err := yaml.Unmarshal(text, &doc); err != nil {
			baseErr = fmt.Errorf("%s: not a config file: %v", baseName, err)
		}
		basePins = doc.Plugins
	}
	var headPins map[string]host.Pin
	if err := a.v.UnmarshalKey("plugins", &headPins); err != nil {
		return nil, fmt.Errorf("config: plugins: %w", err)
	}
	if baseErr != nil {
		// As for the judge's settings: the head's answer, said so
		// where the decision is read.
		settings := pluginDiff(nil, headPinFields(headPins))
		if len(settings) == 0 {
			return nil, nil
		}
		return &gate.PolicyChange{Used: "head", BaseFile: baseName, BaseError: baseErr.Error(), HeadFile: file, Settings: settings, Note: fmt.Sprintf(
			"the base's plugins could not be read (%v), so both sides used the head's, in %s (%s), which this change brings: review them",
			baseErr, file, settingsText(settings, false))}, nil
	}
	settings := pluginDiff(pinFields(basePins), headPinFields(headPins))
	if len(settings) == 0 {
		return nil, nil
	}
	a.v.Set("plugins", basePins)
	how := baseName
	if how == "" {
		how = "none: " + base + " has no " + strings.ReplaceAll(rel, string(os.PathSeparator), "/")
	}
	return &gate.PolicyChange{Used: "base", BaseFile: baseName, HeadFile: file, Settings: settings, Note: fmt.Sprintf(
		"the head changes the plugins rubric starts in %s (%s): both sides used the base's (%s); the change takes effect once merged",
		file, settingsText(settings, true), how)}, nil
}

// pinFields are the pluginFields of each entry of a config file's
// plugins, as YAML gives them, by the entry's name as rubric reads it
// (lower-cased).
func pinFields(pins map[string]any) map[string]map[string]string {
	out := map[string]map[string]string{}
	for name, entry := range pins {
		fields := map[string]string{}
		if m, ok := entry.(map[string]any); ok {
			for k, v := range m {
				if k = strings.ToLower(k); slices.Contains(pluginFields, k) && v != nil {
					fields[k] = fmt.Sprint(v)
					if list, ok := v.([]any); ok && k == "env" {
						names := make([]string, len(list))
						for i, n := range list {
							names[i] = fmt.Sprint(n)
						}
						fields[k] = envField(names)
					}
				}
			}
		}
		out[strings.ToLower(name)] = fields
	}
	return out
}

// headPinFields are the pluginFields of the entries rubric read.
func headPinFields(pins map[string]host.Pin) map[string]map[string]string {
	out := map[string]map[string]string{}
	for name, p := range pins {
		fields := map[string]string{}
		if p.Path != "" {
			fields["path"] = p.Path
		}
		if p.SHA256 != "" {
			fields["sha256"] = p.SHA256
		}
		if len(p.Env) > 0 {
			fields["env"] = envField(p.Env)
		}
		out[strings.ToLower(name)] = fields
	}
	return out
}

// envField is a plugin's env as pluginDiff compares it: the names
// sorted, once each, joined by commas (the order they are given in
// changes nothing the plugin sees); empty for none.
func envField(names []string) string {
	names = slices.Clone(names)
	slices.Sort(names)
	return strings.Join(slices.Compact(names), ",")
}

// pluginDiff lists the fields that differ between base and head, by
// the entry's name, then in pluginFields' order; an entry one side
// lacks has its fields unset there. The sha256 is compared without
// regard to case, as it is checked.
func pluginDiff(base, head map[string]map[string]string) []gate.SettingChange {
	names := slices.Sorted(maps.Keys(base))
	for n := range head {
		if _, ok := base[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	var out []gate.SettingChange
	for _, n := range names {
		for _, f := range pluginFields {
			b, h := base[n][f], head[n][f]
			if b == h || f == "sha256" && strings.EqualFold(b, h) {
				continue
			}
			out = append(out, gate.SettingChange{Key: "plugins." + n + "." + f, Base: b, Head: h})
		}
	}
	return out
}

// pluginGuard keeps the gate from starting a program the change being
// gated brings into the work tree. A plugin whose executable lies in the
// repository (a plugins.NAME.path entry there, even the base's; one of
// ./.rubric/plugins; a path given as the judge) is the head's file,
// whatever config named it: a base entry without sha256 would run
// whatever the change commits at its path, and a plugin the change adds
// to ./.rubric/plugins would start under any name a flag, the base's
// config or the workflow gives. Such a plugin, unless the config pins
// it by sha256, starts only when the base has the same file at the same
// path (git's copy at the base, checked byte for byte), and then pinned
// to that copy's digest, so that one swapped before it starts is
// refused too; else it does not start, and the report says so
// (gate.PluginRefusal). A file git does not track counts as one the
// base lacks: a step of the job before the gate could have written it.
// Plugins outside the repository (the user's plugin directory, an
// absolute path elsewhere) are the job's, and start as ever.
type pluginGuard struct {
	ctx  context.Context
	repo *gitrev.Repo
	base string

	mu      sync.Mutex
	refused []gate.PluginRefusal
}

// baseRepo opens the repository of the working directory for a gate
// against base: nil, and no error, when there is no repository or base
// does not resolve in it, which the gate reports itself (with how to
// fetch the base).
func baseRepo(ctx context.Context, base string) (*gitrev.Repo, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	repo, err := gitrev.Open(ctx, cwd)
	if err != nil {
		return nil, nil
	}
	if _, err := repo.Resolve(ctx, base); err != nil {
		return nil, nil
	}
	return repo, nil
}

// newPluginGuard returns the guard of a gate against base, or nil when
// there is no repository or base to judge by (the gate says so).
func newPluginGuard(ctx context.Context, base string) *pluginGuard {
	if base == "" {
		return nil
	}
	repo, _ := baseRepo(ctx, base)
	if repo == nil {
		return nil
	}
	return &pluginGuard{ctx: ctx, repo: repo, base: base}
}

// vetFunc is the guard's vet as runflags.Host.Guard takes it; nil for
// no guard.
func (g *pluginGuard) vetFunc() func(host.Plugin) (host.Plugin, error) {
	if g == nil {
		return nil
	}
	return g.vet
}

// vet returns p as it may start, pinned to the base's copy, or why it
// may not.
func (g *pluginGuard) vet(p host.Plugin) (host.Plugin, error) {
	if p.SHA256 != "" {
		return p, nil // the config's pin, which the gate took from the base
	}
	rel, in := g.inTree(p.Path)
	if !in {
		return p, nil
	}
	rel = filepath.ToSlash(rel)
	what := fmt.Sprintf("the %s plugin %q (%s)", p.Kind, p.Name, rel)
	pin := fmt.Sprintf("pin it by sha256 in the base's rubric.yaml (plugins.%s.sha256), which the gate then checks", p.Name)
	none := func() error {
		return g.refuse(p, rel, "none", fmt.Sprintf(
			"the gate did not start %s: %s has no such file, so this change, or a step of the job before the gate, put it in the work tree; a plugin of the work tree starts under the gate only as the base has it: commit it to the base first, or %s",
			what, g.base, pin))
	}
	other := func(at string) error {
		return g.refuse(p, rel, "other", fmt.Sprintf(
			"the gate did not start %s: the work tree's file differs from %s:%s, and a plugin of the work tree starts under the gate only as the base has it; the change takes effect once merged (to start a plugin the job builds, %s)",
			what, g.base, at, pin))
	}
	// A committed symbolic link's blob is its text, never the program's
	// bytes: each link of the work tree on the way must be as the base
	// has it, and the file they lead to is the one compared.
	at := rel
	if _, ok := g.repo.LinkOn(p.Path); ok {
		to, link, baseHas, err := g.followLinks(p.Path)
		switch {
		case err != nil:
			return p, err
		case link != "" && baseHas:
			return p, other(link)
		case link != "":
			return p, none()
		}
		fileRel, in := g.repo.Rel(to)
		if !in {
			return p, nil // out of the work tree, which the change cannot rewrite
		}
		at = filepath.ToSlash(fileRel)
	}
	blob, err := g.repo.Show(g.ctx, g.base, at)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return p, none()
	case err != nil:
		return p, fmt.Errorf("read %s as %s has it: %w", at, g.base, err)
	}
	sum := sha256.Sum256(blob)
	want := hex.EncodeToString(sum[:])
	if got, err := host.FileSHA256(p.Path); err != nil || got != want {
		return p, other(at)
	}
	p.SHA256 = want
	p.PinnedBy = fmt.Sprintf("the gate starts a plugin of the work tree only as the base has it, and %s:%s has sha256 %s", g.base, at, want)
	return p, nil
}

// maxLinks bounds the symbolic links followLinks follows, as the
// system bounds them (ELOOP).
const maxLinks = 40

// followLinks follows the symbolic links of the work tree on the way to
// path, one at a time, and returns the path they lead to (in the work
// tree with no link of it on the way, or out of the work tree). The
// first link the base does not have as it is, with the same text, stops
// it: link is then its path from the top of the repository, and baseHas
// says whether the base has anything there.
func (g *pluginGuard) followLinks(path string) (to, link string, baseHas bool, err error) {
	for range maxLinks {
		l, ok := g.repo.LinkOn(path)
		if !ok {
			return path, "", false, nil
		}
		text, isLink, err := g.repo.LinkAt(g.ctx, g.base, l.Link)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return "", l.Link, false, nil
		case err != nil:
			return "", "", false, fmt.Errorf("read %s as %s has it: %w", l.Link, g.base, err)
		case !isLink || text != l.Target:
			return "", l.Link, true, nil
		}
		next := filepath.FromSlash(l.Target)
		if !filepath.IsAbs(next) {
			next = filepath.Join(g.repo.Root, filepath.FromSlash(pathpkg.Dir(l.Link)), next)
		}
		path = filepath.Join(next, filepath.FromSlash(strings.TrimPrefix(l.Path, l.Link)))
	}
	return "", "", false, fmt.Errorf("%s: more than %d symbolic links on the way: point the plugin's path at its program", path, maxLinks)
}

// refuse records that p, at rel, did not start, and returns why.
func (g *pluginGuard) refuse(p host.Plugin, rel, base, note string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	r := gate.PluginRefusal{Kind: p.Kind, Name: p.Name, Path: rel, Base: base, Note: note}
	if !slices.Contains(g.refused, r) {
		g.refused = append(g.refused, r)
	}
	return errors.New(note)
}

// report is what the guard refused, in the order it refused them.
func (g *pluginGuard) report() []gate.PluginRefusal {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.refused)
}

// inTree returns path relative to the top of the repository when it
// lies in the work tree: once its links are resolved, or as written
// when a symbolic link of the work tree is on the way (the change may
// have committed the link, pointing out of the repository).
func (g *pluginGuard) inTree(path string) (string, bool) {
	if l, ok := g.repo.LinkOn(path); ok {
		return filepath.FromSlash(l.Path), true
	}
	return g.repo.Rel(path)
}
