package score_test

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/score/stage"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/rubrics"
)

// inTurn hides the asker's AsksAtOnce: the questions of a stage are
// asked one after the other, as a batch asker's are.
type inTurn struct{ a *ask.Asker }

func (t inTurn) Ask(ctx context.Context, reqs []ask.Request) ([]ask.Observation, error) {
	return t.a.Ask(ctx, reqs)
}

// TestTDQSPastTheChecksLead scores more TDQS tools than the checks may
// run ahead of the answers (stage.MaxLead), with the coherence question
// asked beside the tools' (which waits for every tool within the bound)
// and after them: both runs end, every tool scored, and give the same
// report.
func TestTDQSPastTheChecksLead(t *testing.T) {
	heavytest.Later(t)
	n := 2*stage.MaxLead + 100
	files, _ := filepath.Glob("testdata/corpus/*.tools.json")
	var buf bytes.Buffer
	if err := surfacetest.Repeat(&buf, n, files...); err != nil {
		t.Fatal(err)
	}
	r, err := rubrics.Find("tdqs")
	if err != nil {
		t.Fatal(err)
	}
	newAsker := func() *ask.Asker {
		return &ask.Asker{Judge: fixedJudge{}, Identity: judge.Identity{Model: "fixed"}, Rubric: r, StructuredOnly: true}
	}
	var reports [][]byte
	for _, a := range []score.Asker{newAsker(), inTurn{newAsker()}} {
		s, err := surface.ParseLean("big.json", buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		rep, err := score.Run(context.Background(), r, s, score.Options{Asker: a})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Tools) != n || len(rep.UnscoredTools) != 0 {
			t.Fatalf("%d tools scored, %d unscored, want all %d scored", len(rep.Tools), len(rep.UnscoredTools), n)
		}
		rep.Timings = report.Timings{}
		var out bytes.Buffer
		if err := report.Write(&out, rep); err != nil {
			t.Fatal(err)
		}
		reports = append(reports, out.Bytes())
	}
	if !bytes.Equal(reports[0], reports[1]) {
		t.Error("the coherence question asked beside the tools' and after them gave different reports")
	}
}
