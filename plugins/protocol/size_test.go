package protocol

import (
	"context"
	"errors"
	"math"
	"net"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/plugins/proto/pluginv1"
)

// echo answers with the length of the user prompt.
type echo struct{}

func (echo) Describe(context.Context) (judge.Identity, error) { return judge.Identity{}, nil }
func (echo) Configure(context.Context, judge.Config) (judge.Identity, error) {
	return judge.Identity{}, nil
}
func (echo) Ask(_ context.Context, q judge.Question) (judge.Answer, error) {
	return judge.Answer{JSON: []byte(`{"n": 1}`), Model: "m"}, nil
}

// serveJudge serves echo on a local socket with the given server and
// returns a client dialled as go-plugin dials (no limit on its side).
func serveJudge(t *testing.T, srv *grpc.Server) *JudgeClient {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	pluginv1.RegisterJudgeServer(srv, &judgeServer{impl: echo{}})
	go srv.Serve(lis)
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(math.MaxInt32), grpc.MaxCallSendMsgSize(math.MaxInt32)))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &JudgeClient{c: pluginv1.NewJudgeClient(conn)}
}

// TestLargeQuestions: a question larger than gRPC's default 4 MiB (a
// coherence question over a large surface) reaches a plugin served with
// Server; and gRPC's own "too large" from a server without it is an error
// that ends the run, never a rate limit to wait out.
func TestLargeQuestions(t *testing.T) {
	q := judge.Question{Kind: "k", User: strings.Repeat("tool: description\n", 5<<20/18)}
	if _, err := serveJudge(t, Server(nil)).Ask(context.Background(), q); err != nil {
		t.Fatalf("a 5 MiB question: %v", err)
	}
	_, err := serveJudge(t, grpc.NewServer()).Ask(context.Background(), q)
	var rl *judge.RateLimitError
	if err == nil || errors.As(err, &rl) || !strings.Contains(err.Error(), "larger than max") {
		t.Errorf("over gRPC's own limit: got %v (%T), want a plain error", err, err)
	}
}
