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
