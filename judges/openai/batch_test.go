package openai_test

import (
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/judges/internal/httpjudge/judgetest"
	"github.com/rubricmcp/rubric/judges/openai"
)

// TestBatch: the judge answers through the OpenAI Batch API (an input
// file uploaded, a batch created, looked at, its output file read), as
// judgetest.RunBatch checks against the fake API.
func TestBatch(t *testing.T) {
	judgetest.RunBatch(t, judgetest.BatchCase{
		New:     func() judge.Judge { return openai.New() },
		BaseURL: func(url string) string { return url + "/v1" },
	})
}

// TestBatchOutcomes: each way a batch item can end is told apart, as
// judgetest.RunBatchOutcomes checks.
func TestBatchOutcomes(t *testing.T) {
	judgetest.RunBatchOutcomes(t, judgetest.BatchCase{
		New:     func() judge.Judge { return openai.New() },
		BaseURL: func(url string) string { return url + "/v1" },
	})
}

// TestBatchLabels: a batch carries the asker's nonce in its metadata
// and is found by it through the list of batches, over the protocol.
func TestBatchLabels(t *testing.T) {
	judgetest.RunBatchLabels(t, judgetest.BatchCase{
		New:     func() judge.Judge { return openai.New() },
		BaseURL: func(url string) string { return url + "/v1" },
	}, true)
}
