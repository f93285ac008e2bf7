// Package anthropic is the judge that asks Anthropic's Messages API. It
// offers the model one tool, "answer", whose input schema is the
// question's answer schema, and makes the model call it: the tool call's
// input is the answer. The engine validates it and asks again when it
// must.
//
// Options (judge.Config.Options, all optional strings):
//
//	base_url     the API's base URL, without /v1 (default https://api.anthropic.com)
//	temperature  sampling temperature, sent only when given
//	max_tokens   the reply's token limit (default 4096)
//	timeout      per request, as a Go duration (default 2m)
//	api_key_env  the variable holding the key (default ANTHROPIC_API_KEY)
//
// The key is needed unless base_url names another server (a proxy or
// gateway that holds its own).
package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/internal/httpjudge"
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

// optionKeys are the options Configure accepts.
var optionKeys = []string{"base_url", "temperature", "max_tokens", "timeout", "api_key_env"}

// Judge asks the Messages API. It is safe for concurrent use; Configure
// must come before Ask.
type Judge struct {
	http *http.Client
	cfg  atomic.Pointer[config]
}

// config is what Configure settles; Ask only reads it.
type config struct {
	id      judge.Identity
	client  *httpjudge.Client
	url     string
	header  http.Header
	keyEnv  string
	keySent bool
	baseURL string
	request request
}

// New returns an unconfigured judge.
func New() *Judge { return &Judge{http: httpjudge.NewHTTPClient()} }

// Describe returns the judge's identity before a model is chosen.
func (j *Judge) Describe(context.Context) (judge.Identity, error) {
	return judge.Identity{Plugin: Name, Version: Version, Provider: Name}, nil
}

// Configure checks the model and options, reads the key from the
// environment, and returns the identity the judge answers under: its
// provider is "anthropic" for the hosted API, else the base URL's host,
// and its parameters are the sampling options given.
func (j *Judge) Configure(_ context.Context, c judge.Config) (judge.Identity, error) {
	model := strings.TrimSpace(c.Model)
	if model == "" {
		return judge.Identity{}, errors.New("the anthropic judge needs a model: pass --model or set judge.model")
	}
	o, err := httpjudge.NewOptions(Name, c.Options, optionKeys...)
	if err != nil {
		return judge.Identity{}, err
	}
	base, err := o.BaseURL("base_url", DefaultBaseURL)
	if err != nil {
		return judge.Identity{}, err
	}
	hosted := base.Scheme == "https" && strings.EqualFold(base.Host, "api.anthropic.com") && base.Path == ""
	cfg := &config{baseURL: base.String(), request: request{Model: model, MaxTokens: DefaultMaxTokens}}
	params := map[string]any{}
	if t, ok, err := o.Float("temperature"); err != nil {
		return judge.Identity{}, err
	} else if ok {
		cfg.request.Temperature = &t
		params["temperature"] = t
	}
	if n, ok, err := o.Int("max_tokens", 1); err != nil {
		return judge.Identity{}, err
	} else if ok {
		cfg.request.MaxTokens = n
		params["max_tokens"] = n
	}
	timeout, err := o.Duration("timeout", httpjudge.DefaultTimeout)
	if err != nil {
		return judge.Identity{}, err
	}
	if cfg.keyEnv, err = o.EnvName("api_key_env", DefaultKeyEnv); err != nil {
		return judge.Identity{}, err
	}
	// Only a base URL of the user's choosing may do without a key.
	key, err := httpjudge.APIKey(Name, cfg.keyEnv, base.Host, hosted, o.Given("api_key_env"))
	if err != nil {
		return judge.Identity{}, err
	}
	cfg.header = http.Header{
		"User-Agent":        {"rubric-judge-" + Name + "/" + Version},
		"Anthropic-Version": {APIVersion},
	}
	if key != "" {
		cfg.header.Set("X-Api-Key", key)
		cfg.keySent = true
	}
	cfg.url = cfg.baseURL + "/v1/messages"
	cfg.client = &httpjudge.Client{HTTP: j.http, Host: base.Host, Timeout: timeout, Secrets: []string{key}}
	provider := base.Host
	if hosted {
		provider = Name
	}
	cfg.id = judge.Identity{Plugin: Name, Version: Version, Provider: provider, Model: model}
	if len(params) > 0 {
		cfg.id.Params = params
	}
	j.cfg.Store(cfg)
	return cfg.id, nil
}

// Ask sends one question as a message that must be answered by calling
// the answer tool, and returns the call's input as the answer, with the
// model the API says answered and the tokens it counted.
func (j *Judge) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	c := j.cfg.Load()
	if c == nil {
		return judge.Answer{}, errors.New("the anthropic judge was asked a question before it was configured")
	}
	schema := strings.TrimSpace(string(q.AnswerSchema))
	if !json.Valid([]byte(schema)) {
		return judge.Answer{}, fmt.Errorf("the question %s about %q has an answer schema that is not JSON", q.Kind, q.Subject)
	}
	req := c.request
	req.System = q.System
	req.Messages = []message{{Role: "user", Content: q.User}}
	req.Tools = []tool{{Name: ToolName, Description: toolDescription, InputSchema: json.RawMessage(schema)}}
	req.ToolChoice = toolChoice{Type: "tool", Name: ToolName}
	r, err := c.client.Post(ctx, c.url, c.header, req)
	if err != nil {
		return judge.Answer{}, err
	}
	if !r.OK() {
		return judge.Answer{}, c.client.Refused(c.failure(r))
	}
	return c.answer(r.Body)
}
