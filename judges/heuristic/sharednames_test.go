package heuristic

import (
	"sync"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/heuristic/internal/tdqs"
)

// TestSharedNamesAreIndexedOnce: the questions of a run asked at once
// share one index of their names, and a shared value that cannot be read
// gives each of them the same error.
func TestSharedNamesAreIndexedOnce(t *testing.T) {
	ask := func(q judge.Question) ([]*tdqs.Names, []error) {
		names := make([]*tdqs.Names, 16)
		errs := make([]error, 16)
		var wg sync.WaitGroup
		for i := range names {
			wg.Go(func() { names[i], errs[i] = sharedNames(q) })
		}
		wg.Wait()
		return names, errs
	}
	names, errs := ask(judge.Question{Shared: []byte(`{"names": ["a", "b"]}`), SharedHash: "sha256:test-indexed-once"})
	for i := range names {
		if errs[i] != nil || names[i] == nil || names[i] != names[0] {
			t.Fatalf("question %d: %p, %v; want the first's index %p", i, names[i], errs[i], names[0])
		}
	}
	_, errs = ask(judge.Question{Shared: []byte(`{"names": 1}`), SharedHash: "sha256:test-unreadable"})
	for i, err := range errs {
		if err == nil || err.Error() != errs[0].Error() {
			t.Errorf("question %d: %v, want the error %v", i, err, errs[0])
		}
	}
}
