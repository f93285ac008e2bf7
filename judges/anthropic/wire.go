package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/internal/httpjudge"
	"github.com/rubricmcp/rubric/judges/internal/judgeopt"
)

// request is a Messages API request body.
type request struct {
	Model       string     `json:"model"`
	MaxTokens   int64      `json:"max_tokens"`
	System      []block    `json:"system,omitempty"`
	Messages    []message  `json:"messages"`
	Tools       []tool     `json:"tools"`
	ToolChoice  toolChoice `json:"tool_choice"`
	Temperature *float64   `json:"temperature,omitempty"`
}

type message struct {
	Role    string  `json:"role"`
	Content []block `json:"content"`
}

// block is a text content block; CacheControl marks the end of a prefix
// the API is to keep in its prompt cache.
type block struct {
	Type         string        `json:"type"`
	Text         string        `json:"text"`
	CacheControl *cacheControl `json:"cache_control,omitempty"`
}

type cacheControl struct {
	Type string `json:"type"`
}

// ephemeral is the API's (five-minute) prompt cache.
var ephemeral = &cacheControl{Type: "ephemeral"}

type tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

type toolChoice struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

// response is the part of a Messages API reply the judge reads.
type response struct {
	Type       string `json:"type"`
	Model      string `json:"model"`
	StopReason string `json:"stop_reason"`
	Content    []struct {
		Type  string          `json:"type"`
		Name  string          `json:"name"`
		Text  string          `json:"text"`
		Input json.RawMessage `json:"input"`
	} `json:"content"`
	Usage *struct {
		// InputTokens are the input tokens after the last cache
		// breakpoint: neither read from the cache nor written to it.
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
		// CacheReadInputTokens were read from the prompt cache;
		// CacheCreationInputTokens were written to it.
		CacheReadInputTokens     int `json:"cache_read_input_tokens"`
		CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	} `json:"usage"`
	Error *apiError `json:"error"`
}

type apiError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// Answer reads a successful reply: the input of the answer tool's call.
func (d *dialect) Answer(e *httpjudge.Endpoint, body []byte) (judge.Answer, error) {
	var r response
	if err := json.Unmarshal(body, &r); err != nil {
		return judge.Answer{}, e.Unreadable("the reply from %s is not a message (%v); it begins %s", e.Client.Host, err, e.Client.Snippet(body))
	}
	if r.Type == "error" && r.Error != nil {
		return judge.Answer{}, e.Unreadable("the reply from %s holds an error instead of an answer: %s [%s]", e.Client.Host, r.Error.Message, r.Error.Type)
	}
	if r.Type != "" && r.Type != "message" {
		return judge.Answer{}, e.Unreadable("the reply from %s is not a message (type %q); it begins %s", e.Client.Host, r.Type, e.Client.Snippet(body))
	}
	var text []string
	for _, b := range r.Content {
		if b.Type == "text" && strings.TrimSpace(b.Text) != "" {
			text = append(text, strings.TrimSpace(b.Text))
		}
	}
	wrote := ""
	if len(text) > 0 {
		wrote = fmt.Sprintf("; it wrote %q", strings.Join(text, " "))
	}
	switch r.StopReason {
	case "max_tokens":
		return judge.Answer{}, e.Unreadable("the reply was cut off at max_tokens (%d) before the answer was complete; raise the judge's limit with %s", d.request.MaxTokens, judgeopt.Setting(Name, "max_tokens", "N"))
	case "refusal":
		return judge.Answer{}, e.Unreadable("the model refused to answer%s", wrote)
	}
	for _, b := range r.Content {
		if b.Type != "tool_use" || b.Name != ToolName {
			continue
		}
		var input bytes.Buffer
		if len(b.Input) == 0 || string(b.Input) == "null" || json.Compact(&input, b.Input) != nil {
			return judge.Answer{}, e.Unreadable("the model called the %s tool without an input", ToolName)
		}
		a := judge.Answer{JSON: input.Bytes(), Model: r.Model}
		if r.Usage != nil {
			u := r.Usage
			a.Tokens = judge.Tokens{
				Input:  u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens,
				Output: u.OutputTokens, Cached: u.CacheReadInputTokens,
			}
		}
		return a, nil
	}
	return judge.Answer{}, e.Unreadable("the reply holds no call of the %s tool (stop_reason %q)%s", ToolName, r.StopReason, wrote)
}

// Failure reads an error reply, {"type": "error", "error": {"type",
// "message"}}.
func (d *dialect) Failure(e *httpjudge.Endpoint, r *httpjudge.Reply) httpjudge.Failure {
	f := e.Failure(r, func(b []byte) (msg, code string, ok bool) {
		var body struct {
			Error json.RawMessage `json:"error"`
		}
		if json.Unmarshal(b, &body) != nil {
			return "", "", false
		}
		var ae apiError
		if json.Unmarshal(body.Error, &ae) == nil {
			return ae.Message, ae.Type, true
		}
		if json.Unmarshal(body.Error, &msg) != nil {
			msg = "the body holds no error message; it begins " + e.Client.Snippet(b)
		}
		return msg, "", true
	})
	switch r.Status {
	case http.StatusForbidden:
		f.Hint = fmt.Sprintf("the key in %s may not use model %q: check its workspace and permissions", e.KeyEnv, e.Model)
	case http.StatusRequestEntityTooLarge:
		f.Hint = "the question is too long for the API"
	}
	return f
}
