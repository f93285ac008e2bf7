package openai

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/internal/httpjudge"
	"github.com/rubricmcp/rubric/judges/internal/judgeopt"
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
		// PromptTokensDetails says how many of the prompt's tokens the
		// API read from its prompt cache (the prefix it had seen).
		PromptTokensDetails *struct {
			CachedTokens int `json:"cached_tokens"`
		} `json:"prompt_tokens_details"`
	} `json:"usage"`
	// Error is set by the few servers that report a failure with a
	// success status.
	Error json.RawMessage `json:"error"`
}

// Answer reads a successful reply: the first choice's text.
func (d *dialect) Answer(e *httpjudge.Endpoint, body []byte) (judge.Answer, error) {
	var r response
	if err := json.Unmarshal(body, &r); err != nil {
		return judge.Answer{}, e.Unreadable("the reply from %s is not a chat completion (%v); it begins %s", e.Client.Host, err, e.Client.Snippet(body))
	}
	if len(r.Choices) == 0 {
		if msg, code := errorMessage(r.Error); msg != "" || code != "" {
			return judge.Answer{}, e.Unreadable("the reply from %s holds an error instead of an answer: %s [%s]", e.Client.Host, msg, code)
		}
		return judge.Answer{}, e.Unreadable("the reply from %s has no choices; it begins %s", e.Client.Host, e.Client.Snippet(body))
	}
	ch := r.Choices[0]
	if ch.Message == nil {
		return judge.Answer{}, e.Unreadable("the reply from %s has a choice without a message", e.Client.Host)
	}
	if ch.Message.Refusal != nil && strings.TrimSpace(*ch.Message.Refusal) != "" {
		return judge.Answer{}, e.Unreadable("the model refused to answer: %s", strings.TrimSpace(*ch.Message.Refusal))
	}
	switch ch.FinishReason {
	case "length":
		limit := "the model's own token limit"
		if d.maxTokens > 0 {
			limit = fmt.Sprintf("max_tokens (%d)", d.maxTokens)
		}
		return judge.Answer{}, e.Unreadable("the reply was cut off at %s before the answer was complete; raise the judge's limit with %s", limit, judgeopt.Setting(Name, "max_tokens", "N"))
	case "content_filter":
		return judge.Answer{}, e.Unreadable("the provider's content filter withheld the reply")
	}
	if ch.Message.Content == nil || strings.TrimSpace(*ch.Message.Content) == "" {
		return judge.Answer{}, e.Unreadable("the reply's message has no content (finish_reason %q)", ch.FinishReason)
	}
	a := judge.Answer{JSON: []byte(*ch.Message.Content), Model: r.Model}
	if r.Usage != nil {
		a.Tokens = judge.Tokens{Input: r.Usage.PromptTokens, Output: r.Usage.CompletionTokens}
		if d := r.Usage.PromptTokensDetails; d != nil && d.CachedTokens > 0 && d.CachedTokens <= r.Usage.PromptTokens {
			a.Tokens.Cached = d.CachedTokens
		}
	}
	return a, nil
}

// Failure reads an error reply: the OpenAI shape {"error": {"message",
// "type", "code"}}, the bare {"error": "..."} some servers send, or vLLM's
// older {"object": "error", "message", "type"}.
func (d *dialect) Failure(e *httpjudge.Endpoint, r *httpjudge.Reply) httpjudge.Failure {
	f := e.Failure(r, func(b []byte) (msg, code string, ok bool) {
		var body struct {
			Error   json.RawMessage `json:"error"`
			Message string          `json:"message"`
			Type    string          `json:"type"`
		}
		if json.Unmarshal(b, &body) != nil {
			return "", "", false
		}
		if msg, code = errorMessage(body.Error); msg == "" && code == "" {
			msg, code = body.Message, body.Type
		}
		return msg, code, true
	})
	switch r.Status {
	case http.StatusBadRequest:
		if d.format == FormatJSONSchema {
			f.Hint += "; a server without structured outputs needs response_format json_object or none: give it with " + judgeopt.Setting(Name, "response_format", FormatJSONObject)
		}
	case http.StatusForbidden:
		f.Hint = fmt.Sprintf("the key in %s may not use model %q: check its project and permissions", e.KeyEnv, e.Model)
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
