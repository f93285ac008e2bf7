package mcpserver

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/rubricmcp/rubric/engine/explain"
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/judge/panel"
)

// The engine's errors that say what to change speak of rubric's command
// line by default (pass --model NAME, give --tool): the few whose advice
// a client cannot follow carry what they are about, and are worded here
// for a client, which changes a tool's arguments. Everything else they
// say, and when they are raised, is the engine's, shared with the CLI.

// explainWords are the explain tool's ways of picking a score.
var explainWords = explain.Words{Overall: "leave out both metric and tool", Tool: "give tool", Lister: "score's result"}

// worded is err as a client reads it; ref is the call's judge argument.
func worded(err error, ref string) error {
	if jl := (*judgeless)(nil); errors.As(err, &jl) {
		return fmt.Errorf("%w%s", worded(jl.err, ref), jl.advice)
	}
	var se *judge.SettingError
	var ue *explain.UnknownError
	switch {
	case errors.As(err, &se):
		return errors.New(settingAdvice(se, ref))
	case errors.As(err, &ue):
		return errors.New(ue.Worded(explainWords))
	}
	// The judges and transports are plugins: what they say arrives as
	// text, worded for rubric score's user, who sets a variable or a
	// flag and runs the command again. A client's user changes how
	// rubric mcp is started instead, and must be told so.
	msg := err.Error()
	if m := settingAsArgument(msg, ref); m != msg {
		msg, err = m, errors.New(m)
	}
	for _, a := range serverAdvice {
		if strings.Contains(msg, a.says) {
			return fmt.Errorf("%w%s", err, a.advice)
		}
	}
	return err
}

// judgeSetting is how a built-in judge tells rubric score's user to
// give one of its settings: "--judge-option api_key_env=NAME (or in
// --judge openai:api_key_env=NAME)".
var judgeSetting = regexp.MustCompile(`--judge-option ([a-z_]+)=(\S+) \(or in --judge ([a-z0-9-]+):[a-z_]+=\S+\)`)

// settingAsArgument is msg with each judge setting it tells a user of
// rubric score to give by flag told as a client gives it, in the judge
// argument ref (see settingAdvice).
func settingAsArgument(msg, ref string) string {
	return judgeSetting.ReplaceAllStringFunc(msg, func(m string) string {
		g := judgeSetting.FindStringSubmatch(m)
		arg, member := withSetting(g[3], g[1]+"="+g[2], ref)
		if member {
			return arg + " as that member of the judge argument"
		}
		return fmt.Sprintf("the judge argument %q", arg)
	})
}

// withSetting is the judge argument ref with the setting kv of the judge
// name added (judge.SplitRef): ref with kv after its settings, or name:kv
// for a ref that gives none; for a panel, the member to write instead,
// and member true.
func withSetting(name, kv, ref string) (arg string, member bool) {
	if _, isPanel := panel.Members(ref); isPanel {
		return name + ":" + kv, true
	}
	if _, settings := judge.SplitRef(ref); ref != "" && len(settings) > 0 {
		return ref + "," + kv, false
	}
	return cmp.Or(ref, name) + ":" + kv, false
}

// serverAdvice says, for what a plugin's error says, what to change in
// the way rubric mcp is started.
var serverAdvice = []struct{ says, advice string }{
	{"no answer to initialize within", ": the command did not answer as an MCP server over stdio in time; check that it starts one (run it in a terminal: it should wait for input), or start rubric mcp with a larger --start-timeout (a first npx -y download can take a minute)"},
	{"no answer to server/discover within", ": the server did not answer in time; start rubric mcp with a larger --start-timeout"},
	{"no answer to tools/list within", ": the server started but did not list its tools in time; start rubric mcp with a larger --request-timeout"},
	{"API key", "; rubric mcp gives its judges the environment it was started with, so put the variable in the env of rubric's entry in your MCP client's configuration (such as claude mcp add -e NAME=KEY rubric -- rubric mcp) and restart the server"},
}

// settingAdvice says how the judge argument ref gives the setting se
// says is missing: as a setting of the reference (judge.SplitRef).
func settingAdvice(se *judge.SettingError, ref string) string {
	head := fmt.Sprintf("the %s judge needs %s", se.Judge, se.What)
	arg, member := withSetting(se.Judge, se.Setting+"="+se.Value, ref)
	if member {
		return fmt.Sprintf("%s: in the judge argument, give that member as %s", head, arg)
	}
	return fmt.Sprintf("%s: give the judge argument as %q", head, arg)
}
