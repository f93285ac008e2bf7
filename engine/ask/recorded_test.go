package ask_test

import (
	"context"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/report"
)

func TestRecordedAnswersAreReplayedAndChecked(t *testing.T) {
	r := loadRubric(t)
	reqs := requests(t, r, "ab", "abc")
	obs, err := (&ask.Asker{Judge: &counting{}, Identity: identity, Rubric: r}).Ask(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	rep := &report.Report{Tools: []report.Tool{{Name: "ab", Answers: obs[:1]}, {Name: "abc", Answers: obs[1:]}}}
	got, err := ask.FromReport(rep).Ask(context.Background(), reqs)
	if err != nil {
		t.Fatal(err)
	}
	if string(got[1].Answer) != `{"n":3}` || !got[1].Cached || got[1].Attempts != 0 {
		t.Errorf("replayed %+v", got[1])
	}
	for _, c := range []struct {
		name string
		edit func(*report.Report) []ask.Request
		want string
	}{
		{"a question the report never saw", func(*report.Report) []ask.Request { return requests(t, r, "abcd") },
			`the report holds no answer to question "len" (test.len) about "abcd"`},
		{"another input", func(rep *report.Report) []ask.Request {
			rep.Tools[0].Answers[0].InputHash = "sha256:0000"
			return reqs
		}, `was given for another input`},
		{"an edited answer", func(rep *report.Report) []ask.Request {
			rep.Tools[0].Answers[0].InputHash = reqs[0].InputHash
			rep.Tools[0].Answers[0].Answer = []byte(`{"n": -9}`)
			return reqs
		}, `is not one the rubric accepts`},
	} {
		asked := c.edit(rep)
		_, err := ask.FromReport(rep).Ask(context.Background(), asked)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want …%s…", c.name, err, c.want)
		}
	}
}

// TestRecordedWithoutAnswers: a report of a rubric that asks nothing
// (Schema Quality) rescored with one that asks says that the report
// holds no answers at all, not that the rubric asks its questions
// differently.
func TestRecordedWithoutAnswers(t *testing.T) {
	r := loadRubric(t)
	rep := &report.Report{Tools: []report.Tool{{Name: "ab"}}}
	_, err := ask.FromReport(rep).Ask(context.Background(), requests(t, r, "ab"))
	want := `the report holds no judge's answers (it was scored by a rubric that asks none), and the rubric asks question "len" (test.len): score the surface again with a judge instead of rescoring`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// TestRecordedFromAnotherRubric: a report whose answers are to another
// rubric's questions (Gradable's, rescored with TDQS) says so, where it
// said the rubric asks its question differently, which a rubric that
// never asked it does not.
func TestRecordedFromAnotherRubric(t *testing.T) {
	r := loadRubric(t)
	rep := &report.Report{Tools: []report.Tool{{Name: "ab", Answers: []report.Observation{
		{Question: "tool", Kind: "gradable.tool", Subject: "ab", QuestionDigest: "sha256:1"},
		{Question: "tasks", Kind: "gradable.tasks", Subject: "", QuestionDigest: "sha256:2"},
	}}}}
	_, err := ask.FromReport(rep).Ask(context.Background(), requests(t, r, "ab"))
	want := `the report holds no answer to question "len" (test.len): its answers are to gradable.tasks, gradable.tool, another rubric's questions, so score the surface again with a judge instead of rescoring`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}
