// Package judge defines what the engine asks of a judge: a model (or a
// deterministic stand-in) that answers a rubric's questions.
//
// The engine owns the Judge interface: the plugin host returns a Judge that
// speaks to a plugin process, and a judge plugin implements one (served by
// plugins/sdk). Every answer is recorded as an observation with its provenance
// (the judge's identity, the question's digest and the input's hash), so
// scores stay a pure function of the rubric and the observations.
package judge

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"
)

// Judge answers a rubric's questions.
type Judge interface {
	// Describe returns the judge's identity before configuration.
	Describe(ctx context.Context) (Identity, error)
	// Configure sets the model and options and returns the identity the
	// judge answers under from then on, or an error when it cannot serve
	// that model.
	Configure(ctx context.Context, c Config) (Identity, error)
	// Ask answers one question. A *RateLimitError is waited out; an
	// *UnreadableError spends one of the question's retries; any other
	// error ends the run.
	Ask(ctx context.Context, q Question) (Answer, error)
}

// OptionChecker is a judge that can check the names of its options
// (Config.Options) without being configured: CheckOptions returns the
// error Configure would give for a name it does not take. A judge that is
// not started (the rubric asks no question) is checked with it, so that
// a misspelt option is refused whether or not the judge is needed.
type OptionChecker interface {
	CheckOptions(options map[string]string) error
}

// Plugin is a judge started as a plugin process and configured: what the
// plugin host returns.
type Plugin interface {
	Judge
	// Name is the plugin's name.
	Name() string
	// Identity is the identity it configured.
	Identity() Identity
	// SHA256 is its executable's digest as a report records it: empty for
	// a built-in.
	SHA256() string
	// Close ends it.
	Close()
}

// Identity says who answers: it is recorded in every report, enters every
// cache key, and scores from different identities are never compared.
type Identity struct {
	Plugin   string         `json:"plugin"`
	Version  string         `json:"version"`
	Provider string         `json:"provider,omitempty"`
	Model    string         `json:"model,omitempty"`
	Params   map[string]any `json:"params,omitempty"`
	// Heuristic is true for judges that answer by rules, not by a model.
	Heuristic bool `json:"heuristic,omitempty"`
	// CLI and CLIVersion name a command line judge's program and the
	// version it reported.
	CLI        string `json:"cli,omitempty"`
	CLIVersion string `json:"cli_version,omitempty"`
}

// ParamModels is the identity's parameter in which a judge that pins no
// one model, because its answers came from several (a replayed file
// whose lines name different ones), names them, with how many answers
// each gave. Writers show it where they would show the model.
const ParamModels = "models"

// Answered names who answered, as writers show it beside the plugin:
// ("model", the model) for an identity that pins one; ("models", its
// ParamModels) for one whose answers came from several; empty strings
// for neither.
func (id Identity) Answered() (noun, names string) {
	if id.Model != "" {
		return "model", id.Model
	}
	if models, ok := id.Params[ParamModels].(string); ok && models != "" {
		return "models", models
	}
	return "", ""
}

// BlockMembers are the members of a report's judge block: the identity's
// and the plugin's sha256. A rubric's judge labels, written beside them,
// may not take these names.
var BlockMembers = []string{"plugin", "version", "provider", "model", "params", "heuristic", "cli", "cli_version", "sha256"}

// Question is one thing a rubric asks about a tool or a surface.
type Question struct {
	Rubric       string `json:"rubric"`
	RubricDigest string `json:"rubric_digest"`
	// Kind lets an offline judge recognise the question without reading
	// the prompt.
	Kind string `json:"kind"`
	// Subject names what is asked about: a tool's name, "surface" for the
	// whole surface, or an item of an earlier question's answer.
	Subject string `json:"subject"`
	System  string `json:"system"`
	// Context is the part of the prompt that many questions of a run
	// share (the list of the server's tools, say), rendered once a run;
	// it goes before User. Empty when the question shares nothing.
	Context string `json:"context,omitempty"`
	User    string `json:"user"`
	// AnswerSchema is the JSON Schema the answer must satisfy.
	AnswerSchema []byte `json:"answer_schema"`
	// Input is the structured input the prompt was rendered from: what
	// is this question's own.
	Input []byte `json:"input"`
	// Shared is the structured input that many questions of a run share,
	// canonical JSON; nil when the question shares nothing. SharedHash
	// names Shared and Context together ("sha256:" + hex): questions with
	// the same SharedHash share the same both, so a judge may read them
	// once and keep what it made of them by that hash.
	Shared     []byte `json:"shared,omitempty"`
	SharedHash string `json:"shared_hash,omitempty"`
}

// Prompt is the user part of the prompt as a model reads it: the shared
// context first (it is the same for many questions, so a provider's
// prompt cache can keep it), then the question's own text.
func (q Question) Prompt() string { return q.Context + q.User }

// Answer is a judge's reply.
type Answer struct {
	// JSON is the answer text, to be validated against the answer schema.
	JSON []byte `json:"json"`
	// Model is the model that actually answered.
	Model  string `json:"model"`
	Tokens Tokens `json:"tokens"`
}

// Tokens counts a call's usage.
type Tokens struct {
	// Input counts every input token, those read from the provider's
	// prompt cache included.
	Input  int `json:"input"`
	Output int `json:"output"`
	// Cached counts the input tokens the provider read from its prompt
	// cache (part of Input, billed at the cached price); 0 when none were,
	// or the judge does not say.
	Cached int `json:"cached,omitempty"`
}

// CountedTokens is an answer's cost counted offline, for a judge that
// reported none: the tokens of its prompts (system, shared and user
// together) and of its answer in the named encoding.
type CountedTokens struct {
	Encoding string `json:"encoding"`
	Prompt   int    `json:"prompt"`
	Answer   int    `json:"answer"`
}

// Add returns the sum of t and u.
func (t Tokens) Add(u Tokens) Tokens {
	return Tokens{Input: t.Input + u.Input, Output: t.Output + u.Output, Cached: t.Cached + u.Cached}
}

// Config is what a run asks of a judge: the model to answer with and
// judge-specific options (a base URL, a temperature, ...). Secrets never
// travel in a Config: a judge reads them from its environment.
type Config struct {
	Model   string            `json:"model,omitempty"`
	Options map[string]string `json:"options,omitempty"`
}

// SurfaceSubject is the subject of a question about the whole surface.
const SurfaceSubject = "surface"

// RateLimitError means the provider asked the caller to slow down (HTTP
// 429 or 529). The engine waits and asks again; it does not count the
// attempt against the question's retries.
type RateLimitError struct {
	// RetryAfter is how long the provider asked to wait; 0 when it did
	// not say.
	RetryAfter time.Duration
	Msg        string
}

// Error says that the provider limited the rate, and for how long.
func (e *RateLimitError) Error() string {
	if e.RetryAfter > 0 {
		return fmt.Sprintf("rate limited (retry after %s): %s", e.RetryAfter, e.Msg)
	}
	return "rate limited: " + e.Msg
}

// UnreadableError means a reply arrived but held no readable answer (a
// broken envelope, an empty text). The engine asks again, up to the
// question's retries, as it does for an answer that fails its schema.
type UnreadableError struct {
	Msg string
}

// Error says what could not be read.
func (e *UnreadableError) Error() string { return "unreadable reply: " + e.Msg }

// SettingError is a judge refusing a configuration that lacks a setting
// it needs. It names the setting as a judge reference gives it (model, or
// an option such as answers: see Config.With), so that each front-end
// can say how to give it in its own terms: its message is the command
// line's, whose advice Advice holds. It crosses the plugin protocol
// whole.
type SettingError struct {
	Judge   string // the judge's name, such as openai
	Setting string // model, or the option's name, such as answers
	What    string // the setting in words: "a model", "an answers file"
	Value   string // a placeholder of its value, such as NAME or FILE
	Advice  string // how the command line gives it: "pass --model NAME"
}

// Error says what the judge needs and how the command line gives it.
func (e *SettingError) Error() string {
	return fmt.Sprintf("the %s judge needs %s: %s", e.Judge, e.What, e.Advice)
}

// Recorded is one line of an answers file: what --record writes and the
// replay judge reads. Kind and Subject find the question; Answer is the
// answer as the judge gave it; Model, when set, is the model that gave it.
type Recorded struct {
	Kind    string          `json:"kind"`
	Subject string          `json:"subject"`
	Answer  json.RawMessage `json:"answer"`
	Model   string          `json:"model,omitempty"`
	// Tokens is what the answer cost when it was recorded; a replay
	// reports it again, so measures of cost replay too.
	Tokens *Tokens `json:"tokens,omitempty"`
}

// WriteRecorded writes answers as an answers file: one JSON object a line.
func WriteRecorded(w io.Writer, lines []Recorded) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, l := range lines {
		if err := enc.Encode(l); err != nil {
			return err
		}
	}
	return nil
}
