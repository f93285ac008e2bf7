// Package claudecli is the judge that asks Claude through Claude Code's
// command line, claude, in headless (print) mode: it scores with the
// login of a Claude subscription, or a token from claude setup-token,
// where the hosted-API judges need an API key.
//
// Each question is one claude process:
//
//	claude -p --output-format json --model MODEL --system-prompt SYSTEM \
//	    --tools "" --strict-mcp-config --mcp-config '{"mcpServers":{}}' \
//	    --setting-sources "" --no-session-persistence
//
// with the question's user prompt on standard input, in a fresh empty
// directory that is removed afterwards. So the model answers with no tools
// (--tools ""), no MCP servers (only those of an empty --mcp-config), no
// settings, hooks, plugins or CLAUDE.md memory (no setting sources, and
// nothing in the directory or above it to find), and no session saved to
// resume. The flags are those of the Claude Code CLI reference,
// https://code.claude.com/docs/en/cli-reference.
//
// The answer is the result object's result text, with a surrounding
// ```json fence taken off; the engine checks it against the question's
// schema. The model that answered is the one of modelUsage that wrote the
// most output tokens, by its id. A model given by its alias (opus,
// sonnet, haiku, opusplan, any of them with [1m]) is passed and recorded
// in the identity as given, and pins the families it names (see
// judge.SameModel): claude-opus-5-5 keeps a pin on opus, a sonnet does
// not. The alias default, the account's choice, pins no model and is
// refused. A rate limit or an overload becomes a
// *judge.RateLimitError, output that is not a result object a
// *judge.UnreadableError, and anything else an error that says what
// claude said, and how to log in when that was the trouble.
//
// Configure runs claude --version and records the version in the identity:
// scores made with another version of the command line are another
// identity's. The cli_version option refuses any other version outright.
//
// claude runs with rubric's environment unchanged: it finds its login in
// HOME, or a token in CLAUDE_CODE_OAUTH_TOKEN.
package claudecli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/internal/redact"
	"github.com/rubricmcp/rubric/judges/internal/judgeopt"
	"github.com/rubricmcp/rubric/judges/internal/scrub"
)

// The judge's identity before configuration.
const (
	Name     = "claude-cli"
	Version  = "1.0.0"
	Provider = "anthropic"
)

// Options, the keys of judge.Config.Options this judge reads.
const (
	// OptionCommand is the command to run, a name looked up on PATH or a
	// path; "claude" by default.
	OptionCommand = "command"
	// OptionCLIVersion, when set, is the only version of the command line
	// the judge accepts, such as "2.1.288".
	OptionCLIVersion = "cli_version"
	// OptionTimeout bounds one question, such as "90s"; DefaultTimeout
	// by default.
	OptionTimeout = "timeout"
)

// Defaults.
const (
	DefaultCommand = "claude"
	DefaultTimeout = 5 * time.Minute
)

// versionTimeout bounds claude --version.
const versionTimeout = 30 * time.Second

// Judge asks claude. New returns one to Configure; it is safe for
// concurrent questions once configured.
type Judge struct {
	mu sync.RWMutex
	s  *setup // nil until configured
	// withTimeout bounds one question; context.WithTimeout when nil.
	// Tests end a question at the stage they mean instead of on a timer.
	withTimeout func(context.Context, time.Duration) (context.Context, context.CancelFunc)
}

var _ judge.Judge = (*Judge)(nil)

// setup is what Configure settled.
type setup struct {
	path    string // the command, absolute
	timeout time.Duration
	id      judge.Identity // its Model is the model asked for
}

// New returns an unconfigured claude-cli judge.
func New() *Judge { return &Judge{} }

// Describe implements judge.Judge.
func (*Judge) Describe(context.Context) (judge.Identity, error) {
	return judge.Identity{Plugin: Name, Version: Version, Provider: Provider}, nil
}

// CheckOptions implements judge.OptionChecker.
func (*Judge) CheckOptions(options map[string]string) error {
	_, err := judgeopt.NewOptions(Name, options, optionNames...)
	return err
}

// accountDefault is Claude Code's alias for the model its account type
// recommends: which model answers depends on the account and may change
// within a run (some accounts fall back to another past a usage
// threshold), so no answer can be held to it.
const accountDefault = "default"

// optionNames are the options the judge takes.
var optionNames = []string{OptionCLIVersion, OptionCommand, OptionTimeout}

// Configure implements judge.Judge. It finds the command, asks it its
// version, and refuses a version other than the cli_version option's.
func (j *Judge) Configure(ctx context.Context, c judge.Config) (judge.Identity, error) {
	command, pinned, timeout, err := readOptions(c.Options)
	if err != nil {
		return judge.Identity{}, err
	}
	if c.Model == "" {
		return judge.Identity{}, &judge.SettingError{Judge: Name, Setting: "model", What: "a model", Value: "opus",
			Advice: "pass --model with a model claude accepts, such as claude-opus-5-5 or opus"}
	}
	if base := strings.TrimSuffix(c.Model, judge.ExtendedContext); base == "" {
		return judge.Identity{}, &judge.SettingError{Judge: Name, Setting: "model", What: fmt.Sprintf("a model before %s, which only asks for a million tokens of context", judge.ExtendedContext), Value: "opus",
			Advice: "pass --model with an alias or a model id before it, such as sonnet[1m] or claude-sonnet-4-5[1m]"}
	} else if base == accountDefault {
		return judge.Identity{}, &judge.SettingError{Judge: Name, Setting: "model", What: fmt.Sprintf("a model it can hold each answer to (%q is Claude Code's choice for your account, which may change, so it pins no model)", c.Model), Value: "opus",
			Advice: "pass --model with an alias that names a family (opus, sonnet, haiku, opusplan) or a model id such as claude-opus-5-5"}
	}
	path, err := exec.LookPath(command)
	if err == nil {
		path, err = filepath.Abs(path) // each question runs in a directory of its own
	}
	if err != nil {
		return judge.Identity{}, fmt.Errorf("cannot find the command %q: %w; install Claude Code (npm install -g @anthropic-ai/claude-code), or give its path with %s", command, unwrapExec(err), judgeopt.Setting(Name, OptionCommand, "PATH"))
	}
	cli := filepath.Base(path)
	version, err := cliVersion(ctx, path, cli)
	if err != nil {
		return judge.Identity{}, err
	}
	if pinned != "" && strings.TrimPrefix(pinned, "v") != version {
		return judge.Identity{}, fmt.Errorf("%s is version %s, but the judge's option cli_version asks for %s: install that version (npm install -g @anthropic-ai/claude-code@%s), or change it with %s", cli, version, pinned, strings.TrimPrefix(pinned, "v"), judgeopt.Setting(Name, OptionCLIVersion, version))
	}
	id := judge.Identity{
		Plugin:     Name,
		Version:    Version,
		Provider:   Provider,
		Model:      c.Model,
		CLI:        cli,
		CLIVersion: version,
	}
	j.mu.Lock()
	j.s = &setup{path: path, timeout: timeout, id: id}
	j.mu.Unlock()
	return id, nil
}

// readOptions reads and checks the options.
func readOptions(opts map[string]string) (command, pinned string, timeout time.Duration, err error) {
	o, err := judgeopt.NewOptions(Name, opts, optionNames...)
	if err != nil {
		return "", "", 0, err
	}
	if timeout, err = o.Duration(OptionTimeout, DefaultTimeout); err != nil {
		return "", "", 0, err
	}
	return o.String(OptionCommand, DefaultCommand), o.String(OptionCLIVersion, ""), timeout, nil
}

// unwrapExec drops the command's name that exec repeats in its errors.
func unwrapExec(err error) error {
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err
	}
	return err
}

// versionRE finds the version at the start of a line of claude --version's
// output, past any notice printed before it:
// "2.1.288 (Claude Code)".
var versionRE = regexp.MustCompile(`(?m)^v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)(?:\s|$)`)

// cliVersion runs the command with --version and reads its version.
func cliVersion(ctx context.Context, path, cli string) (string, error) {
	call, cancel := context.WithTimeout(ctx, versionTimeout)
	defer cancel()
	out, err := run(call, path, []string{"--version"}, "", "")
	if err != nil {
		return "", err
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	what := fmt.Sprintf("%q", cli+" --version")
	switch {
	case call.Err() != nil:
		return "", fmt.Errorf("%s did not finish within %s", what, versionTimeout)
	case out.over:
		return "", fmt.Errorf("%s printed more than %d bytes", what, stdoutLimit)
	case out.err != nil:
		return "", fmt.Errorf("%s failed (%v)%s", what, out.err, out.stderr.Quote(stderrLines))
	}
	text := strings.TrimSpace(out.stdout.String())
	m := versionRE.FindStringSubmatch(text)
	if m == nil {
		return "", fmt.Errorf("cannot read a version in what %s printed: %s", what, quoteStart(text))
	}
	return m[1], nil
}

// secretEnv are the variables claude reads a credential from. The judge
// hands them on untouched; whatever claude prints of their values (in an
// answer, the model's name, an error it quotes) is replaced by a marker
// before it leaves the judge.
var secretEnv = []string{"CLAUDE_CODE_OAUTH_TOKEN", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"}

// secrets are the values of secretEnv now set.
func secrets() scrub.Secrets {
	var vs []string
	for _, k := range secretEnv {
		vs = append(vs, os.Getenv(k), strings.TrimSpace(os.Getenv(k)))
	}
	return scrub.New(vs...)
}

// Ask implements judge.Judge: one claude process, in a directory of its
// own, answers q. What it returns carries no credential of claude's
// environment (secretEnv).
func (j *Judge) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	a, err := j.ask(ctx, q)
	sec := secrets()
	return sec.Answer(a), scrub.Error(err, func(s string) string { return redact.Text(sec.String(s)) })
}

func (j *Judge) ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	j.mu.RLock()
	s := j.s
	j.mu.RUnlock()
	if s == nil {
		return judge.Answer{}, errors.New("the claude-cli judge was asked a question before it was configured")
	}
	if err := ctx.Err(); err != nil {
		return judge.Answer{}, err
	}
	dir, err := os.MkdirTemp("", "rubric-claude-")
	if err != nil {
		return judge.Answer{}, fmt.Errorf("cannot make an empty directory for claude to run in: %w", err)
	}
	defer os.RemoveAll(dir)

	withTimeout := j.withTimeout
	if withTimeout == nil {
		withTimeout = context.WithTimeout
	}
	call, cancel := withTimeout(ctx, s.timeout)
	defer cancel()
	out, err := run(call, s.path, args(s.id.Model, q.System), dir, q.Prompt())
	if err != nil {
		return judge.Answer{}, err
	}
	if err := ctx.Err(); err != nil {
		return judge.Answer{}, err
	}
	if call.Err() != nil {
		return judge.Answer{}, fmt.Errorf("%s did not answer within %s: if the model is slow, give it longer with %s", s.id.CLI, s.timeout, judgeopt.Setting(Name, OptionTimeout, "5m"))
	}
	return s.answer(out)
}

// args are the arguments claude runs with for one question: print mode,
// one JSON result object, the model and system prompt, and everything
// that could add to the question switched off (see the package doc).
func args(model, system string) []string {
	return []string{
		"-p",
		"--output-format", "json",
		"--model", model,
		"--system-prompt", system,
		"--tools", "",
		"--strict-mcp-config",
		"--mcp-config", `{"mcpServers":{}}`,
		"--setting-sources", "",
		"--no-session-persistence",
	}
}
