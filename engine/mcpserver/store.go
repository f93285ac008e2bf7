package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"github.com/rubricmcp/rubric/engine/report"
)

// reportURI is the resource a kept report is read from.
const reportURI = "rubric://reports/"

// store keeps the latest reports, at most max of them, by id.
type store struct {
	mu    sync.Mutex
	max   int
	next  int
	order []string
	byID  map[string][]byte // the report as JSON, embedded surface included
}

func newStore(max int) *store { return &store{max: max, byID: map[string][]byte{}} }

// put keeps rep and returns its id; the oldest report goes when the store
// is full.
func (s *store) put(rep *report.Report) (string, error) {
	b, err := report.Marshal(rep)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.next++
	id := "r" + strconv.Itoa(s.next)
	s.byID[id] = b
	s.order = append(s.order, id)
	if len(s.order) > s.max {
		delete(s.byID, s.order[0])
		s.order = s.order[1:]
	}
	return id, nil
}

// raw returns the JSON of the report id.
func (s *store) raw(id string) ([]byte, error) {
	s.mu.Lock()
	b, ok := s.byID[id]
	s.mu.Unlock()
	if !ok {
		return nil, fmt.Errorf("no report %q: this server keeps the latest %d reports of its lifetime, and ids are those score, lint_tool and rescore returned (r1, r2, ...); score the server again", id, s.max)
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
