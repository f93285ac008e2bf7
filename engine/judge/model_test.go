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
		// opusplan plans with an opus and carries out with a sonnet.
		{"opusplan", "claude-opus-5-5", true},
		{"opusplan", "claude-sonnet-4-5-20250929", true},
		{"opusplan", "claude-haiku-4-5-20251001", false},
		// [1m] asks for the same model with a million tokens of context.
		{"sonnet[1m]", "claude-sonnet-4-5-20250929", true},
		{"sonnet[1m]", "claude-opus-5-5", false},
		{"opus[1m]", "claude-opus-5-5", true},
		{"claude-sonnet-4-5[1m]", "claude-sonnet-4-5-20250929", true},
		{"claude-sonnet-4-5[1m]", "claude-sonnet-4-5", true},
		{"claude-sonnet-4-5[1m]", "claude-sonnet-4-6", false},
		{"sonnet[2m]", "claude-sonnet-4-5-20250929", false},
		{"[1m]", "claude-sonnet-4-5", false},
		{"[1m]", "", false},
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

// TestKeptBy: the refusal of another model's answer says what would
// have kept the pin.
func TestKeptBy(t *testing.T) {
	for _, c := range []struct{ pinned, want string }{
		{"opus", `a pin on Claude Code's alias "opus" is kept by any claude- id that names opus`},
		{"opusplan", `a pin on Claude Code's alias "opusplan" is kept by any claude- id that names opus or sonnet`},
		{"sonnet[1m]", `a pin on Claude Code's alias "sonnet[1m]" is kept by any claude- id that names sonnet`},
		{"gpt-4o", `a pin on "gpt-4o" is kept by "gpt-4o" and by its dated snapshots (gpt-4o-20250131, gpt-4o-2025-01-31)`},
		{"claude-sonnet-4-5[1m]", `a pin on "claude-sonnet-4-5[1m]" is kept by "claude-sonnet-4-5" and by its dated snapshots (claude-sonnet-4-5-20250131, claude-sonnet-4-5-2025-01-31)`},
	} {
		if got := judge.KeptBy(c.pinned); got != c.want {
			t.Errorf("KeptBy(%q) =\n%s\nwant\n%s", c.pinned, got, c.want)
		}
	}
}
