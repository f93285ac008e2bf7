package heuristic_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	engineask "github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report/reporttest"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/judges/heuristic"
	"github.com/rubricmcp/rubric/rubrics"
)

var update = flag.Bool("update", false, "rewrite testdata/tdqs-corpus.golden")

// TestScoresWithTheTDQSRubric scores every corpus capture, and the TDQS
// rubric's own test surface, with the built-in TDQS rubric through this
// judge: the questions come from the rubric's own input formulas, and
// every answer must pass the rubric's answer schemas the first time (no
// retries). Every server's rollups and every tool's TDQS, tier, smells and
// flags are pinned by testdata/tdqs-corpus.golden, so a change to a cue,
// the rubric or the engine shows as a reviewed diff (go test -update).
func TestScoresWithTheTDQSRubric(t *testing.T) {
	heavytest.Later(t)
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
	surfaces["notes (rubrics/testdata)"] = readSurface(t, filepath.Join("..", "..", "rubrics", "testdata", "tdqs", "notes.tools.json"))
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
		fmt.Fprintf(&log, "%s: %d tools, %d questions, overall %s %s\n", name, len(s.Tools), st.Questions, *rep.Score, grade)
		for _, sec := range rep.Sections {
			for _, nv := range sec.Scalars() {
				if !strings.HasPrefix(nv[1], "Heuristic:") {
					fmt.Fprintf(&log, "  %s %s\n", nv[0], nv[1])
				}
			}
		}
		for _, tool := range rep.Tools {
			fmt.Fprintf(&log, "  %-40s %s %s", tool.Name, tool.Score, tool.Grade)
			for _, f := range tool.Fields {
				if f.Name == "smells" || f.Name == "flags" {
					b, _ := json.Marshal(f.Value)
					fmt.Fprintf(&log, " %s %s", f.Name, b)
				}
			}
			log.WriteString("\n")
		}
	}
	reporttest.Golden(t, "testdata/tdqs-corpus.golden", []byte(log.String()), *update)
}
