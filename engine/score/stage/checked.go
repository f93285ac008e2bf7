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
	done    []bool
	upTo    int // the tools before upTo are checked
	over    bool
	err     error
}

// NewChecked returns the progress of a check pass over n tools.
func NewChecked(n int) *Checked {
	c := &Checked{done: make([]bool, n)}
	c.changed.L = &c.mu
	return c
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
// of hi, one saying so.
func (c *Checked) upto(hi int) error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
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
