package transport_test

import (
	"testing"

	"github.com/rubricmcp/rubric/engine/transport"
)

// TestLimitAdvice: a read limit a server passed, as the built-in
// transports word it, is followed by the flag that sets that wait, once
// however often the message is advised; other messages are left alone.
func TestLimitAdvice(t *testing.T) {
	const list = " (the server started but did not list its tools in time: give it a larger --request-timeout if it needs more time)"
	const start = " (the server did not answer as it started: give it a larger --start-timeout if it needs more time, as a first go run or npx -y may to compile or download it)"
	const wrongID = "; " + transport.WrongIDNote + `: "{\"jsonrpc\":\"2.0\",\"id\":7}"`
	for _, c := range []struct{ name, msg, want string }{
		{"tools/list", "no answer to tools/list within 1s", "no answer to tools/list within 1s" + list},
		{"initialize, then more", "no answer to initialize within 2m30s; the server wrote 3 lines", "no answer to initialize within 2m30s" + start + "; the server wrote 3 lines"},
		{"server/discover, quoted", "the server speaks only MCP 2026-07-28 (...), and then: no answer to server/discover within 100ms", "the server speaks only MCP 2026-07-28 (...), and then: no answer to server/discover within 100ms" + start},
		{"advised already", "export: no answer to tools/list within 1s" + list, "export: no answer to tools/list within 1s" + list},
		{"two limits", "no answer to initialize within 1s; no answer to tools/list within 1s", "no answer to initialize within 1s" + start + "; no answer to tools/list within 1s" + list},
		{"a cause found, where more time would not help", "no answer to initialize within 2s" + wrongID, "no answer to initialize within 2s" + wrongID},
		{"a cause found for the second limit only", "no answer to initialize within 1s; no answer to tools/list within 1s" + wrongID, "no answer to initialize within 1s" + start + "; no answer to tools/list within 1s" + wrongID},
		{"nothing to advise", "server exited with status 1 before answering initialize", "server exited with status 1 before answering initialize"},
		{"a report's question", `the report holds no answer to question "len"`, `the report holds no answer to question "len"`},
	} {
		if got := transport.LimitAdvice(c.msg); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
		if got := transport.LimitAdvice(transport.LimitAdvice(c.msg)); got != c.want {
			t.Errorf("%s, advised twice:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
