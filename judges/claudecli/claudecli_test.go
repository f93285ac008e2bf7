package claudecli

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/internal/proctest"
)

const model = "claude-opus-5-5"

// configured returns a judge configured with the model and options
// against the stand-in installed by install.
func configured(t *testing.T, opts map[string]string) *Judge {
	t.Helper()
	j := New()
	if _, err := j.Configure(context.Background(), judge.Config{Model: model, Options: opts}); err != nil {
		t.Fatal(err)
	}
	return j
}

// question is a TDQS-like question whose system prompt carries what a
// shell or an argument parser would mangle.
var question = judge.Question{
	Rubric:  "tdqs",
	Kind:    "tdqs.tool",
	Subject: "get_user",
	System: "You grade MCP tool definitions.\n\n" +
		"Answer with one JSON object: {\"score\": 1-5}.\n" +
		"  Quotes \"double\" and 'single', `backticks`, $HOME, $(date), \\n, a tab\tand -p --model x.\n" +
		"Non-ASCII: é, 日本語, 🙂.\n",
	User: "Tool: get_user\nDescription: \"Returns a user.\"\n",
}

func TestArgv(t *testing.T) {
	rec := install(t, "ok")
	t.Setenv(fakeProbe, "passed through")
	j := configured(t, nil)
	if _, err := j.Ask(context.Background(), question); err != nil {
		t.Fatal(err)
	}
	cs := calls(t, rec)
	if len(cs) != 1 {
		t.Fatalf("%d calls recorded, want 1", len(cs))
	}
	c := cs[0]
	want := []string{
		"-p",
		"--output-format", "json",
		"--model", model,
		"--system-prompt", question.System,
		"--tools", "",
		"--strict-mcp-config",
		"--mcp-config", `{"mcpServers":{}}`,
		"--setting-sources", "",
		"--no-session-persistence",
	}
	if !reflect.DeepEqual(c.Args, want) {
		t.Errorf("argv:\n got %q\nwant %q", c.Args, want)
	}
	if c.Stdin != question.User {
		t.Errorf("stdin = %q, want the user prompt %q", c.Stdin, question.User)
	}
	if len(c.Files) != 0 {
		t.Errorf("claude's directory held %q, want it empty", c.Files)
	}
	if _, err := os.Stat(c.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("claude's directory %s is still there after the call (%v)", c.Dir, err)
	}
	if c.Probe != "passed through" {
		t.Errorf("claude saw %s=%q: the environment did not pass through", fakeProbe, c.Probe)
	}
}

// TestDirectoryPerCall: concurrent questions each run in an empty
// directory of their own, removed afterwards.
func TestDirectoryPerCall(t *testing.T) {
	rec := install(t, "ok")
	j := configured(t, nil)
	const n = 4
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() { _, errs[i] = j.Ask(context.Background(), question) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	seen := make(map[string]bool)
	for _, c := range calls(t, rec) {
		if seen[c.Dir] {
			t.Errorf("two calls ran in %s", c.Dir)
		}
		seen[c.Dir] = true
		if len(c.Files) != 0 {
			t.Errorf("%s held %q, want it empty", c.Dir, c.Files)
		}
		if _, err := os.Stat(c.Dir); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s is still there (%v)", c.Dir, err)
		}
	}
	if len(seen) != n {
		t.Errorf("%d directories for %d calls", len(seen), n)
	}
}

func TestAnswer(t *testing.T) {
	opus := judge.Answer{JSON: []byte(`{"score": 4}`), Model: "claude-opus-5-5", Tokens: judge.Tokens{Input: 7 + 1200 + 300, Output: 95}}
	cases := []struct {
		mode string
		want judge.Answer
	}{
		{"ok", opus},
		{"fenced", opus},
		{"fenced-bare", opus},
		// No modelUsage: the configured model is taken to have answered.
		{"no-model-usage", judge.Answer{JSON: []byte(`{"score": 4}`), Model: model, Tokens: judge.Tokens{Input: 10, Output: 5}}},
		{"verbose", judge.Answer{JSON: []byte(`{"score": 4}`), Model: "claude-opus-5-5", Tokens: judge.Tokens{Input: 10, Output: 5}}},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			install(t, c.mode)
			a, err := configured(t, nil).Ask(context.Background(), question)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(a, c.want) {
				t.Fatalf("answer:\n got %s %+v\nwant %s %+v", a.JSON, a, c.want.JSON, c.want)
			}
		})
	}
}

func TestAskErrors(t *testing.T) {
	type check func(t *testing.T, err error)
	rateLimited := func(msg string) check {
		return func(t *testing.T, err error) {
			var rl *judge.RateLimitError
			if !errors.As(err, &rl) {
				t.Fatalf("error %v (%T), want a *judge.RateLimitError", err, err)
			}
			if rl.RetryAfter != 0 || rl.Msg != msg {
				t.Fatalf("rate limit %+v, want RetryAfter 0 and Msg %q", *rl, msg)
			}
		}
	}
	unreadable := func(msg string) check {
		return func(t *testing.T, err error) {
			var ue *judge.UnreadableError
			if !errors.As(err, &ue) {
				t.Fatalf("error %v (%T), want a *judge.UnreadableError", err, err)
			}
			if ue.Msg != msg {
				t.Fatalf("unreadable:\n got %q\nwant %q", ue.Msg, msg)
			}
		}
	}
	plain := func(msg string) check {
		return func(t *testing.T, err error) {
			var rl *judge.RateLimitError
			var ue *judge.UnreadableError
			if err == nil || errors.As(err, &rl) || errors.As(err, &ue) {
				t.Fatalf("error %v (%T), want a plain error", err, err)
			}
			if err.Error() != msg {
				t.Fatalf("error:\n got %s\nwant %s", err, msg)
			}
		}
	}
	const login = "\nlog claude in: run claude once and /login, or make a token with claude setup-token and set CLAUDE_CODE_OAUTH_TOKEN in the environment rubric runs in"
	cases := []struct {
		mode  string
		check check
	}{
		{"rate-limit", rateLimited(`claude: API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}`)},
		{"overloaded", rateLimited("claude: API Error: Repeated 529 Overloaded errors")},
		{"rate-limit-stderr", rateLimited("claude: Error: 429 Too Many Requests")},
		{"auth", plain("claude failed (exit status 1): Invalid API key · Please run /login" + login)},
		{"errors", plain(`claude failed (exit status 1): Error: Request was aborted.; {"code":7}`)},
		{"exit", plain("claude failed (exit status 2); its stderr ended with:\n" +
			"    warming up\n" +
			"    error: unknown option '--no-session-persistence'\n" +
			"    (Did you mean --session-id?)")},
		{"exit-silent", plain("claude failed (exit status 1)")},
		{"junk", unreadable(`claude's output is not a JSON result object (invalid character 'W' looking for beginning of value): "Welcome to Claude Code!\n\"not\" a result\n"`)},
		{"junk-long", unreadable(`claude's output is not a JSON result object (invalid character '1' after top-level value): "` + strings.Repeat("0123456789", 20) + `"...`)},
		{"not-a-result", unreadable(`claude's output is not a JSON result object (its type is "assistant", not "result"): "{\"type\":\"assistant\",\"message\":{\"content\":[]}}\n"`)},
		{"nothing", unreadable(`claude's output is not a JSON result object (it is empty): ""`)},
		{"empty-result", unreadable(`claude's result is empty (subtype "success")`)},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			install(t, c.mode)
			_, err := configured(t, nil).Ask(context.Background(), question)
			c.check(t, err)
		})
	}
}

func TestStdoutBound(t *testing.T) {
	defer func(n int) { stdoutLimit = n }(stdoutLimit)
	stdoutLimit = 1 << 10
	install(t, "flood") // writes 64 KiB: claude must not block on it
	_, err := configured(t, nil).Ask(context.Background(), question)
	var ue *judge.UnreadableError
	if !errors.As(err, &ue) || ue.Msg != "claude wrote more than 1024 bytes on its standard output" {
		t.Fatalf("error %v, want an unreadable reply for more than 1024 bytes", err)
	}
}

// TestCancel: cancelling a question kills claude and what it started, at
// once, and removes its directory. The question's timeout is a day: a
// judge that did not end claude on the cancellation would hang the test
// rather than pass late.
func TestCancel(t *testing.T) {
	rec := install(t, "hang")
	reached := ready(t)
	j := configured(t, map[string]string{"timeout": "24h"})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := j.Ask(ctx, question)
		done <- err
	}()
	select {
	case <-reached:
	case err := <-done:
		t.Fatalf("Ask returned before claude hung: %v", err)
	}
	c := calls(t, rec)[0]
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	assertEnded(t, c)
}

// TestTimeout: a question that outlives the timeout option ends claude
// and what it started, and says which option to raise. The timeout fires
// once claude has reached its hang, not on a timer, so a slow start on a
// loaded machine cannot beat it.
func TestTimeout(t *testing.T) {
	rec := install(t, "hang")
	reached := ready(t)
	j := configured(t, map[string]string{"timeout": "300ms"})
	var bound time.Duration
	j.withTimeout = func(ctx context.Context, d time.Duration) (context.Context, context.CancelFunc) {
		bound = d
		call, cancel := context.WithCancel(ctx)
		go func() {
			select {
			case <-reached:
				cancel()
			case <-call.Done():
			}
		}()
		return call, cancel
	}
	_, err := j.Ask(context.Background(), question)
	if want := "claude did not answer within 300ms: if the model is slow, give it longer with --judge-option timeout=5m (or in --judge claude-cli:timeout=5m)"; err == nil || err.Error() != want {
		t.Fatalf("error %v, want %s", err, want)
	}
	if bound != 300*time.Millisecond {
		t.Errorf("the question was bounded by %s, want the option's 300ms", bound)
	}
	assertEnded(t, calls(t, rec)[0])
}

// assertEnded checks that the call's processes ended and its directory is
// gone.
func assertEnded(t *testing.T, c call) {
	t.Helper()
	if c.Child == 0 {
		t.Fatal("the stand-in recorded no child")
	}
	for _, pid := range []int{c.PID, c.Child} {
		if !proctest.Gone(pid, proctest.Guard) {
			t.Errorf("process %d still runs", pid)
			if p, err := os.FindProcess(pid); err == nil {
				p.Kill()
			}
		}
	}
	if _, err := os.Stat(c.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s is still there (%v)", c.Dir, err)
	}
}

func TestAskBeforeConfigure(t *testing.T) {
	_, err := New().Ask(context.Background(), question)
	if want := "the claude-cli judge was asked a question before it was configured"; err == nil || err.Error() != want {
		t.Fatalf("error %v, want %s", err, want)
	}
}

func TestAskCancelledBeforehand(t *testing.T) {
	rec := install(t, "ok")
	j := configured(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := j.Ask(ctx, question); !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
	if _, err := os.Stat(rec); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("claude was started for a cancelled question")
	}
}

func TestConfigure(t *testing.T) {
	want := judge.Identity{
		Plugin: "claude-cli", Version: "1.0.0", Provider: "anthropic", Model: model,
		CLI: "claude", CLIVersion: "2.1.288",
	}
	cases := []struct {
		name    string
		version string // what --version prints; "" for the stand-in's default
		opts    map[string]string
		want    judge.Identity
	}{
		{"any version", "", nil, want},
		{"the pinned version", "", map[string]string{"cli_version": "2.1.288"}, want},
		{"the pinned version, with a v", "", map[string]string{"cli_version": "v2.1.288"}, want},
		{"a bare version", "2.1.288", nil, want},
		{"a notice first", "A new version is available: run claude update\n2.1.288 (Claude Code)", nil, want},
		{"a prerelease", "2.2.0-beta.1 (Claude Code)", nil, func() judge.Identity { id := want; id.CLIVersion = "2.2.0-beta.1"; return id }()},
		{"a timeout", "", map[string]string{"timeout": "90s"}, want},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			install(t, "ok")
			t.Setenv(fakeVersion, c.version)
			id, err := New().Configure(context.Background(), judge.Config{Model: model, Options: c.opts})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(id, c.want) {
				t.Fatalf("identity:\n got %+v\nwant %+v", id, c.want)
			}
		})
	}
}

// TestCommandOption: a command given by path need not be on PATH, and
// names the CLI by its file's name.
func TestCommandOption(t *testing.T) {
	install(t, "ok")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "claude-nightly")
	if err := os.Symlink(exe, path); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	j := New()
	// Relative to where rubric runs, not to where each question runs.
	id, err := j.Configure(context.Background(), judge.Config{Model: model, Options: map[string]string{"command": "./claude-nightly"}})
	if err != nil {
		t.Fatal(err)
	}
	if id.CLI != "claude-nightly" {
		t.Errorf("CLI = %q, want claude-nightly", id.CLI)
	}
	if _, err := j.Ask(context.Background(), question); err != nil {
		t.Fatal(err)
	}
}

func TestConfigureErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "claude")
	cases := []struct {
		name    string
		mode    string
		version string
		model   string
		opts    map[string]string
		want    string
	}{
		{
			name: "no model",
			want: "the claude-cli judge needs a model: pass --model with a model claude accepts, such as claude-opus-5-5 or opus",
		},
		{
			name:  "the suffix alone",
			model: "[1m]",
			want:  "the claude-cli judge needs a model before [1m], which only asks for a million tokens of context: pass --model with an alias or a model id before it, such as sonnet[1m] or claude-sonnet-4-5[1m]",
		},
		{
			name:  "the account's default",
			model: "default",
			want:  `the claude-cli judge needs a model it can hold each answer to ("default" is Claude Code's choice for your account, which may change, so it pins no model): pass --model with an alias that names a family (opus, sonnet, haiku, opusplan) or a model id such as claude-opus-5-5`,
		},
		{
			name:  "another version than the pinned one",
			model: model, opts: map[string]string{"cli_version": "2.1.250"},
			want: "claude is version 2.1.288, but the judge's option cli_version asks for 2.1.250: install that version (npm install -g @anthropic-ai/claude-code@2.1.250), or change it with --judge-option cli_version=2.1.288 (or in --judge claude-cli:cli_version=2.1.288)",
		},
		{
			name: "an unreadable version", version: "Claude Code (nightly)",
			model: model,
			want:  `cannot read a version in what "claude --version" printed: "Claude Code (nightly)"`,
		},
		{
			name: "a version that fails", mode: "version-fails",
			model: model,
			want:  `"claude --version" failed (exit status 1); its stderr ended with: claude: cannot find its own installation`,
		},
		{
			name:  "a misspelt option",
			model: model, opts: map[string]string{"cli-version": "2.1.288"},
			want: `the claude-cli judge has no option "cli-version" (did you mean "cli_version"?); its options are cli_version, command, timeout`,
		},
		{
			name:  "a timeout that is no duration",
			model: model, opts: map[string]string{"timeout": "5"},
			want: `the claude-cli judge's option timeout must be a positive duration such as "90s" or "2m", not "5": give it with --judge-option timeout=DURATION (or in --judge claude-cli:timeout=DURATION)`,
		},
		{
			name:  "a negative timeout",
			model: model, opts: map[string]string{"timeout": "-1s"},
			want: `the claude-cli judge's option timeout must be a positive duration such as "90s" or "2m", not "-1s": give it with --judge-option timeout=DURATION (or in --judge claude-cli:timeout=DURATION)`,
		},
		{
			name:  "no such command",
			model: model, opts: map[string]string{"command": "claude-nope"},
			want: `cannot find the command "claude-nope": executable file not found in $PATH; install Claude Code (npm install -g @anthropic-ai/claude-code), or give its path with --judge-option command=PATH (or in --judge claude-cli:command=PATH)`,
		},
		{
			name:  "no such file",
			model: model, opts: map[string]string{"command": missing},
			want: `cannot find the command "` + missing + `": stat ` + missing + `: no such file or directory; install Claude Code (npm install -g @anthropic-ai/claude-code), or give its path with --judge-option command=PATH (or in --judge claude-cli:command=PATH)`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mode := c.mode
			if mode == "" {
				mode = "ok"
			}
			install(t, mode)
			t.Setenv(fakeVersion, c.version)
			_, err := New().Configure(context.Background(), judge.Config{Model: c.model, Options: c.opts})
			if err == nil || err.Error() != c.want {
				t.Fatalf("error:\n got %v\nwant %s", err, c.want)
			}
		})
	}
}

// TestConfigureCancel: a claude --version that hangs gives way to the
// context.
func TestConfigureCancel(t *testing.T) {
	install(t, "version-hang")
	reached := ready(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-reached
		cancel()
	}()
	_, err := New().Configure(ctx, judge.Config{Model: model})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want context.Canceled", err)
	}
}

func TestDescribe(t *testing.T) {
	id, err := New().Describe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := (judge.Identity{Plugin: "claude-cli", Version: "1.0.0", Provider: "anthropic"}); !reflect.DeepEqual(id, want) {
		t.Fatalf("Describe = %+v, want %+v", id, want)
	}
}

func TestStripFence(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"a": 1}`, `{"a": 1}`},
		{"  {\"a\": 1}\n", `{"a": 1}`},
		{"```json\n{\"a\": 1}\n```", `{"a": 1}`},
		{"```JSON\n{\"a\": 1}\n```\n", `{"a": 1}`},
		{"```\n{\"a\": 1}\n```", `{"a": 1}`},
		{"```json\n{\"a\": \"```\"}\n```", "{\"a\": \"```\"}"},
		// Not a fence around the whole text: left for the schema to refuse.
		{"```python\nprint(1)\n```", "```python\nprint(1)\n```"},
		{"Here it is:\n```json\n{}\n```", "Here it is:\n```json\n{}\n```"},
		{"```json {} ```", "```json {} ```"},
		{"``````", "``````"},
	}
	for _, c := range cases {
		if got := stripFence(c.in); got != c.want {
			t.Errorf("stripFence(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestModelOfResult(t *testing.T) {
	type usage = map[string]struct {
		OutputTokens int `json:"outputTokens"`
	}
	cases := []struct {
		name  string
		usage usage
		want  string
	}{
		{"none", nil, "configured"},
		{"one", usage{"claude-opus-5-5": {0}}, "claude-opus-5-5"},
		{"the most output", usage{"claude-haiku-4-5": {12}, "claude-opus-5-5": {95}}, "claude-opus-5-5"},
		{"a tie goes by name", usage{"b": {5}, "a": {5}}, "a"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := result{ModelUsage: c.usage}
			if got := r.model("configured"); got != c.want {
				t.Fatalf("model = %q, want %q", got, c.want)
			}
		})
	}
}

// TestTokenNotEchoed: a claude that quotes the token of its environment
// back, in an answer, a model's name or an error, has it replaced before
// the answer or the error leaves the judge.
func TestTokenNotEchoed(t *testing.T) {
	const token = "oauth-echoed-5e1d"
	for _, mode := range []string{"echo-token", "echo-token-fail"} {
		t.Run(mode, func(t *testing.T) {
			install(t, mode)
			t.Setenv("CLAUDE_CODE_OAUTH_TOKEN", token)
			a, err := configured(t, nil).Ask(context.Background(), question)
			out := string(a.JSON) + " " + a.Model
			if err != nil {
				out = err.Error()
			} else if string(a.JSON) != `{"score": 4, "why": "[redacted]"}` {
				t.Errorf("answer %s", a.JSON)
			}
			if strings.Contains(out, token) || !strings.Contains(out, "[redacted]") {
				t.Errorf("what the judge returned: %s", out)
			}
		})
	}
}

// TestModelAlias: Claude Code takes a model's alias (opus, sonnet,
// haiku, opusplan, and any of them with [1m]) and names the model that answered by its id. The alias is
// what claude is asked for and what the identity records; the pin it
// makes (judge.SameModel, as the engine checks each answer) is kept by
// a model of the family it names, and by no other.
func TestModelAlias(t *testing.T) {
	cases := []struct {
		model, answered string
		kept            bool
	}{
		{"opus", "claude-opus-5-5", true},
		{"opus", "claude-opus-4-1-20250805", true},
		{"sonnet", "claude-sonnet-4-5-20250929", true},
		{"haiku", "claude-haiku-4-5-20251001", true},
		{"opus", "claude-sonnet-4-5-20250929", false},
		{"sonnet", "claude-opus-5-5", false},
		{"claude-opus-5-5", "claude-opus-5-5", true},
		{"claude-opus-5", "claude-opus-5-5", false},
		{"opusplan", "claude-opus-5-5", true},
		{"opusplan", "claude-sonnet-4-5-20250929", true},
		{"sonnet[1m]", "claude-sonnet-4-5-20250929", true},
		{"sonnet[1m]", "claude-haiku-4-5-20251001", false},
	}
	for _, c := range cases {
		t.Run(c.model+" answered by "+c.answered, func(t *testing.T) {
			rec := install(t, "answered-by")
			t.Setenv(fakeAnswered, c.answered)
			j := New()
			id, err := j.Configure(context.Background(), judge.Config{Model: c.model})
			if err != nil {
				t.Fatal(err)
			}
			if id.Model != c.model {
				t.Errorf("identity's model = %q, want %q as given", id.Model, c.model)
			}
			a, err := j.Ask(context.Background(), question)
			if err != nil {
				t.Fatal(err)
			}
			if a.Model != c.answered {
				t.Errorf("answer's model = %q, want the id that answered, %q", a.Model, c.answered)
			}
			if got := calls(t, rec)[0].Args; !slices.Contains(got, c.model) {
				t.Errorf("argv %q does not ask for %q", got, c.model)
			}
			if got := judge.SameModel(id.Model, a.Model); got != c.kept {
				t.Errorf("SameModel(%q, %q) = %v, want %v", id.Model, a.Model, got, c.kept)
			}
		})
	}
}
