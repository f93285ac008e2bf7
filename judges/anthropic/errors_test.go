package anthropic_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/judges/internal/httpjudge/judgetest"
)

func TestErrorReplies(t *testing.T) {
	httpDate := judgetest.HTTPDate(20 * time.Second)
	suite.RunErrorReplies(t, nil, []judgetest.ErrorCase{
		{Name: "429 with retry-after seconds", Status: 429, Header: http.Header{"Retry-After": {"12"}}, Body: judgetest.Fixture(t, "error_429.json"),
			Kind: judgetest.Wait, Wait: 12 * time.Second, Says: []string{"429 Too Many Requests", "would exceed the rate limit", "[rate_limit_error]"}},
		{Name: "429 with an HTTP date", Status: 429, Header: http.Header{"Retry-After": {httpDate}}, Body: judgetest.Fixture(t, "error_429.json"),
			Kind: judgetest.Wait, Wait: 20 * time.Second},
		{Name: "529 overloaded", Status: 529, Body: judgetest.Fixture(t, "error_529.json"),
			Kind: judgetest.Wait, Wait: 0, Says: []string{"529 Overloaded: Overloaded [overloaded_error]"}},
		{Name: "529 with retry-after", Status: 529, Header: http.Header{"Retry-After": {"4"}}, Body: judgetest.Fixture(t, "error_529.json"),
			Kind: judgetest.Wait, Wait: 4 * time.Second},
		{Name: "500", Status: 500, Body: judgetest.Fixture(t, "error_500.json"),
			Kind: judgetest.Wait, Says: []string{"500 Internal Server Error: Internal server error [api_error]"}},
		{Name: "503 with a text body", Status: 503, Header: http.Header{"Content-Type": {"text/plain"}}, Body: []byte("upstream connect error or disconnect/reset before headers"),
			Kind: judgetest.Wait, Says: []string{"503 Service Unavailable", "not JSON", "upstream connect error"}},
		{Name: "400", Status: 400, Body: judgetest.Fixture(t, "error_400.json"),
			Kind: judgetest.Stop, Says: []string{"400 Bad Request", "tools.0.custom.input_schema.type: Field required", "[invalid_request_error]", "check the model (--model) and the judge's options (--judge-option)"}},
		{Name: "401", Status: 401, Body: judgetest.Fixture(t, "error_401.json"),
			Kind: judgetest.Stop, Says: []string{"401 Unauthorized: invalid x-api-key [authentication_error]", "check the key in ANTHROPIC_API_KEY"}},
		{Name: "403", Status: 403, Body: judgetest.Fixture(t, "error_403.json"),
			Kind: judgetest.Stop, Says: []string{"does not have permission", "[permission_error]", `may not use model "claude-sonnet-4-5"`}},
		{Name: "404", Status: 404, Body: judgetest.Fixture(t, "error_404.json"),
			Kind: judgetest.Stop, Says: []string{"model: claude-sonnet-9 [not_found_error]", `check the model name "claude-sonnet-4-5" (--model) and the base URL http://`, "(--base-url (or base_url=URL in --judge-option or in --judge NAME:base_url=URL))"}},
		{Name: "200 malformed envelope", Status: 200, Body: []byte(`{"id":"msg_01","type":"message","content":[{"type":"tool_use",`),
			Kind: judgetest.AskAgain, Says: []string{"not a message", `begins "{\"id\":\"msg_01\"`}},
		{Name: "200 of another type", Status: 200, Body: []byte(`{"type":"completion","completion":"{}"}`),
			Kind: judgetest.AskAgain, Says: []string{`not a message (type "completion")`}},
		{Name: "200 holding an error", Status: 200, Body: judgetest.Fixture(t, "error_529.json"),
			Kind: judgetest.AskAgain, Says: []string{"holds an error instead of an answer: Overloaded [overloaded_error]"}},
		{Name: "200 text, no tool_use", Status: 200, Body: judgetest.Fixture(t, "message_text_only.json"),
			Kind: judgetest.AskAgain, Says: []string{`no call of the answer tool (stop_reason "end_turn"); it wrote "The description is terse`}},
		{Name: "200 another tool", Status: 200, Body: judgetest.Fixture(t, "message_other_tool.json"),
			Kind: judgetest.AskAgain, Says: []string{"no call of the answer tool"}},
		{Name: "200 empty content", Status: 200, Body: judgetest.Fixture(t, "message_empty.json"),
			Kind: judgetest.AskAgain, Says: []string{"no call of the answer tool"}},
		{Name: "200 refusal", Status: 200, Body: judgetest.Fixture(t, "message_refusal.json"),
			Kind: judgetest.AskAgain, Says: []string{`the model refused to answer; it wrote "I can't help with that."`}},
		{Name: "200 cut off", Status: 200, Body: judgetest.Fixture(t, "message_max_tokens.json"),
			Kind: judgetest.AskAgain, Says: []string{"cut off at max_tokens (4096)", "raise the judge's limit with --judge-option max_tokens=N (or in --judge anthropic:max_tokens=N)"}},
	})
}
