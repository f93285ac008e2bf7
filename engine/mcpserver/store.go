package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/rubricmcp/rubric/engine/report"
)

// reportURI is the resource a kept report is read from.
const reportURI = "rubric://reports/"

// store keeps the latest reports, at most max of them, by id.
type store struct {
	mu     sync.Mutex
	max    int
	next   int
	order  []string
	byID   map[string][]byte // the report as JSON, embedded surface included
	listen listener
}

// listener hears of each report a store keeps and each it drops, in the
// order the store does so: it is called under the store's lock, so that
// a report dropped by one call is never announced after it by another.
type listener interface {
	kept(id string, rep *report.Report, b []byte)
	dropped(id string)
}

// newStore is a store of at most max reports that tells listen, when not
// nil, what it keeps and drops.
func newStore(max int, listen listener) *store {
	return &store{max: max, byID: map[string][]byte{}, listen: listen}
}

// put keeps rep and returns its id; the oldest report goes when the store
// is full.
func (s *store) put(rep *report.Report) (string, error) {
	ids, err := s.putAll(rep)
	if err != nil {
		return "", err
	}
	return ids[0], nil
}

// putAll keeps the reports one call made, together, and returns their
// ids: the oldest reports go first, never one of reps, so that every id a
// call returns can be read when it returns. More reports than the store
// holds are refused.
func (s *store) putAll(reps ...*report.Report) ([]string, error) {
	if len(reps) > s.max {
		return nil, tooMany(len(reps), s.max)
	}
	bs := make([][]byte, len(reps))
	for i, rep := range reps {
		b, err := report.Marshal(rep)
		if err != nil {
			return nil, err
		}
		bs[i] = b
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	// The room is made first, so that a listener never hears of more
	// reports than the store keeps.
	for len(s.order)+len(reps) > s.max {
		old := s.order[0]
		delete(s.byID, old)
		s.order = s.order[1:]
		if s.listen != nil {
			s.listen.dropped(old)
		}
	}
	ids := make([]string, len(reps))
	for i, rep := range reps {
		s.next++
		id := "r" + strconv.Itoa(s.next)
		s.byID[id] = bs[i]
		s.order = append(s.order, id)
		if s.listen != nil {
			s.listen.kept(id, rep, bs[i])
		}
		ids[i] = id
	}
	return ids, nil
}

// tooMany refuses a call that would make n reports when the store keeps
// max.
func tooMany(n, max int) error {
	return fmt.Errorf("this call makes %d reports, but rubric mcp was started to keep %d (--max-reports): start it with --max-reports %d or more", n, max, n)
}

// raw returns the JSON of the report id, which may be given as its
// resource URI: score's result holds both, side by side, and a model
// passes either.
func (s *store) raw(id string) ([]byte, error) {
	id = strings.TrimPrefix(id, reportURI)
	s.mu.Lock()
	b, ok := s.byID[id]
	s.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("no report %s: this server keeps the latest %d reports of its lifetime, and ids are those score, lint_tool and rescore returned (r1, r2, ...); score the server again", quoted(id), s.max)
	}
	return b, nil
}

// get returns the report id, decoded as a report file is read.
func (s *store) get(id string) (*report.Report, error) {
	b, err := s.raw(id)
	if err != nil {
		return nil, err
	}
	var r report.Report
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("report %s: %w", id, err)
	}
	return &r, nil
}
