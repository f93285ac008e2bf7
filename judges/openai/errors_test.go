package openai_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/judges/internal/httpjudge/judgetest"
)

func TestErrorReplies(t *testing.T) {
	httpDate := judgetest.HTTPDate(30 * time.Second)
	suite.RunErrorReplies(t, map[string]string{"max_tokens": "64"}, []judgetest.ErrorCase{
		{Name: "429 with Retry-After seconds", Status: 429, Header: http.Header{"Retry-After": {"2"}}, Body: judgetest.Fixture(t, "error_429_rate.json"),
			Kind: judgetest.Wait, Wait: 2 * time.Second, Says: []string{"429 Too Many Requests", "Rate limit reached for gpt-4o", "[rate_limit_exceeded]"}},
		{Name: "429 with retry-after-ms", Status: 429, Header: http.Header{"Retry-After": {"2"}, "Retry-After-Ms": {"1720"}}, Body: judgetest.Fixture(t, "error_429_rate.json"),
			Kind: judgetest.Wait, Wait: 1720 * time.Millisecond},
		{Name: "429 with an HTTP date", Status: 429, Header: http.Header{"Retry-After": {httpDate}}, Body: judgetest.Fixture(t, "error_429_rate.json"),
			Kind: judgetest.Wait, Wait: 30 * time.Second},
		{Name: "429 without a wait", Status: 429, Body: judgetest.Fixture(t, "error_429_rate.json"),
			Kind: judgetest.Wait, Wait: 0},
		{Name: "429 quota used up", Status: 429, Body: judgetest.Fixture(t, "error_429_quota.json"),
			Kind: judgetest.Stop, Says: []string{"You exceeded your current quota", "[insufficient_quota]", "check its plan and billing"}},
		{Name: "500", Status: 500, Body: judgetest.Fixture(t, "error_500.json"),
			Kind: judgetest.Wait, Wait: 0, Says: []string{"500 Internal Server Error", "The server had an error"}},
		{Name: "502 from a gateway", Status: 502, Header: http.Header{"Content-Type": {"text/html"}}, Body: judgetest.Fixture(t, "error_502_gateway.html"),
			Kind: judgetest.Wait, Says: []string{"502 Bad Gateway", "not JSON"}},
		{Name: "503", Status: 503, Header: http.Header{"Retry-After": {"5"}}, Body: judgetest.Fixture(t, "error_500.json"),
			Kind: judgetest.Wait, Wait: 5 * time.Second},
		{Name: "504", Status: 504, Body: judgetest.Fixture(t, "error_500.json"), Kind: judgetest.Wait},
		{Name: "400 schema refused", Status: 400, Body: judgetest.Fixture(t, "error_400_schema.json"),
			Kind: judgetest.Stop, Says: []string{"400 Bad Request", "'additionalProperties' is required", "a server without structured outputs needs response_format json_object or none: give it with --judge-option response_format=json_object (or in --judge openai:response_format=json_object)"}},
		{Name: "400 from vLLM", Status: 400, Body: judgetest.Fixture(t, "error_400_vllm.json"),
			Kind: judgetest.Stop, Says: []string{"maximum context length is 8192 tokens", "[BadRequestError]"}},
		{Name: "401", Status: 401, Body: judgetest.Fixture(t, "error_401.json"),
			Kind: judgetest.Stop, Says: []string{"401 Unauthorized", "Incorrect API key provided", "[invalid_api_key]", "check the key in " + keyEnv}},
		{Name: "401 echoing the key", Status: 401, Body: []byte(`{"error":{"message":"Incorrect API key provided: ` + testKey + `.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`),
			Kind: judgetest.Stop, Says: []string{"Incorrect API key provided: [redacted]"}},
		{Name: "403", Status: 403, Body: []byte(`{"error":{"message":"Project proj_abc does not have access to model gpt-4o","type":"invalid_request_error","param":null,"code":"model_not_found"}}`),
			Kind: judgetest.Stop, Says: []string{"403 Forbidden", "does not have access", "may not use model \"gpt-4o\""}},
		{Name: "404 model", Status: 404, Body: judgetest.Fixture(t, "error_404_model.json"),
			Kind: judgetest.Stop, Says: []string{"404 Not Found", "The model `gpt-4o-nope` does not exist", `check the model name "gpt-4o" (--model) and the base URL http://`, "(--base-url (or base_url=URL in --judge-option or in --judge NAME:base_url=URL))"}},
		{Name: "404 from Ollama", Status: 404, Body: judgetest.Fixture(t, "error_404_ollama.json"),
			Kind: judgetest.Stop, Says: []string{`model "llama3.3" not found, try pulling it first`}},
		{Name: "404 without a body", Status: 404, Body: nil,
			Kind: judgetest.Stop, Says: []string{"404 Not Found; check the model name"}},
		{Name: "200 malformed envelope", Status: 200, Body: []byte(`{"id":"chatcmpl-1","object":"chat.completion","choices":[{"index":0,`),
			Kind: judgetest.AskAgain, Says: []string{"not a chat completion", `begins "{\"id\":\"chatcmpl-1\"`}},
		{Name: "200 not JSON", Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: judgetest.Fixture(t, "error_502_gateway.html"),
			Kind: judgetest.AskAgain, Says: []string{"not a chat completion"}},
		{Name: "200 empty content", Status: 200, Body: judgetest.Fixture(t, "completion_empty.json"),
			Kind: judgetest.AskAgain, Says: []string{"no content"}},
		{Name: "200 no choices", Status: 200, Body: judgetest.Fixture(t, "completion_no_choices.json"),
			Kind: judgetest.AskAgain, Says: []string{"no choices"}},
		{Name: "200 holding an error", Status: 200, Body: judgetest.Fixture(t, "error_500.json"),
			Kind: judgetest.AskAgain, Says: []string{"holds an error instead of an answer", "The server had an error"}},
		{Name: "200 refusal", Status: 200, Body: judgetest.Fixture(t, "completion_refusal.json"),
			Kind: judgetest.AskAgain, Says: []string{"the model refused to answer: I'm sorry, I can't help with that request."}},
		{Name: "200 cut off", Status: 200, Body: judgetest.Fixture(t, "completion_length.json"),
			Kind: judgetest.AskAgain, Says: []string{"cut off at max_tokens (64)", "raise the judge's limit with --judge-option max_tokens=N (or in --judge openai:max_tokens=N)"}},
	})
}
