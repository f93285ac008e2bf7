package tokens

import (
	"sync"
	"sync/atomic"
	"testing"

	tiktoken "github.com/pkoukk/tiktoken-go"
)

// TestBuildsOnce: callers that ask for an encoding at the same
// time, as a judged run's first questions do, share one tokenizer, built
// once. The build is held until every caller has started, so that the
// others ask while it is under way.
func TestBuildsOnce(t *testing.T) {
	const callers = 8
	const encoding = "r50k_base"
	var builds atomic.Int32
	release := make(chan struct{})
	build := newEncoding
	newEncoding = func(name string) (*tiktoken.Tiktoken, error) {
		builds.Add(1)
		<-release
		return build(name)
	}
	defer func() { newEncoding = build }()
	codecs.Delete(encoding) // built afresh, whatever test built it before
	defer codecs.Delete(encoding)
	started := make(chan struct{}, callers)
	counts := make(chan int, callers)
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() {
			started <- struct{}{}
			n, err := Count("hello world", encoding)
			if err != nil {
				t.Error(err)
			}
			counts <- n
		})
	}
	for range callers {
		<-started
	}
	close(release)
	wg.Wait()
	close(counts)
	for n := range counts {
		if n != 2 {
			t.Errorf("%q counted %d tokens, want 2", "hello world", n)
		}
	}
	if n := builds.Load(); n != 1 {
		t.Errorf("the tokenizer was built %d times for %d callers, want once", n, callers)
	}
}
