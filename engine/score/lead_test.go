package score_test

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
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

// TestFailedCheckPastTheChecksLead: a check that fails for an early tool,
// in a run of more tools than the checks may run ahead of the answers
// (stage.MaxLead), ends the run with its error. The failed tool is never
// marked checked, so no question gets past it and no answer moves the
// bound on: the checks held by the bound must be let run to the end of
// the pass, which then gives its error, rather than wait for ever.
func TestFailedCheckPastTheChecksLead(t *testing.T) {
	n := stage.MaxLead + 200
	s := namedTools(t, n)
	r, err := rubric.Load("fail.hcl", []byte(failingSignalRubric))
	if err != nil {
		t.Fatal(err)
	}
	j := scripted(func(judge.Question) string { return `{"n": 1}` })
	for _, workers := range []int{1, 2} {
		// The question about the surface asked beside the tools', and
		// after them.
		for k, a := range []score.Asker{
			&ask.Asker{Judge: j, Identity: judge.Identity{Model: "m"}, Rubric: r},
			inTurn{&ask.Asker{Judge: j, Identity: judge.Identity{Model: "m"}, Rubric: r}},
		} {
			_, err = score.Run(context.Background(), r, s, score.Options{Workers: workers, Asker: a})
			if err == nil || !strings.Contains(err.Error(), `scoring tool "t3": signal "bad": no such key`) {
				t.Errorf("%d workers, asker %d: the run ended with %v, want tool t3's signal's error", workers, k, err)
			}
		}
	}
}

// failingSignalRubric is aheadRubric with a signal that fails for the
// tool t3: a question per tool and one about the surface.
var failingSignalRubric = strings.Replace(aheadRubric("1", "1", "1"), "  tool {\n", `  tool {
    signals {
      bad = "{'a': 1}[tool.name == 't3' ? 'b' : 'a']"
    }
`, 1)
