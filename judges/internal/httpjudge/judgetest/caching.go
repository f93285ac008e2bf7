package judgetest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Prompt-cache arithmetic of the fake, as OpenAI documents its automatic
// caching: a prompt shorter than CacheMinTokens is never cached, and a
// hit counts CacheMinTokens and then whole blocks of CacheBlockTokens.
const (
	CacheMinTokens   = 1024
	CacheBlockTokens = 128
	// BytesPerToken is the fake's tokenizer: one token for every four
	// bytes of prompt text, the usual rule of thumb for English.
	BytesPerToken = 4
)

// CachedTokens is what the fake reports read from its cache for a prompt
// sharing common tokens with an earlier one: nothing below
// CacheMinTokens, else common rounded down to a whole block above it.
func CachedTokens(common int) int {
	if common < CacheMinTokens {
		return 0
	}
	return CacheMinTokens + (common-CacheMinTokens)/CacheBlockTokens*CacheBlockTokens
}

// CachingProvider is a fake OpenAI-compatible chat completions endpoint
// that reports usage as the hosted API does, prompt caching included: a
// prompt's tokens are its text (the response format, then each message's
// role and content, in order) counted BytesPerToken bytes a token; its
// cached tokens are the longest prefix it shares with any prompt sent
// before, in tokens, through CachedTokens. Every reply's content is
// Content. It is safe for concurrent use.
type CachingProvider struct {
	*httptest.Server
	// Content is the answer text of every reply.
	Content string
	mu      sync.Mutex
	seen    []string // earlier prompts, sorted
	usage   Usage
}

// Usage sums what a CachingProvider reported.
type Usage struct {
	Requests, PromptTokens, CachedTokens int
}

// Uncached is the prompt tokens that were not read from the cache.
func (u Usage) Uncached() int { return u.PromptTokens - u.CachedTokens }

// ServeCaching starts a CachingProvider answering content; the test
// closes it.
func ServeCaching(t testing.TB, content string) *CachingProvider {
	t.Helper()
	p := &CachingProvider{Content: content}
	p.Server = httptest.NewServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.Close)
	return p
}

// Usage returns what the provider reported so far.
func (p *CachingProvider) Usage() Usage {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.usage
}

// chatRequest is what the fake reads of a request.
type chatRequest struct {
	Model          string          `json:"model"`
	ResponseFormat json.RawMessage `json:"response_format"`
	Messages       []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
}

func (p *CachingProvider) serve(w http.ResponseWriter, r *http.Request) {
	var req chatRequest
	b, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(b, &req); err != nil || len(req.Messages) == 0 {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"error": {"message": "not a chat completion request", "type": "invalid_request_error"}}`)
		return
	}
	var text strings.Builder
	text.Write(req.ResponseFormat)
	for _, m := range req.Messages {
		text.WriteString(m.Role + "\n" + m.Content + "\n")
	}
	prompt := text.String()
	tokens := (len(prompt) + BytesPerToken - 1) / BytesPerToken
	cached := CachedTokens(p.remember(prompt) / BytesPerToken)
	p.mu.Lock()
	p.usage.Requests++
	p.usage.PromptTokens += tokens
	p.usage.CachedTokens += cached
	p.mu.Unlock()
	content, _ := json.Marshal(p.Content)
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id": "chatcmpl-fake", "object": "chat.completion", "model": %q,
  "choices": [{"index": 0, "message": {"role": "assistant", "content": %s, "refusal": null}, "finish_reason": "stop"}],
  "usage": {"prompt_tokens": %d, "completion_tokens": 10, "total_tokens": %d,
    "prompt_tokens_details": {"cached_tokens": %d, "audio_tokens": 0}}}`,
		req.Model, content, tokens, tokens+10, cached)
}

// remember adds prompt to those seen and returns the length in bytes of
// the longest prefix it shares with one seen before. Among sorted
// strings the longest common prefix with any of them is that with a
// neighbour, so two comparisons suffice.
func (p *CachingProvider) remember(prompt string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	i := sort.SearchStrings(p.seen, prompt)
	best := 0
	for _, j := range []int{i - 1, i} {
		if j >= 0 && j < len(p.seen) {
			best = max(best, commonPrefix(p.seen[j], prompt))
		}
	}
	p.seen = append(p.seen, "")
	copy(p.seen[i+1:], p.seen[i:])
	p.seen[i] = prompt
	return best
}

func commonPrefix(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
