package ask_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/ask"
	"github.com/rubricmcp/rubric/engine/judge"
)

// steps records, in order, the limit's waits and the judge's calls.
type steps struct {
	mu  sync.Mutex
	log []string
	err error // what Wait returns
}

func (s *steps) add(step string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.log = append(s.log, step)
}

func (s *steps) Wait(ctx context.Context) error {
	s.add("wait")
	return s.err
}

// Every call to a paced judge waits on the limit first: the first try
// of each question, the retry of an unreadable answer and the try after
// a rate limit alike.
func TestPacedWaitsBeforeEveryCall(t *testing.T) {
	r := loadRubric(t)
	limit := &steps{}
	j := &counting{script: func(call int64, q judge.Question) (judge.Answer, error, bool) {
		limit.add("call")
		switch call {
		case 1:
			return judge.Answer{JSON: []byte(`not json`), Model: "m1"}, nil, true
		case 2:
			return judge.Answer{}, &judge.RateLimitError{Msg: "429"}, true
		}
		return judge.Answer{}, nil, false
	}}
	a := &ask.Asker{Judge: ask.Paced(j, limit), Identity: identity, Rubric: r, Concurrency: 1,
		After: func(time.Duration) <-chan time.Time { return now() }}
	if _, err := a.Ask(context.Background(), requests(t, r, "ab", "abc")); err != nil {
		t.Fatal(err)
	}
	want := "wait call wait call wait call wait call" // ab: unreadable, rate limited, answered; abc: answered
	if got := strings.Join(limit.log, " "); got != want {
		t.Errorf("steps %q, want %q", got, want)
	}
}

// A limit that cannot be waited on (its database gone, the run stopped)
// fails the question without calling the judge.
func TestPacedLimitError(t *testing.T) {
	r := loadRubric(t)
	gone := errors.New("rate limit openai:gpt-5: database is closed")
	limit := &steps{err: gone}
	j := &counting{}
	a := &ask.Asker{Judge: ask.Paced(j, limit), Identity: identity, Rubric: r}
	_, err := a.Ask(context.Background(), requests(t, r, "ab"))
	if !errors.Is(err, gone) {
		t.Errorf("Ask = %v, want the limit's error", err)
	}
	if n := j.calls.Load(); n != 0 {
		t.Errorf("the judge was called %d times, want none", n)
	}
	if ask.Paced(j, nil) != ask.Judge(j) {
		t.Error("Paced with no limit is not the judge itself")
	}
}
