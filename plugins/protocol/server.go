package protocol

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/plugins/proto/pluginv1"
)

// ChunkSize is the largest piece of a surface document in one message,
// well under gRPC's default 4 MiB message limit.
const ChunkSize = 1 << 20

// MaxMessage is the largest message a plugin accepts: a question's prompts
// and input grow with the surface (a coherence question lists every tool),
// so a plugin takes far more than gRPC's default 4 MiB.
const MaxMessage = 256 << 20

// Server makes a plugin's gRPC server: go-plugin's options plus message
// limits that fit the largest question.
func Server(opts []grpc.ServerOption) *grpc.Server {
	return grpc.NewServer(append(opts, grpc.MaxRecvMsgSize(MaxMessage), grpc.MaxSendMsgSize(MaxMessage))...)
}

type judgeServer struct {
	pluginv1.UnimplementedJudgeServer
	impl judge.Judge
	// behind is JudgePlugin.Behind; answering counts the questions of
	// the answer streams being answered.
	behind    func()
	answering atomic.Int64

	mu sync.Mutex
	// shared are the shared contexts the host handed over, by ref, at most
	// keepShared of them, the oldest dropped first.
	shared map[string]*pluginv1.SharedContext
	order  []string
}

// keepShared is how many shared contexts a judge plugin keeps. A run asks
// one question at a time with one or two of them (a rubric's variants), so
// a few suffice; a question naming one no longer kept is refused, and the
// host hands it over again.
const keepShared = 8

// Share serves Judge.Share: it keeps the context for the questions that
// will name it.
func (s *judgeServer) Share(_ context.Context, c *pluginv1.SharedContext) (*pluginv1.ShareReply, error) {
	if c.GetRef() == "" {
		return nil, status.Error(codes.InvalidArgument, "a shared context needs a ref")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shared == nil {
		s.shared = map[string]*pluginv1.SharedContext{}
	}
	if _, ok := s.shared[c.GetRef()]; !ok {
		if len(s.order) >= keepShared {
			delete(s.shared, s.order[0])
			s.order = s.order[1:]
		}
		s.order = append(s.order, c.GetRef())
	}
	s.shared[c.GetRef()] = c
	return &pluginv1.ShareReply{}, nil
}

// Describe serves Judge.Describe.
func (s *judgeServer) Describe(ctx context.Context, _ *pluginv1.DescribeRequest) (*pluginv1.JudgeIdentity, error) {
	id, err := s.impl.Describe(ctx)
	if err != nil {
		return nil, err
	}
	return s.identity(id)
}

// identity is id as the protocol sends it, with the judge's
// capabilities.
func (s *judgeServer) identity(id judge.Identity) (*pluginv1.JudgeIdentity, error) {
	p, err := identityToProto(id)
	if err != nil {
		return nil, err
	}
	if _, ok := s.impl.(judge.Batcher); ok {
		p.Capabilities = append(p.Capabilities, judge.CapabilityBatch)
	}
	if f, ok := s.impl.(judge.BatchFinder); ok && f.LabelsBatches() {
		p.Capabilities = append(p.Capabilities, judge.CapabilityBatchLabels)
	}
	if c, ok := s.impl.(judge.Capable); ok {
		p.Capabilities = append(p.Capabilities, c.Capabilities()...)
	}
	return p, nil
}

// Configure serves Judge.Configure.
func (s *judgeServer) Configure(ctx context.Context, c *pluginv1.JudgeConfig) (*pluginv1.JudgeIdentity, error) {
	id, err := s.impl.Configure(ctx, judge.Config{Model: c.GetModel(), Options: c.GetOptions()})
	if err != nil {
		return nil, configureStatus(err)
	}
	return s.identity(id)
}

// Ask serves Judge.Ask.
func (s *judgeServer) Ask(ctx context.Context, q *pluginv1.Question) (*pluginv1.Answer, error) {
	jq, err := s.question(q, nil)
	if err != nil {
		return nil, err
	}
	a, err := s.impl.Ask(ctx, jq)
	if err != nil {
		return nil, askStatus(err)
	}
	return answerToProto(a), nil
}

// AskStream serves Judge.AskStream: each question is answered as it
// arrives, at most as many at once as the host keeps in flight (a judge
// that answers locally: as many as it has processors, asked), and each
// answer is sent under its question's id as soon as it is ready.
func (s *judgeServer) AskStream(stream pluginv1.Judge_AskStreamServer) error {
	ctx := stream.Context()
	var (
		wg      sync.WaitGroup
		sending sync.Mutex
		failed  error // the first send that failed; the stream is then over
		streak  int   // the questions in a row that found the judge behind
		local   *queue
	)
	if judge.RunsLocally(s.impl) {
		local = &queue{}
	}
	defer wg.Wait()
	answer := func(item *pluginv1.AskItem) {
		defer s.answering.Add(-1)
		r := &pluginv1.AskResult{Id: item.GetId()}
		a, err := s.Ask(ctx, item.GetQuestion())
		if err != nil {
			if r.Status, err = statusBytes(err); err != nil {
				r.Status, _ = statusBytes(status.Error(codes.Internal, err.Error()))
			}
		} else {
			r.Answer = a
		}
		sending.Lock()
		defer sending.Unlock()
		if failed == nil {
			failed = stream.Send(r)
		}
	}
	for {
		item, err := stream.Recv()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		// Behind when every one of BehindStreak questions in a row found
		// BehindAt or more still being answered: a host's burst of
		// questions (its first ones, say) is no sign of it.
		if n := s.answering.Add(1); n <= BehindAt {
			streak = 0
		} else if streak++; streak >= BehindStreak && s.behind != nil {
			s.behind()
		}
		if local != nil {
			local.add(item, &wg, answer)
			continue
		}
		wg.Go(func() {
			growStack(item.GetId())
			answer(item)
		})
	}
}

// queue holds the questions of a judge that answers locally
// (judge.CapabilityLocal) until one of its workers, at most one a
// processor, takes them in the order they came. Such a judge's work is
// its CPU, so answering more questions at once than it has processors
// only interleaves them; a goroutine each (the host keeps 128 in flight
// with it) meant 128 stacks for the collector to scan and grow, and the
// scheduler switching between them.
type queue struct {
	mu      sync.Mutex
	items   []*pluginv1.AskItem
	workers int // the workers answering or about to
}

// add queues item and starts a worker, on wg, when fewer are at work
// than there are processors now (GOMAXPROCS grows when the judge falls
// behind).
func (q *queue) add(item *pluginv1.AskItem, wg *sync.WaitGroup, answer func(*pluginv1.AskItem)) {
	q.mu.Lock()
	q.items = append(q.items, item)
	start := q.workers < runtime.GOMAXPROCS(0)
	if start {
		q.workers++
	}
	q.mu.Unlock()
	if start {
		wg.Go(func() {
			growStack(item.GetId())
			q.work(answer)
		})
	}
}

// work answers the queued questions in turn until none is left, and
// leaves then rather than wait idle between the host's bursts.
func (q *queue) work(answer func(*pluginv1.AskItem)) {
	for {
		q.mu.Lock()
		if len(q.items) == 0 {
			q.workers--
			q.mu.Unlock()
			return
		}
		item := q.items[0]
		q.items[0] = nil
		q.items = q.items[1:]
		q.mu.Unlock()
		answer(item)
	}
}

// answerStack is how much stack a question's goroutine takes at once
// (growStack): the heuristic judge's TDQS tool question runs in under
// 16 KiB of stack, which a frame of this size makes the runtime grow to
// in one step (to the next power of two that holds it with its guard).
const answerStack = 12 << 10

// growStack grows the calling goroutine's stack to hold answerStack bytes
// more while the goroutine is still shallow. A goroutine starts with 2
// KiB, and the judge's question doubled it again and again, each copy
// walking every frame of its deep calls to move their pointers (about 5%
// of the heuristic judge process's instructions at 5,000 TDQS tools,
// callgrind); grown from here, the stack is copied once, with few frames
// to walk.
//
// The byte it reads is chosen by the caller, so that the compiler keeps
// the frame.
//
//go:noinline
func growStack(i uint64) byte {
	var frame [answerStack]byte
	return frame[i%answerStack]
}

// statusBytes is err as a google.rpc.Status in its wire form, what
// AskResult.status carries.
func statusBytes(err error) ([]byte, error) {
	return proto.Marshal(status.Convert(err).Proto())
}

// question is q as the judge reads it, its shared context taken from
// those the submission carries (batch), else from those handed over with
// Share.
func (s *judgeServer) question(q *pluginv1.Question, batch map[string]*pluginv1.SharedContext) (judge.Question, error) {
	jq := judge.Question{
		Rubric:       q.GetRubric(),
		RubricDigest: q.GetRubricDigest(),
		Kind:         q.GetKind(),
		System:       q.GetSystem(),
		User:         q.GetUser(),
		AnswerSchema: q.GetAnswerSchema(),
		Input:        q.GetInput(),
		Subject:      q.GetSubject(),
	}
	if ref := q.GetSharedRef(); ref != "" {
		c, ok := batch[ref]
		if !ok && batch == nil {
			s.mu.Lock()
			c, ok = s.shared[ref]
			s.mu.Unlock()
		}
		if !ok {
			return jq, status.Errorf(codes.FailedPrecondition, "the judge holds no shared context %s: share it first", ref)
		}
		jq.Shared, jq.SharedHash, jq.Context = c.GetInput(), ref, c.GetContext()
	}
	return jq, nil
}

func answerToProto(a judge.Answer) *pluginv1.Answer {
	return &pluginv1.Answer{
		Json:              a.JSON,
		Model:             a.Model,
		InputTokens:       int64(a.Tokens.Input),
		OutputTokens:      int64(a.Tokens.Output),
		CachedInputTokens: int64(a.Tokens.Cached),
	}
}

func answerFromProto(a *pluginv1.Answer) judge.Answer {
	return judge.Answer{
		JSON:   a.GetJson(),
		Model:  a.GetModel(),
		Tokens: judge.Tokens{Input: int(a.GetInputTokens()), Output: int(a.GetOutputTokens()), Cached: int(a.GetCachedInputTokens())},
	}
}

// batcher is the judge's batch side, or the UNIMPLEMENTED status that
// tells the host it has none.
func (s *judgeServer) batcher() (judge.Batcher, error) {
	b, ok := s.impl.(judge.Batcher)
	if !ok {
		return nil, status.Error(codes.Unimplemented, "this judge does not answer in batches")
	}
	return b, nil
}

// SubmitBatch serves Judge.SubmitBatch.
func (s *judgeServer) SubmitBatch(ctx context.Context, sub *pluginv1.BatchSubmission) (*pluginv1.BatchTicket, error) {
	b, err := s.batcher()
	if err != nil {
		return nil, err
	}
	shared := map[string]*pluginv1.SharedContext{}
	for _, c := range sub.GetShared() {
		shared[c.GetRef()] = c
	}
	items := make([]judge.BatchItem, len(sub.GetItems()))
	for i, it := range sub.GetItems() {
		q, err := s.question(it.GetQuestion(), shared)
		if err != nil {
			return nil, err
		}
		items[i] = judge.BatchItem{ID: it.GetId(), Question: q}
	}
	var id string
	if f, ok := b.(judge.BatchFinder); ok && f.LabelsBatches() && sub.GetNonce() != "" {
		id, err = f.SubmitLabeledBatch(ctx, items, sub.GetNonce())
	} else {
		id, err = b.SubmitBatch(ctx, items)
	}
	if err != nil {
		return nil, askStatus(err)
	}
	return &pluginv1.BatchTicket{Id: id}, nil
}

// FindBatch serves Judge.FindBatch.
func (s *judgeServer) FindBatch(ctx context.Context, l *pluginv1.BatchLabel) (*pluginv1.BatchTicket, error) {
	f, ok := s.impl.(judge.BatchFinder)
	if !ok || !f.LabelsBatches() {
		return nil, status.Error(codes.Unimplemented, "this judge's batches carry no label to find them by")
	}
	label := judge.BatchLabel{Nonce: l.GetNonce(), Items: int(l.GetItems())}
	if n := l.GetSinceUnixNano(); n != 0 {
		label.Since = time.Unix(0, n).UTC()
	}
	found, err := f.FindBatch(ctx, label)
	if err != nil {
		return nil, askStatus(err)
	}
	return &pluginv1.BatchTicket{Id: found.ID, Pending: found.ID == "" && found.Pending}, nil
}

// PollBatch serves Judge.PollBatch.
func (s *judgeServer) PollBatch(ctx context.Context, t *pluginv1.BatchTicket) (*pluginv1.BatchProgress, error) {
	b, err := s.batcher()
	if err != nil {
		return nil, err
	}
	st, err := b.PollBatch(ctx, t.GetId())
	if err != nil {
		return nil, askStatus(err)
	}
	return &pluginv1.BatchProgress{Ended: st.Ended, Failed: st.Failed, State: st.State, Done: int64(st.Done), Total: int64(st.Total)}, nil
}

// CollectBatch serves Judge.CollectBatch: one message a result.
func (s *judgeServer) CollectBatch(t *pluginv1.BatchTicket, stream grpc.ServerStreamingServer[pluginv1.BatchResult]) error {
	b, err := s.batcher()
	if err != nil {
		return err
	}
	rs, err := b.CollectBatch(stream.Context(), t.GetId())
	if err != nil {
		return askStatus(err)
	}
	for _, r := range rs {
		if err := stream.Send(&pluginv1.BatchResult{Id: r.ID, Answer: answerToProto(r.Answer), Unreadable: r.Unreadable, Unanswered: r.Unanswered, Error: r.Err}); err != nil {
			return err
		}
	}
	return nil
}

func identityToProto(id judge.Identity) (*pluginv1.JudgeIdentity, error) {
	p := &pluginv1.JudgeIdentity{
		Plugin:     id.Plugin,
		Version:    id.Version,
		Provider:   id.Provider,
		Model:      id.Model,
		Heuristic:  id.Heuristic,
		Cli:        id.CLI,
		CliVersion: id.CLIVersion,
	}
	if len(id.Params) > 0 {
		b, err := json.Marshal(id.Params)
		if err != nil {
			return nil, fmt.Errorf("judge parameters are not JSON: %w", err)
		}
		p.ParamsJson = string(b)
	}
	return p, nil
}

func identityFromProto(p *pluginv1.JudgeIdentity) (judge.Identity, error) {
	id := judge.Identity{
		Plugin:     p.GetPlugin(),
		Version:    p.GetVersion(),
		Provider:   p.GetProvider(),
		Model:      p.GetModel(),
		Heuristic:  p.GetHeuristic(),
		CLI:        p.GetCli(),
		CLIVersion: p.GetCliVersion(),
	}
	if s := p.GetParamsJson(); s != "" {
		if err := json.Unmarshal([]byte(s), &id.Params); err != nil {
			return judge.Identity{}, fmt.Errorf("the judge sent parameters that are not a JSON object: %w", err)
		}
	}
	return id, nil
}

type transportServer struct {
	pluginv1.UnimplementedTransportServer
	impl transport.Transport
}

// Describe serves Transport.Describe.
func (s *transportServer) Describe(ctx context.Context, _ *pluginv1.DescribeRequest) (*pluginv1.TransportInfo, error) {
	info, err := s.impl.Describe(ctx)
	if err != nil {
		return nil, err
	}
	return &pluginv1.TransportInfo{Name: info.Name, Version: info.Version, Schemes: info.Schemes, Locality: string(info.Locality)}, nil
}

// Export serves Transport.Export: the document in chunks of at most
// ChunkSize, the first carrying the source and the whole size. A
// permanent failure keeps its mark across the wire.
func (s *transportServer) Export(t *pluginv1.Target, stream grpc.ServerStreamingServer[pluginv1.ExportChunk]) error {
	return exportStatus(s.export(t, stream))
}

func (s *transportServer) export(t *pluginv1.Target, stream grpc.ServerStreamingServer[pluginv1.ExportChunk]) error {
	ctx := stream.Context()
	target := targetFromProto(t)
	if pe, ok := s.impl.(PathExporter); ok && t.GetAcceptPath() {
		source, path, size, err := pe.ExportPath(ctx, target)
		if err != nil {
			return err
		}
		if path != "" {
			return stream.Send(&pluginv1.ExportChunk{Source: source, Path: path, Size: size})
		}
	}
	var source string
	var doc []byte
	if de, ok := s.impl.(DocumentExporter); ok {
		var err error
		if source, doc, err = de.ExportDocument(ctx, target); err != nil {
			return err
		}
	} else {
		surf, err := s.impl.Export(ctx, target)
		if err != nil {
			return err
		}
		if surf == nil {
			return s.noSurface(ctx)
		}
		if err := s.checkTools(ctx, surf); err != nil {
			return err
		}
		source, doc = surf.Source, surf.Marshal()
	}
	first := true
	for first || len(doc) > 0 {
		n := min(len(doc), ChunkSize)
		c := &pluginv1.ExportChunk{Data: doc[:n]}
		if first {
			c.Source, c.Size = source, int64(len(doc))
			first = false
		}
		if err := stream.Send(c); err != nil {
			return err
		}
		doc = doc[n:]
	}
	return nil
}

// noSurface is the error for an Export that returned neither a surface
// nor an error: a plugin's bug, said as one (naming the transport) rather
// than a nil dereference that kills the plugin.
func (s *transportServer) noSurface(ctx context.Context) error {
	return fmt.Errorf("%s returned neither a surface nor an error: a bug in the transport plugin, which must return the tools it read (an empty list for a server with none) or an error saying why it could not", s.named(ctx))
}

// checkTools refuses a surface holding a tool without its definition
// (surface.Tool built by hand rather than by surface.NewTool or Parse):
// written without it, one such tool vanished and the run scored a
// surface of none, and two made a document the host could not read.
func (s *transportServer) checkTools(ctx context.Context, surf *surface.Surface) error {
	for i, t := range surf.Tools {
		if len(t.Canonical) == 0 {
			return fmt.Errorf("%s returned tool %d (%q) without its definition: a bug in the transport plugin, which must make each tool with surface.NewTool, or the whole surface with surface.Parse", s.named(ctx), i, t.Name)
		}
	}
	return nil
}

// named is "the transport" with the plugin's name, for its bugs.
func (s *transportServer) named(ctx context.Context) string {
	if info, err := s.impl.Describe(ctx); err == nil && info.Name != "" {
		return fmt.Sprintf("the transport %q", info.Name)
	}
	return "the transport"
}

func targetToProto(t transport.Target) *pluginv1.Target {
	return &pluginv1.Target{
		Location: t.Location,
		Args:     t.Args,
		Dir:      t.Dir,
		Env:      t.Env,
		UnsetEnv: t.Unset,
		Headers:  t.Headers,
		Limits: &pluginv1.Limits{
			StartTimeoutMs:   millis(t.Limits.StartTimeout),
			RequestTimeoutMs: millis(t.Limits.RequestTimeout),
			MaxBytes:         t.Limits.MaxBytes,
			MaxTools:         int64(t.Limits.MaxTools),
		},
		StrictStdout:    t.StrictStdout,
		FollowRedirects: t.FollowRedirects,
		Sandbox:         sandboxToProto(t.Sandbox),
	}
}

// millis is d in whole milliseconds, as the wire carries it, rounded
// up: truncated, --start-timeout 1ns crossed as 0, which the plugin
// reads as no limit given (the default), and had no effect.
func millis(d time.Duration) int64 {
	if d <= 0 {
		return d.Milliseconds()
	}
	return int64((d + time.Millisecond - 1) / time.Millisecond)
}

func sandboxToProto(s transport.Sandbox) *pluginv1.Sandbox {
	if !s.Enabled() {
		return nil
	}
	return &pluginv1.Sandbox{Kind: s.Kind, Net: s.Net, Cwd: s.Cwd, ReadOnly: s.ReadOnly}
}

func sandboxFromProto(p *pluginv1.Sandbox) transport.Sandbox {
	return transport.Sandbox{Kind: p.GetKind(), Net: p.GetNet(), Cwd: p.GetCwd(), ReadOnly: p.GetReadOnly()}
}

func targetFromProto(p *pluginv1.Target) transport.Target {
	l := p.GetLimits()
	return transport.Target{
		Location: p.GetLocation(),
		Args:     p.GetArgs(),
		Dir:      p.GetDir(),
		Env:      p.GetEnv(),
		Unset:    p.GetUnsetEnv(),
		Headers:  p.GetHeaders(),
		Limits: transport.Limits{
			StartTimeout:   time.Duration(l.GetStartTimeoutMs()) * time.Millisecond,
			RequestTimeout: time.Duration(l.GetRequestTimeoutMs()) * time.Millisecond,
			MaxBytes:       l.GetMaxBytes(),
			MaxTools:       int(l.GetMaxTools()),
		},
		StrictStdout:    p.GetStrictStdout(),
		FollowRedirects: p.GetFollowRedirects(),
		Sandbox:         sandboxFromProto(p.GetSandbox()),
	}
}
