package mcpserver

import (
	"slices"
	"strconv"
	"testing"
)

// TestSessionIDsBounded: past its maximum of live sessions, the set
// forgets the oldest issued (which a client then finds unknown, 404,
// and initializes again), so that initialize in a loop with no DELETE
// does not grow it without bound; an ended session frees its place.
func TestSessionIDsBounded(t *testing.T) {
	tests := []struct {
		name string
		max  int
		ops  []string // "new" issues a session; "end N" ends the Nth issued (from 0)
		live []int    // the sessions, by the order issued, that are live at the end
		// forgotten are the sessions handed to forget, in order: those
		// forgotten as the oldest, never those ended.
		forgotten []int
	}{
		{"under the maximum", 3, []string{"new", "new"}, []int{0, 1}, nil},
		{"at the maximum", 3, []string{"new", "new", "new"}, []int{0, 1, 2}, nil},
		{"past it the oldest goes", 3, []string{"new", "new", "new", "new"}, []int{1, 2, 3}, []int{0}},
		{"a loop keeps the newest", 2, []string{"new", "new", "new", "new", "new", "new"}, []int{4, 5}, []int{0, 1, 2, 3}},
		{"an ended one frees its place", 3, []string{"new", "new", "new", "end 1", "new"}, []int{0, 2, 3}, nil},
		{"ending the oldest spares the next", 2, []string{"new", "new", "end 0", "new", "new"}, []int{2, 3}, []int{1}},
		{"ending an unknown one changes nothing", 2, []string{"new", "end 5", "new"}, []int{0, 1}, nil},
		{"ending a forgotten one changes nothing", 1, []string{"new", "new", "end 0", "new"}, []int{2}, []int{0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var issued, forgotten []string
			s := &sessionIDs{max: tt.max, forget: func(id string) { forgotten = append(forgotten, id) }}
			for _, op := range tt.ops {
				if op == "new" {
					issued = append(issued, s.Generate())
					continue
				}
				n, err := strconv.Atoi(op[len("end "):])
				if err != nil {
					t.Fatal(err)
				}
				id := sessionPrefix + "never-issued"
				if n < len(issued) {
					id = issued[n]
				}
				if _, err := s.Terminate(id); err != nil {
					t.Fatal(err)
				}
			}
			var live []int
			for i, id := range issued {
				_, err := s.Validate(id)
				if known := s.known(id); known != (err == nil) {
					t.Errorf("session %d: known says %v, Validate %v", i, known, err)
				}
				if err == nil {
					live = append(live, i)
				}
			}
			if !slices.Equal(live, tt.live) {
				t.Errorf("live sessions %v, want %v", live, tt.live)
			}
			var gone []int
			for _, id := range forgotten {
				gone = append(gone, slices.Index(issued, id))
			}
			if !slices.Equal(gone, tt.forgotten) {
				t.Errorf("forgotten sessions %v, want %v", gone, tt.forgotten)
			}
			if len(s.live) != s.order.Len() || len(s.live) > tt.max {
				t.Errorf("%d ids held, %d in order, max %d", len(s.live), s.order.Len(), tt.max)
			}
		})
	}
}

// TestSessionIDsDefault: a set given no maximum keeps DefaultMaxSessions.
func TestSessionIDsDefault(t *testing.T) {
	s := &sessionIDs{}
	first := s.Generate()
	for range DefaultMaxSessions - 1 {
		s.Generate()
	}
	if !s.known(first) {
		t.Fatalf("the first of %d sessions was forgotten", DefaultMaxSessions)
	}
	s.Generate()
	if s.known(first) || len(s.live) != DefaultMaxSessions {
		t.Fatalf("past %d sessions: the first known %v, %d held", DefaultMaxSessions, s.known(first), len(s.live))
	}
}

// TestSessionStreams: a session's listening stream ends when the
// session does (forgotten as the oldest, or ended), and at once when it
// opens on a session that is not live; one whose client went is
// forgotten, so the set keeps no stream of its own past its end.
func TestSessionStreams(t *testing.T) {
	for _, tt := range []struct {
		name  string
		then  func(s *sessionIDs, id string) // after the stream opens
		ended bool
	}{
		{"a live session's", func(*sessionIDs, string) {}, false},
		{"a session ended", func(s *sessionIDs, id string) { s.Terminate(id) }, true},
		{"a session forgotten as the oldest", func(s *sessionIDs, _ string) { s.Generate() }, true},
		{"another session ended", func(s *sessionIDs, _ string) { s.Terminate("mcp-session-other") }, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := &sessionIDs{max: 1}
			id := s.Generate()
			ctx, done := s.stream(t.Context(), id)
			tt.then(s, id)
			if got := ctx.Err() != nil; got != tt.ended {
				t.Errorf("stream ended %v, want %v", got, tt.ended)
			}
			done()
			if ctx.Err() == nil || len(s.streams) != 0 {
				t.Errorf("once served: stream ended %v, streams kept %d; want ended and none", ctx.Err() != nil, len(s.streams))
			}
		})
	}
	s := &sessionIDs{}
	ctx, done := s.stream(t.Context(), "mcp-session-never")
	defer done()
	if ctx.Err() == nil || len(s.streams) != 0 {
		t.Errorf("a stream of a session never issued: ended %v, kept %d; want ended at once, none kept", ctx.Err() != nil, len(s.streams))
	}
}
