package ask

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report"
)

// Price is what one model's tokens cost, in US dollars per million.
type Price struct {
	Input float64 `json:"input" mapstructure:"input"`
	// CachedInput is the price of input tokens read from the provider's
	// prompt cache.
	CachedInput float64 `json:"cached_input" mapstructure:"cached_input"`
	Output      float64 `json:"output" mapstructure:"output"`
	// BatchDiscount is the fraction taken off every price for answers
	// asked through the provider's batch API (0.5 is half price).
	BatchDiscount float64 `json:"batch_discount" mapstructure:"batch_discount"`
}

// Cost is what tokens cost at p, in US dollars.
func (p Price) Cost(t judge.Tokens) float64 {
	cached := min(t.Cached, t.Input)
	return (float64(t.Input-cached)*p.Input + float64(cached)*p.CachedInput + float64(t.Output)*p.Output) / 1e6
}

// Batched is p at the batch price: every price less the batch discount.
func (p Price) Batched() Price {
	f := 1 - p.BatchDiscount
	return Price{Input: p.Input * f, CachedInput: p.CachedInput * f, Output: p.Output * f}
}

// Prices is a price table: per model, with the date its prices were
// read and where, which every cost a report states names.
type Prices struct {
	// Date and Source say when and where the prices were read.
	Date   string           `json:"date" mapstructure:"date"`
	Source string           `json:"source" mapstructure:"source"`
	Models map[string]Price `json:"models" mapstructure:"models"`
}

// Lookup returns the price of model: the entry named exactly, else the
// longest entry model begins with followed by "-" (a dated snapshot such
// as gpt-4o-mini-2024-07-18 takes gpt-4o-mini's price).
func (t *Prices) Lookup(model string) (Price, bool) {
	if t == nil {
		return Price{}, false
	}
	if p, ok := t.Models[model]; ok {
		return p, true
	}
	names := make([]string, 0, len(t.Models))
	for name := range t.Models {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { return len(names[i]) > len(names[j]) })
	for _, name := range names {
		if strings.HasPrefix(model, name+"-") {
			return t.Models[name], true
		}
	}
	return Price{}, false
}

// DefaultPrices are the list prices of the hosted models the built-in
// judges ask most, as their providers published them. A config's prices
// replace them; check them before trusting a budget to them.
var DefaultPrices = Prices{
	Date:   "2025-10-01",
	Source: "https://openai.com/api/pricing and https://www.anthropic.com/pricing (list prices, standard tier)",
	Models: map[string]Price{
		"gpt-4o":            {Input: 2.50, CachedInput: 1.25, Output: 10.00, BatchDiscount: 0.5},
		"gpt-4o-mini":       {Input: 0.15, CachedInput: 0.075, Output: 0.60, BatchDiscount: 0.5},
		"gpt-4.1":           {Input: 2.00, CachedInput: 0.50, Output: 8.00, BatchDiscount: 0.5},
		"gpt-4.1-mini":      {Input: 0.40, CachedInput: 0.10, Output: 1.60, BatchDiscount: 0.5},
		"gpt-4.1-nano":      {Input: 0.10, CachedInput: 0.025, Output: 0.40, BatchDiscount: 0.5},
		"claude-sonnet-4-5": {Input: 3.00, CachedInput: 0.30, Output: 15.00, BatchDiscount: 0.5},
		"claude-sonnet-4":   {Input: 3.00, CachedInput: 0.30, Output: 15.00, BatchDiscount: 0.5},
		"claude-haiku-4-5":  {Input: 1.00, CachedInput: 0.10, Output: 5.00, BatchDiscount: 0.5},
		"claude-3-5-haiku":  {Input: 0.80, CachedInput: 0.08, Output: 4.00, BatchDiscount: 0.5},
		"claude-opus-4-1":   {Input: 15.00, CachedInput: 1.50, Output: 75.00, BatchDiscount: 0.5},
	},
}

// Budget bounds what a run may spend on judge calls. No call starts
// whose greatest possible cost, added to what was spent and to the
// greatest cost of the calls in flight, would pass Limit: a call's input
// is at most one token a byte of its prompts, and its output at most
// MaxOutput tokens, each at the full price.
type Budget struct {
	// Limit is the most the run may spend, in US dollars.
	Limit float64
	// Price is the price of the model asked.
	Price Price
	// MaxOutput bounds a call's output tokens (the judge's max_tokens).
	MaxOutput int
	// Calls is how many model calls a question takes (a judge panel asks
	// each member whose answers cost, each at Price); 0 means 1.
	Calls int
	// Ledger, when set, is shared by every asker of one command (each
	// run of a calibration, each judge of a pair, each server scored),
	// so that Limit bounds what the command spends, not what each asker
	// does; when nil, the asker's own calls are all it counts.
	Ledger *Ledger
}

// Ledger is what the askers under one budget spent, and the greatest
// cost of their calls in flight; it is safe for concurrent use.
type Ledger struct {
	mu          sync.Mutex
	spent, held float64
}

// Spent is what the askers under the ledger spent so far.
func (l *Ledger) Spent() float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.spent
}

// bound is the most a call with prompts of promptBytes bytes can cost.
func (b *Budget) bound(promptBytes int) float64 {
	return float64(max(b.Calls, 1)) * b.Price.Cost(judge.Tokens{Input: promptBytes, Output: b.MaxOutput})
}

// BudgetError is a call not started because it could pass the budget.
type BudgetError struct {
	Kind, Subject string
	// Limit, Spent and Call are the budget, what was spent (and held by
	// calls in flight), and the most the call could have cost.
	Limit, Spent, Call float64
	// Fresh says that the run asks afresh what the cache holds (a
	// calibration's runs), so a rerun asks everything again.
	Fresh bool
}

// Error says which call the budget stopped and what a rerun with a
// higher --max-cost would ask.
func (e *BudgetError) Error() string {
	next := "every answer so far is in the answer cache, so running again with a higher --max-cost asks only what is missing"
	if e.Fresh {
		next = "this run asks every question afresh (as each run of a calibration does), so running again asks them all again: give a --max-cost that holds every run"
	}
	return fmt.Sprintf("stopped before asking %s about %q: the call could cost up to %s, which with %s spent or in flight would pass the --max-cost budget of %s; %s",
		e.Kind, e.Subject, report.USD(e.Call), report.USD(e.Spent), report.USD(e.Limit), next)
}

// reserve holds the greatest cost of a call about to start, or returns
// the BudgetError that stops it; release gives back the hold once the
// call's cost is known.
func (a *Asker) reserve(kind, subject string, promptBytes int) (float64, error) {
	if a.Budget == nil {
		return 0, nil
	}
	return a.reserveCost(kind, subject, a.Budget.bound(promptBytes))
}

// reserveCost holds call, the greatest cost of what is about to start,
// or returns the BudgetError that stops it.
func (a *Asker) reserveCost(kind, subject string, call float64) (float64, error) {
	a.mu.Lock()
	held := a.stats.CostUSD + a.held
	l := a.Budget.Ledger
	if l != nil {
		l.mu.Lock()
		held = l.spent + l.held
	}
	if held+call > a.Budget.Limit {
		if l != nil {
			l.mu.Unlock()
		}
		a.mu.Unlock()
		err := &BudgetError{Kind: kind, Subject: subject, Limit: a.Budget.Limit, Spent: held, Call: call, Fresh: a.Fresh}
		if a.OnBudget != nil {
			a.OnBudget(err)
		}
		return 0, err
	}
	a.held += call
	if l != nil {
		l.held += call
		l.mu.Unlock()
	}
	a.mu.Unlock()
	return call, nil
}

// spend releases a call's hold and counts what it cost.
func (a *Asker) spend(hold float64, t judge.Tokens) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.held -= hold
	if a.Budget != nil {
		cost := a.Budget.Price.Cost(t)
		a.stats.CostUSD += cost
		if l := a.Budget.Ledger; l != nil {
			l.mu.Lock()
			l.held -= hold
			l.spent += cost
			l.mu.Unlock()
		}
	} else if a.Price != nil {
		a.stats.CostUSD += a.Price.Cost(t)
	}
}

// DecodePrices reads a config file's price table (prices: {date, source,
// models: {MODEL: {input, cached_input, output, batch_discount}}}, US
// dollars per million tokens) from its decoded form; nil when raw is nil.
func DecodePrices(raw any) (*Prices, error) {
	if raw == nil {
		return nil, nil
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, fmt.Errorf("config prices: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var p Prices
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("config prices: %w; write prices: {date, source, models: {MODEL: {input, cached_input, output, batch_discount}}}, in US dollars per million tokens", err)
	}
	if p.Date == "" || p.Source == "" {
		return nil, fmt.Errorf("config prices: say when and where the prices were read (date and source), so that every cost a report states names them")
	}
	for model, m := range p.Models {
		if m.Input < 0 || m.CachedInput < 0 || m.Output < 0 || m.BatchDiscount < 0 || m.BatchDiscount >= 1 {
			return nil, fmt.Errorf("config prices: model %q: prices are at least 0 and batch_discount is a fraction below 1", model)
		}
	}
	return &p, nil
}
