package ask_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/rubric"
)

func TestPromptsByURLAreFetchedOnceAndPinned(t *testing.T) {
	const text = "Count the letters of {{ fence \"name\" .name }}."
	var served atomic.Int64
	body := text
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		fmt.Fprint(w, body)
	}))
	defer srv.Close()
	sum := sha256.Sum256([]byte(text))
	src := strings.Replace(testRubric, `user    = "How long is {{ fence \"name\" .name }}?"`,
		fmt.Sprintf(`user    = { url = "%s/user.txt", sha256 = "%s" }`, srv.URL, hex.EncodeToString(sum[:])), 1)
	load := func() *rubric.Rubric {
		r, err := rubric.Load("remote.hcl", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	store, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := load()
	if _, _, err := r.Questions[0].Render(map[string]any{"name": "x"}); err == nil {
		t.Error("a prompt that was never fetched rendered")
	}
	if err := ask.ResolvePrompts(context.Background(), r, store); err != nil {
		t.Fatal(err)
	}
	_, user, err := r.Questions[0].Render(map[string]any{"name": "abc"})
	if err != nil || !strings.HasPrefix(user, "Count the letters of [begin name ") {
		t.Fatalf("rendered %q, %v", user, err)
	}
	// A second load resolves from the cache, without the network.
	if err := ask.ResolvePrompts(context.Background(), load(), store); err != nil {
		t.Fatal(err)
	}
	if n := served.Load(); n != 1 {
		t.Errorf("the prompt was fetched %d times, want once", n)
	}
	if st, _ := store.Stats(); st.Prompts != 1 {
		t.Errorf("cache holds %d prompts", st.Prompts)
	}
	// The text changes upstream: a fresh cache fetches it and refuses it.
	body = text + " And answer 5."
	other, _ := cache.Open(t.TempDir())
	err = ask.ResolvePrompts(context.Background(), load(), other)
	if err == nil || !strings.Contains(err.Error(), "but the rubric pins "+hex.EncodeToString(sum[:])) {
		t.Errorf("a changed prompt was accepted: %v", err)
	}
	if st, _ := other.Stats(); st.Prompts != 0 {
		t.Error("a refused prompt was cached")
	}
}

// A document that publishes its prompts in fenced code blocks, with
// {placeholders}: the rubric pins the document's hash, takes each
// prompt from its block, and fills the placeholders from the input.
func TestPromptsFromBlocksOfADocument(t *testing.T) {
	doc := "# A specification\n\n```ts\nconst x = 1;\n```\n\nThe system prompt:\n\n```text\nCount the letters. Reply {\"n\": <count>}.\n```\n\n" +
		"The user prompt:\n\n```text\nNAME: {name}\nTITLE: {title | \"null\"}\n- {each line}\n- ...\n\nReply with JSON.\n```\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, doc) }))
	defer srv.Close()
	sum := sha256.Sum256([]byte(doc))
	pin := func(block int, fill bool) string {
		return fmt.Sprintf(`{ url = "%s/README.md", sha256 = "%s", block = %d, fill = %v }`, srv.URL, hex.EncodeToString(sum[:]), block, fill)
	}
	src := strings.Replace(testRubric, `system  = "Count."`, "system  = "+pin(2, false), 1)
	src = strings.Replace(src, `user    = "How long is {{ fence \"name\" .name }}?"`, "user    = "+pin(3, true), 1)
	src = strings.Replace(src, `input   = "{'name': tool.name}"`,
		`input   = "{'name': tool.name, 'title | \"null\"': 'null', '- {each line}': '- a\\n- b', '- ...': ''}"`, 1)
	r, err := rubric.Load("blocks.hcl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := ask.ResolvePrompts(context.Background(), r, nil); err != nil {
		t.Fatal(err)
	}
	system, user, err := r.Questions[0].Render(map[string]any{"name": "abc", `title | "null"`: "null", "- {each line}": "- a\n- b", "- ...": ""})
	if err != nil {
		t.Fatal(err)
	}
	if system != `Count the letters. Reply {"n": <count>}.` {
		t.Errorf("system %q", system)
	}
	if want := "NAME: abc\nTITLE: null\n- a\n- b\n\nReply with JSON."; user != want {
		t.Errorf("user\n%q\nwant\n%q", user, want)
	}
	// A block the document does not have is refused.
	bad, err := rubric.Load("bad.hcl", []byte(strings.Replace(src, pin(2, false), pin(9, false), 1)))
	if err != nil {
		t.Fatal(err)
	}
	if err := ask.ResolvePrompts(context.Background(), bad, nil); err == nil || !strings.Contains(err.Error(), "no fenced code block 9") {
		t.Errorf("block 9: %v", err)
	}
	// The block is part of the digest.
	if bad.Digest == r.Digest {
		t.Error("two blocks of one document give one digest")
	}
}

// TestPromptFetchFailures holds what a prompt that cannot be fetched
// says: what failed, once (not the URL again inside Go's own words),
// and what to do, which a rubric run offline once left out.
func TestPromptFetchFailures(t *testing.T) {
	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close() // nothing listens there any more
	missing := httptest.NewServer(http.NotFoundHandler())
	defer missing.Close()
	store, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		base  string
		store *cache.Store
		want  []string
	}{
		{"unreachable, with a cache", gone.URL, store, []string{
			`question "len": cannot fetch its prompt from ` + gone.URL + `/user.txt: dial tcp `,
			"fetched once and then read from the cache", "point --cache-dir at a cache that holds it"}},
		{"unreachable, --no-cache", gone.URL, nil, []string{
			"cannot fetch its prompt from", "or without --no-cache, which keeps it once fetched"}},
		{"not found", missing.URL, store, []string{
			`cannot fetch its prompt from ` + missing.URL + `/user.txt: HTTP 404 Not Found: check the url the rubric gives for this prompt`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			src := strings.Replace(testRubric, `user    = "How long is {{ fence \"name\" .name }}?"`,
				fmt.Sprintf(`user    = { url = "%s/user.txt", sha256 = "%064d" }`, c.base, 0), 1)
			r, err := rubric.Load("remote.hcl", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			err = ask.ResolvePrompts(context.Background(), r, c.store)
			if err == nil {
				t.Fatal("a prompt nobody served was resolved")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("the error does not say %q:\n%v", w, err)
				}
			}
			if n := strings.Count(err.Error(), c.base); n != 1 {
				t.Errorf("the error names the URL %d times, want once:\n%v", n, err)
			}
		})
	}
}
