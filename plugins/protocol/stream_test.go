package protocol

import (
	"context"
	"errors"
	"fmt"
	"net"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/plugins/proto/pluginv1"
)

// streamer is a judge that advertises caps, keeps every question it is
// asked, answers with the question's subject, and fails as its subject
// says: "rate", "unreadable" or "fail".
type streamer struct {
	caps []string
	mu   sync.Mutex
	seen []judge.Question
	// hold, when set, is waited on by the subject "held" before it is
	// answered; entered is closed when that question arrives.
	hold, entered chan struct{}
}

func (s *streamer) Describe(context.Context) (judge.Identity, error) { return judge.Identity{}, nil }
func (s *streamer) Configure(context.Context, judge.Config) (judge.Identity, error) {
	return judge.Identity{}, nil
}
func (s *streamer) Capabilities() []string { return s.caps }

func (s *streamer) Ask(_ context.Context, q judge.Question) (judge.Answer, error) {
	s.mu.Lock()
	s.seen = append(s.seen, q)
	s.mu.Unlock()
	switch q.Subject {
	case "rate":
		return judge.Answer{}, &judge.RateLimitError{RetryAfter: 1500 * time.Millisecond, Msg: "slow down"}
	case "unreadable":
		return judge.Answer{}, &judge.UnreadableError{Msg: "no text"}
	case "fail":
		return judge.Answer{}, errors.New("bad key")
	case "held":
		close(s.entered)
		<-s.hold
	}
	return judge.Answer{JSON: []byte(fmt.Sprintf(`{"subject":%q,"shared":%q}`, q.Subject, q.Shared)), Model: "m", Tokens: judge.Tokens{Input: len(q.Subject)}}, nil
}

// noStream serves a judge that advertises the stream but, as a plugin
// built before AskStream would, does not serve it; it counts the calls.
type noStream struct {
	*judgeServer
	streams, asks atomic.Int32
}

func (n *noStream) AskStream(pluginv1.Judge_AskStreamServer) error {
	n.streams.Add(1)
	return status.Error(codes.Unimplemented, "method AskStream not implemented")
}

func (n *noStream) Ask(ctx context.Context, q *pluginv1.Question) (*pluginv1.Answer, error) {
	n.asks.Add(1)
	return n.judgeServer.Ask(ctx, q)
}

// serveServer serves srv's judge on a local socket, configures the
// client (so that it knows the capabilities) and returns it.
func serveServer(t *testing.T, js pluginv1.JudgeServer) *JudgeClient {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := Server(nil)
	pluginv1.RegisterJudgeServer(srv, js)
	go srv.Serve(lis)
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	c := &JudgeClient{c: pluginv1.NewJudgeClient(conn)}
	if _, err := c.Configure(context.Background(), judge.Config{}); err != nil {
		t.Fatal(err)
	}
	return c
}

var streamCaps = []string{judge.CapabilityStructuredInput, judge.CapabilityAskStream}

// TestAskStreamAnswersEachQuestion: a judge that advertises the stream
// and the structured input is asked many questions at once over one
// stream; each gets its own answer, as Ask would give it, and the judge
// sees each question's kind, subject, input and shared input, without
// the prompts or the answer schema.
func TestAskStreamAnswersEachQuestion(t *testing.T) {
	impl := &streamer{caps: streamCaps}
	c := serveServer(t, &judgeServer{impl: impl})
	if !slices.Equal(c.Capabilities(), streamCaps) {
		t.Fatalf("capabilities %v", c.Capabilities())
	}
	var wg sync.WaitGroup
	for i := range 60 {
		wg.Go(func() {
			q := sharedQuestion(i, 1)
			q.AnswerSchema = []byte(`{"type":"object"}`)
			a, err := c.Ask(context.Background(), q)
			want, _ := (&streamer{}).Ask(context.Background(), q)
			if err != nil || string(a.JSON) != string(want.JSON) || a.Model != "m" || a.Tokens != want.Tokens {
				t.Errorf("%s: got %+v, %v; want %+v", q.Subject, a, err, want)
			}
		})
	}
	wg.Wait()
	if c.noStream || c.stream.stream == nil {
		t.Fatal("the questions did not go over a stream")
	}
	for _, q := range impl.seen {
		if q.System != "" || q.User != "" || q.Context != "" || q.AnswerSchema != nil {
			t.Errorf("the judge got the prompts or the schema: %+v", q)
		}
		if q.Kind != "k" || string(q.Input) != `{"name":"`+q.Subject+`"}` || string(q.Shared) != `{"names":["run 1"]}` || q.SharedHash != "sha256:1" {
			t.Errorf("the judge missed part of the input: %+v", q)
		}
	}
}

// TestAskStreamErrorsAsAsk: over the stream, the errors the engine acts
// on keep their kind and wait, and any other keeps its message, as they
// do over Ask.
func TestAskStreamErrorsAsAsk(t *testing.T) {
	streamed := serveServer(t, &judgeServer{impl: &streamer{caps: streamCaps}})
	unary := serveServer(t, &judgeServer{impl: &streamer{}})
	for _, subject := range []string{"rate", "unreadable", "fail"} {
		q := judge.Question{Kind: "k", Subject: subject, Input: []byte(`{}`)}
		_, want := unary.Ask(context.Background(), q)
		_, got := streamed.Ask(context.Background(), q)
		if got == nil || want == nil || got.Error() != want.Error() || fmt.Sprintf("%T", got) != fmt.Sprintf("%T", want) {
			t.Errorf("%s: over the stream %v (%T), over Ask %v (%T)", subject, got, got, want, want)
		}
		var rl *judge.RateLimitError
		if errors.As(got, &rl) && rl.RetryAfter != 1500*time.Millisecond {
			t.Errorf("the wait came as %v", rl.RetryAfter)
		}
	}
	if streamed.stream.stream == nil {
		t.Error("the stream did not survive the errors")
	}
}

// TestAskStreamSharesAgain: a question over the stream that names a
// shared context the judge no longer holds is answered all the same,
// after the host hands the context over again.
func TestAskStreamSharesAgain(t *testing.T) {
	impl := &streamer{caps: streamCaps}
	c := serveServer(t, &judgeServer{impl: impl})
	for run := range keepShared + 1 {
		if _, err := c.Ask(context.Background(), sharedQuestion(0, run)); err != nil {
			t.Fatal(err)
		}
	}
	a, err := c.Ask(context.Background(), sharedQuestion(1, 0))
	if err != nil || string(a.JSON) != `{"subject":"tool_1","shared":"{\"names\":[\"run 0\"]}"}` {
		t.Fatalf("a dropped context: %s, %v", a.JSON, err)
	}
}

// TestAskStreamFallsBackToAsk: a plugin that advertises the stream but
// does not serve it is asked with Ask, and tried over a stream only once.
func TestAskStreamFallsBackToAsk(t *testing.T) {
	srv := &noStream{judgeServer: &judgeServer{impl: &streamer{caps: streamCaps}}}
	c := serveServer(t, srv)
	for i := range 3 {
		a, err := c.Ask(context.Background(), sharedQuestion(i, 1))
		if err != nil || len(a.JSON) == 0 {
			t.Fatalf("question %d: %s, %v", i, a.JSON, err)
		}
	}
	if s, n := srv.streams.Load(), srv.asks.Load(); s != 1 || n != 3 {
		t.Errorf("%d streams and %d calls of Ask, want 1 and 3", s, n)
	}
}

// TestAskStreamLeavesAQuestionGivenUp: a question whose context ends
// while the judge works on it returns at once with the context's error;
// its answer, when it comes, is dropped, and the stream goes on.
func TestAskStreamLeavesAQuestionGivenUp(t *testing.T) {
	impl := &streamer{caps: streamCaps, hold: make(chan struct{}), entered: make(chan struct{})}
	c := serveServer(t, &judgeServer{impl: impl})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := c.Ask(ctx, judge.Question{Kind: "k", Subject: "held"})
		done <- err
	}()
	<-impl.entered
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want the context's error", err)
	}
	close(impl.hold)
	a, err := c.Ask(context.Background(), judge.Question{Kind: "k", Subject: "after"})
	if err != nil || string(a.JSON) != `{"subject":"after","shared":""}` {
		t.Fatalf("the next question: %s, %v", a.JSON, err)
	}
}

// gate is a judge whose every answer waits for open to close; entered
// counts the questions it has begun, and all is closed when it has begun
// want of them.
type gate struct {
	streamer
	open, all chan struct{}
	want      int32
	entered   atomic.Int32
}

func (g *gate) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	if g.entered.Add(1) == g.want {
		close(g.all)
	}
	<-g.open
	return g.streamer.Ask(ctx, q)
}

// TestAskStreamTellsWhenBehind: a judge is behind (JudgePlugin.Behind)
// once BehindStreak questions in a row have arrived while BehindAt or
// more were still being answered; never while it keeps up, however many
// questions it answers.
func TestAskStreamTellsWhenBehind(t *testing.T) {
	t.Run("keeping up", func(t *testing.T) {
		var behind atomic.Int32
		c := serveServer(t, &judgeServer{impl: &streamer{caps: streamCaps}, behind: func() { behind.Add(1) }})
		for i := range 2 * (BehindAt + BehindStreak) {
			if _, err := c.Ask(context.Background(), judge.Question{Kind: "k", Subject: fmt.Sprint(i)}); err != nil {
				t.Fatal(err)
			}
		}
		if n := behind.Load(); n != 0 {
			t.Errorf("behind %d times", n)
		}
	})
	t.Run("piling up", func(t *testing.T) {
		n := BehindAt + BehindStreak
		g := &gate{streamer: streamer{caps: streamCaps}, open: make(chan struct{}), all: make(chan struct{}), want: int32(n)}
		var behind atomic.Int32
		c := serveServer(t, &judgeServer{impl: g, behind: func() { behind.Add(1) }})
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				if _, err := c.Ask(context.Background(), judge.Question{Kind: "k", Subject: fmt.Sprint(i)}); err != nil {
					t.Error(err)
				}
			})
		}
		<-g.all // every question has arrived, none is answered
		if got := behind.Load(); got != 1 {
			t.Errorf("behind %d times after %d questions piled up, want 1 (at the last)", got, n)
		}
		close(g.open)
		wg.Wait()
	})
}

// holding is a judge that holds every question until the test releases
// one, and counts how many it holds at once; reached is closed when it
// has begun at of them.
type holding struct {
	streamer
	release, reached chan struct{}
	at               int

	mu                     sync.Mutex
	entered, running, most int
}

func (h *holding) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	h.mu.Lock()
	h.entered++
	h.running++
	h.most = max(h.most, h.running)
	if h.entered == h.at {
		close(h.reached)
	}
	h.mu.Unlock()
	<-h.release
	h.mu.Lock()
	h.running--
	h.mu.Unlock()
	return h.streamer.Ask(ctx, q)
}

// TestAskStreamLocalAnswersOnItsProcessors: a judge that answers locally
// (judge.CapabilityLocal), its work its CPU, answers no more questions
// of a stream at once than it has processors, however many the host
// sends; any other judge answers all of them at once. Either way every
// question is answered, and the judge falls behind as before.
func TestAskStreamLocalAnswersOnItsProcessors(t *testing.T) {
	n := BehindAt + BehindStreak
	procs := min(runtime.GOMAXPROCS(0), n)
	for _, tc := range []struct {
		name string
		caps []string
		most int
	}{
		{"local", append(slices.Clone(streamCaps), judge.CapabilityLocal), procs},
		{"not local", streamCaps, n},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := &holding{streamer: streamer{caps: tc.caps}, release: make(chan struct{}), reached: make(chan struct{}), at: tc.most}
			arrived := make(chan struct{})
			c := serveServer(t, &judgeServer{impl: h, behind: sync.OnceFunc(func() { close(arrived) })})
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					a, err := c.Ask(context.Background(), judge.Question{Kind: "k", Subject: fmt.Sprint(i)})
					if err != nil || string(a.JSON) != fmt.Sprintf(`{"subject":"%d","shared":""}`, i) {
						t.Errorf("question %d: %s, %v", i, a.JSON, err)
					}
				})
			}
			<-arrived   // every question has arrived, the last one behind
			<-h.reached // as many have begun as may be answered at once
			for range n {
				h.release <- struct{}{}
			}
			wg.Wait()
			if h.most != tc.most {
				t.Errorf("%d questions answered at once, want %d", h.most, tc.most)
			}
		})
	}
}
