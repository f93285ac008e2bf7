package ask

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/surface"
)

// blocking is a judge whose first call waits until release is closed;
// any later call closes it, so that a second call of one question, had
// the asker made it, lets both answer instead of hanging.
type blocking struct {
	calls   atomic.Int64
	once    sync.Once
	release chan struct{}
}

func (b *blocking) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	if b.calls.Add(1) == 1 {
		<-b.release
	} else {
		b.once.Do(func() { close(b.release) })
	}
	return judge.Answer{JSON: []byte(fmt.Sprintf(`{"n": %d}`, len(q.Subject))), Model: "m1"}, nil
}

// TestOneQuestionAskedTwiceIsAskedOnce: two requests of one question with
// one input, in flight together, make one call; the second waits for the
// first's answer and counts as read from the cache. Without it both were
// asked when they overlapped and one read the cache when they did not, so
// a run's "49 calls, 2 from the cache" depended on the machine's load.
func TestOneQuestionAskedTwiceIsAskedOnce(t *testing.T) {
	r := oneQuestion(t)
	store, err := cache.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b, err := lang.MarshalCanonical(map[string]any{"name": "same"})
	if err != nil {
		t.Fatal(err)
	}
	req := Request{Question: r.Questions[0], Subject: "same", Input: map[string]any{"name": "same"}, InputJSON: b, InputHash: surface.HashBytes(b)}
	j := &blocking{release: make(chan struct{})}
	a := &Asker{Judge: j, Identity: judge.Identity{Plugin: "blocking", Version: "1", Model: "m1"}, Rubric: r, Cache: store, Concurrency: 2}
	// The second request waiting is what lets the first answer.
	a.onWait = func() { j.once.Do(func() { close(j.release) }) }
	obs, err := a.Ask(context.Background(), []Request{req, req})
	if err != nil {
		t.Fatal(err)
	}
	if n := j.calls.Load(); n != 1 {
		t.Errorf("%d calls, want 1: the second request asked as well", n)
	}
	st := a.Stats()
	if st.CacheHits != 1 || st.Calls != 1 {
		t.Errorf("stats %+v, want 1 call and 1 cache hit", st)
	}
	if obs[0].Cached == obs[1].Cached {
		t.Errorf("cached %v and %v, want exactly one of the two read from the cache", obs[0].Cached, obs[1].Cached)
	}
}
