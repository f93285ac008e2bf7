package scan

import "testing"

// TestOtherSettings: a scan resumed with other judge settings than its
// first run's is refused naming what changed, with both values, saying
// that a resume keeps the first run's settings and how to go on: those
// values again (a setting the first run did not give, left out), or a
// new --out for this run's. A changed --base-url was answered as if it
// were a typo.
func TestOtherSettings(t *testing.T) {
	first := []Setting{{Flag: "judge", Value: "openai"}, {Flag: "model", Value: "gpt-test"}, {Flag: "base-url", Value: "http://127.0.0.1:8000/v1"}, {Flag: "judge-option", Value: "(none)"}}
	with := func(flag, value string) []Setting {
		out := append([]Setting(nil), first...)
		for i := range out {
			if out[i].Flag == flag {
				out[i].Value = value
			}
		}
		return out
	}
	const tail = ": a scan resumed in the same --out keeps its first run's judge settings, since the servers it holds were judged with them and scores under other settings would not compare with theirs; to resume it, "
	const how = " (as a flag, a RUBRIC_ variable or rubric.yaml, whichever gave the first run's); to score with this run's settings, start a new scan in another --out (the answer cache spares every question asked before with the same judge)"
	for _, tc := range []struct {
		name string
		now  []Setting
		want string // "" for no refusal
	}{
		{"the same settings", first, ""},
		{"another base URL", with("base-url", "http://10.0.0.2:8000/v1"),
			"scan holds a scan first run with --base-url http://127.0.0.1:8000/v1, and this run has --base-url http://10.0.0.2:8000/v1" + tail + "give --base-url http://127.0.0.1:8000/v1 again" + how},
		{"a judge option added", with("judge-option", "seed=7"),
			"scan holds a scan first run with --judge-option (none), and this run has --judge-option seed=7" + tail + "leave --judge-option out" + how},
		{"another judge", []Setting{{Flag: "judge", Value: "heuristic"}, {Flag: "model", Value: "(none)"}, {Flag: "base-url", Value: "(none)"}, {Flag: "judge-option", Value: "(none)"}},
			"scan holds a scan first run with --judge openai and --model gpt-test and --base-url http://127.0.0.1:8000/v1, and this run has --judge heuristic and --model (none) and --base-url (none)" + tail +
				"give --judge openai, --model gpt-test, --base-url http://127.0.0.1:8000/v1 again" + how},
		{"an older scan.json, with no settings", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old, now := first, tc.now
			if now == nil {
				old, now = nil, with("model", "gpt-other") // what the older scan.json ran with is unknown
			}
			err := otherSettings("scan", old, now)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || err.Error() != tc.want):
				t.Errorf("got  %v\nwant %s", err, tc.want)
			}
		})
	}
}
