// Package localconfig keeps a config file found in the working directory
// from choosing where a credential goes. rubric reads ./rubric.yaml before
// the user's own config, and a repository cloned for review may carry
// one: a judge base URL, an api_key_env naming another variable, a
// claude-cli command or a plugin that is passed environment variables,
// set there, would send the user's API key (or another secret) to a
// place the file's author chose. Check refuses such a setting, unless the
// user consents or no credential would go with it.
//
// It also finds the config file (Search) and reads it, refusing unknown
// keys (Read).
package localconfig

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/viper"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/judge/panel"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/redact"
)

// The judges whose credentials Check knows: each sends the key in its
// key variable to its base URL.
var keyEnv = map[string]string{"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}

// keyless are the judges that send nothing anywhere: a base URL means
// nothing to them.
var keyless = []string{"", "heuristic", "replay"}

// Settings are what a run would use, and which of it came from the
// working directory's config file.
type Settings struct {
	// File is the config file found in the working directory.
	File string
	// Revision, when set, says File is a config file of the repository at
	// a revision, not of the working directory (the gate reads the
	// base's): a refusal says so, and does not offer --config FILE.
	Revision bool
	// FromFile names the keys (base-url, judge-option, plugins) whose
	// values came from File rather than a flag or the environment (see
	// FromFile).
	FromFile map[string]bool
	// Judge is the judge the run starts, as named ("" for the default).
	Judge string
	// BaseURL is the base-url setting; JudgeOptions the judge-option
	// items (KEY=VALUE), which base-url overrides.
	BaseURL      string
	JudgeOptions []string
	// JudgeSettings are the settings the judge's reference gives
	// (judge.SplitRef), over the others; they come from File when the
	// judge setting does.
	JudgeSettings []string
	// PluginEnv are the environment variables the plugins entries pass
	// to each plugin, by the plugin's name.
	PluginEnv map[string][]string
	// Headers are the headers setting's values as written, before
	// ${NAME} is expanded.
	Headers map[string]string
}

// Found returns the settings to check for the config file at path, read
// from the working directory, or nil when there is nothing to check: the
// user trusts the file (flag, or see Trusted), or it is the user's own
// config as well (the same file as userPath). changed says whether a
// flag was given.
func Found(v *viper.Viper, changed func(string) bool, path, userPath string, flag bool) *Settings {
	if Trusted(flag) {
		return nil
	}
	if a, err := os.Stat(path); err == nil {
		if b, err := os.Stat(userPath); err == nil && os.SameFile(a, b) {
			return nil
		}
	}
	return &Settings{File: path, FromFile: FromFile(v, changed, "judge", "transport", "base-url", "judge-option", "plugins", "headers")}
}

// CheckRun checks the run v configures (its judge, judge options and
// headers) and the plugins' environment (pluginEnv, as in Settings);
// nothing when s is nil.
func (s *Settings) CheckRun(v *viper.Viper, pluginEnv map[string][]string) error {
	if s == nil {
		return nil
	}
	c := *s
	c.Judge, c.BaseURL, c.JudgeOptions = v.GetString("judge"), v.GetString("base-url"), List(v, "judge-option")
	c.Headers, c.PluginEnv = v.GetStringMapString("headers"), pluginEnv
	// Each judge of a panel, with the settings its reference gives
	// (openai:base_url=...), is checked as if it were the run's judge.
	members, ok := panel.Members(c.Judge)
	if !ok {
		members = []string{c.Judge}
	}
	for _, m := range members {
		mc := c
		mc.Judge, mc.JudgeSettings = judge.SplitRef(m)
		if err := Check(mc, os.Getenv); err != nil {
			return err
		}
	}
	return nil
}

// CheckSandbox refuses the sandbox sb when a setting of the file loosens
// it: a config file found in the working directory may ask for a sandbox
// but not give the server the network, a writable working directory or
// more host paths. Nothing when s is nil; changed says whether a flag
// was given.
func (s *Settings) CheckSandbox(v *viper.Viper, changed func(string) bool, sb transport.Sandbox) error {
	if s == nil {
		return nil
	}
	from := FromFile(v, changed, "sandbox-net", "sandbox-cwd", "sandbox-ro")
	for _, k := range []string{"sandbox-net", "sandbox-cwd", "sandbox-ro"} {
		loosens := from[k] && (k != "sandbox-cwd" || sb.Cwd == transport.CwdWritable) && (k != "sandbox-net" || sb.Net) && (k != "sandbox-ro" || len(sb.ReadOnly) > 0)
		if loosens {
			return fmt.Errorf("the config file %s in the working directory sets %s, which loosens the sandbox; a config file found in the working directory may not. If you trust it, pass --trust-local-config or name it with --config %s; otherwise give --%s yourself", s.File, k, s.File, k)
		}
	}
	return nil
}

// options are the judge's options as the run gives them, and which of
// them came from the file.
func (s Settings) options() (opts map[string]string, local map[string]bool) {
	opts, local = map[string]string{}, map[string]bool{}
	for _, kv := range s.JudgeOptions {
		if k, v, ok := strings.Cut(kv, "="); ok {
			opts[k], local[k] = v, s.FromFile["judge-option"]
		}
	}
	if s.BaseURL != "" {
		opts["base_url"], local["base_url"] = s.BaseURL, s.FromFile["base-url"]
	}
	for _, kv := range s.JudgeSettings {
		if k, v, ok := strings.Cut(kv, "="); ok {
			opts[k], local[k] = v, s.FromFile["judge"]
		}
	}
	return opts, local
}

// FromFile lists which of keys took their values from v's config file:
// those in the file that neither a flag (changed) nor the environment
// (RUBRIC_KEY) gave, since both take precedence.
func FromFile(v *viper.Viper, changed func(string) bool, keys ...string) map[string]bool {
	from := map[string]bool{}
	for _, k := range keys {
		from[k] = v.InConfig(k) && !changed(k) && !EnvGives(k)
	}
	return from
}

// EnvName is the environment variable that sets key: RUBRIC_KEY, with
// - and . as _.
func EnvName(key string) string {
	return "RUBRIC_" + strings.ToUpper(strings.NewReplacer("-", "_", ".", "_").Replace(key))
}

// EnvGives says whether the environment gives key a value as viper
// reads it: a variable set to "" is as good as unset, and the config
// file's value stands.
func EnvGives(key string) bool { return os.Getenv(EnvName(key)) != "" }

// Check returns an error, saying where the value came from and how to
// consent, when a setting of the working directory's file decides where
// a credential is sent and one would be sent: a judge base URL with a
// key to send, an api_key_env naming a variable that is set, a
// claude-cli command (it runs with the user's Claude login), or a plugin
// passed a variable that is set, or a header that expands one (the
// file would choose which secret the target is sent). getenv reads the
// environment. A base URL
// with no key to send (a local Ollama) passes.
func Check(s Settings, getenv func(string) string) error {
	set := func(name string) bool { return strings.TrimSpace(getenv(name)) != "" }
	opts, local := s.options()
	if local["base_url"] && !slices.Contains(keyless, s.Judge) && s.Judge != "claude-cli" {
		env, known := keyEnv[s.Judge]
		if name := opts["api_key_env"]; name != "" {
			env = name
		}
		switch {
		case !known:
			return s.refuse(fmt.Sprintf("base_url %s for the judge %q, which may send it a credential", redact.URL(opts["base_url"]), s.Judge), "--base-url")
		case set(env):
			return s.refuse(fmt.Sprintf("base_url %s, and %s holds a key the %s judge would send there", redact.URL(opts["base_url"]), env, s.Judge), "--base-url")
		}
	}
	if _, known := keyEnv[s.Judge]; known && local["api_key_env"] && set(opts["api_key_env"]) {
		return s.refuse(fmt.Sprintf("api_key_env %s, which is set: its value would be sent as the %s judge's key", opts["api_key_env"], s.Judge), "--judge-option api_key_env=NAME")
	}
	if s.Judge == "claude-cli" && local["command"] {
		return s.refuse(fmt.Sprintf("the claude-cli judge's command %q, which would run with your Claude login", opts["command"]), "--judge-option command=PATH")
	}
	for _, name := range sortedKeys(s.PluginEnv) {
		for _, env := range s.PluginEnv[name] {
			if s.FromFile["plugins"] && set(env) {
				return s.refuse(fmt.Sprintf("plugins.%s.env, which passes %s (it is set) to that plugin", name, env), "plugins in your own config")
			}
		}
	}
	for _, name := range sortedKeys(s.Headers) {
		var used []string
		os.Expand(s.Headers[name], func(n string) string { used = append(used, n); return "" })
		for _, env := range used {
			if s.FromFile["headers"] && set(env) {
				return s.refuse(fmt.Sprintf("headers.%s, which puts %s (it is set) in a header sent to the target", name, env), "--header, RUBRIC_HEADER or headers in your own config")
			}
		}
	}
	return nil
}

// refuse says what the file set and the ways to consent.
func (s *Settings) refuse(what, instead string) error {
	return fmt.Errorf("the config file %s sets %s; %s may not choose where a credential goes. "+
		"If you trust the file, pass --trust-local-config (or set RUBRIC_TRUST_LOCAL_CONFIG=1)%s; "+
		"otherwise give the setting yourself (%s, the environment, or your config in $XDG_CONFIG_HOME/rubric/rubric.yaml, which is read when the working directory has none)",
		s.where(), what, s.kind(), s.nameIt(), instead)
}

// RefuseProgram says that the file sets what, a program rubric would
// start, and the ways to consent; instead is how to give the setting
// oneself.
func (s *Settings) RefuseProgram(what, instead string) error {
	return fmt.Errorf("the config file %s sets %s: %s may not choose a program for rubric to run. "+
		"If you trust the file, pass --trust-local-config (or set RUBRIC_TRUST_LOCAL_CONFIG=1)%s; otherwise give the setting yourself (%s)",
		s.where(), what, s.kind(), s.nameIt(), instead)
}

// where names the file and where it was found.
func (s *Settings) where() string {
	if s.Revision {
		return s.File + " of the repository"
	}
	return s.File + " in the working directory"
}

// kind is what the file is, as the rule it breaks names it.
func (s *Settings) kind() string {
	if s.Revision {
		return "a config file of the repository"
	}
	return "a config file found in the working directory"
}

// nameIt is the other way to consent, naming the file with --config,
// which only a file of the working directory has.
func (s *Settings) nameIt() string {
	if s.Revision {
		return ""
	}
	return ", or name it with --config " + s.File
}

// Trusted says whether the user consents to the working directory's
// config: --trust-local-config (flag, whatever a config file says) or
// RUBRIC_TRUST_LOCAL_CONFIG set to a true value.
func Trusted(flag bool) bool {
	if flag {
		return true
	}
	trust, _ := trustValue(os.Getenv("RUBRIC_TRUST_LOCAL_CONFIG"))
	return trust
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
