package score

import (
	"sync"

	"github.com/rubricmcp/rubric/engine/score/check"
)

// early lets the tools' check pass start while the surface's signals are
// computed, for a rubric whose tools' signals read neither the surface
// nor its signals (check.ChecksBeforeSignals): the signals are cel-go
// over the whole surface, on one core (at 5,000 TDQS tools a tenth of a
// second with the other core idle), and the first tools are checked
// beside them. A tool checked before they are is completed
// (check.Surface.Complete, then handed to the questions) once they are.
type early struct {
	sv, before *check.Surface
	complete   func(i int)
	mu         sync.Mutex
	ready      bool
	err        error // the signals' error
	pending    []int // the tools checked before the signals were ready
	done       chan struct{}
}

// Hooks for tests: beforeSignals runs as the signals start, checkedEarly
// when a tool checked before them is set aside.
var (
	testHookBeforeSignals func()
	testHookCheckedEarly  func(i int)
)

// startEarly computes sv's signals (signals) beside the check pass, and
// completes each tool checked before them with complete; with a nil
// signals, sv's are computed already, and every tool is checked with sv.
func startEarly(sv *check.Surface, signals func() error, complete func(i int)) *early {
	e := &early{sv: sv, complete: complete, done: make(chan struct{})}
	if signals == nil {
		e.ready = true
		close(e.done)
		return e
	}
	e.before = sv.Early()
	go func() {
		defer close(e.done)
		if h := testHookBeforeSignals; h != nil {
			h()
		}
		err := signals()
		e.mu.Lock()
		e.ready, e.err = true, err
		pending := e.pending
		e.pending = nil
		e.mu.Unlock()
		if err == nil {
			for _, i := range pending {
				e.complete(i)
			}
		}
	}()
	return e
}

// surface returns the surface to check a tool with, and whether its
// signals are computed (the tool is then complete once checked); the
// signals' error when they failed.
func (e *early) surface() (*check.Surface, bool, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case !e.ready:
		return e.before, false, nil
	case e.err != nil:
		return nil, false, e.err
	}
	return e.sv, true, nil
}

// checked hands on tool i, checked with the surface before its signals:
// completed now if they are ready, or once they are.
func (e *early) checked(i int) error {
	e.mu.Lock()
	if !e.ready {
		e.pending = append(e.pending, i)
		e.mu.Unlock()
		if h := testHookCheckedEarly; h != nil {
			h(i)
		}
		return nil
	}
	err := e.err
	e.mu.Unlock()
	if err != nil {
		return err
	}
	e.complete(i)
	return nil
}

// wait waits until the signals are computed and the tools checked before
// them completed, and returns the signals' error.
func (e *early) wait() error {
	<-e.done
	return e.err
}
