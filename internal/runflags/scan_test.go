package runflags

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/scan"
	"github.com/rubricmcp/rubric/internal/jobqueue"
)

// TestParseRate: --judge-rate is calls a minute or a second; anything
// else is refused with an example.
func TestParseRate(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		err  bool
	}{
		{in: "500/min", want: 500},
		{in: "60/m", want: 60},
		{in: "8/s", want: 480},
		{in: "2/sec", want: 120},
		{in: "500", err: true},
		{in: "0/min", err: true},
		{in: "-3/s", err: true},
		{in: "5/h", err: true},
		{in: "x/min", err: true},
	} {
		got, err := ParseRate(tc.in)
		switch {
		case tc.err && (err == nil || !strings.Contains(err.Error(), "500/min or 8/s")):
			t.Errorf("ParseRate(%q) = %d, %v; want an error with an example", tc.in, got, err)
		case !tc.err && (err != nil || got != tc.want):
			t.Errorf("ParseRate(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
		}
	}
}

// TestJudgeLimit: a rate needs the queue's database; the limit's key is
// the judge's provider (else plugin) and model, whatever its options.
func TestJudgeLimit(t *testing.T) {
	if l, err := judgeLimit("", &scan.Memory{}); l != nil || err != nil {
		t.Errorf("no rate: %v, %v; want no limit", l != nil, err)
	}
	if _, err := judgeLimit("10/min", &scan.Memory{}); err == nil || !strings.Contains(err.Error(), "--db memory") {
		t.Errorf("a rate with --db memory: %v, want a refusal naming it", err)
	}
	q, err := jobqueue.Open(t.Context(), "sqlite:"+filepath.Join(t.TempDir(), "queue.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	l, err := judgeLimit("10/min", scan.DB{Queue: q})
	if err != nil || l == nil || l(judge.Identity{Plugin: "openai", Model: "m"}) == nil {
		t.Fatalf("a rate with a database: %v", err)
	}
	for _, tc := range []struct {
		id   judge.Identity
		want string
	}{
		{judge.Identity{Plugin: "openai", Provider: "openai", Model: "gpt-5", Params: map[string]any{"temperature": 0}}, "openai:gpt-5"},
		{judge.Identity{Plugin: "claude-cli", Provider: "anthropic", Model: "claude-haiku-4-5"}, "anthropic:claude-haiku-4-5"},
		{judge.Identity{Plugin: "heuristic"}, "heuristic:"},
	} {
		if got := RateKey(tc.id); got != tc.want {
			t.Errorf("RateKey(%+v) = %q, want %q", tc.id, got, tc.want)
		}
	}
}

// TestPanelRateKeys: a question to a panel is a call to each member, so
// it takes a slot of each member's limit (two members of one model take
// two slots of its limit), not one slot of a limit of the panel's own,
// which no other judge of the same models would share.
func TestPanelRateKeys(t *testing.T) {
	members := []any{
		map[string]any{"plugin": "openai", "provider": "openai", "model": "gpt-5", "params": map[string]any{"temperature": 0}},
		map[string]any{"plugin": "openai", "provider": "openai", "model": "gpt-5", "params": map[string]any{"temperature": 1}},
		map[string]any{"plugin": "anthropic", "provider": "anthropic", "model": "claude-haiku-4-5"},
	}
	id := judge.Identity{Plugin: "panel", Version: "1", Model: "median of ...", Params: map[string]any{"members": members}}
	want := []string{"openai:gpt-5", "openai:gpt-5", "anthropic:claude-haiku-4-5"}
	if got := RateKeys(id); !slices.Equal(got, want) {
		t.Errorf("RateKeys(panel) = %q, want %q", got, want)
	}
	if got := RateKeys(judge.Identity{Plugin: "openai", Provider: "openai", Model: "gpt-5"}); !slices.Equal(got, []string{"openai:gpt-5"}) {
		t.Errorf("RateKeys(openai) = %q, want its own key", got)
	}

	// The panel's limit waits on one slot of each member's limit.
	var waited []int
	all := allLimits{countLimit{0, &waited}, countLimit{1, &waited}}
	if err := all.Wait(t.Context()); err != nil || !slices.Equal(waited, []int{0, 1}) {
		t.Errorf("waited on %v (%v), want each limit once", waited, err)
	}
}

// TestHeuristicUnpaced: --judge-rate paces the calls to a provider, and
// a judge whose identity says it is a heuristic calls none: it takes no
// slot, nor does such a member of a panel; a scan with the offline
// default and a rate set waited a slot a call for nothing.
func TestHeuristicUnpaced(t *testing.T) {
	heuristic := judge.Identity{Plugin: "heuristic", Version: "1", Provider: "rubric", Model: "heuristic-1", Heuristic: true}
	openai := judge.Identity{Plugin: "openai", Provider: "openai", Model: "gpt-5"}
	member := func(id judge.Identity) map[string]any {
		return map[string]any{"plugin": id.Plugin, "provider": id.Provider, "model": id.Model, "heuristic": id.Heuristic}
	}
	panelOf := func(heur bool, ids ...judge.Identity) judge.Identity {
		ms := make([]any, len(ids))
		for i, id := range ids {
			ms[i] = member(id)
		}
		return judge.Identity{Plugin: "panel", Version: "1", Model: "median of ...", Params: map[string]any{"members": ms}, Heuristic: heur}
	}
	q, err := jobqueue.Open(t.Context(), "sqlite:"+filepath.Join(t.TempDir(), "queue.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	limit, err := judgeLimit("1/min", scan.DB{Queue: q})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		id    judge.Identity
		keys  []string
		paced bool
	}{
		{"the heuristic", heuristic, nil, false},
		{"a model", openai, []string{"openai:gpt-5"}, true},
		{"a panel of a model and the heuristic", panelOf(false, openai, heuristic), []string{"openai:gpt-5"}, true},
		{"a panel of heuristics", panelOf(true, heuristic, heuristic), nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := RateKeys(tc.id); !slices.Equal(got, tc.keys) {
				t.Errorf("RateKeys = %q, want %q", got, tc.keys)
			}
			if got := limit(tc.id) != nil; got != tc.paced {
				t.Errorf("paced %v, want %v", got, tc.paced)
			}
		})
	}
}

type countLimit struct {
	n      int
	waited *[]int
}

func (c countLimit) Wait(context.Context) error {
	*c.waited = append(*c.waited, c.n)
	return nil
}
