package run

import (
	"errors"
	"testing"
)

// TestAnswersRefused: a judge that refuses the answers file --answers
// gave it is named with what the user did (--answers without --judge
// replay), not as an option they never set; any other refusal, the
// replay judge's, and an answers file the judge's own settings gave are
// passed on as they are.
func TestAnswersRefused(t *testing.T) {
	refusal := errors.New(`the judge "heuristic" refused its configuration: the heuristic judge takes no options, not "answers": leave it out, or name a judge that takes options with --judge (openai, anthropic, claude-cli)`)
	other := errors.New(`the judge "openai" refused its configuration: no model`)
	hint := `--answers FILE is read by the replay judge, and the judge here is "heuristic", which reads no answers file: add --judge replay to score with the answers in FILE, or leave --answers out (` + refusal.Error() + ")"
	tests := []struct {
		name       string
		judge      string
		settings   []string
		answersSet bool
		err        error
		want       string
	}{
		{"--answers with the default judge", "heuristic", nil, true, refusal, hint},
		{"no --answers", "heuristic", nil, false, refusal, refusal.Error()},
		{"another refusal", "openai", nil, true, other, other.Error()},
		{"the judge's own answers setting", "heuristic", []string{"answers=a.jsonl"}, true, refusal, refusal.Error()},
		{"the replay judge", "replay", nil, true, refusal, refusal.Error()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := answersRefused(tt.judge, tt.settings, tt.answersSet, tt.err)
			if got.Error() != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if !errors.Is(got, tt.err) {
				t.Error("the judge's own error is no longer wrapped")
			}
		})
	}
}
