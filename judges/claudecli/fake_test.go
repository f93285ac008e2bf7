package claudecli

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The test binary, started under the name claude with fakeMode set,
// stands in for Claude Code's command line: it records each call in the
// file fakeRecord names and plays the mode.
const (
	fakeMode    = "RUBRIC_FAKECLAUDE_MODE"
	fakeRecord  = "RUBRIC_FAKECLAUDE_RECORD"
	fakeVersion = "RUBRIC_FAKECLAUDE_VERSION" // what --version prints
	fakeProbe   = "RUBRIC_FAKECLAUDE_PROBE"   // recorded, to show the environment passes through
	// fakeAnswered is the model that answers in mode answered-by, in
	// place of claude-opus-5-5.
	fakeAnswered = "RUBRIC_FAKECLAUDE_ANSWERED"
	// fakeReady is the loopback address a hanging stand-in connects to
	// once it has reached the stage it hangs at (its call recorded, its
	// child started): the test's signal to act, instead of a timer.
	fakeReady = "RUBRIC_FAKECLAUDE_READY"
)

func TestMain(m *testing.M) {
	if mode := os.Getenv(fakeMode); mode != "" {
		os.Exit(fakeClaude(mode))
	}
	os.Exit(m.Run())
}

// fakeHang is how long the stand-in hangs: far longer than any test
// waits, short enough that a test that fails to end it leaves nothing
// running for long.
const fakeHang = 5 * time.Minute

// call is one recorded call of the stand-in.
type call struct {
	Args  []string `json:"args"`
	Dir   string   `json:"dir"`
	Files []string `json:"files"` // what Dir held
	Stdin string   `json:"stdin"`
	PID   int      `json:"pid"`
	Child int      `json:"child,omitempty"` // a process it started, in hang mode
	Probe string   `json:"probe"`
}

// A result as Claude Code 2.1 prints it, two models' usage included: the
// main model's and a small one's for housekeeping.
const fakeResult = `{"type":"result","subtype":"success","is_error":false,"duration_ms":2267,"duration_api_ms":1944,` +
	`"num_turns":1,"result":%s,"stop_reason":"end_turn","session_id":"8b5de1fc-6b32-4a54-bacc-e9328bec7d25",` +
	`"total_cost_usd":0.0187,"usage":{"input_tokens":7,"cache_creation_input_tokens":1200,"cache_read_input_tokens":300,` +
	`"output_tokens":95,"server_tool_use":{"web_search_requests":0,"web_fetch_requests":0},"service_tier":"standard"},` +
	`"modelUsage":{"claude-haiku-4-5-20251001":{"inputTokens":310,"outputTokens":12,"cacheReadInputTokens":0,` +
	`"cacheCreationInputTokens":0,"webSearchRequests":0,"costUSD":0.0004,"contextWindow":200000,"maxOutputTokens":32000},` +
	`"claude-opus-5-5":{"inputTokens":7,"outputTokens":95,"cacheReadInputTokens":300,"cacheCreationInputTokens":1200,` +
	`"webSearchRequests":0,"costUSD":0.0183,"contextWindow":200000,"maxOutputTokens":32000}},"permission_denials":[],` +
	`"uuid":"0d7c51e9-0f5e-4b53-9d3b-2a3c1d2f1a10"}` + "\n"

// fakeClaude plays mode and returns the exit status.
func fakeClaude(mode string) int {
	switch {
	case mode == "sleep":
		time.Sleep(fakeHang)
		return 0
	case len(os.Args) == 2 && os.Args[1] == "--version":
		return fakeVersionOutput(mode)
	}
	c := call{Args: os.Args[1:], PID: os.Getpid(), Probe: os.Getenv(fakeProbe)}
	c.Dir, _ = os.Getwd()
	entries, _ := os.ReadDir(".")
	for _, e := range entries {
		c.Files = append(c.Files, e.Name())
	}
	stdin, _ := io.ReadAll(os.Stdin)
	c.Stdin = string(stdin)
	if mode == "hang" {
		// A child holding claude's stdout and stderr, as a tool's process
		// might: it must end with claude.
		child := exec.Command(os.Args[0])
		child.Env = append(os.Environ(), fakeMode+"=sleep")
		child.Stdout, child.Stderr = os.Stdout, os.Stderr
		if err := child.Start(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 3
		}
		c.Child = child.Process.Pid
	}
	record(c)

	result := func(text string) {
		b, _ := json.Marshal(text)
		fmt.Printf(fakeResult, b)
	}
	switch mode {
	case "ok":
		result(`{"score": 4}`)
	case "answered-by":
		b, _ := json.Marshal(`{"score": 4}`)
		fmt.Print(strings.ReplaceAll(fmt.Sprintf(fakeResult, b), `"claude-opus-5-5"`, strconv.Quote(os.Getenv(fakeAnswered))))
	case "fenced":
		result("```json\n{\"score\": 4}\n```\n")
	case "fenced-bare":
		result("\n```\n{\"score\": 4}\n```")
	case "no-model-usage":
		fmt.Println(`{"type":"result","subtype":"success","is_error":false,"result":"{\"score\": 4}","usage":{"input_tokens":10,"output_tokens":5}}`)
	case "verbose":
		fmt.Println(`[{"type":"system","subtype":"init","model":"claude-opus-5-5"},` +
			`{"type":"result","subtype":"success","is_error":false,"result":"{\"score\": 4}","usage":{"input_tokens":10,"output_tokens":5},` +
			`"modelUsage":{"claude-opus-5-5":{"outputTokens":5}}}]`)
	case "empty-result":
		result("  \n")
	case "rate-limit":
		fmt.Println(`{"type":"result","subtype":"success","is_error":true,"duration_ms":412,"num_turns":1,` +
			`"result":"API Error: 429 {\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"Number of request tokens has exceeded your per-minute rate limit\"}}",` +
			`"usage":{"input_tokens":0,"output_tokens":0}}`)
		return 1
	case "overloaded":
		fmt.Println(`{"type":"result","subtype":"success","is_error":true,` +
			`"result":"API Error: Repeated 529 Overloaded errors","usage":{"input_tokens":0,"output_tokens":0}}`)
		return 1
	case "rate-limit-stderr":
		fmt.Fprintln(os.Stderr, "Error: 429 Too Many Requests")
		return 1
	case "auth":
		fmt.Println(`{"type":"result","subtype":"success","is_error":true,"result":"Invalid API key · Please run /login","usage":{"input_tokens":0,"output_tokens":0}}`)
		return 1
	case "errors":
		fmt.Println(`{"type":"result","subtype":"error_during_execution","is_error":true,"errors":["Error: Request was aborted.",{"code":7}]}`)
		return 1
	case "exit":
		fmt.Fprint(os.Stderr, "\x1b[31mwarming up\x1b[0m\n\nerror: unknown option '--no-session-persistence'\n(Did you mean --session-id?)\n")
		return 2
	case "exit-silent":
		return 1
	case "junk":
		fmt.Print("Welcome to Claude Code!\n\"not\" a result\n")
	case "junk-long":
		fmt.Print(strings.Repeat("0123456789", 30))
	case "not-a-result":
		fmt.Println(`{"type":"assistant","message":{"content":[]}}`)
	case "echo-token":
		// A command line that quotes its credential back: in the answer,
		// in the model's name and in its usage.
		tok := os.Getenv("CLAUDE_CODE_OAUTH_TOKEN")
		fmt.Printf(`{"type":"result","subtype":"success","is_error":false,"result":"{\"score\": 4, \"why\": \"%s\"}",`+
			`"usage":{"input_tokens":10,"output_tokens":5},"modelUsage":{"claude-%s":{"outputTokens":5}}}`+"\n", tok, tok)
	case "echo-token-fail":
		fmt.Fprintf(os.Stderr, "error: the token %s was refused\n", os.Getenv("CLAUDE_CODE_OAUTH_TOKEN"))
		return 1
	case "nothing":
	case "flood":
		fmt.Print(strings.Repeat("x", 64<<10))
	case "hang":
		signalReady()
		time.Sleep(fakeHang)
	default:
		fmt.Fprintf(os.Stderr, "fake claude: no mode %q\n", mode)
		return 3
	}
	return 0
}

// fakeVersionOutput answers --version.
func fakeVersionOutput(mode string) int {
	switch mode {
	case "version-fails":
		fmt.Fprintln(os.Stderr, "claude: cannot find its own installation")
		return 1
	case "version-hang":
		signalReady()
		time.Sleep(fakeHang)
	}
	v := os.Getenv(fakeVersion)
	if v == "" {
		v = "2.1.288 (Claude Code)"
	}
	fmt.Println(v)
	return 0
}

// signalReady tells the test, if it listens, that the stand-in reached
// the stage it hangs at.
func signalReady() {
	addr := os.Getenv(fakeReady)
	if addr == "" {
		return
	}
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	conn.Close()
}

// record appends c to the record file.
func record(c call) {
	b, _ := json.Marshal(c)
	f, err := os.OpenFile(os.Getenv(fakeRecord), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	defer f.Close()
	f.Write(append(b, '\n'))
}

// install puts the stand-in first on PATH as claude, playing mode, and
// returns the file its calls are recorded in.
func install(t *testing.T, mode string) string {
	t.Helper()
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(exe, filepath.Join(dir, "claude")); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv(fakeMode, mode)
	// Under -race, a program sleeps a second on exit to catch late races;
	// the stand-in has none to catch, and exits often.
	t.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	rec := filepath.Join(dir, "calls.jsonl")
	t.Setenv(fakeRecord, rec)
	return rec
}

// calls reads the recorded calls.
func calls(t *testing.T, rec string) []call {
	t.Helper()
	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	var cs []call
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var c call
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("record %q: %v", line, err)
		}
		cs = append(cs, c)
	}
	return cs
}

// ready listens for the stand-in's signal that it reached the stage it
// hangs at (modes hang and version-hang) and returns a channel closed
// when the signal came.
func ready(t *testing.T) <-chan struct{} {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	t.Setenv(fakeReady, ln.Addr().String())
	reached := make(chan struct{})
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			return // the test ended first
		}
		conn.Close()
		close(reached)
	}()
	return reached
}
