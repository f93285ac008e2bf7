package heuristic_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	engineask "github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/judges/heuristic"
	"github.com/rubricmcp/rubric/rubrics"
)

// TestScoresWithTheTDQSRubric scores every corpus capture, and the TDQS
// rubric's own test surface, with the built-in TDQS rubric through this
// judge: the questions come from the rubric's own input formulas, and
// every answer must pass the rubric's answer schemas the first time (no
// retries). With -v it logs each server's overall score.
func TestScoresWithTheTDQSRubric(t *testing.T) {
	r, err := rubrics.Find("tdqs")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	j := heuristic.New()
	id, err := j.Configure(ctx, judge.Config{})
	if err != nil {
		t.Fatal(err)
	}
	surfaces := corpus(t)
	notes := filepath.Join("..", "..", "rubrics", "testdata", "tdqs", "notes.tools.json")
	b, err := os.ReadFile(notes)
	if err != nil {
		t.Fatal(err)
	}
	if surfaces["notes (rubrics/testdata)"], err = surface.Parse(notes, b); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	for _, name := range names(surfaces) {
		s := surfaces[name]
		a := &engineask.Asker{Judge: j, Identity: id, Rubric: r}
		rep, err := score.Run(ctx, r, s, score.Options{Asker: a})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		st := a.Stats()
		if st.Retries != 0 {
			t.Errorf("%s: %d answers had to be asked again", name, st.Retries)
		}
		if st.Questions == 0 || rep.Score == nil {
			t.Errorf("%s: %d questions, score %v (%s)", name, st.Questions, rep.Score, rep.NoScore)
			continue
		}
		grade := ""
		if rep.Grade != nil {
			grade = *rep.Grade
		}
		fmt.Fprintf(&log, "%-26s %3d tools %3d questions  overall %s %s\n", name, len(s.Tools), st.Questions, *rep.Score, grade)
	}
	t.Log("\n" + log.String())
}
