package progress

import (
	"bytes"
	"slices"
	"testing"
	"time"
)

// TestProgressLine: each step's bytes on the terminal. The line fits
// the width, is erased with spaces (no escape sequence a dumb terminal
// would print), is redrawn below a log line, is throttled to ten draws
// a second but for the last, and is erased by end for good.
func TestLine(t *testing.T) {
	var out bytes.Buffer
	at := time.Unix(0, 0)
	// The throttle's timer never fires here (see the next test).
	p := &Line{w: &out, width: func() int { return 30 }, now: func() time.Time { return at },
		after: func(time.Duration, func()) func() bool { return func() bool { return true } }}
	steps := []struct {
		name string
		do   func()
		want string
	}{
		{"first", func() { p.Show("scan: 0/4 servers · 0 failed · 2 in flight", false) }, "\rscan: 0/4 servers · 0 failed…"},
		{"throttled", func() {
			at = at.Add(50 * time.Millisecond)
			p.Show("scan: 1/4 servers · 0 failed · 2 in flight", false)
		}, ""},
		{"log", func() { p.Write([]byte("[WARN] x\n")) }, "\r" + spaces(30-1) + "\r[WARN] x\n\rscan: 0/4 servers · 0 failed…"},
		{"wider terminal", func() {
			at = at.Add(100 * time.Millisecond)
			p.width = func() int { return 0 }
			p.Show("scan: 4/4 servers · 0 failed · 0 in flight", true)
		}, "\rscan: 4/4 servers · 0 failed · 0 in flight"},
		{"end", p.End, "\r" + spaces(42) + "\r"},
		{"after end", func() { p.Show("scan: 4/4 servers · 0 failed · 0 in flight", true); p.Write([]byte("bye\n")) }, "bye\n"},
	}
	for _, s := range steps {
		out.Reset()
		s.do()
		if got := out.String(); got != s.want {
			t.Errorf("%s: %q, want %q", s.name, got, s.want)
		}
	}
}

func spaces(n int) string { return string(bytes.Repeat([]byte(" "), n)) }

// TestLineDrawsWhatTheThrottleHeld: a text the throttle holds back is
// drawn once the tenth of a second has passed (the timer is the test's:
// it fires when a step says), the newest of those that came in the
// meantime; a draw in between stops the timer (one that fires all the
// same draws nothing), and end stops it. A scan's line showed "3 in flight" while four servers ran,
// until the next server ended: the fourth's start came within the tenth.
func TestLineDrawsWhatTheThrottleHeld(t *testing.T) {
	var out bytes.Buffer
	at := time.Unix(0, 0)
	var fire func()
	var waits []time.Duration
	stopped := 0
	p := &Line{w: &out, width: func() int { return 0 }, now: func() time.Time { return at },
		after: func(d time.Duration, f func()) func() bool {
			waits = append(waits, d)
			fire = f
			return func() bool { stopped++; return true }
		}}
	steps := []struct {
		name      string
		do        func()
		want      string
		wantWaits []time.Duration
		wantStops int
	}{
		{"first", func() { p.Show("3 in flight", false) }, "\r3 in flight", nil, 0},
		{"held", func() { at = at.Add(40 * time.Millisecond); p.Show("4 in flight", false) }, "", []time.Duration{60 * time.Millisecond}, 0},
		{"held again, one timer", func() { at = at.Add(10 * time.Millisecond); p.Show("1 done, 3 in flight", false) }, "", []time.Duration{60 * time.Millisecond}, 0},
		{"the timer draws the newest", func() { at = at.Add(50 * time.Millisecond); fire() }, "\r1 done, 3 in flight", []time.Duration{60 * time.Millisecond}, 0},
		{"held after the timer's draw", func() { at = at.Add(30 * time.Millisecond); p.Show("2 done, 2 in flight", false) }, "", []time.Duration{60 * time.Millisecond, 70 * time.Millisecond}, 0},
		{"the last is drawn at once", func() { p.Show("4 done, 0 in flight", true) }, "\r4 done, 0 in flight", []time.Duration{60 * time.Millisecond, 70 * time.Millisecond}, 1},
		{"the timer then has nothing to draw", func() { fire() }, "", []time.Duration{60 * time.Millisecond, 70 * time.Millisecond}, 1},
		{"held before end", func() { p.Show("5 in flight", false) }, "", []time.Duration{60 * time.Millisecond, 70 * time.Millisecond, 100 * time.Millisecond}, 1},
		{"end stops the timer", p.End, "\r" + spaces(len("4 done, 0 in flight")) + "\r", []time.Duration{60 * time.Millisecond, 70 * time.Millisecond, 100 * time.Millisecond}, 2},
		{"a timer firing after end draws nothing", func() { fire() }, "", []time.Duration{60 * time.Millisecond, 70 * time.Millisecond, 100 * time.Millisecond}, 2},
	}
	for _, s := range steps {
		out.Reset()
		s.do()
		if got := out.String(); got != s.want {
			t.Errorf("%s: %q, want %q", s.name, got, s.want)
		}
		if !slices.Equal(waits, s.wantWaits) || stopped != s.wantStops {
			t.Errorf("%s: timers set for %v and %d stopped, want %v and %d", s.name, waits, stopped, s.wantWaits, s.wantStops)
		}
	}
}

// TestLineStaleTimerKeepsTheThrottle: a draw of a last text (a scan's
// line with nothing in flight, which happens between two servers, not
// only at the end) leaves the timer set for an earlier held text running;
// a text held after that draw rides the old timer and is drawn when it
// fires, 10 ms after the previous draw, not a tenth of a second: the line
// is drawn more than ten times a second, which its doc rules out.
func TestLineStaleTimerKeepsTheThrottle(t *testing.T) {
	var out bytes.Buffer
	at := time.Unix(0, 0)
	type timer struct {
		due time.Time
		f   func()
	}
	var timers []timer
	p := &Line{w: &out, width: func() int { return 0 }, now: func() time.Time { return at },
		after: func(d time.Duration, f func()) func() bool {
			timers = append(timers, timer{at.Add(d), f})
			return func() bool { return true }
		}}
	var draws []time.Time
	show := func(text string, last bool) {
		out.Reset()
		p.Show(text, last)
		if out.Len() > 0 {
			draws = append(draws, at)
		}
	}
	show("1 in flight", false)         // drawn at 0
	at = at.Add(40 * time.Millisecond) // 40
	show("2 in flight", false)         // held, timer due at 100
	at = at.Add(50 * time.Millisecond) // 90
	show("2 done, 0 in flight", true)  // drawn at 90
	at = at.Add(5 * time.Millisecond)  // 95
	show("2 done, 1 in flight", false) // held: due no sooner than 190
	at = timers[0].due                 // 100: the first timer fires
	out.Reset()
	timers[0].f()
	if out.Len() > 0 {
		draws = append(draws, at)
	}
	// The last text may be drawn at once (90 ms after the first); the
	// held one after it must wait a tenth from that draw.
	if len(draws) == 3 {
		if gap := draws[2].Sub(draws[1]); gap < throttle {
			t.Errorf("a held text drawn %v after the previous draw, less than the throttle %v", gap, throttle)
		}
	}
}
