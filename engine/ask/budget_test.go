package ask_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// TestPriceCost: cached input at its own price, the rest at full price.
func TestPriceCost(t *testing.T) {
	p := ask.Price{Input: 2, CachedInput: 0.5, Output: 8}
	cases := []struct {
		tokens judge.Tokens
		want   float64
	}{
		{judge.Tokens{}, 0},
		{judge.Tokens{Input: 1_000_000}, 2},
		{judge.Tokens{Input: 1_000_000, Cached: 500_000, Output: 250_000}, 1 + 0.25 + 2},
	}
	for _, c := range cases {
		if got := p.Cost(c.tokens); got != c.want {
			t.Errorf("Cost(%+v) = %v, want %v", c.tokens, got, c.want)
		}
	}
	for model, want := range map[string]bool{"gpt-4o-mini": true, "gpt-4o-mini-2024-07-18": true, "gpt-4o-2024-08-06": true, "gpt-4": false, "claude-sonnet-4-5-20250929": true} {
		if _, ok := ask.DefaultPrices.Lookup(model); ok != want {
			t.Errorf("Lookup(%q): found %v, want %v", model, ok, want)
		}
	}
	if p, _ := ask.DefaultPrices.Lookup("gpt-4o-mini-2024-07-18"); p.Input != 0.15 {
		t.Errorf("a dated snapshot took another model's price: %+v", p)
	}
}

// TestBudgetStopsBeforePassing: with a budget for 4 calls at their
// greatest cost, one question at a time, the fifth call is never started
// and the run ends with a BudgetError; the four answers are in the
// cache, and a run with a higher budget asks only the 6 that are missing.
func TestBudgetStopsBeforePassing(t *testing.T) {
	r := loadRubric(t)
	store, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	reqs := requests(t, r, names(10)...)
	// A dollar a million tokens, in and out: a call's greatest cost is
	// its prompt bytes plus 100 output tokens, in millionths of a dollar.
	price := ask.Price{Input: 1, CachedInput: 1, Output: 1}
	bound := callBound(t, r, reqs[0])
	// Each call of the counting judge costs 12 tokens; four were spent,
	// and a fifth's bound does not fit in what is left.
	limit := 4*12/1e6 + bound - 1e-9
	j := &counting{}
	first := &ask.Asker{Judge: j, Identity: identity, Rubric: r, Cache: store, Concurrency: 1,
		Budget: &ask.Budget{Limit: limit, Price: price, MaxOutput: 100}}
	_, err = first.Ask(context.Background(), reqs)
	var be *ask.BudgetError
	if !errors.As(err, &be) {
		t.Fatalf("got %v, want a BudgetError", err)
	}
	if j.calls.Load() != 4 {
		t.Errorf("%d calls started, want 4", j.calls.Load())
	}
	if st := first.Stats(); st.CostUSD > limit || st.CostUSD != 4*12/1e6 {
		t.Errorf("spent %v of %v", st.CostUSD, limit)
	}
	if be.Spent+be.Call <= be.Limit {
		t.Errorf("stopped though the call fitted: %+v", be)
	}
	second := &ask.Asker{Judge: j, Identity: identity, Rubric: r, Cache: store, Concurrency: 1,
		Budget: &ask.Budget{Limit: 1, Price: price, MaxOutput: 100}}
	if _, err := second.Ask(context.Background(), reqs); err != nil {
		t.Fatal(err)
	}
	if got := j.calls.Load() - 4; got != 6 {
		t.Errorf("the rerun asked %d questions, want the 6 missing", got)
	}
	if st := second.Stats(); st.CacheHits != 4 || st.CostUSD != 6*12/1e6 {
		t.Errorf("rerun stats %+v", st)
	}
}

// TestBudgetHoldsCallsInFlight: a call in flight holds its greatest
// cost, so that a concurrent question cannot start a call the two could
// pass the budget with: with room for one and a half calls, the second is
// refused while the first is still in flight.
func TestBudgetHoldsCallsInFlight(t *testing.T) {
	r := loadRubric(t)
	reqs := requests(t, r, names(2)...)
	refused := make(chan struct{})
	j := &counting{script: func(int64, judge.Question) (judge.Answer, error, bool) {
		<-refused // in flight until the other question is refused
		return judge.Answer{}, nil, false
	}}
	bound := callBound(t, r, reqs[0])
	a := &ask.Asker{Judge: j, Identity: identity, Rubric: r, Concurrency: 2,
		Budget:   &ask.Budget{Limit: 1.5 * bound, Price: ask.Price{Input: 1, CachedInput: 1, Output: 1}, MaxOutput: 100},
		OnBudget: func(*ask.BudgetError) { close(refused) }}
	_, err := a.Ask(context.Background(), reqs)
	var be *ask.BudgetError
	if !errors.As(err, &be) {
		t.Fatalf("got %v, want a BudgetError", err)
	}
	if n := j.calls.Load(); n != 1 {
		t.Errorf("%d calls started, want 1", n)
	}
	if be.Spent != bound {
		t.Errorf("the refused call saw %v spent or held, want the first call's bound %v", be.Spent, bound)
	}
	// The call in flight finished and was paid for.
	if st := a.Stats(); st.Questions != 1 || st.CostUSD != 12/1e6 {
		t.Errorf("stats %+v", st)
	}
}

// TestBudgetLedgerHoldsEveryAsker: askers that share a Ledger (the runs
// of one calibration, asking afresh) spend from one budget: with room
// for 4 calls and 3 questions a run, the first run asks its 3, and the
// second stops before its second call, naming what both spent and that a
// rerun asks everything again. Without the ledger each run would have
// had the whole budget and spent 6 calls' worth.
func TestBudgetLedgerHoldsEveryAsker(t *testing.T) {
	r := loadRubric(t)
	reqs := requests(t, r, names(3)...)
	price := ask.Price{Input: 1, CachedInput: 1, Output: 1}
	bound := callBound(t, r, reqs[0])
	// Each call costs 12 tokens: 4 spent leave room for no bound.
	limit := 3*12/1e6 + bound + 1e-9
	ledger := &ask.Ledger{}
	j := &counting{}
	run := func() (*ask.Asker, error) {
		a := &ask.Asker{Judge: j, Identity: identity, Rubric: r, Concurrency: 1, Fresh: true,
			Budget: &ask.Budget{Limit: limit, Price: price, MaxOutput: 100, Ledger: ledger}}
		_, err := a.Ask(context.Background(), reqs)
		return a, err
	}
	if _, err := run(); err != nil {
		t.Fatalf("run 1: %v", err)
	}
	second, err := run()
	var be *ask.BudgetError
	if !errors.As(err, &be) {
		t.Fatalf("run 2: got %v, want a BudgetError", err)
	}
	if n := j.calls.Load(); n != 4 {
		t.Errorf("%d calls started in both runs, want 4", n)
	}
	if st := second.Stats(); st.CostUSD != 12/1e6 {
		t.Errorf("run 2 spent %v, want one call's 12 tokens", st.CostUSD)
	}
	if got, want := ledger.Spent(), 4*12/1e6; got != want {
		t.Errorf("the ledger says %v spent, want %v", got, want)
	}
	if be.Spent != 4*12/1e6 {
		t.Errorf("the refusal saw %v spent, want both runs' %v", be.Spent, 4*12/1e6)
	}
	if !strings.Contains(be.Error(), "running again asks them all again") {
		t.Errorf("the refusal of a run that asks afresh says %q", be.Error())
	}
}

// callBound is the greatest cost of asking req at a dollar a million
// tokens in and out, with 100 output tokens at most: its prompt bytes
// (as a counting judge's observation measures them) plus 100, in
// millionths of a dollar.
func callBound(t *testing.T, r *rubric.Rubric, req ask.Request) float64 {
	t.Helper()
	probe := &ask.Asker{Judge: &counting{}, Identity: identity, Rubric: r}
	obs, err := probe.Ask(context.Background(), []ask.Request{req})
	if err != nil {
		t.Fatal(err)
	}
	return float64(obs[0].PromptBytes+100) / 1e6
}
