package anthropic_test

import (
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/anthropic"
	"github.com/rubricmcp/rubric/judges/internal/httpjudge/judgetest"
)

// TestBatch: the judge answers through Anthropic's Message Batches (a
// batch created with every request, looked at, its results_url read), as
// judgetest.RunBatch checks against the fake API.
func TestBatch(t *testing.T) {
	judgetest.RunBatch(t, judgetest.BatchCase{
		New:     func() judge.Judge { return anthropic.New() },
		BaseURL: func(url string) string { return url },
	})
}

// TestBatchOutcomes: each way a batch item can end is told apart, as
// judgetest.RunBatchOutcomes checks.
func TestBatchOutcomes(t *testing.T) {
	judgetest.RunBatchOutcomes(t, judgetest.BatchCase{
		New:     func() judge.Judge { return anthropic.New() },
		BaseURL: func(url string) string { return url },
	})
}

// TestBatchLabels: a message batch keeps no label of the client's (the
// Message Batches API has no metadata), but the judge finds a labeled
// batch all the same, by its size, when it was created, and the nonce at
// the head of its results' custom ids, as judgetest.RunBatchLabels
// checks.
func TestBatchLabels(t *testing.T) {
	judgetest.RunBatchLabels(t, judgetest.BatchCase{
		New:     func() judge.Judge { return anthropic.New() },
		BaseURL: func(url string) string { return url },
	}, true)
}
