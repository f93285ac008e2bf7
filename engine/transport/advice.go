package transport

import (
	"regexp"
	"strings"
)

// unanswered is the words of a built-in transport whose RequestTimeout
// (for tools/list) or StartTimeout (for initialize or server/discover)
// passed: "no answer to tools/list within 30s", which name no flag.
var unanswered = regexp.MustCompile(`\bno answer to (?:tools/list|initialize|server/discover) within [0-9][0-9a-zµ.]*`)

// Advice for each wait: a command's flag sets it (--request-timeout,
// --start-timeout), as does the config key of the same name.
const (
	listAdvice  = " (the server started but did not list its tools in time: give it a larger --request-timeout if it needs more time)"
	startAdvice = " (the server did not answer as it started: give it a larger --start-timeout if it needs more time, as a first go run or npx -y may to compile or download it)"
)

// WrongIDNote opens what a transport adds to a timeout when the server
// answered a request rubric never sent: the cause is found, and more
// time would not help, so LimitAdvice names no flag there.
const WrongIDNote = "the server sent an answer to a request rubric never sent (a wrong id)"

// LimitAdvice is msg with each read limit it quotes a server passing
// ("no answer to tools/list within 1s") followed by the flag that sets
// that wait, the value being the one quoted: --request-timeout for
// tools/list, --start-timeout for initialize and server/discover. A
// limit already followed by its advice is left as it is, so a message
// advised twice (a failure record's reason, then the error it is
// printed with) names the flag once; one followed by WrongIDNote gets
// none, since waiting longer would not help.
func LimitAdvice(msg string) string {
	var b strings.Builder
	last := 0
	for _, m := range unanswered.FindAllStringIndex(msg, -1) {
		advice := startAdvice
		if strings.Contains(msg[m[0]:m[1]], "tools/list") {
			advice = listAdvice
		}
		b.WriteString(msg[last:m[1]])
		if rest := msg[m[1]:]; !strings.HasPrefix(rest, advice) && !causeFound(rest) {
			b.WriteString(advice)
		}
		last = m[1]
	}
	if last == 0 {
		return msg
	}
	b.WriteString(msg[last:])
	return b.String()
}

// causeFound reports whether the notes after a timeout (rest, from
// "; ") say why no answer came: an answer to a request never sent. Only
// the notes up to the next limit quoted count.
func causeFound(rest string) bool {
	if !strings.HasPrefix(rest, "; ") {
		return false
	}
	if next := unanswered.FindStringIndex(rest); next != nil {
		rest = rest[:next[0]]
	}
	return strings.Contains(rest, WrongIDNote)
}
