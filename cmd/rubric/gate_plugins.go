package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/rubricmcp/rubric/engine/gate"
	"github.com/rubricmcp/rubric/internal/gitrev"
	"github.com/rubricmcp/rubric/plugins/host"
)

// pluginFields are the fields of a plugins.NAME entry that say which
// program starts under NAME: where it is, and the digest it must have.
var pluginFields = []string{"path", "sha256"}

// basePlugins keeps a pull request from choosing the programs its own
// gate starts. The plugins rubric starts (plugins.NAME.path and sha256)
// come from the config file; when that file is one of the repository's,
// the change being gated can edit it, and with --trust-local-config a
// judge the base names ("judge: mine") would run whatever program the
// head points "mine" at: one that rates every description well. When
// the head's entries differ from the base's in a path or a checksum (an
// entry added or removed too), the base's entries replace them before
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
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	repo, err := gitrev.Open(ctx, cwd)
	if err != nil {
		return nil, nil // the gate says so
	}
	if _, err := repo.Resolve(ctx, base); err != nil {
		return nil, nil // the gate says so, with how to fetch it
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
		out[strings.ToLower(name)] = fields
	}
	return out
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
