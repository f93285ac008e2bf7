package main

import (
	"regexp"
	"strings"
)

// unanswered matches what a transport says when a server let its
// --start-timeout (initialize, server/discover) or --request-timeout
// (tools/list) pass: "no answer to initialize within 60s", which names
// neither the flag nor the likely cause.
var unanswered = regexp.MustCompile(`\bno answer to (?:tools/list|initialize|server/discover) within [0-9][0-9a-zµ.]*`)

// timeoutAdvice adds to each such phrase of msg the flag that gives the
// server more time. A first `go run` or `npx -y` compiles or downloads
// before the server answers, which the start timeout covers. A phrase
// already followed by advice (a scan words its own) or by a cause the
// transport found ("; the server sent an answer to a request rubric
// never sent"), where more time would not help, is left as it is.
func timeoutAdvice(msg string) string {
	var b strings.Builder
	last := 0
	for _, m := range unanswered.FindAllStringIndex(msg, -1) {
		b.WriteString(msg[last:m[1]])
		last = m[1]
		if rest := msg[m[1]:]; strings.HasPrefix(rest, " (") || strings.HasPrefix(rest, "; ") {
			continue
		}
		if strings.Contains(msg[m[0]:m[1]], "tools/list") {
			b.WriteString(" (the server started but did not list its tools in time: raise --request-timeout if it needs longer)")
		} else {
			b.WriteString(" (the server did not answer as it started: raise --start-timeout if it needs longer, as a first go run or npx -y may to compile or download it)")
		}
	}
	b.WriteString(msg[last:])
	return b.String()
}
