// Package fakebatch is a fake of the OpenAI and Anthropic APIs for
// tests, on 127.0.0.1: their one-call endpoints (chat completions,
// messages) and their batch endpoints, in the shapes the providers
// document (testdata/ holds a recorded example of each shape it
// serves), answering every question with what the test's Answer says.
//
//	OpenAI    POST /v1/files (multipart, purpose=batch), POST /v1/batches
//	          (with its metadata), GET /v1/batches/{id}, GET /v1/batches
//	          (the list, newest first, limit and after),
//	          GET /v1/files/{id}/content
//	Anthropic POST /v1/messages/batches, GET /v1/messages/batches/{id},
//	          GET /v1/messages/batches (the list, newest first, limit
//	          and before_id or after_id),
//	          GET /v1/messages/batches/{id}/results
//
// A batch stays in progress while Hold says so; the server counts what
// it was sent (Counts), so a test can tell that no question was
// submitted twice, and tells OnEvent each request, so a test can act at
// a stage (kill the client once a batch was created and looked at).
package fakebatch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Epoch is when the first batch is created unless Server.Now says.
var Epoch = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

// Usage is what every answer says it cost.
var Usage = struct{ Input, Output int }{100, 20}

// Server is the fake API. Set its fields before the first request.
type Server struct {
	*httptest.Server
	// Answer is the answer's text for a request body (a chat completion
	// request or a message's params); it must be safe for concurrent use.
	Answer func(body []byte) string
	// Model is the model every reply names.
	Model string
	// Hold, when set and true, keeps every batch in progress.
	Hold func() bool
	// Garbage is how many batch answers, the first ones, are text that is
	// not JSON.
	Garbage int
	// Outcome, when set, says how a batch item ends by its custom_id:
	// "" answered, "expired" (never answered), "refused" (the request
	// refused with 400), "overloaded" (Anthropic's overloaded_error, or
	// OpenAI's 500).
	Outcome func(customID string) string
	// Now, when set, is the time a batch is created at; when nil, a
	// batch is created at Epoch and a second for each batch before it,
	// so that no test reads the wall clock.
	Now func() time.Time
	// OnEvent, when set, is told every request by its event name
	// ("upload", "create", "retrieve", "list", "results", "call") and the counts
	// after it.
	OnEvent func(event string, c Counts)

	mu      sync.Mutex
	counts  Counts
	files   map[string][]byte
	batches map[string]*batch
	order   []*batch // as created
	answers int
}

// Counts is what the server was sent.
type Counts struct {
	Uploads, Creates, Retrieves, Results, Calls, Lists int
	// Submitted counts each custom_id's submissions in batches.
	Submitted map[string]int
	// Bodies counts each request body's submissions in batches, whatever
	// its custom_id: a question sent again under another id is still the
	// same question paid twice.
	Bodies map[string]int
	// Looked counts the looks at each batch, by its id.
	Looked map[string]int
}

// Twice lists the custom_ids submitted more than once, and the request
// bodies submitted more than once under any custom_ids.
func (c Counts) Twice() []string {
	var out []string
	for id, n := range c.Submitted {
		if n > 1 {
			out = append(out, id)
		}
	}
	for body, n := range c.Bodies {
		if n > 1 {
			out = append(out, body)
		}
	}
	return out
}

// batch is one batch the server holds.
type batch struct {
	id, kind, input string // kind is "openai" or "anthropic"
	created         time.Time
	metadata        map[string]string
	items           []item
	results         []byte // set once ended
	output          string // the OpenAI output file's id
	errors          string // the OpenAI error file's id, when it has one
}

type item struct {
	id   string
	body json.RawMessage
}

// Start serves a fake API with answer; the caller closes it.
func Start(answer func(body []byte) string) *Server {
	s := &Server{Answer: answer, Model: "gpt-test-2025-01-01", files: map[string][]byte{}, batches: map[string]*batch{}}
	s.counts.Submitted = map[string]int{}
	s.counts.Bodies = map[string]int{}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// Counts returns what the server was sent so far.
func (s *Server) Counts() Counts {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.counts
	c.Submitted = maps.Clone(s.counts.Submitted)
	c.Bodies = maps.Clone(s.counts.Bodies)
	c.Looked = maps.Clone(s.counts.Looked)
	return c
}

func (s *Server) event(name string, count func(*Counts)) {
	s.mu.Lock()
	count(&s.counts)
	s.mu.Unlock()
	if s.OnEvent != nil {
		s.OnEvent(name, s.Counts())
	}
}

// anthropicID is what the Message Batches API takes as a custom_id.
var anthropicID = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	switch {
	case r.Method == http.MethodPost && path == "/v1/chat/completions":
		s.call(w, r, "openai")
	case r.Method == http.MethodPost && path == "/v1/messages":
		s.call(w, r, "anthropic")
	case r.Method == http.MethodPost && path == "/v1/files":
		s.upload(w, r)
	case r.Method == http.MethodPost && path == "/v1/batches":
		s.createOpenAI(w, r)
	case r.Method == http.MethodGet && path == "/v1/batches":
		s.list(w, r)
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/v1/batches/"):
		s.retrieve(w, strings.TrimPrefix(path, "/v1/batches/"), "openai")
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/v1/files/") && strings.HasSuffix(path, "/content"):
		s.content(w, strings.TrimSuffix(strings.TrimPrefix(path, "/v1/files/"), "/content"))
	case r.Method == http.MethodPost && path == "/v1/messages/batches":
		s.createAnthropic(w, r)
	case r.Method == http.MethodGet && path == "/v1/messages/batches":
		s.listAnthropic(w, r)
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/v1/messages/batches/") && strings.HasSuffix(path, "/results"):
		s.results(w, strings.TrimSuffix(strings.TrimPrefix(path, "/v1/messages/batches/"), "/results"))
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/v1/messages/batches/"):
		s.retrieve(w, strings.TrimPrefix(path, "/v1/messages/batches/"), "anthropic")
	default:
		fail(w, http.StatusNotFound, "not_found_error", "no route for "+r.Method+" "+path)
	}
}

// fail answers an error in the shape both providers share closely
// enough: {"error": {"type", "message"}}.
func fail(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	b, _ := json.Marshal(map[string]any{"type": "error", "error": map[string]string{"type": typ, "message": msg}})
	w.Write(b)
}

func reply(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	b, _ := json.Marshal(v)
	w.Write(b)
}

// call answers one chat completion or message.
func (s *Server) call(w http.ResponseWriter, r *http.Request, kind string) {
	body, _ := io.ReadAll(r.Body)
	s.event("call", func(c *Counts) { c.Calls++ })
	w.Header().Set("Content-Type", "application/json")
	w.Write(s.completion(kind, body, false))
}

// completion is the reply to one request: a chat completion (openai) or
// a message whose answer tool was called (anthropic).
func (s *Server) completion(kind string, body []byte, garbage bool) []byte {
	answer := s.Answer(body)
	if garbage {
		answer = "Sure! Here is my assessment: the tool is fine."
	}
	var v any
	if kind == "openai" {
		v = map[string]any{
			"id": "chatcmpl-1", "object": "chat.completion", "created": 1741570283, "model": s.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": answer, "refusal": nil}}},
			"usage": map[string]any{"prompt_tokens": Usage.Input, "completion_tokens": Usage.Output, "total_tokens": Usage.Input + Usage.Output},
		}
	} else {
		input := json.RawMessage(answer)
		if !json.Valid(input) {
			b, _ := json.Marshal(map[string]string{"text": answer})
			input = b
		}
		v = map[string]any{
			"id": "msg_1", "type": "message", "role": "assistant", "model": s.Model,
			"content":     []any{map[string]any{"type": "tool_use", "id": "toolu_1", "name": "answer", "input": input}},
			"stop_reason": "tool_use", "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": Usage.Input, "output_tokens": Usage.Output},
		}
	}
	b, _ := json.Marshal(v)
	return b
}

// upload keeps a batch input file.
func (s *Server) upload(w http.ResponseWriter, r *http.Request) {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		fail(w, http.StatusBadRequest, "invalid_request_error", "the upload is not multipart/form-data")
		return
	}
	mr := multipart.NewReader(r.Body, params["boundary"])
	var purpose string
	var file []byte
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			fail(w, http.StatusBadRequest, "invalid_request_error", "a broken multipart body")
			return
		}
		b, _ := io.ReadAll(p)
		switch p.FormName() {
		case "purpose":
			purpose = string(b)
		case "file":
			file = b
		}
	}
	if purpose != "batch" || len(file) == 0 {
		fail(w, http.StatusBadRequest, "invalid_request_error", "a batch input file needs purpose=batch and a file")
		return
	}
	s.mu.Lock()
	id := fmt.Sprintf("file-%d", len(s.files)+1)
	s.files[id] = file
	s.mu.Unlock()
	s.event("upload", func(c *Counts) { c.Uploads++ })
	reply(w, map[string]any{"id": id, "object": "file", "bytes": len(file), "created_at": 1741570283,
		"filename": "rubric-batch.jsonl", "purpose": "batch", "status": "processed", "status_details": nil})
}

// createOpenAI creates a batch from an uploaded input file.
func (s *Server) createOpenAI(w http.ResponseWriter, r *http.Request) {
	var req struct {
		InputFileID      string            `json:"input_file_id"`
		Endpoint         string            `json:"endpoint"`
		CompletionWindow string            `json:"completion_window"`
		Metadata         map[string]string `json:"metadata"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Endpoint != "/v1/chat/completions" || req.CompletionWindow != "24h" {
		fail(w, http.StatusBadRequest, "invalid_request_error", "a batch needs input_file_id, endpoint /v1/chat/completions and completion_window 24h")
		return
	}
	s.mu.Lock()
	file, ok := s.files[req.InputFileID]
	s.mu.Unlock()
	if !ok {
		fail(w, http.StatusNotFound, "invalid_request_error", "no file "+req.InputFileID)
		return
	}
	var items []item
	seen := map[string]bool{}
	for _, line := range bytes.Split(file, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var l struct {
			CustomID string          `json:"custom_id"`
			Method   string          `json:"method"`
			URL      string          `json:"url"`
			Body     json.RawMessage `json:"body"`
		}
		if json.Unmarshal(line, &l) != nil || l.CustomID == "" || seen[l.CustomID] || l.Method != "POST" || l.URL != req.Endpoint || len(l.Body) == 0 {
			fail(w, http.StatusBadRequest, "invalid_request_error", "a line of the input file is not a unique request to the batch's endpoint: "+string(line))
			return
		}
		seen[l.CustomID] = true
		items = append(items, item{l.CustomID, l.Body})
	}
	if len(req.Metadata) > 16 {
		fail(w, http.StatusBadRequest, "invalid_request_error", "metadata holds at most 16 pairs")
		return
	}
	b := s.add("openai", req.InputFileID, items, req.Metadata)
	reply(w, s.openAIBatch(b, "validating"))
}

// createAnthropic creates a message batch.
func (s *Server) createAnthropic(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Requests []struct {
			CustomID string          `json:"custom_id"`
			Params   json.RawMessage `json:"params"`
		} `json:"requests"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Requests) == 0 {
		fail(w, http.StatusBadRequest, "invalid_request_error", "a message batch needs requests")
		return
	}
	var items []item
	seen := map[string]bool{}
	for _, q := range req.Requests {
		if !anthropicID.MatchString(q.CustomID) || seen[q.CustomID] || len(q.Params) == 0 {
			fail(w, http.StatusBadRequest, "invalid_request_error", fmt.Sprintf("requests: custom_id %q must be unique and match %s, with params", q.CustomID, anthropicID))
			return
		}
		seen[q.CustomID] = true
		items = append(items, item{q.CustomID, q.Params})
	}
	b := s.add("anthropic", "", items, nil)
	reply(w, s.anthropicBatch(b, "in_progress"))
}

// add keeps a new batch and counts its submissions.
func (s *Server) add(kind, input string, items []item, metadata map[string]string) *batch {
	s.mu.Lock()
	id := fmt.Sprintf("batch_%d", len(s.batches)+1)
	if kind == "anthropic" {
		id = fmt.Sprintf("msgbatch_%d", len(s.batches)+1)
	}
	created := Epoch.Add(time.Duration(len(s.batches)) * time.Second)
	if s.Now != nil {
		created = s.Now()
	}
	b := &batch{id: id, kind: kind, input: input, items: items, metadata: metadata, created: created}
	s.batches[id] = b
	s.order = append(s.order, b)
	s.mu.Unlock()
	s.event("create", func(c *Counts) {
		c.Creates++
		for _, it := range items {
			c.Submitted[it.id]++
			c.Bodies[string(it.body)]++
		}
	})
	return b
}

// retrieve answers a look at a batch: in progress while held, else
// ended, its results made the first time.
func (s *Server) retrieve(w http.ResponseWriter, id, kind string) {
	s.mu.Lock()
	b, ok := s.batches[id]
	s.mu.Unlock()
	if !ok || b.kind != kind {
		fail(w, http.StatusNotFound, "not_found_error", "no batch "+id)
		return
	}
	held := s.Hold != nil && s.Hold()
	if !held {
		s.end(b)
	}
	s.event("retrieve", func(c *Counts) {
		c.Retrieves++
		if c.Looked == nil {
			c.Looked = map[string]int{}
		}
		c.Looked[id]++
	})
	switch {
	case kind == "openai" && held:
		reply(w, s.openAIBatch(b, "in_progress"))
	case kind == "openai":
		reply(w, s.openAIBatch(b, "completed"))
	case held:
		reply(w, s.anthropicBatch(b, "in_progress"))
	default:
		reply(w, s.anthropicBatch(b, "ended"))
	}
}

// end makes a batch's results, once.
func (s *Server) end(b *batch) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if b.results != nil {
		return
	}
	var out, errs bytes.Buffer
	for i, it := range b.items {
		outcome := ""
		if s.Outcome != nil {
			outcome = s.Outcome(it.id)
		}
		var line any
		to := &out
		if b.kind == "openai" {
			req := map[string]any{"id": fmt.Sprintf("batch_req_%d", i+1), "custom_id": it.id, "response": nil, "error": nil}
			switch outcome {
			case "expired":
				req["error"] = map[string]any{"code": "batch_expired", "message": "This request could not be executed before the completion window expired."}
				to = &errs
			case "refused", "overloaded":
				status, typ := 400, "invalid_request_error"
				if outcome == "overloaded" {
					status, typ = 500, "server_error"
				}
				body, _ := json.Marshal(map[string]any{"error": map[string]any{"message": "the request was " + outcome, "type": typ, "code": nil}})
				req["response"] = map[string]any{"status_code": status, "request_id": fmt.Sprintf("req_%d", i+1), "body": json.RawMessage(body)}
				to = &errs
			default:
				s.answers++
				body := s.completion(b.kind, it.body, s.answers <= s.Garbage)
				req["response"] = map[string]any{"status_code": 200, "request_id": fmt.Sprintf("req_%d", i+1), "body": json.RawMessage(body)}
			}
			line = req
		} else {
			var result any
			switch outcome {
			case "expired":
				result = map[string]any{"type": "expired"}
			case "refused", "overloaded":
				typ := "invalid_request_error"
				if outcome == "overloaded" {
					typ = "overloaded_error"
				}
				result = map[string]any{"type": "errored", "error": map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": "the request was " + outcome}}}
			default:
				s.answers++
				result = map[string]any{"type": "succeeded", "message": json.RawMessage(s.completion(b.kind, it.body, s.answers <= s.Garbage))}
			}
			line = map[string]any{"custom_id": it.id, "result": result}
		}
		l, _ := json.Marshal(line)
		to.Write(l)
		to.WriteByte('\n')
	}
	if b.kind == "openai" && errs.Len() > 0 {
		b.errors = fmt.Sprintf("file-%d", len(s.files)+1)
		s.files[b.errors] = errs.Bytes()
	} else {
		out.Write(errs.Bytes())
	}
	b.results = out.Bytes()
	if b.kind == "openai" {
		b.output = fmt.Sprintf("file-%d", len(s.files)+1)
		s.files[b.output] = b.results
	}
}

// content serves an OpenAI file's bytes.
func (s *Server) content(w http.ResponseWriter, id string) {
	s.mu.Lock()
	f, ok := s.files[id]
	s.mu.Unlock()
	if !ok {
		fail(w, http.StatusNotFound, "invalid_request_error", "no file "+id)
		return
	}
	s.event("results", func(c *Counts) { c.Results++ })
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Write(f)
}

// results serves a message batch's results.
func (s *Server) results(w http.ResponseWriter, id string) {
	s.mu.Lock()
	b, ok := s.batches[id]
	var res []byte
	if ok {
		res = b.results
	}
	s.mu.Unlock()
	if !ok || b.kind != "anthropic" || res == nil {
		fail(w, http.StatusNotFound, "not_found_error", "no results for "+id)
		return
	}
	s.event("results", func(c *Counts) { c.Results++ })
	w.Header().Set("Content-Type", "application/binary")
	w.Write(res)
}

// openAIBatch is a batch object of the OpenAI API.
func (s *Server) openAIBatch(b *batch, status string) map[string]any {
	n := len(b.items)
	done := 0
	var output, errorFile any
	if status == "completed" {
		done, output = n, b.output
		if b.errors != "" {
			errorFile = b.errors
		}
	}
	return map[string]any{
		"id": b.id, "object": "batch", "endpoint": "/v1/chat/completions", "errors": nil,
		"input_file_id": b.input, "completion_window": "24h", "status": status,
		"output_file_id": output, "error_file_id": errorFile, "created_at": 1741570283,
		"in_progress_at": nil, "expires_at": 1741656683, "finalizing_at": nil, "completed_at": nil,
		"failed_at": nil, "expired_at": nil, "cancelling_at": nil, "cancelled_at": nil,
		"request_counts": map[string]int{"total": n, "completed": done, "failed": 0},
		"metadata":       metadataOf(b),
	}
}

// metadataOf is a batch's metadata as the API shows it: null when none
// was given.
func metadataOf(b *batch) any {
	if b.metadata == nil {
		return nil
	}
	return b.metadata
}

// list answers GET /v1/batches: the OpenAI batches, newest first, limit
// of them (1 to 100, default 20) after the batch named by after, in a
// list object (testdata/openai-batch-list.json).
func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	limit, ok := listLimit(w, r.URL.Query(), 100, "limit must be an integer from 1 to 100")
	if !ok {
		return
	}
	after := r.URL.Query().Get("after")
	all := s.newest("openai")
	if after != "" {
		i := slices.IndexFunc(all, func(b *batch) bool { return b.id == after })
		all = all[i+1:] // an unknown cursor (-1) lists from the newest
	}
	more := len(all) > limit
	if more {
		all = all[:limit]
	}
	data := make([]any, len(all))
	var first, last any
	for i, b := range all {
		status := "in_progress"
		s.mu.Lock()
		if b.results != nil {
			status = "completed"
		}
		s.mu.Unlock()
		data[i] = s.openAIBatch(b, status)
	}
	if len(all) > 0 {
		first, last = all[0].id, all[len(all)-1].id
	}
	s.event("list", func(c *Counts) { c.Lists++ })
	reply(w, map[string]any{"object": "list", "data": data, "first_id": first, "last_id": last, "has_more": more})
}

// listLimit reads a list's limit from q: 20 when it gives none, and a
// 400 with msg (false) when it is not an integer from 1 to most.
func listLimit(w http.ResponseWriter, q url.Values, most int, msg string) (int, bool) {
	l := q.Get("limit")
	if l == "" {
		return 20, true
	}
	n, err := strconv.Atoi(l)
	if err != nil || n < 1 || n > most {
		fail(w, http.StatusBadRequest, "invalid_request_error", msg)
		return 0, false
	}
	return n, true
}

// newest is the batches of one kind ("openai", "anthropic"), newest first.
func (s *Server) newest(kind string) []*batch {
	s.mu.Lock()
	defer s.mu.Unlock()
	var all []*batch
	for _, b := range slices.Backward(s.order) {
		if b.kind == kind {
			all = append(all, b)
		}
	}
	return all
}

// anthropicBatch is a message batch of the Anthropic API.
func (s *Server) anthropicBatch(b *batch, status string) map[string]any {
	n := len(b.items)
	processing, succeeded := n, 0
	var results, ended any
	if status == "ended" {
		processing, succeeded = 0, n
		results = s.URL + "/v1/messages/batches/" + b.id + "/results"
		ended = b.created.Add(time.Hour).Format(time.RFC3339)
	}
	return map[string]any{
		"id": b.id, "type": "message_batch", "processing_status": status,
		"request_counts": map[string]int{"processing": processing, "succeeded": succeeded, "errored": 0, "canceled": 0, "expired": 0},
		"ended_at":       ended, "created_at": b.created.Format(time.RFC3339), "expires_at": b.created.Add(24 * time.Hour).Format(time.RFC3339),
		"archived_at": nil, "cancel_initiated_at": nil, "results_url": results,
	}
}

// listAnthropic answers GET /v1/messages/batches: the message batches,
// newest first, limit of them (1 to 1,000, default 20) after the batch
// named by after_id or before the one named by before_id, in a page
// (testdata/anthropic-batch-list.json). A batch not held ends when it is
// listed, as when it is looked at.
func (s *Server) listAnthropic(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit, ok := listLimit(w, q, 1000, "limit: must be an integer from 1 to 1000")
	if !ok {
		return
	}
	after, before := q.Get("after_id"), q.Get("before_id")
	if after != "" && before != "" {
		fail(w, http.StatusBadRequest, "invalid_request_error", "give after_id or before_id, not both")
		return
	}
	all := s.newest("anthropic")
	at := func(id string) int { return slices.IndexFunc(all, func(b *batch) bool { return b.id == id }) }
	more := false
	switch {
	case after != "":
		all = all[at(after)+1:] // an unknown cursor (-1) lists from the newest
		more = len(all) > limit
		if more {
			all = all[:limit]
		}
	case before != "":
		i := at(before)
		if i < 0 {
			i = 0
		}
		all = all[:i]
		more = len(all) > limit
		if more {
			all = all[len(all)-limit:]
		}
	default:
		more = len(all) > limit
		if more {
			all = all[:limit]
		}
	}
	held := s.Hold != nil && s.Hold()
	data := make([]any, len(all))
	for i, b := range all {
		status := "in_progress"
		if !held {
			s.end(b)
			status = "ended"
		}
		data[i] = s.anthropicBatch(b, status)
	}
	var first, last any
	if len(all) > 0 {
		first, last = all[0].id, all[len(all)-1].id
	}
	s.event("list", func(c *Counts) { c.Lists++ })
	reply(w, map[string]any{"data": data, "has_more": more, "first_id": first, "last_id": last})
}
