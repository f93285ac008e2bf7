// Package wiretest starts an example MCP server as a separate process and
// speaks to it in raw JSON-RPC, over stdio lines or streamable HTTP, so
// the examples' tests see exactly the bytes a client would: no SDK sits
// between the server and the assertions to drop or reshape a keyword.
//
// The server process is the test binary itself, re-executed: a test
// package calls ServeIfChild from TestMain, and Start runs the binary again
// with the server's arguments. The child is therefore built with the same
// flags as the test (the race detector included).
package wiretest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/proctest"
	"github.com/rubricmcp/rubric/rubrics"
)

// ProtocolVersion is the MCP version the tests ask for.
const ProtocolVersion = "2025-06-18"

// Timeout bounds every wait: a reply, the bound address, the exit. It
// only ends a test whose server hangs, so it is generous: CI's busy
// 2-core machine has taken over 10s to start a process.
const Timeout = 2 * time.Minute

const childEnv = "RUBRIC_EXAMPLE_SERVER_CHILD"

// ServeIfChild runs the server and exits when this process is a child
// started by Start; otherwise it returns at once. Call it first in
// TestMain, with the server's run function.
func ServeIfChild(run func(args []string) int) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(run(os.Args[1:]))
	}
}

// Response is one JSON-RPC response, kept raw.
type Response struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// Server is a running server process and a connection to it.
type Server struct {
	t       testing.TB
	cmd     *exec.Cmd
	stderr  *proctest.Buffer
	waited  chan struct{}
	waitErr error
	nextID  int
	drained sync.Once

	// stdio
	stdin   io.WriteCloser
	replies chan []byte

	// HTTP
	url     string
	session string
	client  *http.Client
}

// Start runs the server with args. Without --http among them it talks
// over stdio; with --http it waits for the "listening on URL" line on
// stderr and talks HTTP to that URL. The process is stopped when the test
// ends, if the test has not stopped it.
func Start(t testing.TB, args ...string) *Server {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	s := &Server{t: t, cmd: cmd, stderr: &proctest.Buffer{}, waited: make(chan struct{})}
	overHTTP := false
	for _, a := range args {
		if a == "--http" || a == "-http" || strings.HasPrefix(a, "--http=") {
			overHTTP = true
		}
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stdout io.ReadCloser
	if overHTTP {
		s.client = &http.Client{Timeout: Timeout}
	} else {
		if s.stdin, err = cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		if stdout, err = cmd.StdoutPipe(); err != nil {
			t.Fatal(err)
		}
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		select {
		case <-s.waited:
		default:
			_ = cmd.Process.Kill()
			s.drain()
			<-s.waited
		}
		if out := s.stderr.String(); t.Failed() && out != "" {
			t.Logf("server stderr:\n%s", out)
		}
	})

	listening := make(chan string, 1)
	stderrDone := make(chan struct{})
	go func() {
		defer close(stderrDone)
		sc := bufio.NewScanner(stderr)
		addr := regexp.MustCompile(`listening on (http://\S+)`)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(s.stderr, line)
			if m := addr.FindStringSubmatch(line); m != nil {
				select {
				case listening <- m[1]:
				default:
				}
			}
		}
	}()
	stdoutDone := make(chan struct{})
	if stdout != nil {
		s.replies = make(chan []byte, 64)
		go func() {
			defer close(stdoutDone)
			defer close(s.replies)
			r := bufio.NewReader(stdout)
			for {
				line, err := r.ReadBytes('\n')
				if len(bytes.TrimSpace(line)) > 0 {
					s.replies <- line
				}
				if err != nil {
					return
				}
			}
		}()
	} else {
		close(stdoutDone)
	}
	go func() {
		// Wait closes the pipes, so drain them first.
		<-stderrDone
		<-stdoutDone
		s.waitErr = cmd.Wait()
		close(s.waited)
	}()

	if overHTTP {
		select {
		case s.url = <-listening:
		case <-s.waited:
			t.Fatalf("server exited before listening: %v\n%s", s.waitErr, s.stderr.String())
		case <-time.After(Timeout):
			t.Fatalf("no \"listening on\" line on stderr after %s:\n%s", Timeout, s.stderr.String())
		}
	}
	return s
}

// URL is the HTTP endpoint the server announced; empty over stdio.
func (s *Server) URL() string { return s.url }

// Call sends a request and returns its response.
func (s *Server) Call(method string, params any) Response {
	s.t.Helper()
	s.nextID++
	msg := map[string]any{"jsonrpc": "2.0", "id": s.nextID, "method": method}
	if params != nil {
		msg["params"] = params
	}
	want := fmt.Sprint(s.nextID)
	if s.url != "" {
		return s.post(msg, want)
	}
	s.write(msg)
	deadline := time.After(Timeout)
	for {
		select {
		case line, ok := <-s.replies:
			if !ok {
				s.t.Fatalf("%s: server closed stdout before replying", method)
			}
			var r Response
			if err := json.Unmarshal(line, &r); err != nil {
				s.t.Fatalf("%s: stdout line is not JSON-RPC: %v\n%s", method, err, line)
			}
			if string(r.ID) == want {
				return r
			}
			// A notification or another reply: not ours.
		case <-deadline:
			s.t.Fatalf("%s: no reply within %s", method, Timeout)
		}
	}
}

// Notify sends a notification.
func (s *Server) Notify(method string) {
	s.t.Helper()
	msg := map[string]any{"jsonrpc": "2.0", "method": method}
	if s.url != "" {
		s.post(msg, "")
		return
	}
	s.write(msg)
}

// Result is Call that fails the test on a JSON-RPC error.
func (s *Server) Result(method string, params any) json.RawMessage {
	s.t.Helper()
	r := s.Call(method, params)
	if r.Error != nil {
		s.t.Fatalf("%s: error %d: %s", method, r.Error.Code, r.Error.Message)
	}
	return r.Result
}

// Handshake sends initialize and notifications/initialized and returns the
// initialize result.
func (s *Server) Handshake() json.RawMessage {
	s.t.Helper()
	res := s.Result("initialize", map[string]any{
		"protocolVersion": ProtocolVersion,
		"capabilities":    map[string]any{},
		"clientInfo":      map[string]any{"name": "wiretest", "version": "0"},
	})
	s.Notify("notifications/initialized")
	return res
}

// ListTools follows nextCursor through tools/list and returns every tool
// definition as raw JSON, and how many tools each page held.
func (s *Server) ListTools() (tools []json.RawMessage, pages []int) {
	s.t.Helper()
	cursor := ""
	for {
		var params any
		if cursor != "" {
			params = map[string]any{"cursor": cursor}
		}
		var page struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor string            `json:"nextCursor"`
		}
		raw := s.Result("tools/list", params)
		if err := json.Unmarshal(raw, &page); err != nil {
			s.t.Fatalf("tools/list: %v\n%s", err, raw)
		}
		pages = append(pages, len(page.Tools))
		tools = append(tools, page.Tools...)
		if page.NextCursor == "" {
			return tools, pages
		}
		if len(pages) > 100 {
			s.t.Fatal("tools/list: more than 100 pages; the cursor does not advance")
		}
		cursor = page.NextCursor
	}
}

// PagedTools lists the tools like ListTools and fails the test unless the
// list came in at least minPages pages of at most perPage tools.
func (s *Server) PagedTools(perPage, minPages int) []json.RawMessage {
	s.t.Helper()
	tools, pages := s.ListTools()
	if len(pages) < minPages {
		s.t.Errorf("pages %v: want at least %d at %d a page", pages, minPages, perPage)
	}
	for _, n := range pages {
		if n > perPage {
			s.t.Errorf("pages %v: a page holds more than %d tools", pages, perPage)
		}
	}
	return tools
}

// StopWith sends sig and fails the test unless the server then exits
// with status 0.
func (s *Server) StopWith(sig syscall.Signal) {
	s.t.Helper()
	s.Signal(sig)
	if code := s.Wait(); code != 0 {
		s.t.Errorf("exit status %d after %v, want 0", code, sig)
	}
}

// CallTool calls a tool and returns its result: structuredContent when
// there is one, the text of the first content item otherwise, and isError.
func (s *Server) CallTool(name string, args map[string]any) (structured map[string]any, text string, isError bool) {
	s.t.Helper()
	raw := s.Result("tools/call", map[string]any{"name": name, "arguments": args})
	var res struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent map[string]any `json:"structuredContent"`
		IsError           bool           `json:"isError"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		s.t.Fatalf("tools/call %s: %v\n%s", name, err, raw)
	}
	if len(res.Content) > 0 {
		text = res.Content[0].Text
	}
	return res.StructuredContent, text, res.IsError
}

// CloseStdin ends the server's standard input.
func (s *Server) CloseStdin() {
	if err := s.stdin.Close(); err != nil {
		s.t.Fatal(err)
	}
}

// Signal sends sig to the server.
func (s *Server) Signal(sig syscall.Signal) {
	if err := s.cmd.Process.Signal(sig); err != nil {
		s.t.Fatal(err)
	}
}

// Wait waits for the server to exit and returns its exit status.
func (s *Server) Wait() int {
	s.t.Helper()
	s.drain()
	select {
	case <-s.waited:
	case <-time.After(Timeout):
		s.t.Fatalf("server still running %s after it was asked to stop", Timeout)
	}
	var ee *exec.ExitError
	if errors.As(s.waitErr, &ee) {
		return ee.ExitCode()
	}
	if s.waitErr != nil {
		s.t.Fatal(s.waitErr)
	}
	return 0
}

// drain discards stdout replies nobody will read, so that the reader
// never blocks and the process can be waited for.
func (s *Server) drain() {
	if s.replies == nil {
		return
	}
	s.drained.Do(func() {
		go func() {
			for range s.replies {
			}
		}()
	})
}

func (s *Server) write(msg any) {
	s.t.Helper()
	line, err := json.Marshal(msg)
	if err != nil {
		s.t.Fatal(err)
	}
	if _, err := s.stdin.Write(append(line, '\n')); err != nil {
		s.t.Fatalf("writing to the server: %v", err)
	}
}

// post sends one message over HTTP. want is the id of the expected
// response, or "" for a notification, which must be answered 202.
func (s *Server) post(msg any, want string) Response {
	s.t.Helper()
	body, err := json.Marshal(msg)
	if err != nil {
		s.t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.url, bytes.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("MCP-Protocol-Version", ProtocolVersion)
	if s.session != "" {
		req.Header.Set("Mcp-Session-Id", s.session)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	if id := resp.Header.Get("Mcp-Session-Id"); id != "" {
		s.session = id
	}
	if want == "" {
		if resp.StatusCode != http.StatusAccepted {
			s.t.Fatalf("notification: HTTP %s, want 202\n%s", resp.Status, data)
		}
		return Response{}
	}
	if resp.StatusCode != http.StatusOK {
		s.t.Fatalf("HTTP %s\n%s", resp.Status, data)
	}
	var msgs [][]byte
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		for _, line := range strings.Split(string(data), "\n") {
			if d, ok := strings.CutPrefix(line, "data:"); ok {
				msgs = append(msgs, []byte(strings.TrimSpace(d)))
			}
		}
	} else {
		msgs = append(msgs, data)
	}
	for _, m := range msgs {
		var r Response
		if err := json.Unmarshal(m, &r); err == nil && string(r.ID) == want {
			return r
		}
	}
	s.t.Fatalf("no response with id %s in the HTTP reply:\n%s", want, data)
	return Response{}
}

// Score grades tools, raw tools/list definitions, with the built-in rubric
// named rubricName, exactly as rubric would grade a file holding them.
func Score(t testing.TB, rubricName string, tools []json.RawMessage) *report.Report {
	t.Helper()
	r, err := rubrics.Find(rubricName)
	if err != nil {
		t.Fatal(err)
	}
	list, err := json.Marshal(tools)
	if err != nil {
		t.Fatal(err)
	}
	surf, err := surface.Parse("tools/list", list)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := score.Run(context.Background(), r, surf, score.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Score == nil || rep.Exact == nil || rep.Grade == nil {
		t.Fatalf("no overall score: %s", rep.NoScore)
	}
	return rep
}
