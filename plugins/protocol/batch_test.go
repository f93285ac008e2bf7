package protocol

import (
	"context"
	"errors"
	"net"
	"reflect"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/plugins/proto/pluginv1"
)

// batching is a judge with a batch side that keeps what it was sent and
// returns fixed results.
type batching struct {
	echo
	mu    sync.Mutex
	items []judge.BatchItem
}

func (b *batching) SubmitBatch(_ context.Context, items []judge.BatchItem) (string, error) {
	b.mu.Lock()
	b.items = items
	b.mu.Unlock()
	return "batch_1", nil
}

func (b *batching) PollBatch(_ context.Context, id string) (judge.BatchStatus, error) {
	return judge.BatchStatus{Ended: true, State: "ended", Done: 3, Total: 3, Failed: "not " + id}, nil
}

func (b *batching) CollectBatch(context.Context, string) ([]judge.BatchResult, error) {
	return []judge.BatchResult{
		{ID: "a", Answer: judge.Answer{JSON: []byte(`{"n":1}`), Model: "m", Tokens: judge.Tokens{Input: 10, Output: 2, Cached: 4}}},
		{ID: "b", Unreadable: "cut off"},
		{ID: "d", Unanswered: "expired"},
		{ID: "c", Err: "refused"},
	}, nil
}

// serveImpl serves impl on a local socket and returns the host's client.
func serveImpl(t *testing.T, impl judge.Judge) *JudgeClient {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := Server(nil)
	pluginv1.RegisterJudgeServer(srv, &judgeServer{impl: impl})
	go srv.Serve(lis)
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &JudgeClient{c: pluginv1.NewJudgeClient(conn)}
}

// TestBatchCallsCarryEverything: a judge with a batch side advertises it
// in its identity reply; a submission carries each question whole, its
// shared context sent once and put back into each question that names
// it; a look and the results come back as the judge gave them.
func TestBatchCallsCarryEverything(t *testing.T) {
	impl := &batching{}
	c := serveImpl(t, impl)
	if _, err := c.Configure(context.Background(), judge.Config{}); err != nil {
		t.Fatal(err)
	}
	b, ok := c.Batcher()
	if !ok || !reflect.DeepEqual(c.Capabilities(), []string{judge.CapabilityBatch}) {
		t.Fatalf("capabilities %v", c.Capabilities())
	}
	items := []judge.BatchItem{{ID: "a", Question: sharedQuestion(1, 1)}, {ID: "b", Question: sharedQuestion(2, 1)}, {ID: "c", Question: judge.Question{Kind: "k", Subject: "surface", User: "u", Input: []byte(`{}`)}}}
	id, err := b.SubmitBatch(context.Background(), items)
	if err != nil || id != "batch_1" {
		t.Fatalf("submitted %q, %v", id, err)
	}
	if len(impl.items) != 3 {
		t.Fatalf("the judge got %d items", len(impl.items))
	}
	for i, it := range impl.items {
		want := items[i].Question
		got := it.Question
		if it.ID != items[i].ID || got.User != want.User || got.Context != want.Context || string(got.Shared) != string(want.Shared) || got.SharedHash != want.SharedHash || string(got.Input) != string(want.Input) {
			t.Errorf("item %d: the judge got %+v, want %+v", i, it, items[i])
		}
	}
	st, err := b.PollBatch(context.Background(), id)
	if err != nil || st != (judge.BatchStatus{Ended: true, State: "ended", Done: 3, Total: 3, Failed: "not batch_1"}) {
		t.Errorf("status %+v, %v", st, err)
	}
	rs, err := b.CollectBatch(context.Background(), id)
	want, _ := impl.CollectBatch(context.Background(), id)
	if err != nil || !reflect.DeepEqual(rs, want) {
		t.Errorf("results %+v, %v; want %+v", rs, err, want)
	}
}

// TestNoBatchesWithoutTheCapability: a judge without a batch side
// advertises nothing, the host offers no batch side for it, and a batch
// call made all the same is refused as unimplemented.
func TestNoBatchesWithoutTheCapability(t *testing.T) {
	c := serveImpl(t, echo{})
	if _, err := c.Describe(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Batcher(); ok || len(c.Capabilities()) != 0 {
		t.Fatalf("capabilities %v", c.Capabilities())
	}
	if _, ok := judge.AsBatcher(c); ok {
		t.Error("judge.AsBatcher found a batch side")
	}
	if _, err := c.SubmitBatch(context.Background(), []judge.BatchItem{{ID: "a", Question: judge.Question{Kind: "k"}}}); !errors.Is(err, ErrUnimplemented) {
		t.Errorf("got %v, want the call refused", err)
	}
}
