// Package anthropic is the judge that asks Anthropic's Messages API. It
// offers the model one tool, "answer", whose input schema is the
// question's answer schema, and makes the model call it: the tool call's
// input is the answer. The engine validates it and asks again when it
// must.
//
// Options (judge.Config.Options, all optional strings):
//
//	base_url     the API's base URL, without /v1 (default https://api.anthropic.com)
//	temperature  sampling temperature from 0 to 1, sent only when given
//	max_tokens   the reply's token limit (default 4096)
//	timeout      per request, as a Go duration (default 2m)
//	api_key_env  the variable holding the key (default ANTHROPIC_API_KEY)
//
// The key is needed unless base_url names another server (a proxy or
// gateway that holds its own).
package anthropic

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/internal/httpjudge"
	"github.com/rubricmcp/rubric/judges/internal/judgeopt"
)

// The judge's name and version, as its identity gives them.
const (
	Name    = "anthropic"
	Version = "1.0.0"
)

// DefaultBaseURL is Anthropic's hosted API.
const DefaultBaseURL = "https://api.anthropic.com"

// DefaultKeyEnv is the variable the key is read from unless api_key_env
// names another.
const DefaultKeyEnv = "ANTHROPIC_API_KEY"

// APIVersion is the Messages API version the judge speaks.
const APIVersion = "2023-06-01"

// DefaultMaxTokens is the reply's token limit unless max_tokens is given:
// the API needs one, and an answer needs far fewer.
const DefaultMaxTokens = 4096

// ToolName is the tool the model must call to answer.
const ToolName = "answer"

const toolDescription = "Give your answer to the question. The input is the answer itself and must satisfy the input schema."

// MaxTemperature is the highest sampling temperature the Messages API
// documents (its range is 0 to 1).
const MaxTemperature = 1

// optionKeys are the options Configure accepts.
var optionKeys = []string{"base_url", "temperature", "max_tokens", "timeout", "api_key_env"}

// api is the Messages API, as the shared judge sees it.
var api = &httpjudge.API{
	Name:           Name,
	Version:        Version,
	DefaultBaseURL: DefaultBaseURL,
	DefaultKeyEnv:  DefaultKeyEnv,
	Options:        optionKeys,
	Hosted:         hosted,
	Path:           "/v1/messages",
	Header:         http.Header{"Anthropic-Version": {APIVersion}},
	KeyHeader:      "X-Api-Key",
	Configure:      configure,
	Batch:          batches{},
}

// hosted says whether base is Anthropic's hosted API: only a base URL of
// the user's choosing may do without a key.
func hosted(base *url.URL) bool {
	return base.Scheme == "https" && strings.EqualFold(base.Host, "api.anthropic.com") && base.Path == ""
}

// Judge asks the Messages API. Configure checks the model and options,
// reads the key from the environment, and returns the identity the judge
// answers under: its provider is "anthropic" for the hosted API, else the
// base URL's host, and its parameters are the sampling options given. Ask
// sends one question as a message that must be answered by calling the
// answer tool, and returns the call's input as the answer, with the model
// the API says answered and the tokens it counted. A Judge is safe for
// concurrent use; Configure must come before Ask.
type Judge struct{ *httpjudge.Judge }

// New returns an unconfigured judge.
func New() *Judge { return &Judge{httpjudge.NewJudge(api)} }

// dialect is what Configure settles of the judge's own options; Ask only
// reads it.
type dialect struct {
	request request
}

// configure reads the sampling options.
func configure(o *judgeopt.Options, model string, params map[string]any) (httpjudge.Dialect, error) {
	d := &dialect{request: request{Model: model, MaxTokens: DefaultMaxTokens}}
	if t, ok, err := o.Float("temperature", 0, MaxTemperature); err != nil {
		return nil, err
	} else if ok {
		d.request.Temperature = &t
		params["temperature"] = t
	}
	if n, ok, err := o.Int("max_tokens", 1); err != nil {
		return nil, err
	} else if ok {
		d.request.MaxTokens = n
		params["max_tokens"] = n
	}
	return d, nil
}

// Request builds the message for a question, with the answer tool whose
// input schema is the answer schema, and the call of it required.
//
// The prompt is laid out for the API's prompt cache: the tool and the
// system prompt come first and are the same for every question of a kind,
// then the shared context (the server's tools, say), then the question's
// own text. A breakpoint closes the system prompt and another the shared
// context, so that every later question of the run reads both from the
// cache; a prefix shorter than the model's minimum is simply not cached.
func (d *dialect) Request(q judge.Question, schema json.RawMessage) any {
	req := d.request
	if q.System != "" {
		req.System = []block{{Type: "text", Text: q.System, CacheControl: ephemeral}}
	}
	var content []block
	if q.Context != "" {
		content = append(content, block{Type: "text", Text: q.Context, CacheControl: ephemeral})
	}
	if q.User != "" || len(content) == 0 {
		content = append(content, block{Type: "text", Text: q.User})
	}
	req.Messages = []message{{Role: "user", Content: content}}
	req.Tools = []tool{{Name: ToolName, Description: toolDescription, InputSchema: schema}}
	req.ToolChoice = toolChoice{Type: "tool", Name: ToolName}
	return req
}
