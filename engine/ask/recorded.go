package ask

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rubricmcp/rubric/engine/report"
)

// Recorded answers questions from the observations a report holds, so a
// report can be rescored with zero judge calls: each question is found by
// its digest and subject, and a question the report never saw (because the
// rubric changed it) is an error.
type Recorded struct {
	byKey map[[2]string]Observation
	// kinds are the kinds of question the report's answers are to.
	kinds map[string]bool
}

// FromReport collects a report's observations.
func FromReport(rep *report.Report) *Recorded {
	r := &Recorded{byKey: map[[2]string]Observation{}, kinds: map[string]bool{}}
	for o := range rep.Observations() {
		r.byKey[[2]string{o.QuestionDigest, o.Subject}] = o
		r.kinds[o.Kind] = true
	}
	return r
}

// Ask implements score.Asker.
func (r *Recorded) Ask(_ context.Context, reqs []Request) ([]Observation, error) {
	out := make([]Observation, len(reqs))
	for i, req := range reqs {
		o, ok := r.byKey[[2]string{req.Question.Digest, req.Subject}]
		if !ok && len(r.byKey) == 0 {
			return nil, fmt.Errorf("the report holds no judge's answers (it was scored by a rubric that asks none), and the rubric asks question %q (%s): score the surface again with a judge instead of rescoring",
				req.Question.Name, req.Question.Kind)
		}
		if !ok && !r.kinds[req.Question.Kind] {
			// Not a question asked differently: the report's rubric never
			// asked one of its kind (a Gradable report rescored with TDQS).
			return nil, fmt.Errorf("the report holds no answer to question %q (%s): its answers are to %s, another rubric's questions, so score the surface again with a judge instead of rescoring",
				req.Question.Name, req.Question.Kind, joinKinds(r.kinds))
		}
		if !ok {
			return nil, fmt.Errorf("the report holds no answer to question %q (%s) about %q: the rubric asks it differently, so score the surface again with a judge instead of rescoring",
				req.Question.Name, req.Question.Kind, req.Subject)
		}
		if o.Unreadable != "" && !req.MayStayUnreadable {
			return nil, fmt.Errorf("the report's answer to question %q about %q was unreadable (%s), and the rubric scores no tool without it: score the surface again with a judge",
				req.Question.Name, req.Subject, o.Unreadable)
		}
		if o.InputHash != req.InputHash {
			return nil, fmt.Errorf("the report's answer to question %q about %q was given for another input (%s, now %s): score the surface again with a judge",
				req.Question.Name, req.Subject, o.InputHash, req.InputHash)
		}
		if o.Unreadable != "" {
			// Recorded as unreadable: the tool stays unscored.
			o.Cached, o.Attempts = true, 0
			out[i] = o
			continue
		}
		if err := req.Question.Validate(o.Answer); err != nil {
			return nil, fmt.Errorf("the report's answer to question %q about %q is not one the rubric accepts (%v): the report was edited, or the rubric changed; score the surface again", req.Question.Name, req.Subject, err)
		}
		o.Cached, o.Attempts = true, 0
		out[i] = o
	}
	return out, nil
}

// joinKinds names the kinds of question, sorted, for a message.
func joinKinds(kinds map[string]bool) string {
	return strings.Join(slices.Sorted(maps.Keys(kinds)), ", ")
}
