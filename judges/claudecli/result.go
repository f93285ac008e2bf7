package claudecli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/internal/termtext"
)

// result is the object claude -p --output-format json prints when it is
// done (the result message of the Agent SDK), as far as the judge reads
// it:
//
//	{"type": "result", "subtype": "success", "is_error": false,
//	 "result": "...", "total_cost_usd": 0.0187,
//	 "usage": {"input_tokens": 3, "cache_creation_input_tokens": 1502,
//	           "cache_read_input_tokens": 0, "output_tokens": 95, ...},
//	 "modelUsage": {"claude-opus-5-5": {"inputTokens": 3, "outputTokens": 95, ...}},
//	 ...}
//
// A failed run has is_error true, and says why in result or, for some
// subtypes (error_during_execution), in errors.
type result struct {
	Type    string            `json:"type"`
	Subtype string            `json:"subtype"`
	IsError bool              `json:"is_error"`
	Result  string            `json:"result"`
	Errors  []json.RawMessage `json:"errors"`
	Usage   struct {
		InputTokens         int `json:"input_tokens"`
		CacheCreationTokens int `json:"cache_creation_input_tokens"`
		CacheReadTokens     int `json:"cache_read_input_tokens"`
		OutputTokens        int `json:"output_tokens"`
	} `json:"usage"`
	ModelUsage map[string]struct {
		OutputTokens int `json:"outputTokens"`
	} `json:"modelUsage"`
}

// answer reads what a finished claude left into an answer, or the error
// the engine acts on.
func (s *setup) answer(out *output) (judge.Answer, error) {
	cli := s.id.CLI
	if out.over {
		return judge.Answer{}, &judge.UnreadableError{Msg: fmt.Sprintf("%s wrote more than %d bytes on its standard output", cli, stdoutLimit)}
	}
	res, perr := parseResult(out.stdout.Bytes())
	switch {
	case perr != nil && out.err != nil:
		// Nothing to read: claude said why on stderr, if anywhere.
		return judge.Answer{}, failure(cli, out, "")
	case perr != nil:
		return judge.Answer{}, &judge.UnreadableError{Msg: fmt.Sprintf("%s's output is not a JSON result object (%v): %s", cli, perr, quoteStart(out.stdout.String()))}
	case res.IsError || out.err != nil:
		return judge.Answer{}, failure(cli, out, termtext.Printable(res.message()))
	}
	text := stripFence(res.Result)
	if text == "" {
		return judge.Answer{}, &judge.UnreadableError{Msg: fmt.Sprintf("%s's result is empty (subtype %q)", cli, res.Subtype)}
	}
	return judge.Answer{
		JSON:  []byte(text),
		Model: res.model(s.id.Model),
		Tokens: judge.Tokens{
			Input:  res.Usage.InputTokens + res.Usage.CacheCreationTokens + res.Usage.CacheReadTokens,
			Output: res.Usage.OutputTokens,
		},
	}, nil
}

// parseResult reads claude's standard output: one result object or, with
// verbose output, an array of messages ending in one.
func parseResult(stdout []byte) (*result, error) {
	b := bytes.TrimSpace(stdout)
	if len(b) == 0 {
		return nil, errors.New("it is empty")
	}
	if b[0] == '[' {
		var msgs []json.RawMessage
		if err := json.Unmarshal(b, &msgs); err != nil {
			return nil, err
		}
		if len(msgs) == 0 {
			return nil, errors.New("an empty array")
		}
		b = msgs[len(msgs)-1]
	}
	var r result
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, err
	}
	if r.Type != "result" {
		return nil, fmt.Errorf("its type is %q, not \"result\"", r.Type)
	}
	return &r, nil
}

// message is what a failed result says went wrong.
func (r *result) message() string {
	if msg := strings.TrimSpace(r.Result); msg != "" {
		return msg
	}
	var msgs []string
	for _, raw := range r.Errors {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			s = string(raw)
		}
		if s = strings.TrimSpace(s); s != "" {
			msgs = append(msgs, s)
		}
	}
	if len(msgs) > 0 {
		return strings.Join(msgs, "; ")
	}
	if r.Subtype != "" {
		return "result subtype " + r.Subtype
	}
	return ""
}

// model is the model that wrote the most output tokens, by name when two
// wrote as many; def when the result does not say.
func (r *result) model(def string) string {
	best, most := "", -1
	for name, u := range r.ModelUsage {
		if u.OutputTokens > most || (u.OutputTokens == most && name < best) {
			best, most = name, u.OutputTokens
		}
	}
	if best == "" {
		return def
	}
	return best
}

// stripFence takes off a Markdown code fence around the whole text,
// ```json or bare ```, which models add to JSON answers now and then.
func stripFence(s string) string {
	t := strings.TrimSpace(s)
	if len(t) < 6 || !strings.HasPrefix(t, "```") || !strings.HasSuffix(t, "```") {
		return t
	}
	open, body, ok := strings.Cut(t, "\n")
	if !ok {
		return t
	}
	if lang := strings.TrimSpace(strings.TrimPrefix(open, "```")); lang != "" && !strings.EqualFold(lang, "json") {
		return t
	}
	return strings.TrimSpace(strings.TrimSuffix(body, "```"))
}

var (
	// rateLimitRE finds a rate limit or an overload in what claude said:
	// the API's 429 and 529, and their error types.
	rateLimitRE = regexp.MustCompile(`(?i)rate[ _-]?limit|\b429\b|\b529\b|overloaded`)
	// authRE finds a login that is missing, expired or refused.
	authRE = regexp.MustCompile(`(?i)not logged in|/login\b|\blog ?in\b|invalid api key|\bapi key\b|authenticat|unauthori[sz]ed|\b401\b|oauth|credentials`)
)

// loginHint is the user's next step when claude could not log in.
const loginHint = "log claude in: run claude once and /login, or make a token with claude setup-token and set CLAUDE_CODE_OAUTH_TOKEN in the environment rubric runs in"

// failure words a failed run from its message, its exit and its stderr: a
// *judge.RateLimitError for a rate limit or an overload, a plain error
// otherwise.
func failure(cli string, out *output, msg string) error {
	stderr := out.stderr.Lines(stderrLines)
	said := msg + "\n" + strings.Join(stderr, "\n")
	if rateLimitRE.MatchString(said) {
		if msg == "" {
			msg = stderr[len(stderr)-1]
		}
		return &judge.RateLimitError{Msg: cli + ": " + msg}
	}
	var b strings.Builder
	b.WriteString(cli + " failed")
	if out.err != nil {
		fmt.Fprintf(&b, " (%v)", out.err)
	}
	if msg != "" {
		b.WriteString(": " + msg)
	}
	b.WriteString(out.stderr.Quote(stderrLines))
	if authRE.MatchString(said) {
		b.WriteString("\n" + loginHint)
	}
	return errors.New(b.String())
}
