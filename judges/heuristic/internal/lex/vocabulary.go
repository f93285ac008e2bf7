package lex

// The word lists every part of the judge shares: the verbs, stop words,
// version words, negations and lifecycle classes that both the TDQS cues
// and the Gradable harness read. Phrases are matched as in the cue files.

// vocabulary is the table of shared word lists, by name.
var vocabulary = struct {
	// actionVerbs are verbs a purpose statement can open with. Each names
	// something specific to do; vagueVerbs below are the exceptions.
	actionVerbs []string
	// vagueVerbs say that something happens but not what. A name made
	// of them alone ("run", "process_v2") is vague.
	vagueVerbs []string
	// claimSubjects are the words that make a following verb a statement
	// about the tool itself.
	claimSubjects []string
	// relativePronouns ("that", "which") make a following verb a
	// statement about the tool only after a word that names the tool
	// ("a tool that creates"); after any other noun they speak of that
	// noun ("the jobs which create reports").
	relativePronouns []string
	// toolNouns are the words that name the tool itself.
	toolNouns []string
	// trailingNegations turn a claim around when they follow it
	// ("creates nothing", "modifies no files").
	trailingNegations []string
	// stopwords carry no content.
	stopwords []string
	// versionWords mark a variant of another tool ("process_v2").
	versionWords []string
	// negations turn a claim around when they come just before it.
	negations []string
	// lifecycle sorts verbs by the lifecycle operation they perform, for
	// the coherence completeness check.
	lifecycle map[string][]string
	// paramNouns are the words for a parameter, the one list of them:
	// a function word before one is a parameter's name ("the to
	// parameter", usedAsName), and for the TDQS cues "required" before
	// one speaks of parameters ("required params") and a format before
	// one is what the caller sends ("JSON string parameters").
	paramNouns []string
	// verbNouns are the words for a parameter that are verbs too: after
	// "to" they make an infinitive ("to input text", "to flag spam"),
	// so "to" before one is no name.
	verbNouns []string
	// subjectVerbs are forms of "be" and modal verbs: a function word
	// before one is the subject, so a name ("to is the recipient").
	subjectVerbs []string
}{
	paramNouns: []string{
		"parameter", "parameters", "param", "params", "argument", "arguments", "arg", "args", "field", "fields",
		"input", "inputs", "option", "options", "property", "properties", "flag", "flags",
	},
	verbNouns: []string{"input", "flag", "field"},
	subjectVerbs: []string{
		"is", "are", "must", "should", "may", "can", "defaults", "accepts", "takes", "sets", "selects",
	},
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
		"purge", "push", "put", "query", "rank", "read", "reboot", "recall", "record", "recover", "redo", "refresh",
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
	claimSubjects: []string{
		"it", "and", "also", "then", "this", "tool", "function", "permanently", "silently",
		"automatically", "immediately",
	},
	relativePronouns:  []string{"that", "which"},
	toolNouns:         []string{"tool", "function", "endpoint", "command", "operation", "it"},
	trailingNegations: []string{"nothing", "no", "none"},
	stopwords: []string{
		"a", "about", "all", "an", "and", "any", "are", "as", "at", "be", "by", "can", "do", "does", "each", "for",
		"from", "has", "have", "how", "if", "in", "into", "is", "it", "its", "may", "of", "on", "one", "or", "other",
		"so", "some", "such", "than", "that", "the", "their", "them", "then", "there", "these", "this", "those",
		"to", "up", "via", "was", "what", "when", "where", "which", "while", "who", "will", "with", "within",
		"without", "you", "your", "e", "g", "i", "etc", "given", "specified", "provided", "using", "based",
		"new", "existing", "current", "specific", "tool", "function",
	},
	versionWords: []string{"v1", "v2", "v3", "v4", "2", "3", "new", "old", "legacy", "alt", "beta", "next", "latest"},
	negations:    []string{"not", "never", "no", "without", "cannot", "cant", "doesnt", "dont", "wont", "neither", "nor"},
	lifecycle: map[string][]string{
		"create": {"create", "add", "insert", "new", "make", "post", "upload", "register", "open", "start", "launch",
			"provision", "submit", "propose", "book", "schedule", "clone", "fork", "import", "generate", "write"},
		"read": {"get", "read", "fetch", "retrieve", "show", "describe", "view", "list", "search", "find", "query",
			"browse", "inspect", "lookup", "look", "download", "export", "count", "check", "status", "info", "stat"},
		"update": {"update", "edit", "modify", "set", "put", "patch", "rename", "move", "merge", "change", "upsert",
			"replace", "configure", "assign", "approve", "reopen", "mark", "label", "tag", "enable", "disable",
			"restore", "resume", "pause", "reload", "transfer", "sync"},
		"delete": {"delete", "remove", "drop", "destroy", "purge", "archive", "cancel", "stop", "close", "erase",
			"terminate", "kill", "unregister", "uninstall", "revoke", "unlink", "clear", "end"},
	},
}

// Set turns a list into a lookup table.
func Set(words []string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// Lookup tables built once from vocabulary: VagueVerbSet, StopwordSet,
// VersionWordSet and ParamNounSet hold the vague verbs, stop words,
// version words and words for a parameter;
// LifecycleOf gives the lifecycle class ("create", "read", "update",
// "delete") of a verb.
var (
	actionVerbSet   = Set(vocabulary.actionVerbs)
	VagueVerbSet    = Set(vocabulary.vagueVerbs)
	StopwordSet     = Set(vocabulary.stopwords)
	VersionWordSet  = Set(vocabulary.versionWords)
	claimSubjectSet = Set(vocabulary.claimSubjects)
	relativeSet     = Set(vocabulary.relativePronouns)
	toolNounSet     = Set(vocabulary.toolNouns)
	negationSet     = Set(vocabulary.negations)
	trailingNegSet  = Set(vocabulary.trailingNegations)
	ParamNounSet    = Set(vocabulary.paramNouns)
	verbNounSet     = Set(vocabulary.verbNouns)
	subjectVerbSet  = Set(vocabulary.subjectVerbs)
	LifecycleOf     = func() map[string]string {
		m := map[string]string{}
		// Sorted class order keeps the table the same on every run even
		// if a verb were listed twice.
		for _, class := range []string{"create", "read", "update", "delete"} {
			for _, v := range vocabulary.lifecycle[class] {
				if _, ok := m[v]; !ok {
					m[v] = class
				}
			}
		}
		return m
	}()
)
