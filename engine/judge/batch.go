package judge

import (
	"context"
	"slices"
)

// CapabilityBatch is what a judge's info advertises when it answers
// through its provider's batch API (Batcher): many questions submitted at
// once, answered later, at the provider's batch price.
const CapabilityBatch = "batch"

// Batcher is a judge that can also answer many questions at once through
// its provider's batch API. A batch is submitted, polled until it has
// ended (minutes to hours later), then its answers are collected. The
// batch id is all that is needed to poll and collect, so a run that was
// stopped can take a batch up again by its id.
type Batcher interface {
	// SubmitBatch sends the questions as one batch, each under its item's
	// ID, and returns the batch's id at the provider.
	SubmitBatch(ctx context.Context, items []BatchItem) (string, error)
	// PollBatch says how the batch with this id is getting on.
	PollBatch(ctx context.Context, id string) (BatchStatus, error)
	// CollectBatch returns the results of an ended batch, one for each
	// item the provider has a result for, under the item's ID.
	CollectBatch(ctx context.Context, id string) ([]BatchResult, error)
}

// CapabilityBatchLabels is what a judge's info advertises beside
// CapabilityBatch when its provider keeps a label on each batch
// (BatchFinder).
const CapabilityBatchLabels = "batch-labels"

// BatchFinder is a Batcher whose provider keeps a label the client
// chooses on each batch and lists its batches, so that a run killed
// between the provider accepting a batch and the run keeping its id can
// find the batch by its label instead of submitting (and paying for) the
// questions again.
type BatchFinder interface {
	Batcher
	// LabelsBatches reports whether this judge's provider keeps labels:
	// the two calls below work only then.
	LabelsBatches() bool
	// SubmitLabeledBatch is SubmitBatch with nonce in the batch's
	// metadata.
	SubmitLabeledBatch(ctx context.Context, items []BatchItem, nonce string) (string, error)
	// FindBatch returns the id of the batch whose metadata carries nonce,
	// or "" when the provider has none.
	FindBatch(ctx context.Context, nonce string) (string, error)
}

// BatchItem is one question of a batch, under an ID unique in the batch
// (letters, digits, '-' and '_', at most 64 of them: what every
// provider takes).
type BatchItem struct {
	ID       string
	Question Question
}

// BatchStatus is how a batch is getting on.
type BatchStatus struct {
	// Ended is true once the provider will answer no more of it.
	Ended bool
	// Failed, when not empty, says why the batch as a whole failed (the
	// input was refused, say): it has no results to collect.
	Failed string
	// State is the provider's word for it ("in_progress", "ended", ...).
	State string
	// Done and Total count its questions answered (or failed) so far and
	// in all, when the provider says.
	Done, Total int
}

// BatchResult is what a batch holds for one item: an Answer, or why
// there is none.
type BatchResult struct {
	ID     string
	Answer Answer
	// Unreadable, when not empty, says why a reply held no readable
	// answer, or why there was no reply (the batch expired before the
	// item was answered): the item is asked again.
	Unreadable string
	// Err, when not empty, is the provider's refusal of the item's
	// request: asking again would not mend it, and the run ends.
	Err string
}

// AsBatcher returns the batch side of a started judge: the judge itself
// when it is a Batcher, or what it offers through a Batcher method (a
// plugin client whose plugin advertised CapabilityBatch); ok is false
// for a judge that does not answer in batches.
func AsBatcher(j any) (b Batcher, ok bool) {
	if o, is := j.(interface{ Batcher() (Batcher, bool) }); is {
		return o.Batcher()
	}
	b, ok = j.(Batcher)
	return b, ok
}

// CapabilityStructuredInput is what a judge's info advertises when it
// answers from a question's kind, subject and structured input (its own
// and the shared one) alone and never reads the prompts or the answer
// schema (the heuristic judge): a host may then leave those out of what
// it sends. The prompts are still rendered and measured by the host, so
// what a report records of them does not change.
const CapabilityStructuredInput = "structured-input"

// CapabilityAskStream is what a judge's info advertises when its answers
// are quick enough that one call a question would cost more than the
// answer (the heuristic judge): a plugin host then asks it many
// questions over one stream instead.
const CapabilityAskStream = "ask-stream"

// Capable is a judge that advertises capabilities of its own
// (CapabilityStructuredInput, CapabilityAskStream); the batch
// capabilities follow from the Batcher and BatchFinder interfaces
// instead.
type Capable interface {
	// Capabilities names what the judge advertises.
	Capabilities() []string
}

// ReadsStructuredInputOnly reports whether j advertised
// CapabilityStructuredInput.
func ReadsStructuredInputOnly(j any) bool {
	c, ok := j.(Capable)
	return ok && slices.Contains(c.Capabilities(), CapabilityStructuredInput)
}
