package anthropic

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/internal/httpjudge"
)

// request is a Messages API request body.
type request struct {
	Model       string     `json:"model"`
	MaxTokens   int64      `json:"max_tokens"`
	System      string     `json:"system,omitempty"`
	Messages    []message  `json:"messages"`
	Tools       []tool     `json:"tools"`
	ToolChoice  toolChoice `json:"tool_choice"`
	Temperature *float64   `json:"temperature,omitempty"`
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

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
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
	Error *apiError `json:"error"`
}

type apiError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// answer reads a successful reply.
func (c *config) answer(body []byte) (judge.Answer, error) {
	unreadable := func(format string, args ...any) (judge.Answer, error) {
		return judge.Answer{}, &judge.UnreadableError{Msg: c.client.Redact(fmt.Sprintf(format, args...))}
	}
	var r response
	if err := json.Unmarshal(body, &r); err != nil {
		return unreadable("the reply from %s is not a message (%v); it begins %s", c.client.Host, err, c.client.Snippet(body))
	}
	if r.Type == "error" && r.Error != nil {
		return unreadable("the reply from %s holds an error instead of an answer: %s [%s]", c.client.Host, r.Error.Message, r.Error.Type)
	}
	if r.Type != "" && r.Type != "message" {
		return unreadable("the reply from %s is not a message (type %q); it begins %s", c.client.Host, r.Type, c.client.Snippet(body))
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
		return unreadable("the reply was cut off at max_tokens (%d) before the answer was complete; raise the judge's max_tokens option", c.request.MaxTokens)
	case "refusal":
		return unreadable("the model refused to answer%s", wrote)
	}
	for _, b := range r.Content {
		if b.Type != "tool_use" || b.Name != ToolName {
			continue
		}
		var input bytes.Buffer
		if len(b.Input) == 0 || string(b.Input) == "null" || json.Compact(&input, b.Input) != nil {
			return unreadable("the model called the %s tool without an input", ToolName)
		}
		a := judge.Answer{JSON: input.Bytes(), Model: r.Model}
		if a.Model == "" {
			a.Model = c.request.Model
		}
		if r.Usage != nil {
			a.Tokens = judge.Tokens{Input: r.Usage.InputTokens, Output: r.Usage.OutputTokens}
		}
		return a, nil
	}
	return unreadable("the reply holds no call of the %s tool (stop_reason %q)%s", ToolName, r.StopReason, wrote)
}

// failure reads an error reply, {"type": "error", "error": {"type",
// "message"}}.
func (c *config) failure(r *httpjudge.Reply) httpjudge.Failure {
	f := httpjudge.Failure{Status: r.Status, Header: r.Header}
	var body struct {
		Error json.RawMessage `json:"error"`
	}
	var e apiError
	switch {
	case len(bytes.TrimSpace(r.Body)) == 0:
		// An empty body says nothing beyond the status.
	case json.Unmarshal(r.Body, &body) != nil:
		f.Message = "the body is not JSON; it begins " + c.client.Snippet(r.Body)
	case json.Unmarshal(body.Error, &e) == nil:
		f.Message, f.Code = e.Message, e.Type
	case json.Unmarshal(body.Error, &f.Message) != nil:
		f.Message = "the body holds no error message; it begins " + c.client.Snippet(r.Body)
	}
	switch r.Status {
	case http.StatusBadRequest:
		f.Hint = "check the model and the judge's options"
	case http.StatusUnauthorized:
		if c.keySent {
			f.Hint = "check the key in " + c.keyEnv
		} else {
			f.Hint = "the server wants a key: set " + c.keyEnv + " (or name another variable with the api_key_env option)"
		}
	case http.StatusForbidden:
		f.Hint = fmt.Sprintf("the key in %s may not use model %q: check its workspace and permissions", c.keyEnv, c.request.Model)
	case http.StatusNotFound:
		f.Hint = fmt.Sprintf("check the model name %q and the base URL %s", c.request.Model, c.baseURL)
	case http.StatusRequestEntityTooLarge:
		f.Hint = "the question is too long for the API"
	}
	return f
}
