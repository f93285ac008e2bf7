package judge_test

import (
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
)

// TestSameModel: a pin is satisfied by the same id or by the pinned id
// with one date after it, the snapshot a provider names, and a Claude
// Code alias by a model of the family it names; anything more is another
// model.
func TestSameModel(t *testing.T) {
	for _, c := range []struct {
		pinned, answered string
		same             bool
	}{
		{"gpt-4o", "gpt-4o", true},
		{"gpt-4o", "gpt-4o-2024-08-06", true},
		{"claude-sonnet-4-5", "claude-sonnet-4-5-20250929", true},
		{"", "anything", true},
		{"gpt-4o", "gpt-4o-mini", false},
		{"gpt-4o", "gpt-4o-mini-2024-07-18", false},
		{"gpt-4", "gpt-4o", false},
		{"m1", "m1-", false},
		{"claude-opus-4", "claude-opus-4-1", false},
		{"gpt-4o", "gpt-4", false},
		{"gpt-4", "gpt-4-0613", true},
		{"claude-sonnet-4", "claude-sonnet-4-5-20250929", false},
		{"claude-opus-4", "claude-opus-4-1-20250805", false},
		{"gpt-4", "gpt-4-1-2025", false},
		{"gpt-4o", "gpt-4o-2024-08", false},
		{"m", "m-20250101-20250102", false},
		// Claude Code's aliases pin the family they name.
		{"opus", "claude-opus-5-5", true},
		{"opus", "claude-opus-4-1-20250805", true},
		{"opus", "claude-3-opus-20240229", true},
		{"sonnet", "claude-3-5-sonnet-20241022", true},
		{"haiku", "claude-haiku-4-5-20251001", true},
		{"opus", "claude-sonnet-4-5-20250929", false},
		{"sonnet", "claude-opus-5-5", false},
		{"opus", "opus-5", false},
		{"opus", "claude-opusplan-1", false},
		{"gpt", "gpt-4o", false},
		{"claude-opus", "claude-opus-5-5", false},
	} {
		if got := judge.SameModel(c.pinned, c.answered); got != c.same {
			t.Errorf("SameModel(%q, %q) = %v, want %v", c.pinned, c.answered, got, c.same)
		}
	}
}

// TestAnswered: writers show a pinned model, else the models a judge
// answered with, else nothing.
func TestAnswered(t *testing.T) {
	for _, c := range []struct {
		name        string
		id          judge.Identity
		noun, names string
	}{
		{"a pinned model", judge.Identity{Model: "gpt-4o"}, "model", "gpt-4o"},
		{"answers from several models", judge.Identity{Params: map[string]any{judge.ParamModels: "a (2 answers), b (1 answer)"}}, "models", "a (2 answers), b (1 answer)"},
		{"a pinned model wins over the parameter", judge.Identity{Model: "a", Params: map[string]any{judge.ParamModels: "a (1 answer)"}}, "model", "a"},
		{"neither", judge.Identity{Plugin: "replay"}, "", ""},
		{"a parameter that is not text", judge.Identity{Params: map[string]any{judge.ParamModels: 3}}, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			if noun, names := c.id.Answered(); noun != c.noun || names != c.names {
				t.Errorf("Answered() = %q, %q; want %q, %q", noun, names, c.noun, c.names)
			}
		})
	}
}
