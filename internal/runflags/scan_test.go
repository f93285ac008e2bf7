package runflags

import (
	"path/filepath"
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
