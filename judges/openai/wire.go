package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/internal/httpjudge"
)

// request is a chat completions request body.
type request struct {
	Model          string          `json:"model"`
	Messages       []message       `json:"messages"`
	ResponseFormat *responseFormat `json:"response_format,omitempty"`
	Temperature    *float64        `json:"temperature,omitempty"`
	Seed           *int64          `json:"seed,omitempty"`
	MaxTokens      *int64          `json:"max_tokens,omitempty"`
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type responseFormat struct {
	Type       string      `json:"type"`
	JSONSchema *jsonSchema `json:"json_schema,omitempty"`
}

type jsonSchema struct {
	Name   string          `json:"name"`
	Schema json.RawMessage `json:"schema"`
	Strict bool            `json:"strict"`
}

// response is the part of a chat completion the judge reads.
type response struct {
	Model   string `json:"model"`
	Choices []struct {
		Message *struct {
			Content *string `json:"content"`
			Refusal *string `json:"refusal"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	// Error is set by the few servers that report a failure with a
	// success status.
	Error json.RawMessage `json:"error"`
}

// answer reads a successful reply.
func (c *config) answer(body []byte) (judge.Answer, error) {
	unreadable := func(format string, args ...any) (judge.Answer, error) {
		return judge.Answer{}, &judge.UnreadableError{Msg: c.client.Redact(fmt.Sprintf(format, args...))}
	}
	var r response
	if err := json.Unmarshal(body, &r); err != nil {
		return unreadable("the reply from %s is not a chat completion (%v); it begins %s", c.client.Host, err, c.client.Snippet(body))
	}
	if len(r.Choices) == 0 {
		if msg, code := errorMessage(r.Error); msg != "" || code != "" {
			return unreadable("the reply from %s holds an error instead of an answer: %s [%s]", c.client.Host, msg, code)
		}
		return unreadable("the reply from %s has no choices; it begins %s", c.client.Host, c.client.Snippet(body))
	}
	ch := r.Choices[0]
	if ch.Message == nil {
		return unreadable("the reply from %s has a choice without a message", c.client.Host)
	}
	if ch.Message.Refusal != nil && strings.TrimSpace(*ch.Message.Refusal) != "" {
		return unreadable("the model refused to answer: %s", strings.TrimSpace(*ch.Message.Refusal))
	}
	switch ch.FinishReason {
	case "length":
		limit := "the model's own token limit"
		if c.maxTokens > 0 {
			limit = fmt.Sprintf("max_tokens (%d)", c.maxTokens)
		}
		return unreadable("the reply was cut off at %s before the answer was complete; raise the judge's max_tokens option", limit)
	case "content_filter":
		return unreadable("the provider's content filter withheld the reply")
	}
	if ch.Message.Content == nil || strings.TrimSpace(*ch.Message.Content) == "" {
		return unreadable("the reply's message has no content (finish_reason %q)", ch.FinishReason)
	}
	a := judge.Answer{JSON: []byte(*ch.Message.Content), Model: r.Model}
	if a.Model == "" {
		// A few servers leave the model out; the one asked for is then
		// the best account of who answered.
		a.Model = c.request.Model
	}
	if r.Usage != nil {
		a.Tokens = judge.Tokens{Input: r.Usage.PromptTokens, Output: r.Usage.CompletionTokens}
	}
	return a, nil
}

// failure reads an error reply: the OpenAI shape {"error": {"message",
// "type", "code"}}, the bare {"error": "..."} some servers send, or vLLM's
// older {"object": "error", "message", "type"}.
func (c *config) failure(r *httpjudge.Reply) httpjudge.Failure {
	f := httpjudge.Failure{Status: r.Status, Header: r.Header}
	var body struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Type    string          `json:"type"`
	}
	switch {
	case len(bytes.TrimSpace(r.Body)) == 0:
		// An empty body says nothing beyond the status.
	case json.Unmarshal(r.Body, &body) != nil:
		f.Message = "the body is not JSON; it begins " + c.client.Snippet(r.Body)
	default:
		if f.Message, f.Code = errorMessage(body.Error); f.Message == "" && f.Code == "" {
			f.Message, f.Code = body.Message, body.Type
		}
	}
	switch r.Status {
	case http.StatusBadRequest:
		f.Hint = "check the model and the judge's options"
		if c.format == FormatJSONSchema {
			f.Hint += `; a server without structured outputs needs the option response_format = "json_object" or "none"`
		}
	case http.StatusUnauthorized:
		if c.keySent {
			f.Hint = "check the key in " + c.keyEnv
		} else {
			f.Hint = "the server wants a key: set " + c.keyEnv + " (or name another variable with the api_key_env option)"
		}
	case http.StatusForbidden:
		f.Hint = fmt.Sprintf("the key in %s may not use model %q: check its project and permissions", c.keyEnv, c.request.Model)
	case http.StatusNotFound:
		f.Hint = fmt.Sprintf("check the model name %q and the base URL %s", c.request.Model, c.baseURL)
	case http.StatusRequestEntityTooLarge:
		f.Hint = "the question is too long for this endpoint"
	case http.StatusTooManyRequests:
		if f.Code == "insufficient_quota" {
			// Waiting does not mend an exhausted quota.
			f.Final = true
			f.Hint = "the account's quota is used up: check its plan and billing"
		}
	}
	return f
}

// errorMessage reads the "error" member of an error body, an object or a
// string, as a message and a code (the code, else the type).
func errorMessage(raw json.RawMessage) (msg, code string) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s, ""
	}
	var e struct {
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	if json.Unmarshal(raw, &e) != nil {
		return "", ""
	}
	code = e.Type
	var c string
	if json.Unmarshal(e.Code, &c) == nil && c != "" {
		code = c
	}
	return e.Message, code
}
