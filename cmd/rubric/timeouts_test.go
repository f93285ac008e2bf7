package main

import "testing"

// TestTimeoutAdvice holds the flag named beside a server's timeout:
// "no answer to initialize within 60s" alone left a newcomer whose
// first go run was still compiling with nothing to change.
func TestTimeoutAdvice(t *testing.T) {
	const (
		start   = " (the server did not answer as it started: raise --start-timeout if it needs longer, as a first go run or npx -y may to compile or download it)"
		request = " (the server started but did not list its tools in time: raise --request-timeout if it needs longer)"
	)
	for _, c := range []struct{ name, msg, want string }{
		{"initialize", "no answer to initialize within 60s", "no answer to initialize within 60s" + start},
		{"discover", "no answer to server/discover within 2s", "no answer to server/discover within 2s" + start},
		{"tools/list", "no answer to tools/list within 1s", "no answer to tools/list within 1s" + request},
		{"a fraction of a second", "no answer to initialize within 300ms", "no answer to initialize within 300ms" + start},
		{"a cause found, where more time would not help",
			"no answer to initialize within 2s; the server sent an answer to a request rubric never sent (a wrong id): \"{}\"",
			"no answer to initialize within 2s; the server sent an answer to a request rubric never sent (a wrong id): \"{}\""},
		{"already advised", "export: no answer to tools/list within 30s (the server started but did not list its tools in time: give it a larger --request-timeout if it needs more time)",
			"export: no answer to tools/list within 30s (the server started but did not list its tools in time: give it a larger --request-timeout if it needs more time)"},
		{"another message", "server exited with status 1 before answering initialize", "server exited with status 1 before answering initialize"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := timeoutAdvice(c.msg); got != c.want {
				t.Errorf("timeoutAdvice(%q)\n got %q\nwant %q", c.msg, got, c.want)
			}
		})
	}
}
