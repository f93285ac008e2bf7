package ask_test

import (
	"context"
	"sync"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/lang"
)

// silent answers like counting but reports no tokens, as the heuristic
// and replayed answers do; it keeps the prompts it was sent.
type silent struct {
	mu   sync.Mutex
	sent map[string]judge.Question
}

func (s *silent) Ask(_ context.Context, q judge.Question) (judge.Answer, error) {
	s.mu.Lock()
	s.sent[q.Subject] = q
	s.mu.Unlock()
	return judge.Answer{JSON: []byte(`{"n": 7}`), Model: "m1"}, nil
}

func count(t *testing.T, text string) int {
	t.Helper()
	n, err := lang.CountTokens(text, ask.CountEncoding)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// An answer whose judge reported no tokens carries its prompts' and its
// answer's tokens, counted when it was asked; the cache keeps them, and an
// entry cached before they were counted has them counted when read.
func TestCountedTokens(t *testing.T) {
	r := loadRubric(t)
	store, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	j := &silent{sent: map[string]judge.Question{}}
	reqs := requests(t, r, "tool_00", "tool_01")
	obs, err := (&ask.Asker{Judge: j, Identity: identity, Rubric: r, Cache: store, CountTokens: true}).Ask(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	q := j.sent["tool_00"]
	want := judge.CountedTokens{Encoding: "o200k_base", Prompt: count(t, q.System) + count(t, q.User), Answer: count(t, `{"n":7}`)}
	if obs[0].Counted == nil || *obs[0].Counted != want {
		t.Fatalf("asked: counted %+v, want %+v", obs[0].Counted, want)
	}
	if want.Prompt == 0 || want.Answer == 0 {
		t.Fatalf("nothing counted: %+v", want)
	}

	// From the cache: the same count, without rendering anything.
	again, err := (&ask.Asker{Judge: j, Identity: identity, Rubric: r, Cache: store, CountTokens: true}).Ask(context.Background(), reqs[:1])
	if err != nil {
		t.Fatal(err)
	}
	if !again[0].Cached || again[0].Counted == nil || *again[0].Counted != want {
		t.Fatalf("cached: %+v, want counted %+v", again[0], want)
	}

	// An entry kept before counts were: counted when read.
	key := cache.Key(identity, r.Digest, r.Questions[0].Digest, reqs[1].InputHash)
	e, ok := store.Get(key)
	if !ok {
		t.Fatal("the second answer is not cached")
	}
	e.Counted, e.PromptBytes = nil, 0
	if err := store.Put(e); err != nil {
		t.Fatal(err)
	}
	old, err := (&ask.Asker{Judge: j, Identity: identity, Rubric: r, Cache: store, CountTokens: true}).Ask(context.Background(), reqs[1:])
	if err != nil {
		t.Fatal(err)
	}
	q = j.sent["tool_01"]
	want.Prompt = count(t, q.System) + count(t, q.User)
	if old[0].Counted == nil || *old[0].Counted != want || old[0].PromptBytes == 0 {
		t.Fatalf("an old entry: %+v, want counted %+v", old[0], want)
	}
}

// A judge that reports its tokens is not counted again.
func TestReportedTokensAreNotCounted(t *testing.T) {
	r := loadRubric(t)
	obs, err := (&ask.Asker{Judge: &counting{}, Identity: identity, Rubric: r, CountTokens: true}).Ask(context.Background(), requests(t, r, "tool_00"))
	if err != nil {
		t.Fatal(err)
	}
	if obs[0].Counted != nil || obs[0].Tokens.Input != 10 {
		t.Fatalf("observation %+v: want the reported tokens and no count", obs[0])
	}
}

// An asker that does not count (the rubric reads no usage) records no
// count, from the judge or from a cache entry that has one.
func TestNotCounted(t *testing.T) {
	r := loadRubric(t)
	store, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	j := &silent{sent: map[string]judge.Question{}}
	reqs := requests(t, r, "tool_00")
	if _, err := (&ask.Asker{Judge: j, Identity: identity, Rubric: r, Cache: store, CountTokens: true}).Ask(context.Background(), reqs); err != nil {
		t.Fatal(err)
	}
	for _, fresh := range []bool{false, true} {
		obs, err := (&ask.Asker{Judge: j, Identity: identity, Rubric: r, Cache: store, Fresh: fresh}).Ask(context.Background(), reqs)
		if err != nil {
			t.Fatal(err)
		}
		if obs[0].Counted != nil || obs[0].PromptBytes == 0 {
			t.Errorf("fresh %v: %+v, want prompt bytes and no count", fresh, obs[0])
		}
	}
}
