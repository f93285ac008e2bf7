package judge

import (
	"context"
	"slices"
	"time"
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
// CapabilityBatch when it can find a batch by the label it was submitted
// with (BatchFinder).
const CapabilityBatchLabels = "batch-labels"

// BatchFinder is a Batcher whose batches can be found again by a label
// the client chooses, so that a run killed between the provider
// accepting a batch and the run keeping its id finds the batch instead
// of submitting (and paying for) the questions again. The label is a
// nonce, and the host makes every item's ID begin with it
// (LabeledItemID): a provider that keeps the nonce on the batch itself
// (OpenAI's metadata) finds the batch by it at once; one that keeps no
// label of the client's (Anthropic's Message Batches) looks among the
// batches created since the nonce was kept with as many items, and
// proves one is the batch sought by its results' item IDs, which it can
// read only once the batch has ended.
type BatchFinder interface {
	Batcher
	// LabelsBatches reports whether this judge can find its batches: the
	// two calls below work only then.
	LabelsBatches() bool
	// SubmitLabeledBatch is SubmitBatch of a batch labeled with nonce
	// (each item's ID made by LabeledItemID), the nonce kept with the
	// batch where the provider keeps one.
	SubmitLabeledBatch(ctx context.Context, items []BatchItem, nonce string) (string, error)
	// FindBatch looks for the batch submitted with the label's nonce.
	// Its ID is empty when the provider has no such batch, or when
	// Pending says that one which may be it has not ended yet.
	FindBatch(ctx context.Context, label BatchLabel) (BatchFound, error)
}

// BatchLabel is what a host knows of a batch it may have submitted
// without learning its id.
type BatchLabel struct {
	// Nonce is the label the batch was submitted with.
	Nonce string
	// Since is when the host kept the nonce, before submitting: the batch
	// was created after it, by the provider's clock give or take its
	// skew. Zero when unknown.
	Since time.Time
	// Items is how many items the batch holds; 0 when unknown.
	Items int
}

// BatchFound is FindBatch's answer.
type BatchFound struct {
	// ID is the provider's id of the batch proven to carry the label.
	ID string
	// Pending, with no ID, says that no batch is proven to be the one
	// sought yet, but a batch that may be it has not ended (its item IDs
	// can be read only from its results): look again later, and submit
	// nothing in its place meanwhile.
	Pending bool
}

// LabeledItemID is the ID of a labeled batch's item whose own ID is key:
// the nonce, then as much of key as fits in 64 characters, so that every
// item of the batch names it. Keys unique in their first 64-len(nonce)
// characters stay unique.
func LabeledItemID(nonce, key string) string {
	room := max(maxItemID-len(nonce), 0)
	return nonce + key[:min(len(key), room)]
}

// maxItemID is the longest item ID every provider takes.
const maxItemID = 64

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
	// answer: the item is asked again, and counts as a judge call.
	// (A plugin older than Unanswered says here too why there was no
	// reply, and the host counts that as a call.)
	Unreadable string
	// Unanswered, when not empty, says why the provider never answered
	// the item: the batch expired or was cancelled before it came to the
	// item, or the provider failed it for now (overloaded, a server
	// error). The item is asked again, and counts as no judge call.
	Unanswered string
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

// CapabilityLocal is what a judge's info advertises when it answers on
// this machine, with no provider, rate limit or price behind a question
// (the heuristic judge): a host then keeps many more questions in flight
// than it would put to a hosted model at once, so that the judge has the
// next question the moment it has answered one and both processes batch
// their messages instead of waking each other for every answer.
const CapabilityLocal = "local"

// Capable is a judge that advertises capabilities of its own
// (CapabilityStructuredInput, CapabilityAskStream, CapabilityLocal); the batch
// capabilities follow from the Batcher and BatchFinder interfaces
// instead.
type Capable interface {
	// Capabilities names what the judge advertises.
	Capabilities() []string
}

// ReadsStructuredInputOnly reports whether j advertised
// CapabilityStructuredInput.
func ReadsStructuredInputOnly(j any) bool { return advertises(j, CapabilityStructuredInput) }

// RunsLocally reports whether j advertised CapabilityLocal.
func RunsLocally(j any) bool { return advertises(j, CapabilityLocal) }

// advertises reports whether j is Capable and names capability.
func advertises(j any, capability string) bool {
	c, ok := j.(Capable)
	return ok && slices.Contains(c.Capabilities(), capability)
}
