package protocol

import (
	"context"
	"errors"
	"io"
	"sync"

	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/rubricmcp/rubric/plugins/proto/pluginv1"
)

// askStream is the one AskStream a JudgeClient keeps open to a plugin
// that advertised judge.CapabilityAskStream: questions go out under ids
// while earlier ones are in flight, and one goroutine hands each answer
// to the Ask that waits for its id.
type askStream struct {
	mu      sync.Mutex // guards everything below, and sending
	stream  pluginv1.Judge_AskStreamClient
	cancel  context.CancelFunc
	next    uint64
	waiting map[uint64]chan streamReply
}

// streamReply is what a question of the stream gets: its result, or why
// the stream ended before it came.
type streamReply struct {
	r   *pluginv1.AskResult
	err error
}

// errNoStream says the plugin does not serve AskStream after all: the
// client asks it with Ask from then on.
var errNoStream = errors.New("the plugin does not serve AskStream")

// streamAsk sends pq over the client's stream, opening it when none is
// open, and returns the plugin's reply as Ask would: the answer, or the
// error the plugin returned as a gRPC status. It returns errNoStream when
// the plugin turns the stream down.
func (j *JudgeClient) streamAsk(ctx context.Context, pq *pluginv1.Question) (*pluginv1.Answer, error) {
	s := &j.stream
	s.mu.Lock()
	if s.stream == nil {
		// The stream outlives any one question: it is opened under a
		// context of its own, which ends when the stream breaks.
		sctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
		st, err := j.c.AskStream(sctx)
		if err != nil {
			cancel()
			s.mu.Unlock()
			if status.Code(err) == codes.Unimplemented {
				return nil, errNoStream
			}
			return nil, err
		}
		s.stream, s.cancel = st, cancel
		s.waiting = map[uint64]chan streamReply{}
		go j.receive(s, st)
	}
	s.next++
	id := s.next
	done := make(chan streamReply, 1)
	s.waiting[id] = done
	st := s.stream
	// A failed send means the stream broke: receive then tells every
	// question waiting why, this one included.
	_ = st.Send(&pluginv1.AskItem{Id: id, Question: pq})
	s.mu.Unlock()
	select {
	case reply := <-done:
		if err := reply.err; err != nil {
			if status.Code(err) == codes.Unimplemented {
				return nil, errNoStream
			}
			return nil, err
		}
		r := reply.r
		if len(r.GetStatus()) > 0 {
			var sp spb.Status
			if err := proto.Unmarshal(r.GetStatus(), &sp); err != nil {
				return nil, status.Errorf(codes.Internal, "the plugin's error could not be read: %v", err)
			}
			return nil, status.FromProto(&sp).Err()
		}
		return r.GetAnswer(), nil
	case <-ctx.Done():
		s.mu.Lock()
		if s.stream == st {
			delete(s.waiting, id)
		}
		s.mu.Unlock()
		return nil, ctx.Err()
	}
}

// receive hands each answer of st to the question waiting for it until
// st ends; then every question still waiting gets why, and the next
// question opens a new stream.
func (j *JudgeClient) receive(s *askStream, st pluginv1.Judge_AskStreamClient) {
	for {
		r, err := st.Recv()
		s.mu.Lock()
		if err != nil {
			if err == io.EOF {
				err = status.Error(codes.Unavailable, "the judge plugin ended its answer stream")
			}
			for id, w := range s.waiting {
				w <- streamReply{err: err}
				delete(s.waiting, id)
			}
			if s.stream == st {
				s.stream = nil
				s.cancel()
			}
			s.mu.Unlock()
			return
		}
		w, ok := s.waiting[r.GetId()]
		delete(s.waiting, r.GetId())
		s.mu.Unlock()
		if ok {
			w <- streamReply{r: r}
		}
	}
}
