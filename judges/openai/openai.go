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
//	temperature      sampling temperature from 0 to 2, sent only when given
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
	"encoding/json"
	"math"
	"net/url"
	"strings"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/internal/httpjudge"
	"github.com/rubricmcp/rubric/judges/internal/judgeopt"
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

// MaxTemperature is the highest sampling temperature the Chat
// Completions API documents (its range is 0 to 2).
const MaxTemperature = 2

// optionKeys are the options Configure accepts.
var optionKeys = []string{"base_url", "temperature", "seed", "max_tokens", "timeout", "api_key_env", "response_format"}

// api is the chat completions API, as the shared judge sees it.
var api = &httpjudge.API{
	Name:           Name,
	Version:        Version,
	DefaultBaseURL: DefaultBaseURL,
	DefaultKeyEnv:  DefaultKeyEnv,
	Options:        optionKeys,
	Hosted:         hosted,
	Path:           "/chat/completions",
	KeyHeader:      "Authorization",
	KeyPrefix:      "Bearer ",
	Configure:      configure,
	Batch:          batches{},
}

// hosted says whether base is the hosted OpenAI API.
func hosted(base *url.URL) bool {
	return base.Scheme == "https" && strings.EqualFold(base.Host, "api.openai.com") && base.Path == "/v1"
}

// Judge asks a chat completions endpoint. Configure checks the model and
// options, reads the key from the environment, and returns the identity
// the judge answers under: its provider is "openai" for the hosted API,
// else the base URL's host, and its parameters are the sampling options
// given. Ask sends one question as a chat completion and returns the
// first choice's text as the answer, with the model the server says
// answered and the tokens it counted. A Judge is safe for concurrent use;
// Configure must come before Ask.
type Judge struct{ *httpjudge.Judge }

// New returns an unconfigured judge.
func New() *Judge { return &Judge{httpjudge.NewJudge(api)} }

// dialect is what Configure settles of the judge's own options; Ask only
// reads it.
type dialect struct {
	format    string
	request   request
	maxTokens int64
}

// configure reads the sampling options and response_format.
func configure(o *judgeopt.Options, model string, params map[string]any) (httpjudge.Dialect, error) {
	d := &dialect{request: request{Model: model}}
	if t, ok, err := o.Float("temperature", 0, MaxTemperature); err != nil {
		return nil, err
	} else if ok {
		d.request.Temperature = &t
		params["temperature"] = t
	}
	if s, ok, err := o.Int("seed", math.MinInt64); err != nil {
		return nil, err
	} else if ok {
		d.request.Seed = &s
		params["seed"] = s
	}
	if n, ok, err := o.Int("max_tokens", 1); err != nil {
		return nil, err
	} else if ok {
		d.request.MaxTokens = &n
		d.maxTokens = n
		params["max_tokens"] = n
	}
	var err error
	if d.format, err = o.OneOf("response_format", FormatJSONSchema, FormatJSONSchema, FormatJSONObject, FormatNone); err != nil {
		return nil, err
	}
	if d.format != FormatJSONSchema {
		// The format changes what the model is asked, so answers given
		// under another format must not share a cache entry.
		params["response_format"] = d.format
	}
	return d, nil
}

// Request builds the chat completion for a question.
func (d *dialect) Request(q judge.Question, schema json.RawMessage) any {
	req := d.request
	system := q.System
	switch d.format {
	case FormatJSONSchema:
		req.ResponseFormat = &responseFormat{Type: FormatJSONSchema, JSONSchema: &jsonSchema{Name: "answer", Schema: schema, Strict: true}}
	default:
		if d.format == FormatJSONObject {
			req.ResponseFormat = &responseFormat{Type: FormatJSONObject}
		}
		// Without structured outputs the schema reaches the model only
		// through the prompt (and json_object mode wants "JSON" said).
		system = strings.TrimSpace(system + "\n\nAnswer with one JSON object, and nothing else, that satisfies this JSON Schema:\n" + string(schema))
	}
	req.Messages = make([]message, 0, 2)
	if system != "" {
		req.Messages = append(req.Messages, message{Role: "system", Content: system})
	}
	req.Messages = append(req.Messages, message{Role: "user", Content: q.Prompt()})
	return req
}
