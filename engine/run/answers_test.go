package run

import (
	"errors"
	"testing"
)

// TestAnswersRefused: a judge that refuses the answers file --answers
// gave it is named with what the user did (--answers without --judge
// replay), not as an option they never set, and without the judge's own
// advice, which names judges that take options but not the replay judge;
// what the replay judge would refuse of the same settings is added. Any other
// refusal, the replay judge's, and an answers file the judge's own
// settings gave are passed on as they are.
func TestAnswersRefused(t *testing.T) {
	refusal := errors.New(`the judge "heuristic" refused its configuration: the heuristic judge takes no options, not "answers": leave it out, or name a judge that takes options with --judge (openai, anthropic, claude-cli)`)
	other := errors.New(`the judge "openai" refused its configuration: no model`)
	hint := `--answers FILE is read by the replay judge, and the judge here is "heuristic", which reads no answers file: add --judge replay to score with the answers in FILE, or leave --answers out`
	starts := func() error { return nil }
	replayRefuses := func() error {
		return errors.New(`the judge "replay" refused its configuration: the replay judge has no option "temprature"; its options are answers, answers_name, max_file_size`)
	}
	tests := []struct {
		name       string
		judge      string
		settings   []string
		answersSet bool
		err        error
		without    func() error
		want       string
	}{
		{"--answers with the default judge", "heuristic", nil, true, refusal, starts, hint},
		{"--answers and an option the replay judge refuses", "heuristic", nil, true, refusal, replayRefuses, hint + `; with --judge replay, the judge "replay" refused its configuration: the replay judge has no option "temprature"; its options are answers, answers_name, max_file_size`},
		{"no --answers", "heuristic", nil, false, refusal, starts, refusal.Error()},
		{"another refusal", "openai", nil, true, other, starts, other.Error()},
		{"the judge's own answers setting", "heuristic", []string{"answers=a.jsonl"}, true, refusal, starts, refusal.Error()},
		{"the replay judge", "replay", nil, true, refusal, starts, refusal.Error()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := answersRefused(tt.judge, tt.settings, tt.answersSet, tt.err, tt.without)
			if got.Error() != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if !errors.Is(got, tt.err) {
				t.Error("the judge's own error is no longer wrapped")
			}
		})
	}
}
