package stage

import (
	"errors"
	"sync"

	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score/check"
)

// Checked follows the tools' check pass while the questions are asked,
// so that a tool's question is built as soon as the tools up to it are
// checked, and the judge answers the first tools while the host checks
// the others, instead of waiting for the whole pass. A nil *Checked is a
// pass already over, every tool checked.
type Checked struct {
	mu      sync.Mutex
	changed sync.Cond
	room    sync.Cond // a check held by the bound may start
	done    []bool
	upTo    int // the tools before upTo are checked
	over    bool
	err     error
	// lead, when above 0, bounds how far the checks run ahead of the
	// tools finished (see Bound): a tool is checked once it is before
	// handed+lead, or before wanted, the most tools anyone waited for.
	lead, handed, wanted int
	// waiting is the first tool a check waits to start, -1 when none
	// does: it is woken once the bound has moved a step past it.
	waiting int
}

// leadStep is how far the bound moves past a check it holds before the
// check is woken: checks held one tool at a time would each wait and be
// woken again, a context switch for every tool.
const leadStep = 64

// MaxLead is how many tools the checks may run ahead of the answers when
// bounded (see Bound): the two batches of questions a tool question has
// built or being built at once, twice over, so that the checks never
// hold up a batch.
const MaxLead = 4 * maxBatch

// NewChecked returns the progress of a check pass over n tools.
func NewChecked(n int) *Checked {
	c := &Checked{done: make([]bool, n), waiting: -1}
	c.changed.L = &c.mu
	c.room.L = &c.mu
	return c
}

// Bound keeps the checks at most lead tools ahead of the tools finished
// (Handed), for a run that lets a tool's scope go once its answers are in:
// the scopes of checked tools waiting for their answers are most of what
// such a run holds, and checks far ahead of a slower judge held them all
// (at 5,000 TDQS tools, every definition's signals at once). Waiting for
// the checks up to a tool (a question's build, or a question about the
// surface that waits for every tool) lets them run up to it whatever the
// bound, so that nothing waits for a check the bound holds back, but for
// a question about the surface asked beside the question per tool, whose
// answers move the bound on, and which lifts it when it ends (Ask);
// Unbound lifts it.
func (c *Checked) Bound(lead int) {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.lead = lead
	c.mu.Unlock()
}

// Handed says one more tool was finished with its answers, its scope let
// go of what is no longer read.
func (c *Checked) Handed() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.handed++
	wake := c.waiting >= 0 && c.handed+c.lead >= c.waiting+min(leadStep, c.lead)
	if wake {
		c.waiting = -1 // the checks still held say so again
	}
	c.mu.Unlock()
	if wake {
		c.room.Broadcast()
	}
}

// Unbound lifts the bound: the checks run to the end. Called once the
// asking is over, however it ended, so that no check waits for answers
// that will not come.
func (c *Checked) Unbound() {
	if c == nil {
		return
	}
	c.mu.Lock()
	c.lead = 0
	c.mu.Unlock()
	c.room.Broadcast()
}

// Start waits until the i-th tool may be checked under the bound.
func (c *Checked) Start(i int) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.lead > 0 && i >= c.handed+c.lead && i >= c.wanted {
		if c.waiting < 0 || i < c.waiting {
			c.waiting = i
		}
		c.changed.Broadcast() // for a test waiting to see the checks held
		c.room.Wait()
	}
}

// Done says the i-th tool's check is over and its state, prepared (see
// Prepare), stored where Ask reads it.
func (c *Checked) Done(i int) {
	c.mu.Lock()
	c.done[i] = true
	moved := false
	for c.upTo < len(c.done) && c.done[c.upTo] {
		c.upTo++
		moved = true
	}
	c.mu.Unlock()
	if moved {
		c.changed.Broadcast()
	}
}

// Over says the pass is over, with its error: the first failed tool's,
// or why the pass stopped.
func (c *Checked) Over(err error) {
	c.mu.Lock()
	c.over, c.err = true, err
	c.mu.Unlock()
	c.changed.Broadcast()
}

// upto waits until the tools before hi are checked, or the pass is over
// short of them: its error then, or, should a pass end without one short
// of hi, one saying so. The checks run up to hi whatever the bound.
func (c *Checked) upto(hi int) error {
	return c.wait(hi, true)
}

// uptoBeside is upto for a wait beside the question per tool, whose
// answers move the bound on (see Bound) until it ends and lifts it: the
// checks keep within the bound meanwhile.
func (c *Checked) uptoBeside(hi int) error {
	return c.wait(hi, false)
}

// wait is upto, and with raise lets the checks run up to hi.
func (c *Checked) wait(hi int, raise bool) error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if raise && hi > c.wanted {
		c.wanted = hi
		c.waiting = -1
		c.room.Broadcast()
	}
	for c.upTo < hi && !c.over {
		c.changed.Wait()
	}
	if c.upTo >= hi {
		return nil
	}
	if c.err == nil {
		return errShortPass
	}
	return c.err
}

// errShortPass is what waiting for tools a pass never checked returns when
// the pass gave no error of its own.
var errShortPass = errors.New("the tools' checks ended before every tool was checked")

// Wait waits for the pass to be over and returns its error.
func (c *Checked) Wait() error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for !c.over {
		c.changed.Wait()
	}
	return c.err
}

// Prepare readies a checked tool's state for Ask: no answers yet, a null
// one for each question per tool.
func Prepare(r *rubric.Rubric, st *check.State) {
	st.Answers = map[string]any{}
	for _, q := range r.Questions {
		if q.Per == rubric.PerTool {
			st.Answers[q.Name] = nil
		}
	}
}
