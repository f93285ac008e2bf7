package heuristic

// Every word list the judge reads lives in this file, so that a cue can be
// found, argued about and changed in one place. Phrases are matched on the
// normalised text (lower case, words separated by single spaces, hyphens
// and underscores as spaces, apostrophes dropped), whole words only; a
// phrase ending in "*" matches any word that starts with it.

// lists is the table of cue lists, by name.
var lists = struct {
	// actionVerbs are verbs a purpose statement can open with. Each names
	// something specific to do; vagueVerbs below are the exceptions.
	actionVerbs []string
	// vagueVerbs say that something happens but not what. A name made
	// of them alone ("run", "process_v2") is vague.
	vagueVerbs []string
	// objectVerbs are the vague verbs that are clear enough before a
	// specific object ("Run the test suite", "Execute a SQL query");
	// the others ("Process the thing", "Handle it") stay vague.
	objectVerbs []string
	// writeVerbs change state. A read-only tool that opens with one of
	// them contradicts its annotations.
	writeVerbs []string
	// actionVerbsWithEffects are verbs whose tools do something beyond
	// answering: what they change and what they return matter.
	actionVerbsWithEffects []string
	// writeClaims are third-person statements of a change, checked in the
	// first sentence of a read-only tool's description when one of
	// claimSubjects comes just before (so "progress updates" is no claim).
	writeClaims []string
	// claimSubjects are the words that make a following verb a statement
	// about the tool itself.
	claimSubjects []string
	// genericNouns name no particular resource.
	genericNouns []string
	// fillerLead are words skipped before the leading verb ("This tool
	// lets you list ...").
	fillerLead []string
	// stopwords carry no content.
	stopwords []string
	// versionWords mark a variant of another tool ("process_v2").
	versionWords []string

	// usageWhen says when to use the tool.
	usageWhen []string
	// usageNot says when not to use it, or what it is not for.
	usageNot []string
	// usageAlternative points elsewhere.
	usageAlternative []string
	// pointers are the words around a reference to another tool.
	pointers []string
	// usagePrerequisite orders the tool with others or names a condition.
	usagePrerequisite []string
	// usageImplied hints at usage without saying it.
	usageImplied []string

	// behaviour groups the disclosures a description can make beyond its
	// purpose; each group counts once.
	behaviour []cueGroup
	// readOnlyClaims say that the tool changes nothing.
	readOnlyClaims []string
	// destructiveClaims say that the tool destroys something for good.
	destructiveClaims []string
	// placeholders are text left where a description should be.
	placeholders []string
	// negations turn a claim around when they come just before it.
	negations []string

	// paramFormat explains what a value looks like.
	paramFormat []string

	// filler is wording that takes space and says nothing.
	filler []string
	// notFrontLoaded are openings that put something other than the
	// purpose first.
	notFrontLoaded []string

	// lifecycle sorts verbs by the lifecycle operation they perform, for
	// the coherence completeness check.
	lifecycle map[string][]string
}{
	actionVerbs: []string{
		"accept", "add", "adopt", "aggregate", "analyze", "analyse", "append", "apply", "approve", "archive", "assign",
		"attach", "audit", "authenticate", "authorize", "benchmark", "block", "book", "browse", "build", "calculate",
		"cancel", "capture", "categorize", "change", "check", "classify", "clean", "clear", "click", "clone", "close",
		"collect", "comment", "commit", "compare", "compile", "compose", "compress", "compute", "configure", "confirm",
		"connect", "continue", "convert", "copy", "count", "crawl", "create", "debug", "decode", "decrypt", "delete",
		"deploy", "describe", "detach", "detect", "diagnose", "diff", "disable", "disconnect", "discover", "dismiss",
		"download", "drag", "draw", "drop", "dump", "duplicate", "edit", "embed", "emulate", "enable", "encode",
		"encrypt", "enqueue", "ensure", "enumerate", "erase", "estimate", "evaluate", "examine", "explain", "export",
		"extract", "fetch", "fill", "filter", "find", "flash", "follow", "force", "fork", "format", "forget", "generate", "get",
		"grade", "grant", "group", "halt", "hash", "hover", "identify", "import", "index", "initialize", "insert",
		"inspect", "install", "invite", "join", "kill", "label", "launch", "link", "lint", "list", "load", "locate",
		"lock", "log", "look", "lookup", "make", "map", "mark", "measure", "merge", "modify", "monitor", "move",
		"navigate", "notify", "open", "optimize", "parse", "patch", "pause", "ping", "place", "plan", "plot", "poll",
		"post", "predict", "press", "preview", "print", "probe", "profile", "propose", "provision", "publish", "pull",
		"purge", "push", "query", "rank", "read", "reboot", "recall", "record", "recover", "redo", "refresh",
		"register", "reject", "release", "reload", "remember", "remove", "rename", "render", "reopen", "reorder",
		"replace", "reply", "report", "request", "reset", "resize", "resolve", "restart", "restore", "resume",
		"retrieve", "return", "revert", "review", "revoke", "rollback", "rotate", "save", "scan", "schedule", "score",
		"scrape", "screenshot", "scroll", "search", "select", "send", "set", "share", "show", "sign", "snapshot",
		"sort", "split", "start", "stat", "step", "stop", "store", "stream", "submit", "subscribe", "suggest",
		"summarize", "summarise", "switch", "sync", "tag", "take", "tail", "terminate", "test", "track", "transcribe",
		"transfer", "transform", "translate", "trigger", "truncate", "type", "undo", "uninstall", "unlink", "unlock",
		"unsubscribe", "update", "upload", "upsert", "validate", "verify", "view", "wait", "watch", "write",
	},
	vagueVerbs: []string{
		"do", "execute", "handle", "invoke", "manage", "operate", "perform", "process", "run", "use", "work",
		"call",
	},
	objectVerbs: []string{"run", "execute", "invoke", "call"},
	writeVerbs: []string{
		"add", "append", "create", "delete", "destroy", "drop", "edit", "erase", "insert", "modify", "move",
		"overwrite", "post", "publish", "purge", "remove", "rename", "replace", "send", "truncate", "update",
		"upload", "upsert", "write",
	},
	actionVerbsWithEffects: []string{
		"add", "append", "apply", "approve", "archive", "assign", "attach", "block", "book", "cancel", "change",
		"clear", "click", "close", "commit", "configure", "connect", "create", "delete", "deploy", "destroy",
		"detach", "disable", "disconnect", "do", "drop", "edit", "enable", "enqueue", "erase", "execute", "fill",
		"flash", "grant", "halt", "handle", "insert", "install", "invite", "invoke", "kill", "launch", "lock",
		"merge", "modify", "move", "overwrite", "patch", "pause", "perform", "post", "press", "process", "propose",
		"provision", "publish", "purge", "push", "reboot", "register", "reject", "release", "reload", "remove",
		"rename", "reopen", "replace", "reset", "restart", "restore", "resume", "revert", "revoke", "rollback",
		"run", "save", "schedule", "send", "set", "share", "start", "stop", "store", "submit", "subscribe",
		"switch", "terminate", "transfer", "trigger", "truncate", "type", "uninstall", "unlink", "unlock",
		"unsubscribe", "update", "upload", "upsert", "write",
	},
	writeClaims: []string{
		"creates", "deletes", "removes", "writes", "modifies", "updates", "overwrites", "inserts", "uploads",
		"sends", "drops", "erases", "destroys", "purges", "mutates",
	},
	claimSubjects: []string{
		"it", "and", "also", "then", "that", "which", "this", "tool", "function", "permanently", "silently",
		"automatically", "immediately",
	},
	genericNouns: []string{
		"action", "data", "entity", "everything", "info", "information", "input", "item", "object", "operation",
		"request", "something", "stuff", "task", "thing", "things", "v1", "v2", "v3", "helper", "function",
		"tool", "output", "result", "value", "payload", "message", "command", "job", "util", "utility", "misc",
		"utils", "generic", "system",
	},
	fillerLead: []string{
		"a", "allows", "an", "be", "can", "enables", "endpoint", "function", "helps", "it", "lets", "method", "mcp",
		"simply", "that", "the", "this", "to", "tool", "used", "user", "users", "we", "which", "will", "you",
	},
	stopwords: []string{
		"a", "about", "all", "an", "and", "any", "are", "as", "at", "be", "by", "can", "do", "does", "each", "for",
		"from", "has", "have", "how", "if", "in", "into", "is", "it", "its", "may", "of", "on", "one", "or", "other",
		"so", "some", "such", "than", "that", "the", "their", "them", "then", "there", "these", "this", "those",
		"to", "up", "via", "was", "what", "when", "where", "which", "while", "who", "will", "with", "within",
		"without", "you", "your", "e", "g", "i", "etc", "given", "specified", "provided", "using", "based",
		"new", "existing", "current", "specific", "tool", "function",
	},
	versionWords: []string{"v1", "v2", "v3", "v4", "2", "3", "new", "old", "legacy", "alt", "beta", "next", "latest"},

	usageWhen: []string{
		"use this when", "use when", "use this tool when", "use it when", "use this to", "use this tool to",
		"use this for", "use this tool for", "use it to", "use for", "use to", "when you need", "when you want",
		"when you have", "useful when", "useful for", "ideal for", "perfect for", "best for", "intended for",
		"designed for", "call this", "call it when", "helpful for", "helpful when", "good for", "appropriate for",
		"recommended for", "use this tool", "use this first", "essential for",
	},
	usageNot: []string{
		"do not use", "dont use", "not for", "not intended", "not meant", "avoid", "never use", "should not",
		"shouldnt", "only use", "only when", "only for", "only if", "not suitable", "not recommended", "deprecated",
		"do not call", "dont call", "not needed", "unnecessary",
	},
	usageAlternative: []string{
		"instead", "rather than", "prefer", "alternatively", "see also", "unlike", "as opposed to", "in contrast",
		"differs from", "compared to", "choose the", "switch to", "for single", "for multiple", "more efficient than",
	},
	pointers: []string{
		"use", "call", "see", "try", "prefer", "instead", "rather", "via", "then", "first", "before", "after",
		"tool", "tools", "alternatively",
	},
	usagePrerequisite: []string{
		"before", "after", "requires", "first call", "first use", "must first", "prior to", "once you have",
		"followed by", "then call", "then use", "call first", "must be called", "needs to be", "is required",
	},
	usageImplied: []string{
		"if", "when", "e g", "for example", "such as", "so that", "in order to", "helps", "lets you", "allows you",
		"to help", "whenever", "typically", "usually", "can be used",
	},

	behaviour: []cueGroup{
		{"side effects", []string{
			"overwrite*", "permanent*", "irreversibl*", "cannot be undone", "cant be undone", "destructive",
			"side effect*", "will delete", "deletes", "removes", "modifies", "mutates", "changes the", "changes remote",
			"in place", "persist*", "stored", "saved", "changes", "alters", "without warning", "replaces", "discards", "clears",
		}},
		{"safety", []string{
			"read only", "readonly", "does not modify", "doesnt modify", "does not change", "doesnt change",
			"does not mutate", "no side effect*", "without modifying", "without changing", "safe to", "non destructive",
			"idempotent", "never modifies", "does not write", "does not delete", "does not merge", "does not resolve",
		}},
		{"authentication", []string{
			"auth*", "token", "tokens", "api key", "api keys", "permission*", "credential*", "scope", "scopes", "login",
			"log in", "oauth", "access to", "requires access", "signed in", "logged in",
		}},
		{"rate limits and cost", []string{
			"rate limit*", "quota*", "throttl*", "cost", "costs", "billing", "billed", "expensive", "credits", "charges",
		}},
		{"pagination and size", []string{
			"paginat*", "cursor", "next page", "page size", "per page", "max results", "truncat*", "at most", "up to",
			"maximum", "limit", "limits", "limited", "offset", "batch*", "first n", "last n",
		}},
		{"return format", []string{
			"returns", "returned", "return value", "response", "responses", "outputs", "yields", "produces",
			"provides", "json", "base64", "list of", "diff", "format", "formatted", "markdown", "result is",
			"results are", "you get", "prefixes", "includes",
		}},
		{"errors", []string{
			"error", "errors", "fail", "fails", "failure", "exception", "throws", "invalid", "rejected", "rejects",
			"not found", "succeed silently", "silently", "warning", "warns",
		}},
		{"constraints", []string{
			"only works", "only within", "only in", "allowed director*", "cannot", "not exposed", "not supported",
			"limited to", "restricted", "regardless", "must be", "must not", "at least", "not included", "excludes",
			"does not include", "no more than",
		}},
		{"timing and state", []string{
			"async*", "background", "blocks", "blocking", "timeout", "time out", "may take", "long running",
			"cache*", "session", "sessions", "stateful", "state", "concurren*", "simultaneous*", "in parallel", "lease",
			"lock", "locks", "wait*", "recursive*", "atomic*",
		}},
	},
	readOnlyClaims: []string{
		"read only", "readonly", "does not modify", "doesnt modify", "does not mutate", "no side effect*",
		"non destructive", "never modifies", "does not write",
	},
	destructiveClaims: []string{
		"permanently", "irreversibl*", "cannot be undone", "cant be undone", "destroys", "wipes",
	},
	placeholders: []string{
		"tool description", "todo", "tbd", "fixme", "placeholder", "lorem ipsum", "description here",
		"no description", "add description", "coming soon", "description goes here",
	},
	negations: []string{"not", "never", "no", "without", "cannot", "cant", "doesnt", "dont", "wont"},

	paramFormat: []string{
		"e g", "for example", "format", "formatted", "iso", "default", "defaults", "between", "must be", "one of",
		"such as", "in the form", "pattern", "regex", "glob", "yyyy", "url", "absolute", "relative", "units",
		"milliseconds", "seconds", "minutes", "bytes", "range", "maximum", "minimum", "at most", "at least",
		"up to", "optional", "optionally", "required", "defaults to", "either", "accepts", "expects", "parameter",
		"parameters", "argument", "arguments",
	},

	filler: []string{
		"allows you to", "lets you", "is used to", "can be used to", "simply", "basically", "just", "very",
		"please", "in order to", "helps you", "this tool", "this function", "really", "awesome", "amazing",
		"powerful", "seamless*", "easily",
	},
	notFrontLoaded: []string{
		"note", "important", "warning", "caution", "deprecated", "when", "if", "before", "after", "do not", "dont",
		"never", "always", "use this", "use when",
	},

	lifecycle: map[string][]string{
		"create": {"create", "add", "insert", "new", "make", "post", "upload", "register", "open", "start", "launch",
			"provision", "submit", "propose", "book", "schedule", "clone", "fork", "import", "generate", "write"},
		"read": {"get", "read", "fetch", "retrieve", "show", "describe", "view", "list", "search", "find", "query",
			"browse", "inspect", "lookup", "look", "download", "export", "count", "check", "status", "info", "stat"},
		"update": {"update", "edit", "modify", "set", "patch", "rename", "move", "merge", "change", "upsert",
			"replace", "configure", "assign", "approve", "reopen", "mark", "label", "tag", "enable", "disable",
			"restore", "resume", "pause", "reload", "transfer", "sync"},
		"delete": {"delete", "remove", "drop", "destroy", "purge", "archive", "cancel", "stop", "close", "erase",
			"terminate", "kill", "unregister", "uninstall", "revoke", "unlink", "clear", "end"},
	},
}

// cueGroup is one kind of behavioural disclosure and the phrases that show
// it.
type cueGroup struct {
	name    string
	phrases []string
}

// set turns a list into a lookup table.
func set(words []string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// Lookup tables built once from lists.
var (
	actionVerbSet   = set(lists.actionVerbs)
	vagueVerbSet    = set(lists.vagueVerbs)
	objectVerbSet   = set(lists.objectVerbs)
	writeVerbSet    = set(lists.writeVerbs)
	effectVerbSet   = set(lists.actionVerbsWithEffects)
	genericNounSet  = set(lists.genericNouns)
	fillerLeadSet   = set(lists.fillerLead)
	stopwordSet     = set(lists.stopwords)
	versionWordSet  = set(lists.versionWords)
	claimSubjectSet = set(lists.claimSubjects)
	lifecycleOf     = func() map[string]string {
		m := map[string]string{}
		// Sorted class order keeps the table the same on every run even
		// if a verb were listed twice.
		for _, class := range []string{"create", "read", "update", "delete"} {
			for _, v := range lists.lifecycle[class] {
				if _, ok := m[v]; !ok {
					m[v] = class
				}
			}
		}
		return m
	}()
)

// gradable holds the word lists of the Gradable v1 question kinds: task
// generation, tool selection, description defects and confusable pairs.
// They are kept apart from the TDQS lists above so that tuning one rubric
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
