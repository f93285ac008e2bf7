package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"

	"github.com/rubricmcp/rubric/engine/gate"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/internal/localconfig"
)

// policyKeys are the gate's own settings that decide its verdict beside
// the rubric and the judge: whether a breaking change to the contract
// blocks, and the lock file the head's tools must match. The gate reads
// them from each side (gatePolicy). The rest of its settings (report-dir,
// html, workers, the target's) say where and how it runs, not whether it
// passes.
var policyKeys = []string{"fail-on-breaking", "lock"}

// gatePolicy reads the settings of policyKeys from each side's own config
// file, as gateJudges reads the judge's: when the working directory's
// config file gives one (no flag or environment variable does), the
// base's config file decides it, so that a pull request cannot switch
// off the check that would block it (fail-on-breaking: false, or no lock)
// by editing rubric.yaml; the head's takes effect once merged.
//
// The lock file itself is read from the working tree, as the gate always
// read it: approving a change to the tools is committing the lock written
// again in the same change, which reviewers see as a diff of the lock
// file. Only which lock (or none) comes from the base.
type gatePolicy struct {
	v *viper.Viper
	// keys are the policyKeys that neither a flag nor the environment
	// gives: the ones each side's config file decides.
	keys []string
	// config is --config when given; headConfig the config file read.
	config     string
	headConfig string
	sides      map[string]*policySide
}

// policySide is one side's values of policyKeys, or why they were not
// read.
type policySide struct {
	// file is the config file the values come from, as a message names
	// it (REV:path for a revision); "" when the side has none of its own.
	file string
	// how says where the values come from, for the note.
	how  string
	vals map[string]string
	err  error
}

// newGatePolicy says how the gate reads each side's policyKeys, or
// returns nil when a flag or the environment gives every one of them.
func (a *app) newGatePolicy(flags *pflag.FlagSet) *gatePolicy {
	keys := configGoverned(flags, policyKeys)
	if len(keys) == 0 {
		return nil
	}
	return &gatePolicy{v: a.v, keys: keys, config: a.v.GetString("config"), headConfig: a.v.ConfigFileUsed(), sides: map[string]*policySide{}}
}

// governs says whether the side's config files decide key.
func (g *gatePolicy) governs(key string) bool { return slices.Contains(g.keys, key) }

// Read reads the side's values: the working tree's are the ones the
// command read.
func (g *gatePolicy) Read(_ context.Context, t run.Tree) error {
	ps := &policySide{}
	g.sides[t.Side.Name] = ps
	if t.Side.Rev == "" {
		ps.file, ps.how = g.headConfig, g.headConfig
		ps.vals = map[string]string{}
		for _, k := range g.keys {
			ps.vals[k] = policyValue(k, g.v.GetString(k))
		}
		return nil
	}
	if path, _ := sideConfig(t, g.config); path != "" {
		vals, err := configPolicy(path, g.keys)
		if !errors.Is(err, fs.ErrNotExist) {
			ps.file, ps.how, ps.vals = t.Name(path), t.Name(path), vals
			if err != nil {
				ps.err = fmt.Errorf("%s: %s", t.Name(path), t.Message(err))
			}
			return nil
		}
	}
	ps.how, ps.vals, ps.err = userConfigPolicy(g.keys)
	return nil
}

// Choose returns the values the gate uses: the base's, or the head's when
// the base's config file could not be read, with a change to say so when
// the sides differ. A key a flag or the environment gives is the value
// the command read, on both sides.
func (g *gatePolicy) Choose() (bool, string, *gate.PolicyChange, error) {
	b, h := g.sides["base"], g.sides["head"]
	if b == nil || h == nil {
		return false, "", nil, fmt.Errorf("the gate read fail-on-breaking and lock of only one side")
	}
	change := &gate.PolicyChange{BaseFile: b.file, HeadFile: h.file}
	used := b
	switch {
	case b.err != nil && h.err != nil:
		return false, "", nil, fmt.Errorf("neither side's fail-on-breaking and lock could be read: the base's: %v; the head's: %v", b.err, h.err)
	case b.err != nil:
		used = h
		change.Used, change.BaseError = "head", b.err.Error()
		change.Settings = g.diff(map[string]string{}, h.vals)
		change.Note = fmt.Sprintf("the base's fail-on-breaking and lock could not be read (%v), so the gate used the head's, %s%s, which this change brings: review them",
			b.err, policyWhere(h), paren(settingsText(g.diff(map[string]string{}, h.vals), false)))
	case h.err != nil:
		change.Used = "base"
		change.Settings = g.diff(b.vals, map[string]string{})
		change.Note = fmt.Sprintf("the head's fail-on-breaking and lock could not be read (%v): the gate used the base's (%s)", h.err, b.how)
	default:
		change.Settings = g.diff(b.vals, h.vals)
		if len(change.Settings) == 0 {
			change = nil
			break
		}
		change.Used = "base"
		value := "value"
		if len(change.Settings) > 1 {
			value = "values"
		}
		change.Note = fmt.Sprintf("the head changes %s %s: the gate used the base's %s (%s); the change takes effect once merged",
			settingsText(change.Settings, true), policyWhere(h), value, b.how)
	}
	fob := g.v.GetBool("fail-on-breaking")
	if g.governs("fail-on-breaking") {
		fob = used.vals["fail-on-breaking"] == "true"
	}
	lockFile := g.v.GetString("lock")
	if g.governs("lock") {
		lockFile = used.vals["lock"]
	}
	return fob, lockFile, change, nil
}

// diff lists the governed keys, in policyKeys' order, whose values differ
// between base and head; a key a side leaves out has its default.
func (g *gatePolicy) diff(base, head map[string]string) []gate.SettingChange {
	var out []gate.SettingChange
	for _, k := range policyKeys {
		if !g.governs(k) {
			continue
		}
		b, h := policyValue(k, base[k]), policyValue(k, head[k])
		if b != h {
			out = append(out, gate.SettingChange{Key: k, Base: b, Head: h})
		}
	}
	return out
}

// policyWhere says where a side's values are written, for a note.
func policyWhere(ps *policySide) string {
	if ps.file == "" {
		return "without a config file"
	}
	return "in " + ps.file
}

// policyValue is a value of key as the gate compares it: a flag left
// unset is "false", so that a file without the key and one that writes
// the default read the same.
func policyValue(key, val string) string {
	if key != "fail-on-breaking" {
		return val
	}
	if b, err := strconv.ParseBool(val); err == nil && b {
		return "true"
	}
	return "false"
}

// configPolicy reads the values of keys from the config file at path,
// as viper would read them: a key the file does not set is its default.
func configPolicy(path string, keys []string) (map[string]string, error) {
	vals := map[string]string{}
	look, err := configKeys(path)
	if err != nil {
		return vals, err
	}
	for _, k := range keys {
		_, n := look(k)
		switch {
		case n == nil || n.Kind == yaml.ScalarNode && n.Tag == "!!null":
			vals[k] = policyValue(k, "")
			continue
		case n.Kind != yaml.ScalarNode:
			return vals, fmt.Errorf("line %d: %s is not one value", n.Line, k)
		}
		if k == "fail-on-breaking" {
			if _, err := strconv.ParseBool(n.Value); err != nil {
				return vals, fmt.Errorf("line %d: fail-on-breaking is %q, not true or false", n.Line, n.Value)
			}
		}
		vals[k] = policyValue(k, n.Value)
	}
	return vals, nil
}

// userConfigPolicy are the values of the user's own config file (outside
// the repository), or the defaults: what a side without a config file of
// its own reads.
func userConfigPolicy(keys []string) (how string, vals map[string]string, err error) {
	if dir := localconfig.UserDir(); dir != "" {
		path := localconfig.FileIn(dir)
		vals, err := configPolicy(path, keys)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return path, vals, fmt.Errorf("%s: %w", path, err)
		default:
			return "no config file of its own: yours, " + path, vals, nil
		}
	}
	vals = map[string]string{}
	for _, k := range keys {
		vals[k] = policyValue(k, "")
	}
	return "no config file of its own: the defaults", vals, nil
}
