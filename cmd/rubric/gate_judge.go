package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
	"go.yaml.in/yaml/v3"

	"github.com/rubricmcp/rubric/engine/gate"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/judge/panel"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/internal/localconfig"
	"github.com/rubricmcp/rubric/internal/runflags"
	"github.com/rubricmcp/rubric/judges/replay"
	"github.com/rubricmcp/rubric/plugins/protocol"
)

// judgeKeys are the settings that decide what the judge answers, as a
// config file writes them: the judge (with the settings its reference
// gives), the model it must answer with, and its options (judge-option,
// and base-url and answers, which become the options base_url and
// answers). The gate reads them from each side (gateJudges). The judge's
// other settings (concurrency, max-cost, the answer cache; judge-rate and
// batch, which the gate does not take) change how and when it is asked,
// not what it answers.
var judgeKeys = []string{"judge", "model", "base-url", "answers", "judge-option"}

// gateJudges reads the gate's judge settings from each side's own config
// file, as gateRubrics reads the rubric: when a setting of judgeKeys
// comes from the working directory's config file (no flag or environment
// variable gives it), the base's config file decides it for both sides,
// so that a pull request cannot choose the judge of its own gate (a
// heuristic in place of a model that would see its regressions); the
// head's takes effect once merged.
type gateJudges struct {
	v *viper.Viper
	// keys are the judgeKeys that neither a flag nor the environment
	// gives: the ones each side's config file decides.
	keys []string
	// config is --config when given; headConfig the config file read.
	config     string
	headConfig string
	// trusted is the user's consent to the repository's config files
	// (--trust-local-config): without it, a judge program or a
	// credential's destination the base's file chooses is refused as the
	// head's would be.
	trusted bool
	sides   map[string]*judgeSide
	// tmp holds the copy of the base's answers file (gate_answers.go),
	// removed by close.
	tmp string
}

// judgeSide is one side's judge settings, or why they were not read.
type judgeSide struct {
	// file is the config file the settings come from, as a message names
	// it (REV:path for a revision); "" when the side has none of its own.
	file string
	// how says where the settings come from, for the note.
	how string
	// local says the file is one of the repository's, looked up as
	// rubric.yaml in the side's tree: consent is needed for what it
	// chooses, as for the working directory's.
	local bool
	vals  judgeValues
	// answers is the answers file the settings name, when it is a file
	// of the repository (gate_answers.go).
	answers *sideAnswers
	err     error
}

// judgeValues are a side's values of judgeKeys: one string each, with the
// judge options in a canonical form (see canonicalOptions); options keeps
// the judge options as given, to set them.
type judgeValues struct {
	vals    map[string]string
	options []string
}

// configGoverned are those of keys that neither a flag nor the
// environment gives: the ones each side's config files decide in a gate.
func configGoverned(flags *pflag.FlagSet, keys []string) []string {
	var out []string
	for _, k := range keys {
		if !flags.Changed(k) && !localconfig.EnvGives(k) {
			out = append(out, k)
		}
	}
	return out
}

// newGateJudges says how the gate reads each side's judge settings, or
// returns nil when a flag or the environment gives every one of them.
func (a *app) newGateJudges(flags *pflag.FlagSet) *gateJudges {
	keys := configGoverned(flags, judgeKeys)
	if len(keys) == 0 {
		return nil
	}
	return &gateJudges{v: a.v, keys: keys, config: a.v.GetString("config"), headConfig: a.v.ConfigFileUsed(), trusted: a.trustLocal, sides: map[string]*judgeSide{}}
}

// Read reads the side's judge settings: the working tree's are the ones
// the command read.
func (g *gateJudges) Read(_ context.Context, t run.Tree) error {
	js := &judgeSide{}
	g.sides[t.Side.Name] = js
	defer g.readAnswersOf(t, js)
	if t.Side.Rev == "" {
		js.file, js.how = g.headConfig, g.headConfig
		js.vals = viperJudge(g.v, g.keys)
		return nil
	}
	path, local := sideConfig(t, g.config)
	if path != "" {
		vals, err := configJudge(path, g.keys)
		if !errors.Is(err, fs.ErrNotExist) {
			js.file, js.how, js.local, js.vals = t.Name(path), t.Name(path), local, vals
			if err != nil {
				js.err = fmt.Errorf("%s: %s", t.Name(path), t.Message(err))
			}
			return nil
		}
	}
	js.how, js.vals, js.err = userConfigJudge(g.keys)
	return nil
}

// readAnswersOf reads the answers file the side's settings name, when a
// config file gives it, as the side has it.
func (g *gateJudges) readAnswersOf(t run.Tree, js *judgeSide) {
	value := js.vals.vals["answers"]
	if js.err != nil || value == "" || !slices.Contains(g.keys, "answers") {
		return
	}
	sa, err := g.readAnswers(t, value)
	if err != nil {
		js.err = fmt.Errorf("the answers file %s: %s", t.Name(value), t.Message(err))
		return
	}
	js.answers = sa
}

// sideConfig is the config file a side has of its own: config (--config)
// as the side has it, else the first of localconfig.Names in the side's
// tree (local: one of the repository's), else "". The gate reads a side's
// rubric and judge settings from it.
func sideConfig(t run.Tree, config string) (path string, local bool) {
	if config != "" {
		path, _ = t.Path(config)
		return path, false
	}
	path = localconfig.FileIn(t.Dir)
	return path, path != ""
}

// Choose keeps the session's judge when both sides' settings are the
// same; otherwise the base's answer both sides, as the session would
// configure them, with the consent a config file of the repository needs
// for them. A side whose config file could not be read leaves the
// other's, said in the report.
func (g *gateJudges) Choose() (string, judge.Config, *gate.JudgeChange, error) {
	b, h := g.sides["base"], g.sides["head"]
	if b == nil || h == nil {
		return "", judge.Config{}, nil, fmt.Errorf("the gate read the judge settings of only one side")
	}
	change := &gate.JudgeChange{BaseFile: b.file, HeadFile: h.file}
	switch {
	case b.err != nil && h.err != nil:
		return "", judge.Config{}, nil, fmt.Errorf("neither side's judge settings could be read: the base's: %v; the head's: %v", b.err, h.err)
	case b.err != nil:
		change.Used, change.BaseError = "head", b.err.Error()
		change.Settings = judgeDiff(g.keys, judgeValues{}, h.vals)
		change.Note = fmt.Sprintf("the base's judge settings could not be read (%v), so both sides are judged with the head's, %s%s, which this change brings: review them",
			b.err, h.where(), paren(settingsText(change.Settings, false)))
		return "", judge.Config{}, change, nil
	case h.err != nil:
		// The base's settings answer, as when they differ.
		change.Settings = judgeDiff(g.keys, b.vals, judgeValues{})
		change.Used = "base"
		change.Note = fmt.Sprintf("the head's judge settings could not be read (%v): both sides are judged with the base's (%s)", h.err, b.how)
	default:
		change.Settings = judgeDiff(g.keys, b.vals, h.vals)
		answers, err := answersChange(b)
		if err != nil {
			return "", judge.Config{}, nil, fmt.Errorf("the answers file %s: %w", b.vals.vals["answers"], err)
		}
		if len(change.Settings) == 0 && answers == nil {
			return "", judge.Config{}, nil, nil
		}
		change.Used, change.AnswersFile = "base", answers
		var notes []string
		if len(change.Settings) > 0 {
			notes = append(notes, fmt.Sprintf("the head changes the judge's settings %s (%s): both sides are judged with the base's (%s); the change takes effect once merged",
				h.where(), settingsText(change.Settings, true), b.how))
		}
		if answers != nil {
			notes = append(notes, answersNote(answers))
		}
		change.Note = strings.Join(notes, "; and ")
	}
	ref, cfg, err := g.useBase(b)
	if err != nil {
		return "", judge.Config{}, nil, err
	}
	return ref, cfg, change, nil
}

// useBase sets the base's values of g.keys, and returns the judge they
// configure. A config file of the repository that the user has not
// trusted may not choose a judge program or where a credential goes, as
// the working directory's may not (runflags.Host).
func (g *gateJudges) useBase(b *judgeSide) (string, judge.Config, error) {
	for _, k := range g.keys {
		if k == "judge-option" {
			g.v.Set(k, b.vals.options)
		} else {
			g.v.Set(k, b.vals.vals[k])
		}
	}
	if b.answers != nil && b.answers.copy != "" {
		// The base's recorded answers, not the working tree's.
		g.v.Set("answers", b.answers.copy)
	}
	if b.local && !g.trusted {
		if err := refuseProgram(b.file, g.v.GetString("judge")); err != nil {
			return "", judge.Config{}, err
		}
		from := map[string]bool{}
		for _, k := range g.keys {
			from[k] = true
		}
		s := &localconfig.Settings{File: b.file, Revision: true, FromFile: from}
		if err := s.CheckRun(g.v, nil); err != nil {
			return "", judge.Config{}, err
		}
	}
	ref, cfg, err := runflags.JudgeOf(g.v)
	if err != nil {
		return "", judge.Config{}, fmt.Errorf("the base's judge settings, from %s: %w", b.how, err)
	}
	if name, _ := judge.SplitRef(ref); name == replay.Name && b.answers != nil && b.answers.copy != "" {
		// The copy's path means nothing to the user: the replay judge's
		// messages name the file as the base has it (REV:path).
		if cfg.Options == nil {
			cfg.Options = map[string]string{}
		}
		cfg.Options[replay.OptionAnswersName] = b.answers.name
	}
	return ref, cfg, nil
}

// refuseProgram refuses a judge, or a panel member, that file names and
// that is not built into rubric: a program of the repository, which the
// gate would run without the user's consent.
func refuseProgram(file, ref string) error {
	refs, ok := panel.Members(ref)
	if !ok {
		refs = []string{ref}
	}
	for _, r := range refs {
		name, _ := judge.SplitRef(r)
		if name == "" || slices.ContainsFunc(builtins, func(b protocol.Builtin) bool { return b.Judge != nil && b.Name == name }) {
			continue
		}
		return fmt.Errorf("the base's config file %s sets judge %s, which is not built into rubric: the gate would run it to judge both sides, and a config file of the repository may not choose a program for rubric to run. "+
			"If you trust the repository, pass --trust-local-config (or set RUBRIC_TRUST_LOCAL_CONFIG=1); otherwise give --judge yourself", file, r)
	}
	return nil
}

// judgeDiff lists the keys, in judgeKeys' order, whose values differ
// between base and head.
func judgeDiff(keys []string, base, head judgeValues) []gate.SettingChange {
	var out []gate.SettingChange
	for _, k := range judgeKeys {
		if !slices.Contains(keys, k) {
			continue
		}
		if b, h := base.vals[k], head.vals[k]; b != h {
			out = append(out, gate.SettingChange{Key: k, Base: b, Head: h})
		}
	}
	return out
}

// settingsText lists the settings, each with both sides' values, or the
// head's alone.
func settingsText(settings []gate.SettingChange, both bool) string {
	parts := make([]string, len(settings))
	for i, s := range settings {
		if both {
			parts[i] = fmt.Sprintf("%s from %s to %s", s.Key, valueText(s.Base), valueText(s.Head))
		} else {
			parts[i] = fmt.Sprintf("%s %s", s.Key, valueText(s.Head))
		}
	}
	return strings.Join(parts, "; ")
}

// where says where a side's settings are written, for a note: in its
// config file, or in none.
func (js *judgeSide) where() string {
	if js.file == "" {
		return "without a config file"
	}
	return "in " + js.file
}

// paren is s in parentheses after a space, or nothing when s is empty.
func paren(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

// valueText is a setting's value as a note writes it.
func valueText(v string) string {
	if v == "" {
		return "unset"
	}
	return v
}

// viperJudge are the values of keys v was given.
func viperJudge(v *viper.Viper, keys []string) judgeValues {
	jv := judgeValues{vals: map[string]string{}}
	for _, k := range keys {
		if k == "judge-option" {
			jv.options = localconfig.List(v, k)
			jv.vals[k] = canonicalOptions(jv.options)
			continue
		}
		jv.vals[k] = v.GetString(k)
	}
	return jv
}

// configJudge reads the values of keys from the config file at path, as
// viper would read them: a key the file does not set is "".
func configJudge(path string, keys []string) (judgeValues, error) {
	jv := judgeValues{vals: map[string]string{}}
	look, err := configKeys(path)
	if err != nil {
		return jv, err
	}
	for _, k := range keys {
		_, n := look(k)
		switch {
		case n == nil || n.Kind == yaml.ScalarNode && n.Tag == "!!null":
			jv.vals[k] = ""
			continue
		}
		if k == "judge-option" {
			switch n.Kind {
			case yaml.ScalarNode:
				jv.options = strings.Fields(n.Value)
			case yaml.SequenceNode:
				for _, item := range n.Content {
					jv.options = append(jv.options, item.Value)
				}
			default:
				return jv, fmt.Errorf("line %d: judge-option is not a list of KEY=VALUE", n.Line)
			}
			jv.vals[k] = canonicalOptions(jv.options)
			continue
		}
		if n.Kind != yaml.ScalarNode {
			return jv, fmt.Errorf("line %d: %s is not one value", n.Line, k)
		}
		jv.vals[k] = n.Value
	}
	return jv, nil
}

// canonicalOptions writes judge options as the judge is given them: a
// later KEY=VALUE replaces an earlier one of the same key, and the order
// does not count.
func canonicalOptions(options []string) string {
	byKey := map[string]string{}
	for _, kv := range options {
		k, _, _ := strings.Cut(kv, "=")
		byKey[k] = kv
	}
	out := make([]string, 0, len(byKey))
	for _, kv := range byKey {
		out = append(out, kv)
	}
	slices.Sort(out)
	return strings.Join(out, ",")
}

// userConfigJudge are the judge settings of the user's own config file
// (outside the repository), or the defaults: what a side without a config
// file of its own reads.
func userConfigJudge(keys []string) (how string, vals judgeValues, err error) {
	if dir := localconfig.UserDir(); dir != "" {
		path := localconfig.FileIn(dir)
		vals, err := configJudge(path, keys)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return path, vals, fmt.Errorf("%s: %w", path, err)
		default:
			return "no config file of its own: yours, " + path, vals, nil // as the head reads it without one
		}
	}
	return "no config file of its own: the defaults", judgeValues{vals: map[string]string{}}, nil
}
