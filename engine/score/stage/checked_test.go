package stage

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score/check"
	"github.com/rubricmcp/rubric/engine/surface"
)

// checkedRun is Ask's inputs for n tools named t0, t1, ...: the rubric
// of aheadRubric (a question per tool, one about the surface), the
// surface's values, an empty report and the tools' states, prepared.
func checkedRun(t *testing.T, n int) (*rubric.Rubric, *check.Surface, *report.Report, []*check.State) {
	t.Helper()
	return checkedRunOf(t, aheadRubric, n)
}

// checkedRunOf is checkedRun with the rubric src.
func checkedRunOf(t *testing.T, src string, n int) (*rubric.Rubric, *check.Surface, *report.Report, []*check.State) {
	t.Helper()
	r, err := rubric.Load("ahead.hcl", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var tools []string
	for i := range n {
		tools = append(tools, fmt.Sprintf(`{"name": "t%d", "inputSchema": {"type": "object"}}`, i))
	}
	s, err := surface.ParseToolsList("test", []byte(`{"tools": [`+strings.Join(tools, ", ")+`]}`))
	if err != nil {
		t.Fatal(err)
	}
	sv, err := check.NewSurface(r, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	states := toolScopes(n)
	for _, st := range states {
		Prepare(r, st)
	}
	return r, sv, &report.Report{Tools: make([]report.Tool, n)}, states
}

// TestToolsAreAskedWhileChecked: the first batch of tools is asked about
// once those tools are checked, before the others are (they are marked
// checked from inside the first call, which a run that waited for every
// tool would never make); every tool is then asked about once, in order,
// and the question about the surface after them.
func TestToolsAreAskedWhileChecked(t *testing.T) {
	const n = 3 * minBatch
	r, sv, rep, states := checkedRun(t, n)
	checked := NewChecked(n)
	for i := range minBatch {
		checked.Done(i)
	}
	a := &batchAsker{hold: func() {
		for i := minBatch; i < n; i++ {
			checked.Done(i)
		}
		checked.Over(nil)
	}}
	var answered []int
	tell := func(i int) {
		if len(rep.Tools[i].Answers) != 1 {
			t.Errorf("tool %d said answered with %d answers handed on", i, len(rep.Tools[i].Answers))
		}
		answered = append(answered, i)
	}
	if _, _, err := Ask(context.Background(), r, a, sv, rep, states, checked, tell); err != nil {
		t.Fatal(err)
	}
	if len(answered) != n || !slices.IsSorted(answered) || answered[n-1] != n-1 {
		t.Errorf("tools said answered: %v", answered)
	}
	var want []string
	for i := range n {
		want = append(want, fmt.Sprintf("t%d", i))
	}
	if len(a.calls) == 0 || len(a.calls[0]) != minBatch {
		t.Fatalf("calls %v: want a first call about the %d tools checked", a.calls, minBatch)
	}
	last := a.calls[len(a.calls)-1]
	if got := slices.Concat(a.calls[:len(a.calls)-1]...); !slices.Equal(got, want) || !slices.Equal(last, []string{"surface"}) {
		t.Errorf("asked about %v then %v, want %v then the surface", got, last, want)
	}
	for i, tl := range rep.Tools {
		if len(tl.Answers) != 1 || tl.Answers[0].Subject != want[i] {
			t.Errorf("tool %d was handed %v", i, tl.Answers)
		}
	}
}

// TestAFailedCheckEndsTheAsking: when the check pass fails after the
// first batch of tools, no tool past them is asked about, nor the
// surface, and Ask returns the pass's error.
func TestAFailedCheckEndsTheAsking(t *testing.T) {
	const n = 3 * minBatch
	r, sv, rep, states := checkedRun(t, n)
	checked := NewChecked(n)
	for i := range minBatch {
		checked.Done(i)
	}
	failed := errors.New("check \"x\" of t16 failed")
	a := &batchAsker{hold: func() { checked.Over(failed) }}
	_, _, err := Ask(context.Background(), r, a, sv, rep, states, checked, nil)
	if !errors.Is(err, failed) {
		t.Errorf("Ask returned %v, want the check's error", err)
	}
	if len(a.calls) != 1 || len(a.calls[0]) != minBatch {
		t.Errorf("calls %v: want only the first %d tools asked about", a.calls, minBatch)
	}
	if err := checked.Wait(); !errors.Is(err, failed) {
		t.Errorf("the pass says %v", err)
	}
}

// TestChecksKeptWithinTheLead: bounded, the checks stop lead tools past
// the tools handed on, move on a step at a time as tools are handed on,
// stay within the bound while a question beside the question per tool
// waits for every tool, run up to any tool someone else waits for (a
// question's build, a question about the surface in a stage of its own)
// whatever the bound, and run to the end once it is lifted. Each step
// waits for the check pass to stand still at the tool expected, or to
// end, which an unbounded pass does at once.
func TestChecksKeptWithinTheLead(t *testing.T) {
	const n, lead = 100, 10 // a step of 10: min(leadStep, lead)
	c := NewChecked(n)
	c.Bound(lead)
	go func() {
		for i := range n {
			c.Start(i)
			c.Done(i)
		}
		c.Over(nil)
	}()
	// stopsAt waits until the pass waits to check tool i, or has ended.
	stopsAt := func(step string, i int) {
		t.Helper()
		c.mu.Lock()
		for !(c.upTo == i && c.waiting == i) && !c.over {
			c.changed.Wait()
		}
		got, upTo := c.waiting, c.upTo
		c.mu.Unlock()
		if got != i || upTo != i {
			t.Fatalf("%s: the checks reached tool %d (waiting at %d), want them held at %d", step, upTo, got, i)
		}
	}
	hand := func(k int) {
		for range k {
			c.Handed()
		}
	}
	stopsAt("nothing handed on", lead)
	hand(lead)
	stopsAt("a step handed on", 2*lead)
	// A question about the surface beside the question per tool waits
	// for every tool within the bound, which handing on moves.
	beside := make(chan error)
	go func() { beside <- c.uptoBeside(n) }()
	hand(lead)
	stopsAt("a wait beside the question per tool, a step more handed on", 3*lead)
	waited := make(chan error)
	go func() { waited <- c.upto(45) }()
	if err := <-waited; err != nil {
		t.Fatal(err)
	}
	stopsAt("a wait for the first 45 tools", 45)
	c.Unbound()
	if err := <-beside; err != nil {
		t.Fatal(err)
	}
	if err := c.Wait(); err != nil {
		t.Fatal(err)
	}
	if c.upTo != n {
		t.Fatalf("unbound, the checks ended at tool %d of %d", c.upTo, n)
	}
}

// surfaceHookAsker is an atOnceAsker that runs onSurface inside its call
// about the surface, before answering it, and onTools inside its first
// call about the tools.
type surfaceHookAsker struct {
	atOnceAsker
	onSurface, onTools func()
	toolsOnce          sync.Once
}

func (a *surfaceHookAsker) Ask(ctx context.Context, reqs []ask.Request) ([]ask.Observation, error) {
	if len(reqs) > 0 && reqs[0].Question.Per == rubric.PerSurface && a.onSurface != nil {
		a.onSurface()
	}
	if len(reqs) > 0 && reqs[0].Question.Per == rubric.PerTool && a.onTools != nil {
		a.toolsOnce.Do(a.onTools)
	}
	return a.atOnceAsker.Ask(ctx, reqs)
}

// TestSurfaceQuestionWaitsOnlyForTheToolsItReads: asked beside the
// question per tool, a question about the surface that reads none of the
// tools' answers (TDQS's coherence question) is asked while the tools are
// still being checked: only the first batch is checked, and the others
// are checked from inside its call, which a question waiting for every
// tool would never make (the run would hang). One that reads the tools'
// answers is asked once every tool is checked.
func TestSurfaceQuestionWaitsOnlyForTheToolsItReads(t *testing.T) {
	const n = 3 * minBatch
	readsTools := strings.Replace(aheadRubric, `input  = "{'n': 1}"`, `input  = "{'n': size(tool_answers)}"`, 1)
	if readsTools == aheadRubric {
		t.Fatal("the surface question's input was not replaced")
	}
	for _, tc := range []struct {
		name       string
		src        string
		wantUpTo   int // the tools checked when the surface is asked about
		checkLater bool
	}{
		{"reads no tool", aheadRubric, minBatch, true},
		{"reads the tools' answers", readsTools, n, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, sv, rep, states := checkedRunOf(t, tc.src, n)
			checked := NewChecked(n)
			for i := range minBatch {
				checked.Done(i)
			}
			rest := func() {
				for i := minBatch; i < n; i++ {
					checked.Done(i)
				}
				checked.Over(nil)
			}
			upTo := -1
			a := &surfaceHookAsker{atOnceAsker: atOnceAsker{atOnce: true}}
			a.onSurface = func() {
				checked.mu.Lock()
				upTo = checked.upTo
				checked.mu.Unlock()
				if tc.checkLater {
					rest()
				}
			}
			if !tc.checkLater {
				a.onTools = rest
			}
			answers, _, err := Ask(context.Background(), r, a, sv, rep, states, checked, nil)
			if err != nil {
				t.Fatal(err)
			}
			if upTo != tc.wantUpTo {
				t.Errorf("the surface was asked about with %d tools checked, want %d", upTo, tc.wantUpTo)
			}
			if _, ok := answers["all"]; !ok {
				t.Errorf("answers %v: want the surface's", answers)
			}
			for i, tl := range rep.Tools {
				if len(tl.Answers) != 1 {
					t.Errorf("tool %d was handed %d answers", i, len(tl.Answers))
				}
			}
		})
	}
}
