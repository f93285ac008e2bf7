package host

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/nearest"
	"github.com/rubricmcp/rubric/plugins/protocol"
)

// Where a plugin was found.
const (
	FromBuiltin = "built-in"
	FromDir     = "plugin directory"
	FromConfig  = "config"
	FromPath    = "path"
)

// Plugin is a plugin rubric can start.
type Plugin struct {
	// Kind is protocol.KindJudge or protocol.KindTransport.
	Kind string `json:"kind"`
	// Name is what the user calls it: "stdio", or "mine" for a binary
	// named rubric-judge-mine.
	Name string `json:"name"`
	// Path is the executable; for a built-in, the rubric binary itself.
	Path string `json:"path"`
	// Args are passed to the executable (a built-in's serve arguments).
	Args []string `json:"args,omitempty"`
	// From says where it was found: FromBuiltin, FromDir, FromConfig or
	// FromPath.
	From string `json:"from"`
	// SHA256 is the pinned hex digest of the executable, empty when the
	// plugin is not pinned.
	SHA256 string `json:"sha256,omitempty"`
	// PinnedBy, when set, says in words who pinned SHA256 when the
	// config did not (the gate pins a plugin of the work tree to the
	// base's copy of it): a start refused for a digest that differs says
	// so, not "plugins.NAME.sha256 pins".
	PinnedBy string `json:"-"`
	// Local says the plugin was found in the working directory's plugin
	// folder (./.rubric/plugins): a program of whatever repository the
	// user stands in, which rubric plugins list starts only with the
	// user's consent (Options.TrustLocal).
	Local bool `json:"local,omitempty"`
	// Env names the host environment variables an external plugin
	// receives besides a minimal set; built-ins receive all of them.
	Env []string `json:"env,omitempty"`
	// Leaf is true for a plugin that starts no processes of its own, so it
	// need not be isolated in a process group of its own (and may read the
	// terminal).
	Leaf bool `json:"-"`
	// Companion is the path of a built-in's companion binary beside the
	// rubric binary (protocol.Builtin.Companion), tried before Path;
	// empty when the built-in has none or it is not there.
	Companion string `json:"-"`
	// transport is a built-in transport's own implementation, which the
	// host asks what it is in process (Host.Transport): the plugin
	// process, this binary or its companion of the same build, would
	// answer the same. Nil for any other plugin.
	transport func() transport.Transport
	// judge is a built-in judge's own implementation, unconfigured,
	// which checks the names of its options in process
	// (Launcher.CheckJudgeOptions). Nil for any other plugin.
	judge func() judge.Judge
}

// Builtin reports whether p is served by the rubric binary.
func (p Plugin) Builtin() bool { return p.From == FromBuiltin }

// Digest is the hex sha256 a report records for p: none for a built-in
// (the rubric binary, whose version the report names), the pin when
// there is one, else the executable's (empty when it cannot be read).
func (p Plugin) Digest() string {
	if p.Builtin() {
		return ""
	}
	if p.SHA256 != "" {
		return p.SHA256
	}
	sum, _ := FileSHA256(p.Path)
	return sum
}

// BinaryName is the file name an external plugin of kind and name has.
func BinaryName(kind, name string) string { return "rubric-" + kind + "-" + name }

// Pin is a config entry for one plugin (plugins.NAME in rubric.yaml).
type Pin struct {
	// Path is the plugin's executable, for a plugin outside the plugin
	// directories.
	Path string `mapstructure:"path"`
	// Kind is needed only when Path's base name does not say it.
	Kind string `mapstructure:"kind"`
	// SHA256 pins the executable's hex sha256.
	SHA256 string `mapstructure:"sha256"`
	// Env names host environment variables passed to the plugin.
	Env []string `mapstructure:"env"`
}

// Catalog is every plugin rubric knows of.
type Catalog struct {
	Plugins []Plugin
	pins    map[string]Pin
	// Warnings are things discovery skipped, in words for the log.
	Warnings []string
	// unusable are the reasons plugins the user set up were skipped, by
	// kind/name: a config entry whose path cannot be used, an executable in a
	// plugin directory that is not one. Find gives the reason when
	// asked for that name, rather than saying no such plugin exists.
	unusable map[string]string
	// vet, when set (Guard), passes on every external plugin before it
	// may start.
	vet func(Plugin) (Plugin, error)
}

// Guard has vet pass on every external plugin of the catalog, and on
// any a path names later (Find): the plugin it returns is the one that
// may start (vet may pin its digest), and a plugin it refuses is taken
// out, so that Find of its name fails with vet's error as the reason,
// rather than finding another of that name. For a caller that must not
// start what some party put on disk (rubric gate: a program the change
// being gated brings).
func (c *Catalog) Guard(vet func(Plugin) (Plugin, error)) {
	c.vet = vet
	kept := c.Plugins[:0]
	for _, p := range c.Plugins {
		if !p.Builtin() {
			v, err := vet(p)
			if err != nil {
				c.unusable[p.Kind+"/"+p.Name] = err.Error()
				continue
			}
			p = v
		}
		kept = append(kept, p)
	}
	c.Plugins = kept
}

// DefaultDirs returns the plugin directories in search order:
// $XDG_DATA_HOME/rubric/plugins (or ~/.local/share/rubric/plugins), then
// ./.rubric/plugins. A relative directory is the working directory's:
// the plugins Discover finds there are Local.
func DefaultDirs() []string {
	var dirs []string
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		dirs = append(dirs, filepath.Join(d, "rubric", "plugins"))
	} else if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, ".local", "share", "rubric", "plugins"))
	}
	return append(dirs, filepath.Join(".rubric", "plugins"))
}

// Discover builds the catalog: the built-ins first, then the plugins the
// config names by path, then executables named rubric-judge-NAME or
// rubric-transport-NAME in dirs. The first plugin of a kind and name wins.
// pins are the config's plugins.NAME entries.
func Discover(builtins []Plugin, dirs []string, pins map[string]Pin) *Catalog {
	c := &Catalog{pins: map[string]Pin{}, unusable: map[string]string{}}
	for name, p := range pins {
		c.pins[strings.ToLower(name)] = p
	}
	seen := map[string]Plugin{}
	add := func(p Plugin) {
		key := p.Kind + "/" + p.Name
		if first, ok := seen[key]; ok {
			if first.Builtin() {
				c.Warnings = append(c.Warnings, shadowed(p))
			}
			return
		}
		seen[key] = p
		if !p.Builtin() {
			p = c.pinned(p)
		}
		c.Plugins = append(c.Plugins, p)
	}
	for _, p := range builtins {
		add(p)
	}
	for _, name := range slices.Sorted(maps.Keys(c.pins)) {
		pin := c.pins[name]
		if pin.Path == "" {
			continue
		}
		p, err := fromPath(pin.Path, pin.Kind, FromConfig)
		if err != nil {
			why := fmt.Sprintf("plugins.%s.path: %v", name, err)
			c.Warnings = append(c.Warnings, why)
			kinds := []string{protocol.KindJudge, protocol.KindTransport}
			if k, _, ok := parseBinaryName(filepath.Base(pin.Path)); pin.Kind != "" || ok {
				kinds = []string{cmp.Or(pin.Kind, k)}
			}
			for _, k := range kinds {
				c.unusable[k+"/"+name] = why
			}
			continue
		}
		p.Name = name
		add(p)
	}
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue // a missing directory is the common case
		}
		for _, e := range entries {
			kind, name, ok := parseBinaryName(e.Name())
			if !ok {
				continue
			}
			path := filepath.Join(dir, e.Name())
			if err := checkExecutable(path); err != nil {
				c.Warnings = append(c.Warnings, fmt.Sprintf("%v; skipped", err))
				if _, ok := c.unusable[kind+"/"+name]; !ok {
					c.unusable[kind+"/"+name] = err.Error()
				}
				continue
			}
			if abs, err := filepath.Abs(path); err == nil {
				path = abs
			}
			add(Plugin{Kind: kind, Name: name, Path: path, From: FromDir, Local: !filepath.IsAbs(dir)})
		}
	}
	for _, name := range slices.Sorted(maps.Keys(c.pins)) {
		if c.pins[name].SHA256 != "" && builtinOnly(c.Plugins, name) {
			c.Warnings = append(c.Warnings, fmt.Sprintf("plugins.%s.sha256 pins nothing: %s is built into rubric, which does not check a built-in's digest (rubric's version names it); remove the pin, or give your own plugin another name", name, name))
		}
	}
	return c
}

// shadowed words the warning for p, an external plugin that has the
// kind and name of a built-in, which wins: a team's plugin called
// heuristic would otherwise be skipped without a word, and its runs
// judged by the built-in.
func shadowed(p Plugin) string {
	if p.From == FromConfig {
		return fmt.Sprintf("plugins.%s.path: %s is the name of a built-in %s, which rubric uses instead of %s; give your plugin another name (plugins.OTHER.path)", p.Name, p.Name, p.Kind, p.Path)
	}
	return fmt.Sprintf("%s has the name of the built-in %s %s, which rubric uses instead; rename it %s", p.Path, p.Kind, p.Name, BinaryName(p.Kind, "OTHER"))
}

// builtinOnly reports whether every plugin called name is a built-in,
// and there is one.
func builtinOnly(plugins []Plugin, name string) bool {
	found := false
	for _, p := range plugins {
		if p.Name == name {
			if !p.Builtin() {
				return false
			}
			found = true
		}
	}
	return found
}

// parseBinaryName splits rubric-KIND-NAME.
func parseBinaryName(base string) (kind, name string, ok bool) {
	for _, k := range []string{protocol.KindJudge, protocol.KindTransport} {
		if rest, found := strings.CutPrefix(base, "rubric-"+k+"-"); found && rest != "" {
			return k, rest, true
		}
	}
	return "", "", false
}

func isExecutable(path string) bool { return checkExecutable(path) == nil }

// checkExecutable says why path cannot be started as a plugin, if it
// cannot: in words that say what to do.
func checkExecutable(path string) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s does not exist", path)
	case err != nil:
		return err
	case st.IsDir():
		return fmt.Errorf("%s is a directory, not a plugin's executable", path)
	case !st.Mode().IsRegular():
		return fmt.Errorf("%s is not an executable file", path)
	case st.Mode().Perm()&0o111 == 0:
		return fmt.Errorf("%s is not executable (chmod +x %s)", path, path)
	}
	return nil
}

// fromPath describes an executable given by path; kind comes from the base
// name unless given.
func fromPath(path, kind, from string) (Plugin, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Plugin{}, err
	}
	if err := checkExecutable(path); err != nil {
		return Plugin{}, err
	}
	k, name, ok := parseBinaryName(filepath.Base(abs))
	if !ok {
		name = strings.TrimSuffix(filepath.Base(abs), filepath.Ext(abs))
	}
	switch {
	case kind == "":
		kind = k
	case ok && k != kind:
		return Plugin{}, fmt.Errorf("%s is a %s plugin, not a %s", path, k, kind)
	}
	if kind != protocol.KindJudge && kind != protocol.KindTransport {
		return Plugin{}, fmt.Errorf("cannot tell whether %s is a judge or a transport: name it rubric-judge-NAME or rubric-transport-NAME, or set its kind in the config", path)
	}
	return Plugin{Kind: kind, Name: name, Path: abs, From: from}, nil
}

// Find returns the plugin of kind called ref: a name from the catalog, or
// a path (anything with a slash) to an executable, which is pinned by the
// config entry of its name when there is one.
func (c *Catalog) Find(kind, ref string) (Plugin, error) {
	if strings.ContainsRune(ref, filepath.Separator) || strings.ContainsRune(ref, '/') {
		if _, err := os.Stat(ref); errors.Is(err, fs.ErrNotExist) {
			// A path that names nothing: say what a --judge or
			// --transport may name instead.
			return Plugin{}, fmt.Errorf("no %s plugin at %s: no such file; give the path of a %s plugin's executable (%s), or the name of a %s that rubric plugins list shows", kind, ref, kind, BinaryName(kind, "NAME"), kind)
		}
		p, err := fromPath(ref, kind, FromPath)
		if err != nil {
			return Plugin{}, err
		}
		p = c.pinned(p)
		if c.vet != nil {
			v, err := c.vet(p)
			if err != nil {
				return Plugin{}, fmt.Errorf("%s plugin %s cannot be used: %w", kind, ref, err)
			}
			p = v
		}
		return p, nil
	}
	var names []string
	for _, p := range c.Plugins {
		if p.Kind != kind {
			continue
		}
		if p.Name == ref {
			return p, nil
		}
		names = append(names, p.Name)
	}
	for _, p := range c.Plugins {
		// A config entry's name is read lower-cased (plugins.AcmeJudge
		// is acmejudge): the name as the user wrote it finds it.
		if p.Kind == kind && p.From == FromConfig && p.Name == strings.ToLower(ref) {
			return p, nil
		}
	}
	if why, ok := c.unusable[kind+"/"+strings.ToLower(ref)]; ok {
		return Plugin{}, fmt.Errorf("%s plugin %q cannot be used: %s", kind, ref, why)
	}
	if why, ok := c.unusable[kind+"/"+ref]; ok {
		return Plugin{}, fmt.Errorf("%s plugin %q cannot be used: %s", kind, ref, why)
	}
	if name, rest, ok := strings.Cut(ref, ":"); ok && kind == "judge" && slices.Contains(names, name) {
		// "openai:model" reads as a name only because its settings lack
		// the = that makes them settings (see judge.SplitRef).
		return Plugin{}, fmt.Errorf("no %s plugin %q: the settings after %q are KEY=VALUE, as in %s:model=NAME (%q has no =)", kind, ref, name+":", name, rest)
	}
	if len(names) == 0 {
		return Plugin{}, fmt.Errorf("no %s plugin %q: none is installed (put %s in %s)", kind, ref, BinaryName(kind, ref), strings.Join(DefaultDirs(), " or "))
	}
	guess := ""
	if near := nearest.Key(ref, names); near != "" {
		guess = fmt.Sprintf(": did you mean %q?", near)
	}
	return Plugin{}, fmt.Errorf("no %s plugin %q%s (known: %s; an external one is a binary named %s in %s)", kind, ref, guess, strings.Join(names, ", "), BinaryName(kind, ref), strings.Join(DefaultDirs(), " or "))
}

// FindPinned finds ref as Find does, and refuses a plugin that is
// neither built in nor pinned by sha256 in the user's config: for a ref
// read from a file anyone can write (a calibration record), which may
// name a program but not have it started.
func (c *Catalog) FindPinned(kind, ref string) (Plugin, error) {
	p, err := c.Find(kind, ref)
	if err != nil {
		return Plugin{}, err
	}
	if !p.Builtin() && p.SHA256 == "" {
		return Plugin{}, fmt.Errorf("%s plugin %q is neither built in nor pinned by sha256 in your config, so it is not started for a ref a file gave; pin it (plugins.%s.sha256) if you trust it", kind, p.Name, p.Name)
	}
	return p, nil
}

// pinned applies the config entry of p's name, if any: its sha256 pin and
// the environment it may see. The config's keys are read lower-cased, so
// the name is looked up so too: rubric-judge-AcmeJudge, pinned as
// plugins.AcmeJudge, ran unpinned whatever its digest.
func (c *Catalog) pinned(p Plugin) Plugin {
	if pin, ok := c.pins[strings.ToLower(p.Name)]; ok {
		p.SHA256 = strings.ToLower(pin.SHA256)
		p.Env = pin.Env
	}
	return p
}

// FileSHA256 returns the hex sha256 of a file.
func FileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
