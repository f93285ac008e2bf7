package gradable

import (
	"encoding/json"
	"math"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
)

// TestScoresAsScore: the scores summed over the terms' postings are, for
// every document, the score looked up document by document, to the last
// bit (each document's terms are added in the same order), over every
// corpus server, with each of its tools' names and descriptions as the
// task.
func TestScoresAsScore(t *testing.T) {
	checked := 0
	for _, capture := range surfacetest.CorpusTools(t) {
		b, err := json.Marshal(capture)
		if err != nil {
			t.Fatal(err)
		}
		var tools []gTool
		if err := json.Unmarshal(b, &tools); err != nil {
			t.Fatal(err)
		}
		ix := indexTools(tools)
		for _, tool := range tools {
			for _, task := range []string{tool.Name, tool.description(), "list " + tool.Name + " and its " + tool.title()} {
				q := query(task)
				for i, got := range ix.scores(q) {
					want, _ := ix.score(i, q)
					if math.Float64bits(got) != math.Float64bits(want) {
						t.Fatalf("task %q, tool %s: %v from the postings, %v looked up", task, tools[i].Name, got, want)
					}
					if got > 0 {
						checked++
					}
				}
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d positive scores compared", checked)
	}
}

// TestPreparesOnce: selection questions about one surface asked at the
// same time, as a run asks six at once, share one prepared surface, made
// once. The preparing is held until every caller has started, so that
// the others ask while it is under way.
func TestPreparesOnce(t *testing.T) {
	const callers = 8
	ResetPrepared()
	defer ResetPrepared()
	var builds atomic.Int32
	release := make(chan struct{})
	build := prepareSurface
	prepareSurface = func(raw json.RawMessage) (*preparedSurface, error) {
		builds.Add(1)
		<-release
		return build(raw)
	}
	defer func() { prepareSurface = build }()
	raw := json.RawMessage(`[{"name":"list_notes","description":"List the notes."}]`)
	started := make(chan struct{}, callers)
	got := make(chan *preparedSurface, callers)
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() {
			started <- struct{}{}
			p, err := prepare("", raw)
			if err != nil {
				t.Error(err)
			}
			got <- p
		})
	}
	for range callers {
		<-started
	}
	close(release)
	wg.Wait()
	close(got)
	var first *preparedSurface
	for p := range got {
		if first == nil {
			first = p
		}
		if p != first || len(p.tools) != 1 {
			t.Errorf("callers were given different surfaces (%p, %p)", p, first)
		}
	}
	if n := builds.Load(); n != 1 {
		t.Errorf("the surface was prepared %d times for %d callers, want once", n, callers)
	}
}
