package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// fakeLLMCmd is "fakellm [-model M] [-limit N] [-garbage N] [-hold-after N]": it serves,
// in the background of the script, the shapes of the OpenAI chat
// completions and Anthropic messages APIs, answering TDQS questions with
// fixed scores, and sets LLM to its base URL. The first -limit requests
// are refused with 429 and retry-after-ms, the next -garbage get an answer
// that is not JSON; with -hold-after, the requests after the first N wait
// while a file named hold exists. A judge plugin under test talks to it
// over real HTTP.
func fakeLLMCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("usage: fakellm [-model M] [-limit N] [-garbage N] [-hold-after N] [-answered FILE]")
	}
	fs := flag.NewFlagSet("fakellm", flag.ContinueOnError)
	model := fs.String("model", "gpt-test-2025-01-01", "the model the answers name")
	limit := fs.Int("limit", 0, "requests refused with 429 first")
	garbage := fs.Int("garbage", 0, "requests then answered with text that is not JSON")
	holdAfter := fs.Int("hold-after", 0, "requests answered before the rest wait while the file hold exists")
	answeredFile := fs.String("answered", "", "a file that holds the number of requests answered so far")
	if err := fs.Parse(args); err != nil {
		ts.Fatalf("fakellm: %v", err)
	}
	hold := ts.MkAbs("hold")
	var mu sync.Mutex
	n, answered := 0, 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		n++
		call := n
		mu.Unlock()
		if *holdAfter > 0 && call > *holdAfter {
			// The file held tells the script a request is being held.
			if f, err := os.OpenFile(ts.MkAbs("held"), os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
				f.Close()
			}
			for {
				if _, err := os.Stat(hold); err != nil {
					break
				}
				select {
				case <-r.Context().Done():
					// The file dropped tells the script the held
					// request's client has gone, unanswered.
					if f, err := os.OpenFile(ts.MkAbs("dropped"), os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
						f.Close()
					}
					return
				case <-time.After(20 * time.Millisecond):
				}
			}
		}
		if call <= *limit {
			w.Header().Set("retry-after-ms", "20")
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"error": {"message": "Rate limit reached for requests", "type": "requests", "code": "rate_limit_exceeded"}}`)
			return
		}
		answer := toolAnswer
		if strings.Contains(string(body), "You grade the tools of one MCP server") {
			answer = coherenceAnswer
		}
		if call <= *limit+*garbage {
			answer = "Sure! Here is my assessment: the tool is fine."
		}
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/v1/chat/completions":
			content, _ := json.Marshal(answer)
			fmt.Fprintf(w, `{"id": "chatcmpl-1", "object": "chat.completion", "created": 1741570283, "model": %q,
				"choices": [{"index": 0, "message": {"role": "assistant", "content": %s, "refusal": null}, "finish_reason": "stop"}],
				"usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}}`, *model, content)
		case "/v1/messages":
			input := answer
			if !json.Valid([]byte(input)) {
				input, _ = func() (string, error) {
					b, err := json.Marshal(map[string]string{"text": answer})
					return string(b), err
				}()
			}
			fmt.Fprintf(w, `{"id": "msg_1", "type": "message", "role": "assistant", "model": %q,
				"content": [{"type": "tool_use", "id": "toolu_1", "name": "answer", "input": %s}],
				"stop_reason": "tool_use", "stop_sequence": null,
				"usage": {"input_tokens": 100, "output_tokens": 20}}`, *model, input)
		default:
			http.NotFound(w, r)
			return
		}
		if *answeredFile != "" {
			mu.Lock()
			answered++
			_ = os.WriteFile(ts.MkAbs(*answeredFile), []byte(fmt.Sprintf("%d\n", answered)), 0o644)
			mu.Unlock()
		}
	}))
	ts.Defer(srv.Close)
	ts.Setenv("LLM", srv.URL+"/v1")
	ts.Setenv("LLM_HOST", srv.URL)
}

func rated(score int, dims ...string) string {
	parts := make([]string, len(dims))
	for i, d := range dims {
		parts[i] = fmt.Sprintf(`%q: {"score": %d, "justification": "Fixed by the fake model."}`, d, score)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

var (
	toolAnswer = `{"scores": ` + rated(3, "purpose_clarity", "usage_guidelines", "behavioral_transparency",
		"parameter_semantics", "conciseness_structure", "contextual_completeness") +
		`, "annotation_contradiction": false, "summary": "Fixed by the fake model."}`
	coherenceAnswer = `{"scores": ` + rated(4, "disambiguation", "naming_consistency", "tool_count_appropriateness", "completeness") +
		`, "shadowing_risks": [], "summary": "Fixed by the fake model."}`
)
