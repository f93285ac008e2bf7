package gradable

import "github.com/rubricmcp/rubric/judges/heuristic/internal/lex"

// gradable holds the word lists of the Gradable v1 question kinds: task
// generation, tool selection, description defects and confusable pairs.
// They are kept apart from the TDQS lists (tdqs/cues.go) so that tuning one rubric
// never moves the other's answers.
var gradable = struct {
	// synonyms are the requests a generated task uses instead of a verb,
	// best first; a phrase may stand for a one-word verb ("show all").
	synonyms map[string][]string
	// nounSynonyms replace a word of a one-word tool name that is not a
	// verb, so that the task need not repeat the name ("query").
	nounSynonyms map[string][]string
	// related are groups of words a retriever treats as one meaning; a
	// task word also matches the rest of its group, at half weight.
	related [][]string
	// destructiveVerbs make a task's intended action destructive when
	// the tool is not annotated read-only.
	destructiveVerbs []string
	// dangerWords are wording that tells a reader the call loses data for
	// good; a selection on a tool that says one of them asks to confirm.
	// "remove", "clear" and "reset" are not among them: they as often
	// mean detaching or emptying a field as destroying something.
	dangerWords []string
	// extraVerbs are verbs a tool's purpose may open with that the TDQS
	// list does not hold; they count for the Gradable cues only.
	extraVerbs []string
	// lookupVerbs name a tool that can find an identifier for another.
	lookupVerbs []string
	// returnCues say what a call gives back.
	returnCues []string
	// requestFiller are the words a description opens with before its
	// verb ("This tool lets you ..."), dropped when it becomes a request.
	requestFiller []string
	// objectStops end the object of a purpose sentence ("bookmarks" in
	// "Search bookmarks by text").
	objectStops []string
	// valueSkips are the words between a parameter's name and its value
	// in a task ("the id is bm-3").
	valueSkips []string
}{
	synonyms: map[string][]string{
		"add": {"insert", "put in"}, "aggregate": {"summarise", "roll up"}, "analyze": {"examine", "study"},
		"append": {"tack on", "add to the end of"}, "apply": {"put into effect", "use"}, "approve": {"sign off on", "accept"},
		"archive": {"file away", "shelve"}, "assign": {"give", "hand over"}, "cancel": {"call off", "abort"},
		"change": {"modify", "alter"}, "check": {"verify", "inspect"}, "clear": {"empty", "wipe"},
		"click": {"press on", "tap"}, "clone": {"copy", "duplicate"}, "close": {"shut", "dismiss"},
		"commit": {"record", "save"}, "compare": {"contrast", "diff"}, "connect": {"link up to", "attach to"},
		"convert": {"turn", "transform"}, "copy": {"duplicate", "clone"}, "count": {"tally", "total up"},
		"create": {"add", "make"}, "delete": {"remove", "erase"}, "describe": {"explain", "summarise"},
		"disconnect": {"detach from", "drop the link to"}, "download": {"pull down", "save locally"},
		"drag": {"move by dragging", "pull"}, "drop": {"remove", "throw away"}, "edit": {"change", "revise"},
		"emulate": {"simulate", "mimic"}, "evaluate": {"work out", "compute"}, "execute": {"run", "carry out"},
		"explain": {"describe", "walk me through"}, "export": {"dump", "save out"}, "fetch": {"get", "retrieve"},
		"fill": {"complete", "enter values in"}, "find": {"look up", "locate"}, "fork": {"copy", "branch off"},
		"generate": {"produce", "make"}, "get": {"fetch", "show"}, "handle": {"deal with", "respond to"},
		"hover": {"move the pointer over", "point at"}, "import": {"bring in", "load"}, "insert": {"add", "put in"},
		"inspect": {"examine", "look at"}, "install": {"set up", "add"}, "kill": {"stop", "end"},
		"launch": {"start", "open"}, "lint": {"check", "analyse"}, "list": {"show all", "enumerate"},
		"load": {"open", "read in"}, "lookup": {"find", "look up"}, "make": {"create", "produce"},
		"mark": {"flag", "label"}, "merge": {"combine", "join"}, "modify": {"change", "alter"},
		"move": {"relocate", "shift"}, "navigate": {"go", "browse"}, "open": {"show", "bring up"},
		"patch": {"amend", "modify"}, "post": {"send", "submit"}, "press": {"hit", "push"},
		"publish": {"release", "make public"}, "pull": {"bring in", "fetch"}, "purge": {"wipe", "erase"},
		"push": {"send up", "upload"}, "put": {"store", "place"}, "query": {"look up", "ask"},
		"read": {"open", "show"}, "rebase": {"replay", "move"}, "refresh": {"reload", "update"},
		"reload": {"refresh", "load again"}, "remove": {"delete", "take out"}, "rename": {"retitle", "give a new name to"},
		"replace": {"swap", "substitute"}, "reset": {"restore", "put back"}, "resize": {"change the size of", "scale"},
		"resolve": {"settle", "work out"}, "restart": {"reboot", "start again"}, "restore": {"bring back", "recover"},
		"retrieve": {"fetch", "get"}, "revert": {"undo", "roll back"}, "revoke": {"withdraw", "cancel"},
		"run": {"execute", "start"}, "save": {"store", "keep"}, "scan": {"check", "examine"},
		"search": {"look up", "find"}, "select": {"choose", "pick"}, "send": {"deliver", "dispatch"},
		"set": {"change", "configure"}, "show": {"display", "give me"}, "start": {"begin", "kick off"},
		"stop": {"halt", "end"}, "submit": {"send", "hand in"}, "switch": {"change", "swap"},
		"sync": {"synchronise", "bring up to date"}, "tag": {"label", "mark"}, "take": {"capture", "grab"},
		"terminate": {"stop", "end"}, "toggle": {"flip", "switch"}, "trigger": {"set off", "start"},
		"type": {"enter", "key in"}, "unlink": {"detach", "disconnect"}, "update": {"change", "modify"},
		"upload": {"send", "transfer"}, "validate": {"check", "verify"}, "verify": {"check", "confirm"},
		"view": {"see", "show"}, "wait": {"hold on", "pause"}, "write": {"save", "store"},
	},
	nounSynonyms: map[string][]string{
		"query": {"request"}, "echo": {"repeat back"}, "lighthouse": {"page quality"}, "whoami": {"my own account"},
		"sequentialthinking": {"step by step reasoning"},
	},
	related: [][]string{
		{"get", "fetch", "retrieve", "show", "read", "view", "obtain", "display", "open"},
		{"list", "enumerate", "browse", "all"},
		{"create", "add", "make", "new", "insert", "produce", "generate"},
		{"delete", "remove", "erase", "destroy", "drop", "purge", "wipe"},
		{"update", "change", "modify", "edit", "set", "alter", "revise", "amend", "patch", "configure"},
		{"search", "find", "look", "lookup", "query", "locate"},
		{"write", "save", "store", "put", "keep"},
		{"run", "execute", "start", "launch", "begin"},
		{"stop", "halt", "terminate", "kill", "end"},
		{"send", "post", "submit", "deliver", "dispatch"},
		{"upload", "transfer", "attach"},
		{"download", "pull"},
		{"move", "relocate", "shift"},
		{"copy", "duplicate", "clone"},
		{"export", "dump"},
		{"navigate", "go", "visit"},
		{"close", "shut", "dismiss"},
		{"click", "press", "tap", "hit"},
		{"type", "enter", "key"},
		{"count", "tally", "total"},
		{"describe", "explain", "summarise", "summarize"},
		{"tag", "label", "mark", "flag"},
		{"check", "verify", "validate", "inspect", "examine"},
		{"user", "account", "member", "person"},
		{"file", "document"},
		{"folder", "directory", "dir"},
		{"repository", "repo"},
		{"init", "initialize", "initialise", "setup"},
		{"log", "history"},
		{"diff", "difference", "differences", "compare"},
		{"status", "state"},
		{"screenshot", "capture"},
	},
	destructiveVerbs: []string{
		"delete", "remove", "drop", "destroy", "purge", "erase", "overwrite", "truncate", "reset", "kill", "revoke",
		"wipe", "terminate", "uninstall", "unlink", "discard", "clear",
	},
	dangerWords: []string{
		"delete", "deletes", "deleted", "deleting", "deletion", "erase*", "destroy*", "purge*", "wipe*", "overwrite*",
		"truncate*", "permanent*", "irreversibl*", "cannot be undone", "cant be undone", "destructive", "data loss",
		"drops", "for good", "no undo",
	},
	extraVerbs: []string{
		"stage", "rebase", "toggle", "gather", "echo", "simulate", "init", "initialize", "initialise", "audit",
		"resize", "emulate", "interact", "give", "unapprove", "approve", "protect", "unprotect",
	},
	lookupVerbs: []string{"list", "search", "find", "get", "query", "lookup", "retrieve", "fetch", "browse"},
	returnCues: []string{
		"return", "returns", "returned", "returning", "respond with", "responds with", "response", "yield", "yields",
		"output", "outputs", "the result", "the results", "result is", "results are", "gives back", "give back",
		"list of", "lists", "produces", "prints", "you get", "reports", "comes back",
	},
	requestFiller: []string{
		"a", "an", "the", "this", "that", "tool", "function", "method", "endpoint", "mcp", "it", "lets", "let",
		"allows", "allow", "enables", "helps", "you", "user", "users", "to", "can", "be", "used", "will", "we",
		"which", "simply", "use", "for", "is", "in", "order",
	},
	objectStops: []string{
		"by", "for", "from", "in", "into", "with", "on", "at", "to", "using", "via", "that", "which", "when", "if",
		"and", "or", "as", "after", "before", "without", "within", "so", "while", "where", "including",
	},
	valueSkips: []string{"is", "are", "of", "to", "as", "=", ":", "equal", "equals", "set"},
}

// Sets built once from the Gradable lists.
var (
	destructiveVerbSet = lex.Set(gradable.destructiveVerbs)
	lookupVerbSet      = lex.Set(gradable.lookupVerbs)
	requestFillerSet   = lex.Set(gradable.requestFiller)
	objectStopSet      = lex.Set(gradable.objectStops)
	valueSkipSet       = lex.Set(gradable.valueSkips)
	extraVerbSet       = lex.Set(gradable.extraVerbs)
)
