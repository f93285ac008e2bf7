package panel

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
)

// fixed is a member judge that gives one answer to every question.
type fixed struct {
	id     judge.Identity
	answer string
	err    error
	// answered is the model the answers name; the identity's when empty.
	answered string
	tokens   judge.Tokens
	calls    int
}

func (f *fixed) Describe(context.Context) (judge.Identity, error) { return f.id, nil }
func (f *fixed) Configure(context.Context, judge.Config) (judge.Identity, error) {
	return f.id, nil
}
func (f *fixed) Ask(context.Context, judge.Question) (judge.Answer, error) {
	f.calls++
	if f.err != nil {
		return judge.Answer{}, f.err
	}
	model := f.id.Model
	if f.answered != "" {
		model = f.answered
	}
	tokens := f.tokens
	if tokens == (judge.Tokens{}) {
		tokens = judge.Tokens{Input: 10, Output: 2}
	}
	return judge.Answer{JSON: []byte(f.answer), Model: model, Tokens: tokens}, nil
}

func decode(t *testing.T, s string) any {
	t.Helper()
	var v any
	d := json.NewDecoder(stringReader(s))
	d.UseNumber()
	if err := d.Decode(&v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestCombine(t *testing.T) {
	cases := []struct {
		name    string
		answers []string
		want    string
	}{
		// Scores 2, 5, 3: the median is 3.
		{"odd median", []string{`{"score":2}`, `{"score":5}`, `{"score":3}`}, `{"score":3}`},
		// 4 and 2: the lower middle value, 2 (not 3, which no member gave).
		{"even takes the lower", []string{`{"score":4}`, `{"score":2}`}, `{"score":2}`},
		// Each dimension separately: (1,4,4) → 4, (5,2,3) → 3.
		{"per member", []string{`{"a":1,"b":5}`, `{"a":4,"b":2}`, `{"a":4,"b":3}`}, `{"a":4,"b":3}`},
		// Text: the majority; a tie goes to the earliest.
		{"text majority", []string{`{"t":"x"}`, `{"t":"y"}`, `{"t":"y"}`}, `{"t":"y"}`},
		{"text tie", []string{`{"t":"x"}`, `{"t":"y"}`}, `{"t":"x"}`},
		// Arrays of one length element by element; of different lengths,
		// the array most gave.
		{"array elementwise", []string{`[1,5]`, `[3,1]`, `[2,2]`}, `[2,2]`},
		{"array lengths differ", []string{`["a"]`, `["a","b"]`, `["a"]`}, `["a"]`},
		// A member missing from one answer is combined from the others.
		{"missing member", []string{`{"a":1}`, `{"a":3,"b":true}`, `{"a":2,"b":true}`}, `{"a":2}`},
		{"kinds differ", []string{`{"a":1}`, `{"a":"one"}`, `{"a":"one"}`}, `{"a":"one"}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var docs []any
			for _, a := range c.answers {
				docs = append(docs, decode(t, a))
			}
			got, _ := json.Marshal(Combine(docs))
			want, _ := json.Marshal(decode(t, c.want))
			if string(got) != string(want) {
				t.Errorf("Combine = %s, want %s", got, want)
			}
		})
	}
}

func TestPanelAsk(t *testing.T) {
	a := &fixed{id: judge.Identity{Plugin: "heuristic", Version: "3", Heuristic: true}, answer: `{"clarity":2,"reason":"short"}`}
	b := &fixed{id: judge.Identity{Plugin: "openai", Version: "1", Model: "m1"}, answer: `{"clarity":4,"reason":"fine"}`}
	c := &fixed{id: judge.Identity{Plugin: "openai", Version: "1", Model: "m2"}, answer: `{"clarity":5,"reason":"fine"}`}
	p, err := New(a, b, c)
	if err != nil {
		t.Fatal(err)
	}
	id, err := p.Configure(context.Background(), judge.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if id.Plugin != "panel" || id.Model != "median of heuristic, openai:m1, openai:m2" || id.Heuristic {
		t.Errorf("identity %+v", id)
	}
	if ms, _ := id.Params["members"].([]any); len(ms) != 3 {
		t.Errorf("identity members %v, want the three identities", id.Params["members"])
	}
	ans, err := p.Ask(context.Background(), judge.Question{Kind: "k", Subject: "tool"})
	if err != nil {
		t.Fatal(err)
	}
	if string(ans.JSON) != `{"clarity":4,"reason":"fine"}` {
		t.Errorf("answer %s", ans.JSON)
	}
	if ans.Tokens != (judge.Tokens{Input: 30, Output: 6}) {
		t.Errorf("tokens %+v, want the members' sum", ans.Tokens)
	}

	// Another member model is another identity.
	c.id.Model = "m3"
	id2, _ := p.Configure(context.Background(), judge.Config{})
	if id2.Model == id.Model {
		t.Error("a changed member left the panel's identity as it was")
	}

	// A member's error is the panel's, naming the member, its type kept.
	// The member before it answered, and was paid: its tokens are the
	// failed question's, so that the cost and the budget count them.
	boom := errors.New("member down")
	b.err = boom
	ans, err = p.Ask(context.Background(), judge.Question{})
	if !errors.Is(err, boom) || err.Error() != "panel member 2 (openai:m1): member down" {
		t.Errorf("error %v, want the member's, naming it", err)
	}
	if ans.Tokens != (judge.Tokens{Input: 10, Output: 2}) {
		t.Errorf("a failed question's tokens %+v, want the first member's", ans.Tokens)
	}
	b.err = &judge.RateLimitError{}
	var rl *judge.RateLimitError
	if _, err := p.Ask(context.Background(), judge.Question{}); !errors.As(err, &rl) {
		t.Errorf("error %v, want the member's rate limit", err)
	}
	// An answer that is no JSON is unreadable, so the question is retried.
	b.err, b.answer = nil, "not json"
	var u *judge.UnreadableError
	if _, err := p.Ask(context.Background(), judge.Question{}); !errors.As(err, &u) {
		t.Errorf("error %v, want an UnreadableError", err)
	}
	if _, err := New(a); err == nil {
		t.Error("a panel of one was made")
	}
}

// TestPanelAnsweredModel: a member answered by a dated snapshot of its
// pinned model (what OpenAI's API names in every answer to an alias) is
// named by the pinned id, so that the panel's answer carries the panel's
// model and its run is not refused; a member answered by another model
// is named by it, and the run refuses the answer.
func TestPanelAnsweredModel(t *testing.T) {
	for _, tc := range []struct {
		name, answered, want string
	}{
		{"same id", "gpt-4o", "median of openai:gpt-4o, anthropic:claude-sonnet-4-5"},
		{"dated snapshot", "gpt-4o-2024-08-06", "median of openai:gpt-4o, anthropic:claude-sonnet-4-5"},
		{"another model", "gpt-4o-mini-2024-07-18", "median of openai:gpt-4o-mini-2024-07-18, anthropic:claude-sonnet-4-5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := &fixed{id: judge.Identity{Plugin: "openai", Model: "gpt-4o"}, answer: `{"s":1}`, answered: tc.answered}
			b := &fixed{id: judge.Identity{Plugin: "anthropic", Model: "claude-sonnet-4-5"}, answer: `{"s":2}`, answered: "claude-sonnet-4-5-20250929"}
			p, err := New(a, b)
			if err != nil {
				t.Fatal(err)
			}
			id, err := p.Configure(context.Background(), judge.Config{})
			if err != nil {
				t.Fatal(err)
			}
			ans, err := p.Ask(context.Background(), judge.Question{})
			if err != nil {
				t.Fatal(err)
			}
			if ans.Model != tc.want {
				t.Errorf("answered by %q, want %q", ans.Model, tc.want)
			}
			if same := ans.Model == id.Model; same != (tc.name != "another model") {
				t.Errorf("answer's model %q against the panel's %q: same %v", ans.Model, id.Model, same)
			}
		})
	}
}

// TestPanelTokens: the panel's tokens are its members' sum, the input
// tokens the provider read from its prompt cache included, so that a
// panel's cost counts them at the cached price.
func TestPanelTokens(t *testing.T) {
	a := &fixed{id: judge.Identity{Plugin: "openai", Model: "m"}, answer: `{"s":1}`, tokens: judge.Tokens{Input: 1000, Output: 20, Cached: 900}}
	b := &fixed{id: judge.Identity{Plugin: "anthropic", Model: "n"}, answer: `{"s":2}`, tokens: judge.Tokens{Input: 500, Output: 10, Cached: 100}}
	p, err := New(a, b)
	if err != nil {
		t.Fatal(err)
	}
	ans, err := p.Ask(context.Background(), judge.Question{})
	if err != nil {
		t.Fatal(err)
	}
	if want := (judge.Tokens{Input: 1500, Output: 30, Cached: 1000}); ans.Tokens != want {
		t.Errorf("tokens %+v, want %+v", ans.Tokens, want)
	}
}

// TestPanelAsksAgainOnlyWhoFailed: when a member cannot answer (down,
// rate limited, unreadable), the members that did answer are not asked
// (and paid) again when the question is asked again: their answers are
// held for it, and only the member without one is asked.
func TestPanelAsksAgainOnlyWhoFailed(t *testing.T) {
	a := &fixed{id: judge.Identity{Plugin: "openai", Model: "m1"}, answer: `{"s":1}`}
	b := &fixed{id: judge.Identity{Plugin: "openai", Model: "m2"}, answer: `{"s":3}`, err: &judge.RateLimitError{}}
	c := &fixed{id: judge.Identity{Plugin: "openai", Model: "m3"}, answer: "not json"}
	p, err := New(a, b, c)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Configure(context.Background(), judge.Config{}); err != nil {
		t.Fatal(err)
	}
	q := judge.Question{Kind: "k", Subject: "tool", User: "rate it"}
	var rl *judge.RateLimitError
	if _, err := p.Ask(context.Background(), q); !errors.As(err, &rl) {
		t.Fatalf("error %v, want b's rate limit", err)
	}
	// b answers now; c's answer is no JSON.
	b.err = nil
	var u *judge.UnreadableError
	ans, err := p.Ask(context.Background(), q)
	if !errors.As(err, &u) {
		t.Fatalf("error %v, want c's unreadable answer", err)
	}
	if ans.Tokens != (judge.Tokens{Input: 20, Output: 4}) {
		t.Errorf("second ask's tokens %+v, want b's and c's alone", ans.Tokens)
	}
	// Another question is asked of every member afresh.
	c.answer = `{"s":2}`
	if _, err := p.Ask(context.Background(), judge.Question{Kind: "k", Subject: "other"}); err != nil {
		t.Fatal(err)
	}
	ans, err = p.Ask(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if string(ans.JSON) != `{"s":2}` || ans.Tokens != (judge.Tokens{Input: 10, Output: 2}) {
		t.Errorf("third ask: %s, %+v; want the median of all three and c's tokens alone", ans.JSON, ans.Tokens)
	}
	if got := []int{a.calls, b.calls, c.calls}; !slices.Equal(got, []int{2, 3, 3}) {
		t.Errorf("calls %v, want a asked once for each question, b and c again only while they failed", got)
	}
	// Answered: the held answers are gone, and the next ask asks all.
	if _, err := p.Ask(context.Background(), q); err != nil || a.calls != 3 {
		t.Errorf("an answered question asked again: %v, a asked %d times", err, a.calls)
	}
}

func stringReader(s string) *strings.Reader { return strings.NewReader(s) }

func TestMembers(t *testing.T) {
	for _, tc := range []struct {
		ref  string
		want []string
		ok   bool
	}{
		{"heuristic", nil, false},
		{"openai:model=m", nil, false},
		{"panel:heuristic,heuristic", []string{"heuristic", "heuristic"}, true},
		{"panel: heuristic , ./judges/mine ", []string{"heuristic", "./judges/mine"}, true},
		// Each member's settings stay with it: an item with '=' before any
		// ':' continues the member before it.
		{"panel:openai:model=a,base_url=http://127.0.0.1:1/v1,temperature=0,anthropic:model=b,heuristic",
			[]string{"openai:model=a,base_url=http://127.0.0.1:1/v1,temperature=0", "anthropic:model=b", "heuristic"}, true},
		{"panel:replay:answers=a.jsonl,replay:answers=b.jsonl", []string{"replay:answers=a.jsonl", "replay:answers=b.jsonl"}, true},
		// A setting after a member named without settings is not its: it
		// stays an item of its own, which names no judge.
		{"panel:heuristic,seed=7", []string{"heuristic", "seed=7"}, true},
	} {
		got, ok := Members(tc.ref)
		if ok != tc.ok || !slices.Equal(got, tc.want) {
			t.Errorf("Members(%q) = %q, %v; want %q, %v", tc.ref, got, ok, tc.want, tc.ok)
		}
	}
}

// mapMemo is a Memo over a map by member model and subject.
type mapMemo struct {
	kept map[string]string
	put  []string
}

func (m *mapMemo) Get(_ context.Context, id judge.Identity, q judge.Question) (judge.Answer, bool) {
	a, ok := m.kept[id.Model+" "+q.Subject]
	return judge.Answer{JSON: []byte(a), Model: id.Model}, ok
}

func (m *mapMemo) Put(_ context.Context, id judge.Identity, q judge.Question, a judge.Answer) {
	m.put = append(m.put, id.Model+" "+q.Subject+" "+string(a.JSON))
}

// TestPanelMemo: a member whose answer the Memo keeps is not asked, its
// kept answer counts in the median at no cost, and what the others
// answer is handed to the Memo under their own identities; a kept
// answer that is no JSON is asked for again.
func TestPanelMemo(t *testing.T) {
	a := &fixed{id: judge.Identity{Plugin: "openai", Model: "m1"}, answer: `{"s":1}`}
	b := &fixed{id: judge.Identity{Plugin: "openai", Model: "m2"}, answer: `{"s":3}`}
	c := &fixed{id: judge.Identity{Plugin: "openai", Model: "m3"}, answer: `{"s":4}`}
	p, err := New(a, b, c)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Configure(context.Background(), judge.Config{}); err != nil {
		t.Fatal(err)
	}
	memo := &mapMemo{kept: map[string]string{"m1 tool": `{"s":5}`, "m3 other": "not json"}}
	p.Memo = memo
	ans, err := p.Ask(context.Background(), judge.Question{Kind: "k", Subject: "tool"})
	if err != nil {
		t.Fatal(err)
	}
	if string(ans.JSON) != `{"s":4}` || ans.Tokens != (judge.Tokens{Input: 20, Output: 4}) {
		t.Errorf("answer %s, tokens %+v; want the median of 5 (kept), 3 and 4, and b's and c's tokens alone", ans.JSON, ans.Tokens)
	}
	if got := []int{a.calls, b.calls, c.calls}; !slices.Equal(got, []int{0, 1, 1}) {
		t.Errorf("calls %v, want the member with a kept answer not asked", got)
	}
	if _, err := p.Ask(context.Background(), judge.Question{Kind: "k", Subject: "other"}); err != nil {
		t.Fatal(err)
	}
	want := []string{`m2 tool {"s":3}`, `m3 tool {"s":4}`, `m1 other {"s":1}`, `m2 other {"s":3}`, `m3 other {"s":4}`}
	if !slices.Equal(memo.put, want) {
		t.Errorf("kept\n%q\nwant\n%q", memo.put, want)
	}
}
