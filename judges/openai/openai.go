// Package openai is the judge that asks a chat completions endpoint: the
// OpenAI API, or any server that speaks its dialect (vLLM, llama.cpp,
// Ollama, hosted gateways). It asks for the answer as JSON held to the
// question's answer schema (structured outputs, or a plainer JSON mode
// for servers without them) and returns the text as the model gave it:
// the engine validates it and asks again when it must.
//
// Options (judge.Config.Options, all optional strings):
//
//	base_url         the API's base URL (default https://api.openai.com/v1)
//	temperature      sampling temperature, sent only when given
//	seed             sampling seed, sent only when given
//	max_tokens       the reply's token limit, sent only when given
//	timeout          per request, as a Go duration (default 2m)
//	api_key_env      the variable holding the key (default OPENAI_API_KEY)
//	response_format  json_schema (default), json_object or none
//
// The key is needed only for the hosted API; local servers take none. When
// the variable holds a key it is sent to whatever base_url names, so give a
// third-party endpoint its own variable with api_key_env.
package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/internal/httpjudge"
)

// The judge's name and version, as its identity gives them.
const (
	Name    = "openai"
	Version = "1.0.0"
)

// DefaultBaseURL is the hosted OpenAI API, the only base URL that needs a
// key.
const DefaultBaseURL = "https://api.openai.com/v1"

// DefaultKeyEnv is the variable the key is read from unless api_key_env
// names another.
const DefaultKeyEnv = "OPENAI_API_KEY"

// The values of the response_format option.
const (
	// FormatJSONSchema asks for structured outputs: JSON held to the
	// answer schema by the server (strict).
	FormatJSONSchema = "json_schema"
	// FormatJSONObject asks for any JSON object, for servers without
	// structured outputs; the schema goes into the system prompt.
	FormatJSONObject = "json_object"
	// FormatNone asks for no format at all, for servers that know
	// neither; the schema goes into the system prompt.
	FormatNone = "none"
)

// optionKeys are the options Configure accepts.
var optionKeys = []string{"base_url", "temperature", "seed", "max_tokens", "timeout", "api_key_env", "response_format"}

// Judge asks a chat completions endpoint. It is safe for concurrent use;
// Configure must come before Ask.
type Judge struct {
	http *http.Client
	cfg  atomic.Pointer[config]
}

// config is what Configure settles; Ask only reads it.
type config struct {
	id        judge.Identity
	client    *httpjudge.Client
	url       string
	header    http.Header
	keyEnv    string
	keySent   bool
	baseURL   string
	format    string
	request   request
	maxTokens int64
}

// New returns an unconfigured judge.
func New() *Judge { return &Judge{http: httpjudge.NewHTTPClient()} }

// Describe returns the judge's identity before a model is chosen.
func (j *Judge) Describe(context.Context) (judge.Identity, error) {
	return judge.Identity{Plugin: Name, Version: Version, Provider: Name}, nil
}

// Configure checks the model and options, reads the key from the
// environment, and returns the identity the judge answers under: its
// provider is "openai" for the hosted API, else the base URL's host, and
// its parameters are the sampling options given.
func (j *Judge) Configure(_ context.Context, c judge.Config) (judge.Identity, error) {
	model := strings.TrimSpace(c.Model)
	if model == "" {
		return judge.Identity{}, errors.New("the openai judge needs a model: pass --model or set judge.model")
	}
	o, err := httpjudge.NewOptions(Name, c.Options, optionKeys...)
	if err != nil {
		return judge.Identity{}, err
	}
	base, err := o.BaseURL("base_url", DefaultBaseURL)
	if err != nil {
		return judge.Identity{}, err
	}
	hosted := base.Scheme == "https" && strings.EqualFold(base.Host, "api.openai.com") && base.Path == "/v1"
	cfg := &config{baseURL: base.String(), request: request{Model: model}}
	params := map[string]any{}
	if t, ok, err := o.Float("temperature"); err != nil {
		return judge.Identity{}, err
	} else if ok {
		cfg.request.Temperature = &t
		params["temperature"] = t
	}
	if s, ok, err := o.Int("seed", math.MinInt64); err != nil {
		return judge.Identity{}, err
	} else if ok {
		cfg.request.Seed = &s
		params["seed"] = s
	}
	if n, ok, err := o.Int("max_tokens", 1); err != nil {
		return judge.Identity{}, err
	} else if ok {
		cfg.request.MaxTokens = &n
		cfg.maxTokens = n
		params["max_tokens"] = n
	}
	if cfg.format, err = o.OneOf("response_format", FormatJSONSchema, FormatJSONSchema, FormatJSONObject, FormatNone); err != nil {
		return judge.Identity{}, err
	}
	if cfg.format != FormatJSONSchema {
		// The format changes what the model is asked, so answers given
		// under another format must not share a cache entry.
		params["response_format"] = cfg.format
	}
	timeout, err := o.Duration("timeout", httpjudge.DefaultTimeout)
	if err != nil {
		return judge.Identity{}, err
	}
	if cfg.keyEnv, err = o.EnvName("api_key_env", DefaultKeyEnv); err != nil {
		return judge.Identity{}, err
	}
	key, err := httpjudge.APIKey(Name, cfg.keyEnv, base.Host, hosted, o.Given("api_key_env"))
	if err != nil {
		return judge.Identity{}, err
	}
	cfg.header = http.Header{"User-Agent": {"rubric-judge-" + Name + "/" + Version}}
	if key != "" {
		cfg.header.Set("Authorization", "Bearer "+key)
		cfg.keySent = true
	}
	cfg.url = cfg.baseURL + "/chat/completions"
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

// Ask sends one question as a chat completion and returns the first
// choice's text as the answer, with the model the server says answered
// and the tokens it counted.
func (j *Judge) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	c := j.cfg.Load()
	if c == nil {
		return judge.Answer{}, errors.New("the openai judge was asked a question before it was configured")
	}
	body, err := c.body(q)
	if err != nil {
		return judge.Answer{}, err
	}
	r, err := c.client.Post(ctx, c.url, c.header, body)
	if err != nil {
		return judge.Answer{}, err
	}
	if !r.OK() {
		return judge.Answer{}, c.client.Refused(c.failure(r))
	}
	return c.answer(r.Body)
}

// body builds the request for a question.
func (c *config) body(q judge.Question) (request, error) {
	schema := strings.TrimSpace(string(q.AnswerSchema))
	if !json.Valid([]byte(schema)) {
		return request{}, fmt.Errorf("the question %s about %q has an answer schema that is not JSON", q.Kind, q.Subject)
	}
	req := c.request
	system := q.System
	switch c.format {
	case FormatJSONSchema:
		req.ResponseFormat = &responseFormat{Type: FormatJSONSchema, JSONSchema: &jsonSchema{Name: "answer", Schema: json.RawMessage(schema), Strict: true}}
	default:
		if c.format == FormatJSONObject {
			req.ResponseFormat = &responseFormat{Type: FormatJSONObject}
		}
		// Without structured outputs the schema reaches the model only
		// through the prompt (and json_object mode wants "JSON" said).
		system = strings.TrimSpace(system + "\n\nAnswer with one JSON object, and nothing else, that satisfies this JSON Schema:\n" + schema)
	}
	req.Messages = make([]message, 0, 2)
	if system != "" {
		req.Messages = append(req.Messages, message{Role: "system", Content: system})
	}
	req.Messages = append(req.Messages, message{Role: "user", Content: q.User})
	return req, nil
}
