package main

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/rubricmcp/rubric/internal/heavytest"
)

// The secrets a run of the secrets test holds: each is distinctive, so
// that a hit anywhere is a leak. The scripts use them by their variable
// names; the judges' keys are set in the environment.
var secrets = map[string]string{
	"OPENAI_API_KEY":    "sk-openai-SECRET-a1b2",
	"ANTHROPIC_API_KEY": "sk-ant-SECRET-c3d4",
	"S_HEADER":          "hdr-SECRET-e5f6",
	"S_USERPW":          "pw-SECRET-g7h8",
	"S_TOKEN":           "tok-SECRET-i9j0",
	"S_APIKEY":          "key-SECRET-k1l2",
	"S_TENANT":          "ten-SECRET-m3n4",
	"S_ENV":             "env-SECRET-o5p6",
	"S_JUDGEPW":         "jpw-SECRET-q7r8",
}

// TestSecrets runs every command (score, gate, calibrate, rescore,
// explain, cache stats) with the openai and anthropic judges pointed at
// an endpoint on 127.0.0.1 that echoes every header and the start of
// every body back inside its answers (and, under /fail, in a 500 error),
// and with targets over HTTP that demand credentials in a header, in the
// URL's userinfo and in its query, and a server over stdio given one in
// its environment. After every command, nosecrets reads both streams and
// every file under the work directory: no secret may appear in any
// (testdata/secrets/*.txtar).
func TestSecrets(t *testing.T) {
	heavytest.Later(t)
	t.Parallel()
	if err := installCompanions(); err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: "testdata/secrets",
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"echollm":   echoLLMCmd,
			"mcphttp":   mcpHTTPCmd,
			"nosecrets": noSecretsCmd,
			"replace":   replaceCmd,
		},
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "")
			env.Setenv("GORACE", "atexit_sleep_ms=0")
			passGOGC(env)
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, ".config"))
			env.Setenv("XDG_CACHE_HOME", filepath.Join(env.WorkDir, ".cache"))
			for k, v := range secrets {
				env.Setenv(k, v)
			}
			if err := goEnv(env); err != nil {
				return err
			}
			if err := copyGlob("../../engine/score/testdata/corpus/postgres.tools.json", filepath.Join(env.WorkDir, "corpus")); err != nil {
				return err
			}
			return copyGlob("../../examples/captures/tidy.*", filepath.Join(env.WorkDir, "captures"))
		},
	})
}

// echoLLMCmd is "echollm": it serves the OpenAI chat completions and
// Anthropic messages APIs in the background, answering TDQS questions
// with every header it received and the start of the body in each
// justification and summary, and sets ECHO to its host and port. Under
// /fail it answers 500, under /deny 401, with the same echo in the error.
func echoLLMCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: echollm")
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var echo strings.Builder
		for _, k := range slices.Sorted(func(yield func(string) bool) {
			for k := range r.Header {
				if !yield(k) {
					return
				}
			}
		}) {
			fmt.Fprintf(&echo, "%s: %s; ", k, strings.Join(r.Header[k], ", "))
		}
		fmt.Fprintf(&echo, "url %s; body %.300s", r.URL, body)
		w.Header().Set("Content-Type", "application/json")
		if status, ok := map[string]int{"fail": http.StatusInternalServerError, "deny": http.StatusUnauthorized}[strings.Split(r.URL.Path, "/")[1]]; ok {
			// A 500 is retried: after 5 ms, so that the run gives up soon.
			w.Header().Set("retry-after-ms", "5")
			w.WriteHeader(status)
			msg, _ := json.Marshal("invalid request, you sent " + echo.String())
			fmt.Fprintf(w, `{"error": {"message": %s, "type": "server_error"}}`, msg)
			return
		}
		dims := []string{"purpose_clarity", "usage_guidelines", "behavioral_transparency", "parameter_semantics", "conciseness_structure", "contextual_completeness"}
		answer := map[string]any{"annotation_contradiction": false}
		if strings.Contains(string(body), "You grade the tools of one MCP server") {
			dims = []string{"disambiguation", "naming_consistency", "tool_count_appropriateness", "completeness"}
			answer = map[string]any{"shadowing_risks": []any{}}
		}
		scores := map[string]any{}
		for _, d := range dims {
			scores[d] = map[string]any{"score": 3, "justification": echo.String()}
		}
		answer["scores"], answer["summary"] = scores, echo.String()
		text, _ := json.Marshal(answer)
		switch {
		case strings.HasSuffix(r.URL.Path, "/chat/completions"):
			content, _ := json.Marshal(string(text))
			fmt.Fprintf(w, `{"id": "chatcmpl-1", "object": "chat.completion", "created": 1741570283, "model": "gpt-test",
				"choices": [{"index": 0, "message": {"role": "assistant", "content": %s, "refusal": null}, "finish_reason": "stop"}],
				"usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}}`, content)
		case strings.HasSuffix(r.URL.Path, "/messages"):
			fmt.Fprintf(w, `{"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
				"content": [{"type": "tool_use", "id": "toolu_1", "name": "answer", "input": %s}],
				"stop_reason": "tool_use", "stop_sequence": null, "usage": {"input_tokens": 100, "output_tokens": 20}}`, text)
		default:
			http.NotFound(w, r)
		}
	}))
	ts.Defer(srv.Close)
	ts.Setenv("ECHO", strings.TrimPrefix(srv.URL, "http://"))
}

// mcpHTTPCmd is "mcphttp": it serves two tools over streamable HTTP on
// 127.0.0.1 in the background, to a client that sends the header
// Authorization: Bearer $S_HEADER (or the user and password
// user:$S_USERPW with the header X-Api-Token: $S_HEADER), and the query
// token=$S_TOKEN and api_key=$S_APIKEY; anything else gets
// 401. It sets MCP to host:port.
func mcpHTTPCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: mcphttp")
	}
	s := server.NewMCPServer("secret-keeper", "1.0.0")
	s.AddTool(mcp.NewToolWithRawSchema("read_note", "Reads one note by its id and returns its text.",
		json.RawMessage(`{"type": "object", "properties": {"id": {"type": "string", "description": "The note's id."}}, "required": ["id"]}`)), nil)
	s.AddTool(mcp.NewToolWithRawSchema("list_notes", "Lists the ids and titles of every note.",
		json.RawMessage(`{"type": "object", "properties": {}}`)), nil)
	mcpHandler := server.NewStreamableHTTPServer(s)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pw, _ := r.BasicAuth()
		q := r.URL.Query()
		byHeader := r.Header.Get("Authorization") == "Bearer "+secrets["S_HEADER"]
		byUser := user == "user" && pw == secrets["S_USERPW"] && r.Header.Get("X-Api-Token") == secrets["S_HEADER"]
		if !byHeader && !byUser || q.Get("token") != secrets["S_TOKEN"] || q.Get("api_key") != secrets["S_APIKEY"] {
			http.Error(w, "who are you?", http.StatusUnauthorized)
			return
		}
		mcpHandler.ServeHTTP(w, r)
	}))
	ts.Defer(srv.Close)
	ts.Setenv("MCP", strings.TrimPrefix(srv.URL, "http://"))
}

// noSecretsCmd is "nosecrets [MORE...]": it fails when the last
// command's standard output or error, or any file under the work
// directory, holds one of the secrets (or one of MORE).
func noSecretsCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("usage: nosecrets [MORE...]")
	}
	all := maps.Clone(secrets)
	for i, a := range args {
		all[fmt.Sprintf("argument %d", i+1)] = a
	}
	check := func(name, text string) {
		for k, v := range all {
			if strings.Contains(text, v) {
				i := strings.Index(text, v)
				ts.Fatalf("%s holds the secret of %s: ...%s...", name, k, text[max(0, i-120):min(len(text), i+len(v)+40)])
			}
		}
	}
	check("stdout", ts.ReadFile("stdout"))
	check("stderr", ts.ReadFile("stderr"))
	work := ts.Getenv("WORK")
	n := 0
	err := filepath.WalkDir(work, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		rel, _ := filepath.Rel(work, path)
		check(rel, string(b))
		return nil
	})
	ts.Check(err)
	ts.Logf("nosecrets: %d files and both streams hold no secret", n)
}
