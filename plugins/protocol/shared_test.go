package protocol

import (
	"context"
	"fmt"
	"math"
	"net"
	"sync"
	"sync/atomic"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/plugins/proto/pluginv1"
)

// recorder is a judge that keeps every question it is asked.
type recorder struct {
	echo
	mu   sync.Mutex
	seen []judge.Question
}

func (r *recorder) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	r.mu.Lock()
	r.seen = append(r.seen, q)
	r.mu.Unlock()
	return r.echo.Ask(ctx, q)
}

// counted serves a judge and counts the shared contexts handed to it;
// old, when set, serves no Share, as a plugin built before it would.
type counted struct {
	*judgeServer
	shares atomic.Int32
	old    bool
}

func (c *counted) Share(ctx context.Context, s *pluginv1.SharedContext) (*pluginv1.ShareReply, error) {
	c.shares.Add(1)
	if c.old {
		return nil, status.Error(codes.Unimplemented, "method Share not implemented")
	}
	return c.judgeServer.Share(ctx, s)
}

// serveCounted serves a recorder behind counted and returns the client.
func serveCounted(t *testing.T, old bool) (*JudgeClient, *counted, *recorder) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	srv := Server(nil)
	c := &counted{judgeServer: &judgeServer{impl: rec}, old: old}
	pluginv1.RegisterJudgeServer(srv, c)
	go srv.Serve(lis)
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(math.MaxInt32), grpc.MaxCallSendMsgSize(math.MaxInt32)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &JudgeClient{c: pluginv1.NewJudgeClient(conn)}, c, rec
}

func sharedQuestion(i, ctxNo int) judge.Question {
	return judge.Question{
		Kind: "k", Subject: fmt.Sprintf("tool_%d", i), System: "s", User: fmt.Sprintf("grade tool_%d", i),
		Input: []byte(fmt.Sprintf(`{"name":"tool_%d"}`, i)), Context: fmt.Sprintf("tools of run %d\n", ctxNo),
		Shared: []byte(fmt.Sprintf(`{"names":["run %d"]}`, ctxNo)), SharedHash: fmt.Sprintf("sha256:%d", ctxNo),
	}
}

// TestSharedContextGoesOnce: many questions asked at once that share one
// context hand it to the plugin once, and the judge behind the plugin
// sees each question whole: its own prompt and input, and the shared
// context and input.
func TestSharedContextGoesOnce(t *testing.T) {
	c, srv, rec := serveCounted(t, false)
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			if _, err := c.Ask(context.Background(), sharedQuestion(i, 1)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if n := srv.shares.Load(); n != 1 {
		t.Errorf("the shared context went %d times, want once", n)
	}
	if len(rec.seen) != 40 {
		t.Fatalf("%d questions reached the judge", len(rec.seen))
	}
	for _, q := range rec.seen {
		want := sharedQuestion(0, 1)
		if q.Context != want.Context || string(q.Shared) != string(want.Shared) || q.SharedHash != want.SharedHash ||
			q.User != "grade "+q.Subject || string(q.Input) != `{"name":"`+q.Subject+`"}` {
			t.Errorf("the judge saw %+v", q)
		}
	}
}

// TestSharedContextToAnOldPlugin: a plugin that does not serve Share gets
// the shared prompt inside each user prompt, and is asked to take the
// context only once.
func TestSharedContextToAnOldPlugin(t *testing.T) {
	c, srv, rec := serveCounted(t, true)
	for i := range 3 {
		if _, err := c.Ask(context.Background(), sharedQuestion(i, 1)); err != nil {
			t.Fatal(err)
		}
	}
	if n := srv.shares.Load(); n != 1 {
		t.Errorf("Share was tried %d times, want once", n)
	}
	for _, q := range rec.seen {
		if q.User != "tools of run 1\ngrade "+q.Subject || q.Context != "" || q.Shared != nil {
			t.Errorf("the old plugin saw %+v", q)
		}
	}
}

// TestSharedContextIsHandedOverAgain: a plugin keeps only its last few
// shared contexts; a question naming one it dropped is answered all the
// same, after the host hands the context over again.
func TestSharedContextIsHandedOverAgain(t *testing.T) {
	c, srv, rec := serveCounted(t, false)
	for run := range keepShared + 1 {
		if _, err := c.Ask(context.Background(), sharedQuestion(0, run)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.Ask(context.Background(), sharedQuestion(1, 0)); err != nil {
		t.Fatalf("a dropped context: %v", err)
	}
	if n := srv.shares.Load(); n != keepShared+2 {
		t.Errorf("%d hand-overs, want %d", n, keepShared+2)
	}
	if last := rec.seen[len(rec.seen)-1]; last.Context != "tools of run 0\n" {
		t.Errorf("the judge saw %+v", last)
	}
}
