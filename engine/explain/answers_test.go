package explain

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestAnswerTexts pins that an answer's sentences are shown whole, however
// long, each after its path, and that what is not text is left out.
func TestAnswerTexts(t *testing.T) {
	long := "Heuristic: 44% of the create/read/update/delete operations are present for the resources it changes; no tool named for branch does delete."
	for _, c := range []struct {
		name, answer string
		want         []string
	}{
		{"long justification whole", `{"scores":{"completeness":{"score":2,"justification":` + quoteJSON(long) + `}}}`,
			[]string{"scores.completeness.justification: " + long}},
		{"paths sorted, summary last", `{"summary":"S.","scores":{"b":{"justification":"B."},"a":{"justification":"A."}}}`,
			[]string{"scores.a.justification: A.", "scores.b.justification: B.", "summary: S."}},
		{"lists by index", `{"notes":["one","two"]}`, []string{"notes[0]: one", "notes[1]: two"}},
		{"on one line", `{"why":"first line\n  second\tline"}`, []string{"why: first line second line"}},
		{"no text", `{"score":3,"ok":true,"empty":""}`, nil},
		{"null answer", `null`, nil},
		{"no answer", ``, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := answerTexts(json.RawMessage(c.answer)); !slices.Equal(got, c.want) {
				t.Errorf("answerTexts(%s)\n got %q\nwant %q", c.answer, got, c.want)
			}
		})
	}
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
