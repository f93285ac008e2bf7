package protocol

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/plugins/proto/pluginv1"
)

// ErrUnavailable means the plugin process stopped answering: it crashed,
// was killed or closed its connection. The host says which.
var ErrUnavailable = errors.New("the plugin stopped answering")

// ErrUnimplemented means the plugin does not serve the call: most often a
// plugin of the other kind.
var ErrUnimplemented = errors.New("the plugin does not serve this call")

// remote turns a gRPC error into the plugin's own message, ErrUnavailable,
// or the context's error.
func remote(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	st, ok := status.FromError(err)
	if !ok {
		return err
	}
	switch st.Code() {
	case codes.Unavailable:
		return fmt.Errorf("%w (%s)", ErrUnavailable, st.Message())
	case codes.Unimplemented:
		return fmt.Errorf("%w (%s)", ErrUnimplemented, st.Message())
	case codes.Canceled:
		return context.Canceled
	case codes.DeadlineExceeded:
		return context.DeadlineExceeded
	}
	return errors.New(st.Message())
}

// JudgeClient is the host's view of a judge plugin.
type JudgeClient struct {
	c pluginv1.JudgeClient

	mu sync.Mutex
	// shared are the shared contexts handed to the plugin, by ref.
	shared map[string]*sharing
	// inline is set once the plugin has said it does not serve Share:
	// from then on the shared prompt goes inside each user prompt.
	inline bool
	// caps are the capabilities the plugin advertised in its latest
	// identity.
	caps []string
	// noStream is set once the plugin turned AskStream down although it
	// advertised it: from then on it is asked with Ask.
	noStream bool

	stream askStream
}

// sharing is one shared context being handed to the plugin, once.
type sharing struct {
	done chan struct{}
	err  error
}

// Describe asks the plugin for its identity before configuration.
func (j *JudgeClient) Describe(ctx context.Context) (judge.Identity, error) {
	p, err := j.c.Describe(ctx, &pluginv1.DescribeRequest{})
	if err != nil {
		return judge.Identity{}, remote(ctx, err)
	}
	j.keepCaps(p)
	return identityFromProto(p)
}

// keepCaps keeps the capabilities an identity reply advertised.
func (j *JudgeClient) keepCaps(p *pluginv1.JudgeIdentity) {
	j.mu.Lock()
	j.caps = p.GetCapabilities()
	j.mu.Unlock()
}

// Capabilities are what the plugin advertised it serves beyond Ask, in
// its latest identity (judge.CapabilityBatch, ...).
func (j *JudgeClient) Capabilities() []string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return slices.Clone(j.caps)
}

// Batcher returns the client as a judge.Batcher when the plugin
// advertised judge.CapabilityBatch.
func (j *JudgeClient) Batcher() (judge.Batcher, bool) {
	if slices.Contains(j.Capabilities(), judge.CapabilityBatch) {
		return j, true
	}
	return nil, false
}

// LabelsBatches implements judge.BatchFinder: true when the plugin
// advertised judge.CapabilityBatchLabels.
func (j *JudgeClient) LabelsBatches() bool {
	return slices.Contains(j.Capabilities(), judge.CapabilityBatchLabels)
}

// SubmitLabeledBatch implements judge.BatchFinder: SubmitBatch with the
// nonce the plugin keeps with the batch.
func (j *JudgeClient) SubmitLabeledBatch(ctx context.Context, items []judge.BatchItem, nonce string) (string, error) {
	return j.submit(ctx, items, nonce)
}

// FindBatch implements judge.BatchFinder.
func (j *JudgeClient) FindBatch(ctx context.Context, label judge.BatchLabel) (judge.BatchFound, error) {
	l := &pluginv1.BatchLabel{Nonce: label.Nonce, Items: int64(label.Items)}
	if !label.Since.IsZero() {
		l.SinceUnixNano = label.Since.UnixNano()
	}
	t, err := j.c.FindBatch(ctx, l)
	if err != nil {
		return judge.BatchFound{}, askError(ctx, err)
	}
	return judge.BatchFound{ID: t.GetId(), Pending: t.GetId() == "" && t.GetPending()}, nil
}

// SubmitBatch sends the items as one batch, each question's shared
// context once in the submission, and returns the batch's id.
func (j *JudgeClient) SubmitBatch(ctx context.Context, items []judge.BatchItem) (string, error) {
	return j.submit(ctx, items, "")
}

// submit is SubmitBatch, labeled with nonce when it is not empty.
func (j *JudgeClient) submit(ctx context.Context, items []judge.BatchItem, nonce string) (string, error) {
	sub := &pluginv1.BatchSubmission{Nonce: nonce}
	seen := map[string]bool{}
	for _, it := range items {
		q := it.Question
		pq := questionToProto(q)
		if q.SharedHash != "" {
			pq.SharedRef = q.SharedHash
			if !seen[q.SharedHash] {
				seen[q.SharedHash] = true
				sub.Shared = append(sub.Shared, &pluginv1.SharedContext{Ref: q.SharedHash, Input: q.Shared, Context: q.Context})
			}
		}
		sub.Items = append(sub.Items, &pluginv1.BatchItem{Id: it.ID, Question: pq})
	}
	t, err := j.c.SubmitBatch(ctx, sub)
	if err != nil {
		return "", askError(ctx, err)
	}
	return t.GetId(), nil
}

// PollBatch asks how the batch is getting on.
func (j *JudgeClient) PollBatch(ctx context.Context, id string) (judge.BatchStatus, error) {
	p, err := j.c.PollBatch(ctx, &pluginv1.BatchTicket{Id: id})
	if err != nil {
		return judge.BatchStatus{}, askError(ctx, err)
	}
	return judge.BatchStatus{Ended: p.GetEnded(), Failed: p.GetFailed(), State: p.GetState(), Done: int(p.GetDone()), Total: int(p.GetTotal())}, nil
}

// CollectBatch reads the results of an ended batch.
func (j *JudgeClient) CollectBatch(ctx context.Context, id string) ([]judge.BatchResult, error) {
	stream, err := j.c.CollectBatch(ctx, &pluginv1.BatchTicket{Id: id})
	if err != nil {
		return nil, askError(ctx, err)
	}
	var out []judge.BatchResult
	for {
		r, err := stream.Recv()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, askError(ctx, err)
		}
		out = append(out, judge.BatchResult{ID: r.GetId(), Answer: answerFromProto(r.GetAnswer()), Unreadable: r.GetUnreadable(), Unanswered: r.GetUnanswered(), Err: r.GetError()})
	}
}

// questionToProto is q without its shared part.
func questionToProto(q judge.Question) *pluginv1.Question {
	return &pluginv1.Question{
		Rubric:       q.Rubric,
		RubricDigest: q.RubricDigest,
		Kind:         q.Kind,
		System:       q.System,
		User:         q.User,
		AnswerSchema: q.AnswerSchema,
		Input:        q.Input,
		Subject:      q.Subject,
	}
}

// Configure sets the model and options for the run.
func (j *JudgeClient) Configure(ctx context.Context, c judge.Config) (judge.Identity, error) {
	p, err := j.c.Configure(ctx, &pluginv1.JudgeConfig{Model: c.Model, Options: c.Options})
	if err != nil {
		return judge.Identity{}, configureError(ctx, err)
	}
	j.keepCaps(p)
	return identityFromProto(p)
}

// Ask sends one question. What it shares with other questions (its
// shared input and prompt) goes to the plugin once, by Share, and the
// question names it; a plugin that does not serve Share gets the shared
// prompt inside the user prompt, and no shared input.
func (j *JudgeClient) Ask(ctx context.Context, q judge.Question) (judge.Answer, error) {
	j.mu.Lock()
	structured := slices.Contains(j.caps, judge.CapabilityStructuredInput)
	streamed := !j.noStream && slices.Contains(j.caps, judge.CapabilityAskStream)
	j.mu.Unlock()
	pq := questionToProto(q)
	if structured {
		// The judge reads the structured input alone: the prompts and
		// the answer schema would only be copied across.
		pq.System, pq.User, pq.AnswerSchema = "", "", nil
	}
	ask := j.c.Ask
	if streamed {
		ask = func(ctx context.Context, pq *pluginv1.Question, _ ...grpc.CallOption) (*pluginv1.Answer, error) {
			a, err := j.streamAsk(ctx, pq)
			if err == errNoStream {
				j.mu.Lock()
				j.noStream = true
				j.mu.Unlock()
				return j.c.Ask(ctx, pq)
			}
			return a, err
		}
	}
	if q.SharedHash != "" {
		inline, err := j.share(ctx, q, structured, false)
		if err != nil {
			return judge.Answer{}, err
		}
		if inline {
			if !structured {
				pq.User = q.Prompt()
			}
		} else {
			pq.SharedRef = q.SharedHash
		}
	}
	a, err := ask(ctx, pq)
	if pq.SharedRef != "" && status.Code(err) == codes.FailedPrecondition {
		// The plugin no longer holds the context (it keeps a few): hand
		// it over again and ask once more.
		if _, err = j.share(ctx, q, structured, true); err != nil {
			return judge.Answer{}, err
		}
		a, err = ask(ctx, pq)
	}
	if err != nil {
		return judge.Answer{}, askError(ctx, err)
	}
	return answerFromProto(a), nil
}

// share hands q's shared context to the plugin unless it holds it
// already (again when again is set), once however many questions wait
// for it; inline is true when the plugin does not serve Share. A judge
// that reads the structured input alone (structured) gets the shared
// input without the shared prompt.
func (j *JudgeClient) share(ctx context.Context, q judge.Question, structured, again bool) (inline bool, err error) {
	j.mu.Lock()
	if j.inline {
		j.mu.Unlock()
		return true, nil
	}
	if j.shared == nil {
		j.shared = map[string]*sharing{}
	}
	s, ok := j.shared[q.SharedHash]
	if ok && again {
		select {
		case <-s.done: // handed over before: hand it over anew
			ok = false
		default: // being handed over now: wait for it
		}
	}
	if !ok {
		s = &sharing{done: make(chan struct{})}
		j.shared[q.SharedHash] = s
		j.mu.Unlock()
		c := &pluginv1.SharedContext{Ref: q.SharedHash, Input: q.Shared, Context: q.Context}
		if structured {
			c.Context = ""
		}
		_, s.err = j.c.Share(ctx, c)
		j.mu.Lock()
		if status.Code(s.err) == codes.Unimplemented {
			j.inline, s.err = true, nil
		} else if s.err != nil {
			// A failed hand-over is not kept: the next question tries again.
			delete(j.shared, q.SharedHash)
			s.err = remote(ctx, s.err)
		}
		close(s.done)
		inline = j.inline
		j.mu.Unlock()
		return inline, s.err
	}
	j.mu.Unlock()
	select {
	case <-s.done:
	case <-ctx.Done():
		return false, context.Cause(ctx)
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.inline, s.err
}

// TransportClient is the host's view of a transport plugin.
type TransportClient struct {
	c pluginv1.TransportClient
	// LocalFiles says the plugin shares the host's file system (a
	// built-in, started by this host): a plugin whose document is a
	// local file may then name the file (PathExporter) and the host
	// reads it itself, instead of receiving its bytes in chunks. Leave
	// it false for a plugin that may run elsewhere or confined.
	LocalFiles bool
}

// Describe asks the plugin what it is, which schemes it handles and
// where its targets are.
func (t *TransportClient) Describe(ctx context.Context) (transport.Info, error) {
	p, err := t.c.Describe(ctx, &pluginv1.DescribeRequest{})
	if err != nil {
		return transport.Info{}, remote(ctx, err)
	}
	return transport.Info{Name: p.GetName(), Version: p.GetVersion(), Schemes: p.GetSchemes(), Locality: transport.Locality(p.GetLocality()).Of()}, nil
}

// ErrTooLarge is returned when an exported document passes the host's
// bound.
var ErrTooLarge = errors.New("the exported surface is too large")

// ExportDocument reads a target through the plugin and returns the
// surface document and its source name. A document longer than maxDoc
// bytes is refused with ErrTooLarge.
//
// With LocalFiles, a plugin may answer with a file's path, which is read
// here; when that file cannot be read as announced (another mount
// namespace, a file that changed size meanwhile), the target is asked for
// again, its bytes streamed.
func (t *TransportClient) ExportDocument(ctx context.Context, target transport.Target, maxDoc int64) (string, []byte, error) {
	if t.LocalFiles {
		source, doc, err := t.exportDocument(ctx, target, maxDoc, true)
		if !errors.Is(err, errHandedFile) {
			return source, doc, err
		}
	}
	return t.exportDocument(ctx, target, maxDoc, false)
}

// errHandedFile is a file named by the plugin that the host could not
// read as the plugin announced it.
var errHandedFile = errors.New("the file the transport named cannot be read as announced")

func (t *TransportClient) exportDocument(ctx context.Context, target transport.Target, maxDoc int64, acceptPath bool) (string, []byte, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pt := targetToProto(target)
	pt.AcceptPath = acceptPath
	stream, err := t.c.Export(ctx, pt)
	if err != nil {
		return "", nil, exportError(ctx, err)
	}
	var source string
	var doc []byte
	for first := true; ; first = false {
		c, err := stream.Recv()
		if err == io.EOF {
			return source, doc, nil
		}
		if err != nil {
			return "", nil, exportError(ctx, err)
		}
		if first {
			source = c.GetSource()
			if size := c.GetSize(); size > maxDoc {
				return "", nil, fmt.Errorf("%w: %s, more than %s", ErrTooLarge, transport.Sized(size), transport.Sized(maxDoc))
			} else if size > 0 && c.GetPath() == "" {
				doc = make([]byte, 0, size)
			}
			if p := c.GetPath(); p != "" {
				if !acceptPath {
					return "", nil, fmt.Errorf("the transport named a file (%s) where its bytes were asked for: a plugin may name a file only when the target's accept_path is set", p)
				}
				if doc, err = readHanded(p, c.GetSize()); err != nil {
					return "", nil, err
				}
				if _, err := stream.Recv(); err != io.EOF {
					return "", nil, fmt.Errorf("the transport sent more after naming its file %s: a plugin that names a file sends nothing else", p)
				}
				return source, doc, nil
			}
		}
		if int64(len(doc)+len(c.GetData())) > maxDoc {
			return "", nil, fmt.Errorf("%w: more than %s", ErrTooLarge, transport.Sized(maxDoc))
		}
		doc = append(doc, c.GetData()...)
	}
}

// readHanded reads the file at path, which the plugin said holds size
// bytes, into a buffer of that size; anything else is errHandedFile.
func readHanded(path string, size int64) ([]byte, error) {
	if !filepath.IsAbs(path) {
		return nil, fmt.Errorf("%w: %q is not an absolute path", errHandedFile, path)
	}
	// Look before opening, so that a path that names a pipe or a device
	// is never opened here (opening a pipe would take its writer).
	if st, err := os.Stat(path); err != nil || !st.Mode().IsRegular() || st.Size() != size {
		return nil, fmt.Errorf("%w: %s is not a regular file of %d bytes", errHandedFile, path, size)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errHandedFile, err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Size() != size {
		return nil, fmt.Errorf("%w: %s is not a regular file of %d bytes", errHandedFile, path, size)
	}
	doc := make([]byte, size)
	if _, err := io.ReadFull(f, doc); err != nil {
		return nil, fmt.Errorf("%w: %v", errHandedFile, err)
	}
	// A file that grew since it was measured is read again, whole.
	if n, _ := f.Read(make([]byte, 1)); n > 0 {
		return nil, fmt.Errorf("%w: %s grew past %d bytes", errHandedFile, path, size)
	}
	return doc, nil
}
