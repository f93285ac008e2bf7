package tdqs

import (
	"slices"
	"strings"

	"github.com/rubricmcp/rubric/judges/heuristic/internal/lex"
)

// Every word list the TDQS cues read lives in this file (the lists the
// Gradable harness shares are in lex/vocabulary.go), so that a cue can be
// found, argued about and changed in one place. Phrases are matched on the
// normalised text (lower case, words separated by single spaces, hyphens
// and underscores as spaces, apostrophes dropped), whole words only; a
// phrase ending in "*" matches any word that starts with it.

// lists is the table of cue lists, by name.
var lists = struct {
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
	// genericNouns name no particular resource.
	genericNouns []string
	// vagueNouns are the generic nouns that leave a name vague whatever
	// verb comes with them ("get_data", "fetch_info"); the others
	// ("task", "message", "job") can be a server's own resource.
	vagueNouns []string
	// objectMarkers are the words before a read-only phrase that make it
	// speak of what the tool acts on, not of the tool ("fails on
	// read-only files", "skips read-only ones").
	objectMarkers []string
	// fillerLead are words skipped before the leading verb ("This tool
	// lets you list ...").
	fillerLead []string
	// extraVerbs are verbs a purpose or a name can open with that the
	// shared list (lex/vocabulary.go) does not hold, many of them a
	// version control system's commands ("Stage files", "Rebase
	// commits", git_stash); they count for the TDQS cues only, so that
	// the Gradable harness keeps its own list.
	extraVerbs []string
	// compoundVerbs are verbs of two words, written with a hyphen or a
	// space ("Cherry-pick commits", git_cherry_pick).
	compoundVerbs []string
	// changeVerbs change what they act on: a clause that opens with one
	// and goes on to its object ("Add file contents to the staging
	// area", "delete a branch") says what an acting tool changes.
	changeVerbs []string
	// quantityWords say how many, not what: "many" of insert-many is no
	// resource.
	quantityWords []string
	// clauseLead are the words skipped before a clause's verb ("or
	// rename a branch", "and then apply it").
	clauseLead []string
	// clauseSubject are the words for the tool or its call that may
	// stand before a clause's verb in the third person ("This resets
	// the context", "which deletes the branch").
	clauseSubject []string
	// notObject are the words that, after a verb of change opening a
	// clause, show it is a noun ("Writes and ... are rejected").
	notObject []string
	// beForms are the words that, before "required", make it say that
	// something is required ("is required", "always required").
	beForms []string
	// wherePrepositions begin a phrase that says where a tool acts, not
	// what it acts on: "a collection" in "Insert documents into a
	// collection" is not what is inserted.
	wherePrepositions []string

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
	// readOnlyPart are the words after "read only" that make it a limit
	// on how much is read ("read only the first N lines"), not a claim.
	readOnlyPart []string
	// placeholders are text left where a description should be.
	placeholders []string

	// paramFormat explains what a value looks like.
	paramFormat []string
	// handleWords end a parameter name that points at a thing
	// (session_id, thread_ts, file_path): naming the thing names the
	// parameter.
	handleWords []string
	// unitBefore and verbParticles, before and after a handle's head,
	// make it a unit or a verb, which names no thing (headAsThing).
	unitBefore, verbParticles []string

	// filler is wording that takes space and says nothing.
	filler []string
	// notFrontLoaded are openings that put something other than the
	// purpose first.
	notFrontLoaded []string
}{
	// "perform" acts through its object as run and execute do
	// (throughVerbs): "Perform click on a web page", "Perform DNS
	// lookup on a hostname".
	objectVerbs: []string{"run", "execute", "invoke", "call", "perform"},
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
		"merge", "modify", "move", "overwrite", "patch", "pause", "perform", "post", "put", "press", "process", "propose",
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
	genericNouns: []string{
		"action", "data", "entity", "everything", "info", "information", "input", "item", "object", "operation",
		"request", "something", "stuff", "task", "thing", "things", "v1", "v2", "v3", "helper", "function",
		"tool", "output", "result", "value", "payload", "message", "command", "job", "util", "utility", "misc",
		"utils", "generic", "system",
	},
	vagueNouns: []string{
		"data", "info", "information", "stuff", "thing", "things", "something", "everything", "misc", "generic",
		"util", "utils", "utility", "helper",
	},
	objectMarkers: []string{
		"on", "for", "of", "to", "in", "into", "from", "with", "at", "except", "unless", "including", "excluding",
		"skip", "skips", "skipping", "ignore", "ignores", "non", "than", "make", "makes", "set", "sets", "mark",
		"marks", "become", "becomes", "are", "remain", "remains",
	},
	fillerLead: []string{
		"a", "allows", "an", "be", "can", "enables", "endpoint", "function", "helps", "it", "lets", "method", "mcp",
		"simply", "that", "the", "this", "to", "tool", "used", "user", "users", "we", "which", "will", "you",
	},
	extraVerbs: []string{
		"stage", "unstage", "rebase", "stash", "blame", "checkout", "init", "gather", "go", "squash", "amend",
		// Verbs a purpose opened with where 1.5.1's first reading said
		// it opened with none ("Provides more detailed information on
		// ...", "Trim silence from ...").
		"provide", "produce", "trim", "toggle", "ingest", "geocode", "demonstrate", "assess", "assemble",
		"activate", "synthesize", "substitute", "simulate", "refine", "reduce", "renew", "protect", "promote",
		"prepare", "introspect", "inject", "initialise", "initialize", "extrude", "extend", "display", "define",
		"consume", "concatenate", "combine", "animate", "alter", "swap", "refund", "nudge", "bump", "persist",
		// Verbs 1.5.4 read as unknown ("Play musical phrase ...",
		// "Trace network path to a host", "Say hello to the user",
		// "Answer 'What can I build ...'").
		"play", "trace", "say", "answer",
	},
	compoundVerbs: []string{"cherry pick"},
	changeVerbs: []string{
		"add", "amend", "append", "apply", "archive", "assign", "attach", "cherry pick", "clear", "commit", "create",
		"delete", "destroy", "detach", "discard", "drop", "edit", "erase", "insert", "merge", "modify", "move",
		"overwrite", "patch", "publish", "purge", "push", "rebase", "remove", "rename", "replace", "reset",
		"restore", "revert", "save", "squash", "stage", "stash", "store", "truncate", "unstage", "update",
		"upload", "upsert", "write",
	},
	clauseLead:    []string{"or", "and", "then", "also", "to"},
	clauseSubject: []string{"it", "this", "which"},
	notObject:     []string{"and", "or", "nor", "are", "is", "was", "were", "be", "been", "as"},
	beForms:       []string{"is", "are", "be", "been", "being", "marked", "always", "not"},
	quantityWords: []string{"many", "multiple", "bulk", "batch", "several", "single"},
	wherePrepositions: []string{
		"into", "in", "to", "from", "for", "on", "onto", "within", "across", "with", "by", "at", "inside",
	},

	usageWhen: []string{
		"use this when", "use when", "use this tool when", "use it when", "use this to", "use this tool to",
		"use this for", "use this tool for", "use it to", "use for", "use to", "when you need", "when you want",
		"when you have", "useful when", "useful for", "ideal for", "perfect for", "best for", "intended for",
		"designed for", "call this", "call it when", "helpful for", "helpful when", "good for", "appropriate for",
		"recommended for", "use this tool", "use this first", "essential for",
		// "when you only need to know what a page is about" says the
		// occasion the tool is for as "when you need" does: a clear
		// context of use, no mere "when" of a condition.
		"when you only need", "when you just need", "when you only want", "when you just want", "if you only need",
		"if you just need",
		// "Great for finding files when you don't know their exact
		// location" (filesystem search_files) says the occasion as
		// "good for" and "perfect for" do.
		"great for",
		// "Call when prior sessions ... may matter" (server-memory
		// memory_context) says when as "call it when" does.
		"call when",
		// A heading over the occasions ("When to use: Automating a
		// known multi-step flow", openchrome act).
		"when to use",
	},
	usageNot: []string{
		"do not use", "dont use", "not for", "not intended", "not meant", "avoid", "never use", "should not",
		"shouldnt", "only use", "only when", "only for", "only if", "not suitable", "not recommended", "deprecated",
		"do not call", "dont call", "not needed",
		// "unnecessary" says when not to call it only of the call ("is
		// unnecessary when"), not as an adjective ("prevents unnecessary
		// waiting", desktop-commander start_process).
		"is unnecessary", "are unnecessary", "unnecessary to", "unnecessary for", "unnecessary when", "unnecessary if",
		// "Not useful for SARIF output" (tactual diff_results), "Skip for
		// one-off answers" (server-memory memory_context).
		"not useful", "skip for", "skip when", "skip if",
		// A heading over the cases to leave to other tools ("When NOT
		// to use: Use interact for a single element action").
		"when not to use",
	},
	usageAlternative: []string{
		"instead", "rather than", "prefer", "alternatively", "see also", "unlike", "as opposed to", "in contrast",
		"differs from", "compared to", "choose the", "switch to", "for single", "for multiple", "more efficient than",
		// A comparison with another way of doing it ("this is better
		// than screenshot", "Faster than full test report", "Lighter
		// than get_match").
		"better than", "cheaper than", "faster than", "lighter than",
		"sibling tool",
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
		{effectGroup, []string{
			"overwrite*", "permanent*", "irreversibl*", "cannot be undone", "cant be undone", "destructive",
			"side effect*", "will delete", "deletes", "removes", "modifies", "mutates", "changes the", "changes remote",
			"in place", "persist*", "stored", "saved", "changes", "alters", "without warning", "replaces", "discards", "clears",
			"writes", "stores", "saves",
			// What a call ends ("this will forcefully terminate the
			// specified process", desktop-commander kill_process).
			"will terminate", "forcefully terminate*", "kills",
			// What a call makes or brings onto the machine ("Creates a
			// .git directory", git_init; "Downloads objects and refs",
			// git_fetch).
			"creates", "downloads",
		}},
		{safetyGroup, slices.Concat([]string{
			"read only", "readonly", "does not modify", "doesnt modify", "does not change", "doesnt change",
			"does not mutate", "no side effect*", "without modifying", "without changing", "safe to", "non destructive",
			"idempotent", "never modifies", "does not write", "does not delete", "does not merge", "does not resolve",
			"blocked", "refuses", "not allowed", "approval", "dry run", "changes nothing", "untouched",
			// What the tool does not run or change ("Check the syntax
			// of a playbook without executing it"); not "without
			// deleting" or "without sending", which a text says of
			// another tool ("edit an issue without deleting it") or of
			// a request's payload.
			"without executing", "without running it", "without running them", "without applying", "without writing",
			"without committing",
		}, leftAloneCues, riskWords, deniedEffectPhrases)}, // explicit risk words say how unsafe a call is
		{"authentication", []string{
			"auth", "auths", "authenticat*", "unauthenticat*", "authoriz*", "unauthoriz*", "authoris*",
			"unauthoris*", "token", "tokens", "api key", "api keys", "permission*", "credential*", "scopes", "login",
			"log in", "oauth", "access to", "requires access", "signed in", "logged in", "gated",
			// A secret the call needs ("your API secret", client_secret),
			// not one the tool scans for or lists (secretNeeded).
			"secret", "secrets",
		}},
		{costGroup, []string{
			"rate limit*", "quota*", "throttl*", "cost", "costs", "billing", "billed", "expensive", "credits", "charges",
			// A paid tier or plan says what a call costs, which the
			// rubric asks beside rate limits ("Paid tier only",
			// "PAID-ONLY: requires a valid key"); "paid orders" are
			// none.
			"paid tier*", "paid only", "paid plan*", "paid account*", "free tier*",
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
			"not found", "succeed silently", "silently", "warning", "warns", "malformed", "403", "404", "iserror",
		}},
		{"constraints", []string{
			"only works", "only within", "only in", "allowed director*", "cannot", "not exposed", "not supported",
			"limited to", "restricted", "regardless", "must be", "must not", "at least", "not included", "excludes",
			"does not include", "no more than",
		}},
		{"timing and state", []string{
			"async*", "background", "blocks", "blocking", "timeout", "time out", "may take", "long running",
			// Not "concurren*": "concurrents" are competitors (a noun
			// of French and of English), no timing of the tool's.
			"cache*", "stateful", "concurrent", "concurrently", "concurrency", "simultaneous*", "in parallel", "lease",
			"at the same time",
			"lock", "locks", waitCue, "atomic*", "time limit*", "expires", "expire",
		}},
	},
	readOnlyClaims: []string{
		"read only", "readonly", "does not modify", "doesnt modify", "does not mutate", "no side effect*",
		"non destructive", "never modifies", "does not write",
	},
	readOnlyPart: []string{"the", "first", "last", "part", "one", "a", "some", "n", "up"},
	destructiveClaims: []string{
		"permanently", "irreversibl*", "cannot be undone", "cant be undone", "destroys", "wipes",
	},
	placeholders: []string{
		"tool description", "todo", "tbd", "fixme", "placeholder", "lorem ipsum", "description here",
		"no description", "add description", "coming soon", "description goes here",
	},

	paramFormat: []string{
		"e g", "for example", "format", "formatted", "iso", "default", "defaults", "between", "must be", "one of",
		"such as", "in the form", "pattern", "regex", "glob", "yyyy", "url", "absolute", "relative", "units",
		"milliseconds", "seconds", "minutes", "bytes", "range", "maximum", "minimum", "at most", "at least",
		"up to", "optional", "optionally", "required", "defaults to", "either", "accepts", "expects", "parameter",
		"parameters", "argument", "arguments", "must", "unless", "omit", "omitted",
		// A flag's value ("Only set nextThoughtNeeded to false when
		// truly done", seqthink; "If 'ambiguous' is true", everything
		// simulate-research-query), right after the flag's name (see
		// flagValueCues).
		"to true", "to false", "is true", "is false", "be true", "be false",
		// A default in other words ("Use project URL if not specified
		// otherwise", chrome-devtools navigate_page; "fields you leave
		// out keep their values", tidy update_bookmark).
		"if not specified", "if not provided", "leave out", "left out",
		// A value's encoding and a list of values under its heading
		// ("arguments: JSON string of arguments", "Supported formats:
		// kml, gpx, ..."), which the parameter's own name ("format")
		// is not.
		"json string", "json object", "json array", "supported formats", "supported values", "supported types",
		"accepted values", "allowed values", "valid values",
	},
	handleWords: []string{"id", "ids", "ts", "name", "path", "key", "type", "url", "uri", "ref"},
	// A handle's head after a word of a unit ("10 rules per page") or
	// before a particle that makes it a verb ("to page through the
	// rules") names no thing a handle points at (headAsThing).
	unitBefore:    []string{"per"},
	verbParticles: []string{"through"},

	filler: []string{
		"allows you to", "lets you", "is used to", "can be used to", "simply", "basically", "just", "very",
		"please", "in order to", "helps you", "this tool", "this function", "really", "awesome", "amazing",
		"powerful", "seamless*", "easily",
	},
	notFrontLoaded: []string{
		"note", "important", "warning", "caution", "deprecated", "when", "if", "before", "after", "do not", "dont",
		"never", "always", "use this", "use when",
	},
}

// deniedEffects are the verbs of side effects in their base form:
// after one of effectDenials they say what the tool leaves alone ("It
// does not remove the remote copy"), which is what the rubric's
// transparency asks after (what is deleted or overwritten), a claim of
// safety as "never removes" is (effectReading). The safety group holds
// each denial and verb (deniedEffectPhrases) after its own phrases, so
// that the phrase it quotes first is unchanged where it had one (a
// denial it held before is found there first). "do not" and "never"
// are not among the denials: before a
// base form they open advice to the caller ("Do not remove the lock
// file"), which effectReading reads. A denial claims safety only with
// the tool for its subject (toolSubjects).
var (
	deniedEffects = []string{
		"modify", "change", "mutate", "write", "delete", "merge", "resolve", "remove", "overwrite", "alter",
		"replace", "discard", "clear", "erase", "drop", "persist", "store", "save",
	}
	effectDenials       = []string{"does not", "doesnt", "will not", "wont"}
	deniedEffectPhrases = func() []string {
		var out []string
		for _, v := range deniedEffects {
			for _, n := range effectDenials {
				out = append(out, n+" "+v)
			}
		}
		return out
	}()
	deniedEffectSet = lex.Set(deniedEffectPhrases)
)

// A denial of an effect (deniedEffectSet) is the tool's claim of safety
// only when the tool is its subject (facts.deniesOwnEffect): none ("Does
// not modify ..."), a word of toolSubjects just before it ("It does not
// remove ...", "This tool will not ...", "Lists them and does not
// change ..."), or the tool's own name. Any other word there heads a
// noun phrase that is its subject ("if the file does not change", "when
// the editor does not save"), and a subordinator before the subject
// makes the denial a condition ("if it does not change"), neither a
// claim of what the tool leaves alone. A relative pronoun
// (relativePronouns) stands for the word before it ("a tool that does
// not modify", "a snapshot that does not change"); subjectAdverbs
// between the subject and the denial ("It also does not") are passed
// over.
//
// The server the tool belongs to (serverWords: "The server does not
// store your data", "The MCP server will not save ...") is the tool
// for what happens to the data a call is given (dataVerbs), as the
// registry reads it: its denial of keeping that data is the tool's
// claim of safety (facts.deniesOwnEffect). What else the server does
// not do ("does not modify the schema") is no claim of the tool's.
var (
	toolSubjects     = []string{"it", "this", "tool", "function", "endpoint", "operation", "method", "and", "but"}
	relativePronouns = []string{"that", "which"}
	subjectAdverbs   = []string{"also", "still", "simply", "itself", "currently"}
	subordinators    = []string{"if", "when", "whenever", "unless", "until", "while", "whether", "once", "because", "where"}
	serverWords      = []string{"server", "service"}
	// exampleMarkers introduce example values: a value in single quotes
	// after one in its sentence is only an example (withoutExamples).
	exampleMarkers = []string{"e.g", "eg.", "for example", "for instance", "such as", "like", "example", "examples"}
	// effectAuxiliaries stand between the subject of a denied effect
	// and its negation ("the session will not persist", "it does
	// never"); passiveBe make the effect one done to the data ("is never
	// stored", "will not be saved"), by the tool (facts.ownDenial).
	effectAuxiliaries = []string{"will", "would", "does", "do", "did", "can", "could", "should", "shall", "may", "might", "must"}
	passiveBe         = []string{"is", "are", "be", "been", "was", "were", "being", "get", "gets"}
	dataVerbs         = []string{"store", "persist", "save"}
)

// notAfter are behaviour phrases that mean something else after one of
// the given words (among the two before them): "changes" shown or
// listed ("Shows changes", "the diff of changes") is what a read
// returns, not a side effect; "responses" of "Error Responses:" are
// errors, not the return format; "the list of" in a condition ("If the
// list of documents is ...", "You must provide a list of paths") is what
// the caller passes; a "format" the tool detects or infers is the form of
// its input.
var notAfter = map[string][]string{
	"changes": {
		"show", "shows", "showing", "display", "displays", "displaying", "view", "views", "list", "lists",
		"listing", "preview", "previews", "compare", "compares", "describe", "describes", "summarize",
		"summarizes", "of", "return", "returns", "returned", "returning", "detect", "detects", "track", "tracks",
		"watch", "watches", "monitor", "monitors", "recommend", "recommends", "suggest", "suggests", "propose",
		"proposes",
	},
	// What the user or the caller provides is input ("UNLESS the user
	// explicitly provides a library ID", context7 query-docs), not what
	// the tool gives back.
	"provides": callerSubjects,
	// A format the tool detects is the form of what it reads ("Auto-
	// detects format"), not of what it gives back.
	"format": {"detect", "detects", "detected", "detecting", "infer", "infers", "inferred", "inferring"},
	// "This includes official documentation" and "get_brief, which
	// already includes this data" say what a thing named before holds
	// (a knowledge base searched, another tool), not what this tool
	// gives back; "Includes ..." and "Each entry includes ..." still do.
	"includes":  {"this", "which", "that"},
	"response":  {"error"},
	"responses": {"error"},
	"list of": {
		"if", "when", "whether", "unless", "once", "while", "provide", "provides", "pass", "passes", "supply",
		"supplies", "send", "sends", "accept", "accepts", "take", "takes",
	},
	// A warning the tool does not give ("overwrites existing files
	// without warning") discloses no error.
	"warning": {"without", "no"},
	// Blocks of code, content or text ("identifying basic blocks",
	// "code blocks, tables") are things, not a call that blocks.
	"blocks": {"basic", "code", "content", "text", "data", "building", "memory"},
	// The limit of "Rate limited" is a rate limit, no limit on size, and
	// a "time-limited" URL expires (a timing disclosure). A usage or
	// redemption limit is a field of the thing the tool makes or reads
	// ("Create a discount coupon with usage limits": how often the
	// coupon may be used), no limit on what the tool takes or returns.
	"limit": {"rate", "time", "usage", "redemption"},
	// What expires after a time noun ("the date each expires", "the
	// time it expires") is a date the tool reports of what it reads or
	// lists, no timing of the tool's own ("the URL expires after an
	// hour").
	"expires": timeNouns,
	"expire":  timeNouns,
	"limits":  {"rate", "time", "usage", "redemption"},
	// "re-lock" (an achievement, a door) is a verb of change, no lock a
	// call takes.
	"lock":    {"re", "un"},
	"limited": {"rate", "time", "usage", "redemption"},
	// The offset of an address or a clock ("Optional base address
	// offset", "timezone offset") shifts a value; it is no place in a
	// list of results.
	"offset": {"address", "addresses", "timezone", "utc", "gmt"},
}

// pagingCue is the pagination phrase that, before a word for a
// parameter ("pagination fields"), names parameters rather than what
// the tool does: it says the tool pages only when one of the tool's
// parameters has a word of pageWords in its name (facts.pagesAt).
const pagingCue = "paginat*"

// pageWords, in a parameter's name, make it one that pages through
// results (page, per_page, page_token, cursor, offset).
var (
	pageWords   = []string{"page", "pages", "pagination", "paginate", "cursor", "offset"}
	pageWordSet = lex.Set(pageWords)
)

// throughVerbs act only through their object ("Run a shell command",
// "Perform a web search"), and readingNouns are the objects through
// which they read: a tool that performs a search, a lookup or an
// analysis changes nothing (facts.readingObject). A query is none of
// them: a SQL query may write.
var (
	throughVerbs = []string{"run", "execute", "perform"}
	readingNouns = []string{
		"search", "searches", "lookup", "lookups", "analysis", "analyses", "check", "checks", "investigation",
		"investigations", "audit", "audits", "scan", "scans", "inspection", "inspections", "diagnostic", "diagnostics",
	}
	readingNounSet = lex.Set(readingNouns)
)

// supersedeCue is the side-effect phrase that, before another tool's
// name, says the tool supersedes it ("REPLACES basic midi_send_note
// with enhanced capabilities"), no data it replaces (replacesData).
const supersedeCue = "replaces"

// riskWords are the safety group's explicit risk words (lists.behaviour)
// and riskTopicLeads the words that, earlier in their sentence, make
// them what a tool looks for rather than a risk of the tool's own: a
// read-only checker or scanner ("Check whether a URL is unsafe", "Scan
// the dependencies for security risks") discloses nothing of its own
// safety. "for" alone is no such word: "Not for production: it runs
// unsafe code" still discloses.
var (
	riskWords      = []string{"unsafe", "dangerous", "rce", "remote code execution", "arbitrary code", "security risk*"}
	riskTopicLeads = []string{
		"whether", "check", "checks", "checking", "scan", "scans", "scanning", "detect", "detects", "detecting",
		"audit", "audits", "auditing", "flag", "flags", "flagging", "identify", "identifies", "identifying",
		"find", "finds", "finding", "analyze", "analyzes", "analyse", "analyses", "inspect", "inspects",
		"verify", "verifies", "classify", "classifies", "assess", "assesses",
	}
	riskTopicLeadSet = lex.Set(riskTopicLeads)
)

// notBefore are phrases that mean something else before one of the
// given words: "up to" of "up-to-date" is no limit, in a behaviour cue
// or a parameter's, and a "blocked status" no safety.
var notBefore = map[string][]string{
	"up to": {"date"},
	// A "blocked status" is a state the tool reports of what it reads
	// (desktop-commander list_sessions), not something it refuses.
	"blocked": stateNouns,
	// "authorized local files", "the authorized device": what a tool
	// may reach, no authentication of its caller.
	"authoriz*": permittedPlaces,
	"authoris*": permittedPlaces,
}

// timeNouns, before "expires", make its expiry a date the tool reports.
var timeNouns = []string{"date", "dates", "time", "times", "timestamp", "timestamps", "day", "days"}

// stateNouns, as the field a line opens with before a colon ("Status:
// blocked or running") or among the two words before a state cue
// ("with status blocked"), make the cue that field's value: a state the
// tool reports, no refusal.
var stateNouns = []string{"status", "state", "statuses", "states"}

// stateCues are the safety phrases that also name a state a tool
// reports of what it reads: written as a field's name, before a colon
// that opens a line or a list's item ("- Blocked: Whether the session
// waits for input"), they name the field, and refuse nothing.
var stateCues = []string{"blocked"}

// valueOpeners are the value cues that, opening a sentence that names
// no parameter, go on describing the parameter named just before
// ("obj_cutoff: Distance (A) between chains. Default 8.0A suits most
// assemblies."): a sentence that opens with a value has the last
// named thing as its subject.
var valueOpeners = []string{"default", "defaults", "defaults to", "e g", "for example", "one of", "optional", "range"}

// valueKinds are the value cues that name a kind of values: as the
// last word of a parameter's name (report_format, name_pattern,
// date_range) they say what the parameter holds, and still count where
// the text writes that name (inParamNames); any other cue among a
// name's words ("default branch", "range start") is the name.
var valueKinds = []string{"format", "pattern", "regex", "glob", "range", "units"}

// flagValueCues are the value cues that give a flag's value ("is true",
// "to false"): they say something of a parameter's values only right
// after its name ("If 'ambiguous' is true", "set nextThoughtNeeded to
// false"), not of whatever else the sentence calls true ("If the report
// does not agree with itself, agrees is false", of explain's output,
// where report_id is named by its head word).
var flagValueCues = map[string]bool{
	"to true": true, "to false": true, "is true": true, "is false": true, "be true": true, "be false": true,
}

// rangeCue is the value cue that says a range only before a number
// ("between 0 and 100") or a pair of bounds in words ("between one and
// ten", "between min and max", paramCueHolds); "relations between
// entities" says none.
const rangeCue = "between"

// numberWords are the numbers written as words that may bound a range.
var (
	numberWords = []string{
		"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
		"twenty", "thirty", "fifty", "hundred", "thousand", "million", "billion", "minus", "negative",
	}
	numberWordSet = lex.Set(numberWords)
)

// bareChange is the side-effect phrase that is a noun as often as a
// verb: in a tool that may act, "changes" is what it pushes, merges,
// accepts or discards ("Push changes to a remote repository") or what
// it does ("The operation changes review state"), unless a preposition
// of changeOccasions opens its phrase; in a tool that reads
// (annotated read-only, or whose purpose opens with one of readLeads)
// the changes are what it reads ("Get recent changes to visa
// policies", "Review code changes"), and only a subject just before
// makes the word say what the tool changes ("It changes only the
// session's tools").
const bareChange = "changes"

// changeOccasions are the prepositions that make bareChange what a
// tool runs after, waits for or speaks of, not what it does, when they
// open the phrase it ends ("re-check credentials after external config
// changes", "after major workspace changes", "poll for changes"): the
// words between are its modifiers, none a verb nor in -ing ("after
// saving changes" saves them).
var changeOccasions = []string{
	"after", "before", "since", "until", "following", "upon", "on", "for", "about", "during", "between",
}

// tokenCues are the authentication phrases that name a token: a
// credential, unless a word beside it gives the word another sense
// (otherTokenSense): text measured in tokens ("30-60% fewer tokens than
// JSON", "token-efficient", "4k tokens"), an asset ("SPL token
// balances") or a design value ("a design token").
var tokenCues = []string{"token", "tokens"}

// secretCues are the authentication phrases that name a secret: a
// credential only where the call needs it (facts.secretNeeded), as a
// word of credentialWords just before it ("your API secret", "client
// secret", client_secret), a word of tokenRequirements before it in its
// sentence ("Requires the signing secret"), or a key or token just
// after it ("secret key") say, and no verb acts on it as the tool's
// resource (credentialActedOn: "List the client secrets"). Secrets a
// tool scans for or is told to leave out ("hardcoded secrets", "no
// code or secrets") are none.
var (
	secretCues      = []string{"secret", "secrets"}
	secretKindAfter = []string{"key", "keys", "token", "tokens"}
)

// permittedPlaces are the words after "authorized" that make it say
// what a tool may reach ("authorized local files", "the authorized
// device"), not that its caller is authenticated.
var permittedPlaces = []string{"local", "file", "files", "path", "paths", "directory", "directories", "folder",
	"folders", "device", "devices", "host", "hosts", "domain", "domains", "location", "locations", "root", "roots",
	"workspace", "workspaces", "command", "commands"}

// credentialCues are the authentication phrases that name a
// credential: what a tool lists, creates or revokes as its resource
// ("List API keys", "Revoke a personal access token") is no
// authentication it asks for (credentialNeeded).
var credentialCues = []string{"token", "tokens", "api key", "api keys", "credential*"}

// credentialVerbs are the verbs, beside the lifecycle's (lex.LifecycleOf:
// list, get, create, delete, revoke...), that act on a credential as a
// tool's resource ("Rotate the API key", "Validate a token").
var credentialVerbs = []string{"rotate", "regenerate", "validate", "verify", "issue", "mint", "refresh", "renew"}

// phraseModifiers are the function words that may stand in a noun
// phrase between its verb and its head ("Create a new API key", "List
// the existing tokens"), as a determiner does.
var phraseModifiers = []string{"new", "existing", "current", "specific", "other", "given", "specified"}

// tokenSenseBefore, just before a token cue (or a number there), and
// tokenSenseAfter, just after it, give it a sense other than a
// credential.
var (
	// A confirmation token approves one call ("Requires the one-time
	// confirmation token from simulate_impact"): no credential, as the
	// name confirmation_token is none.
	tokenSenseBefore = []string{
		"fewer", "more", "many", "llm", "vision", "max", "maximum", "spl", "erc20", "wallet", "design", "confirmation",
	}
	tokenSenseAfter = []string{
		"efficient", "usage", "budget", "budgets", "count", "counts", "cost", "costs", "optimization", "limit", "limits",
		"savings", "saver", "window", "balance", "balances", "price", "prices", "accounts",
	}
)

// subjectVerbs are verbs that follow a subject an adjective opens
// ("Clear instructions give better summaries", "Clear descriptions
// help agents"): in the run of words after "clear", one of them makes
// "clear" the adjective (adjectiveClear). The shared verb lists are
// no help here: most of their verbs are nouns too ("log", "filter",
// "record"), and a run of nouns is the verb's object.
var subjectVerbs = []string{
	"give", "gives", "help", "helps", "make", "makes", "mean", "means", "lead", "leads", "improve", "improves",
	"let", "lets", "matter", "matters", "reduce", "reduces", "avoid", "avoids", "work", "works",
}

// credentialWords, just before a token cue in prose ("access token",
// "your token's", credentialSense) or before the last word of a
// snake_case name that is a token, key, secret or password
// ("access_token", "bot_token", "client_secret", disclosingName), make
// it a credential: one list for both, as a bot's or a client's token is
// a credential however it is written. Before a key in a name,
// keyHandleWords are the exception: user_key and client_key are the
// handles Jira and Atlassian Connect give a user and an app, no secret,
// while a user's or a client's token is one.
var (
	credentialWords = []string{
		"access", "api", "auth", "bearer", "oauth", "oauth2", "jwt", "refresh", "session", "personal", "private",
		"client", "bot", "user", "secret", "security", "csrf", "your",
	}
	credentialWordSet = lex.Set(credentialWords)
	keyHandleWordSet  = lex.Set([]string{"user", "client"})
)

// keepVerbs are the side-effect phrases that are nouns as often as the
// tool's verb ("Writes are blocked", "across one or more stores", "a
// package's weekly downloads"): the tool's only at the head of a clause, after the words that lead or
// stand for the tool (lists.clauseLead, lists.clauseSubject: "Writes a
// debug report to output_dir", "it saves the file"), or just after
// "and", "but", "then" or "it" (keepVerbLeads: "and stores them for
// search", "but writes the WAV to a file"), and before an
// object: not before a form of "be" or a conjunction
// (lists.notObject) nor a word of trailingNegations ("it writes
// nothing"; facts.keptByTool).
var (
	keepVerbs     = []string{"writes", "stores", "saves", "downloads"}
	keepVerbLeads = []string{"and", "but", "then", "it"}
)

// trailingNegations, after a verb, deny it ("writes nothing").
var trailingNegations = []string{"nothing", "no", "none"}

// backgroundCue is the timing phrase that is timing only where
// something runs in the background: after "in" or "in the" ("runs in
// the background"), or before a word of backgroundRuns among the two
// words after it ("a background search process", "as background
// jobs"). A background colour, knowledge or noise, or "any background
// the model should know", is none (facts.runsInBackground).
const backgroundCue = "background"

var backgroundRuns = []string{
	"process", "processes", "job", "jobs", "task", "tasks", "thread", "threads", "worker", "workers", "mode",
	"execution", "operation", "operations", "run", "runs", "session", "sessions",
}

// cannotCue is the constraint phrase that a condition also opens with:
// after a word of conditionLeads in its clause ("If you cannot find
// what you need after 3 calls", context7 resolve-library-id; "Use this
// when other input methods like fill() cannot be used", chrome-devtools
// press_key) it says when something holds, no limit of the tool's
// (facts.cannotOfTool). "The last open page cannot be closed" is one.
const cannotCue = "cannot"

// conditionLeads open a clause that sets a condition.
var conditionLeads = []string{"if", "when", "whenever", "unless"}

// requirementWords, just before "to" and a when-to-use phrase that
// opens with "use" or "call", make the call what something else is
// needed for ("the exact library ID required to use this tool",
// context7 query-docs; "in order to call this"), no occasion for it
// (whenToUse).
var requirementWords = []string{"required", "needed", "necessary", "order"}

// effectPurposeCues are the implied usage phrases that, in a sentence
// that opens with the tool's own verb in the third person and speaks
// of no call (callWords), give the purpose of what the tool does ("Resizes
// the page's window so that the page has specified dimension",
// chrome-devtools resize_page), no occasion to call it
// (facts.purposeOfCall).
var effectPurposeCues = []string{"so that", "in order to"}

// kebabParticles are the words that, after a verb and a hyphen, make a
// word of English rather than a tool's name of kebab case ("read-only",
// "log-out", "opt-in"), beside the stop words (tool.kebabToolName).
var kebabParticles = []string{"only", "off", "out", "down", "over", "back"}

// noteDirections are the words that, in a note on a field, point the
// caller to a tool ("use run_async for longer jobs"): such a note names
// an alternative (facts.withoutFieldNotes).
var noteDirections = []string{"use", "see", "try", "instead", "prefer", "rather"}

// withoutCue opens the safety phrases that say what a call leaves
// undone ("without changing", "without executing", withoutSafetySet):
// the tool's only where neither the caller nor another tool is the one
// that acts (facts.withoutOfTool). The effect group's "without warning"
// is none of them.
const withoutCue = "without "

// withoutSafetySet holds the safety group's phrases that open with
// withoutCue.
var withoutSafetySet = func() map[string]bool {
	m := map[string]bool{}
	for _, g := range lists.behaviour {
		if g.name != safetyGroup {
			continue
		}
		for _, p := range g.phrases {
			if strings.HasPrefix(p, withoutCue) {
				m[p] = true
			}
		}
	}
	return m
}()

// waitCue is the timing phrase of a call that waits ("Waits for the
// page to load", "wait up to 30 seconds"). "waiting" just after a word
// of stateLinks whose subject is not the tool says what state that
// subject is in ("Whether session is waiting for input",
// desktop-commander list_sessions): a state the tool reports of what it
// reads, no timing of its own (facts.waitsAt).
const waitCue = "wait*"

// stateLinks are the forms of "be" that, before a verb in -ing, make it
// the state of their subject ("the session is waiting").
var stateLinks = []string{"is", "are", "was", "were", "be", "been"}

// leftAloneCues say what stays as it was ("leaving others unchanged",
// "Leaves the parent org intact"): a claim of safety only after one of
// leaveVerbs among the four words before it in its sentence, which
// make the tool the one that leaves it so (facts.leftAlone). An
// unchanged thing the tool reads or skips ("skips re-rendering
// unchanged equations") or one that stays so ("existing callers stay
// unchanged") is none.
var (
	leftAloneCues = []string{"unchanged", "intact"}
	leaveVerbs    = []string{"leave", "leaves", "leaving", "left", "keep", "keeps", "keeping", "kept"}
)

// deprecatedCue is the when-not phrase that is the tool's only when
// said of it (facts.toolDeprecated); deprecationLinks are the forms of
// "be" and the adverbs that join it to its subject ("is now
// deprecated", "has been deprecated").
const deprecatedCue = "deprecated"

var deprecationLinks = []string{"is", "are", "was", "were", "be", "been", "being", "has", "have", "now", "soon", "officially", "currently", "marked"}

// notOnlyWords, after "not", add to what was said rather than deny it
// ("not only removes the branch but also its remote copy").
var notOnlyWords = []string{"only", "just", "merely", "simply"}

// obligationModals, after "you" at the head of a clause, tell the caller
// what they must do ("You must never overwrite the original"): what
// follows is advice, as an imperative is (callerAddress).
var obligationModals = []string{"must", "should", "shall", "mustnt", "shouldnt"}

// nsThingSet, after a namespace in a description ("Delete Jira
// resources", "Read any notes data"), say that the namespace's own
// things are meant: the namespace stays the resource (describedResource).
var nsThingSet = lex.Set([]string{
	"resource", "resources", "item", "items", "object", "objects", "entity", "entities", "record", "records",
	"content", "contents", "entry", "entries",
})

// tokenRequirements, among the words before a token cue, make it what a
// call requires: a credential (requiredToken).
var tokenRequirements = []string{"requires", "require", "required", "requiring", "needs", "need", "needed"}

// callerImperatives are the timing phrases that, in their base form
// after a "don't", "do not" or "never" that opens its clause, tell the
// caller what not to do ("don't wait for performance warnings", "do not
// cache the token"), and disclose nothing the tool does
// (adviceNegation).
var callerImperatives = []string{waitCue, "cache*", "lock"}

// keptParticiples are the side-effect phrases that, in a tool that
// reads (annotated read-only, or not annotated and whose purpose opens
// with one of readLeads), say where what it reads is kept ("Get the
// history stored on the device's SD card", "Search saved research
// entries"), not what it stores; only a form of "be" or a subject just
// before makes them its act ("Full reports are saved to disk").
var keptParticiples = []string{"stored", "saved"}

// changeSubjects are the words that, just before bareChange, make it a
// verb of the tool.
var changeSubjects = []string{"it", "this", "which", "that", "operation", "call", "tool"}

// readLeads are the verbs that open the purpose of a tool that reads,
// for bareChange.
var readLeads = []string{
	"get", "list", "show", "view", "read", "review", "validate", "compare", "compute", "analyze", "analyse",
	"inspect", "check", "describe", "summarize", "summarise", "search", "find", "preview", "explain",
}

// inputFormats are the return-format phrases that name a format or a
// shape ("list of"): in a
// sentence that names one of the tool's parameters and says nothing of
// what comes back, or that opens with "pass", they say what the caller
// sends ("Pass commit messages as JSON string parameters", "payload:
// Push notification payload as JSON object"), not what the tool
// returns.
var inputFormats = []string{"json", "base64", "markdown", "format", "formatted", "list of"}

// cacheCue is the timing phrase of caching. Before a word of
// cacheFields, "cache" names a figure or a setting of the cache ("cache
// size", "cache TTL", "cache hit rate"), no caching of the tool's
// (facts.cachesAt).
const cacheCue = "cache*"

var cacheFields = []string{
	"size", "sizes", "ttl", "hit", "hits", "miss", "misses", "stats", "statistics", "usage", "capacity", "ratio",
	"dir", "directory", "path", "location", "key", "keys",
}

// preferCue is the contrast word that sets the tool apart only when
// what is preferred is no value (facts.preferredValue); preferStops end
// what is preferred.
const preferCue = "prefer"

var preferStops = []string{"over", "when", "unless", "if", "for", "within", "to", "than", "instead"}

// ifCue is the implied usage phrase that holds only where it sets a
// condition on calling the tool (facts.callCondition): the caller
// needs or wants something in it ("If you need the raw text"), or its
// sentence tells the caller to use the tool (callVerbs opening a clause
// before "this" or "it": "If a dialog was opened, use this command"). A
// condition on a value ("if
// omitted, defaults to 10"), on what the tool does ("Overwrites the
// key if it exists") or a question ("Check if an address is a program")
// says nothing of when to call it.
const ifCue = "if"

// pointerDeterminers, after a word of callVerbs or "choose", point the
// caller at a tool other than this one ("choose a get or list tool",
// "use another tool"; facts.pointsElsewhere).
var pointerDeterminers = []string{"a", "an", "the", "another", "other"}

// callVerbs, before "this" or "it", tell the caller to call the tool;
// callWords are their forms, which speak of a call (ordersCall).
// wantVerbs, after the caller's word in a condition and past the words
// of conditionFillers, make it one on calling the tool ("if you only
// need the raw text"); any other verb makes it one on what the caller
// passes ("if you do not specify a path") or has ("if the user has no
// read access").
var (
	callVerbs = []string{"use", "call", "run", "invoke"}
	callWords = lex.Set([]string{
		"use", "uses", "used", "using", "call", "calls", "called", "calling", "run", "runs", "running", "ran",
		"invoke", "invokes", "invoked", "invoking",
	})
	wantVerbSet = lex.Set([]string{
		"need", "needs", "want", "wants", "wish", "wishes", "like", "require", "requires", "prefer", "prefers",
		"intend", "intends", "plan", "plans",
	})
	conditionFillerSet = lex.Set([]string{
		"do", "does", "did", "can", "could", "would", "will", "should", "may", "might", "d", "ll",
		"only", "just", "really", "actually", "also", "still", "already", "ever",
	})
)

// exampleCues are the implied usage phrases that give an example: one
// of a use ("e.g. when the page is slow", "for example to compare two
// runs") implies when to call the tool, while one of a value ("e.g.
// 2024-01-31", "such as pubmed") gives only the form of what to pass
// (facts.exampleOfUse). exampleOccasions, the word just after the
// marker, make it one of a use; so does "to" before a verb ("e.g. to
// draw a square"), but not before a value ("e.g. to metres or feet").
var (
	exampleCues      = []string{"e g", "for example", "such as"}
	exampleOccasions = []string{"when", "whenever", "if", "during", "while"}
)

// usedCue is the implied usage phrase that holds only with the tool for
// its subject (facts.usedOfTool).
const usedCue = "can be used"

// formatWriteVerbs, beside writeVerbs, put what the tool makes
// somewhere: a format after one in its clause is that of what is put
// ("Export notes to a folder as markdown files", facts.sendsInput).
var formatWriteVerbs = []string{"save", "store", "export", "write", "append", "insert"}

// returnWords, in a sentence, make it speak of what the tool gives
// back, or reads and converts ("Fetch a URL, convert to markdown"),
// whatever parameter it names.
var returnWords = []string{
	"return", "returns", "returned", "returning", "output", "outputs", "response", "responses", "responds",
	"result", "results", "yields", "produces", "get", "gets", "fetch", "fetches", "read", "reads", "retrieve",
	"retrieves", "extract", "extracts", "convert", "converts", "into",
}

// determiners, before a parameter's name, make it a noun of the
// sentence, not a label: "Tidy a device: ..." is no description of the
// device parameter.
var determiners = []string{
	"a", "an", "the", "its", "their", "each", "every", "this", "that", "these", "those", "your", "all", "any",
	"some", "one",
}

// returnLeads open a purpose whose object is what the tool gives back
// ("Get Lighthouse scores, failing audits, and the DOM nodes they
// flag"): a tool that acts and opens with one says what it returns.
// "Search by title" or "List, create, close, or select a tab" need
// not name it, so only verbs of fetching count.
var returnLeads = []string{"get", "retrieve", "fetch", "read"}

// inputFormatNext are the words that, just after a format, make it the
// form of a value the caller writes ("JSON string escaping"); so do
// lex.ParamNounSet ("JSON string parameters").
var inputFormatNext = []string{"string", "escaping"}

// modals, after a parameter's words opening a sentence, make it speak of
// the values the caller sends ("The file paths should be ...").
var modals = []string{"should", "must", "may", "can", "will", "needs"}

// inputLeads open a sentence that speaks of what the caller sends.
var inputLeads = []string{"pass", "provide", "supply", "send"}

// concessive are the prerequisite phrases that "even" just before them
// turns into a concession ("add more thoughts even after reaching what
// seemed like the end"): they order nothing (prerequisite).
var concessive = []string{"before", "after"}

// timeUnitSet holds the units of time that, after a number just after
// "before" or "after", make it a length of time ("disappear after 24
// hours"), no call it orders (ordersCall).
var timeUnitSet = lex.Set([]string{
	"ms", "millisecond", "milliseconds", "second", "seconds", "sec", "secs", "minute", "minutes", "min", "mins",
	"hour", "hours", "day", "days", "week", "weeks", "month", "months", "year", "years",
})

// relativeRequirements are the prerequisite phrases that, after one of
// relativeLeads among the three words before them, speak in a relative
// clause of a thing the text describes ("Situations where irrelevant
// information needs to be filtered out"), or in a question a result
// answers ("All results include ... whether explicit confirmation is
// required"), not of what a call needs first (prerequisite). "that" is
// none of the leads: "Note that it requires a login" still orders the
// call.
var (
	relativeRequirements = []string{"requires", "needs to be", "is required", "must be called"}
	relativeLeads        = []string{"where", "which", "whose", "wherever", "whether"}
	// prerequisiteWords are the words of each phrase of concessive and
	// relativeRequirements, split once.
	prerequisiteWords = func() map[string][]string {
		m := map[string][]string{}
		for _, p := range slices.Concat(concessive, relativeRequirements) {
			m[p] = strings.Fields(p)
		}
		return m
	}()
)

// returnContrasts, before a contrast word in its clause, make the clause
// say what comes back, so that the contrast is between results, not
// tools (facts.contrast).
var returnContrasts = []string{"returns", "return", "outputs", "yields", "produces", "responds"}

// adviceVerbs, nearer a contrast phrase than a word of returnContrasts,
// make its clause advice to the caller.
var adviceVerbs = []string{"use", "call", "prefer", "choose", "try", "see", "switch"}

// toolWords, in a clause with a contrast phrase, make it set the tool
// against others ("rather than the upload tool", "instead of this one"),
// whatever follows the phrase (thingContrast).
var toolWords = []string{"tool", "tools", "this", "server", "command", "commands"}

// callerSubjects are the words for whoever calls the tool: what they
// provide, pass, supply or send ("unless the user explicitly provides a
// library ID in the format '/org/project'") is input, and so is its
// format (sendsInput).
var callerSubjects = []string{"user", "users", "you", "caller", "client", "agent"}

// attributeCues are behaviour phrases that, in a sentence listing what
// something includes ("including size, permissions and type") or after
// "file", name an attribute of a thing the tool reads, not what the
// caller needs: file permissions are metadata, not authentication.
var attributeCues = map[string]bool{"permission*": true}

// attributeOwners, just before an attribute cue or before "with" and
// at most two more words before it, and attributeLists, anywhere before
// it in its sentence, make it an attribute: "file permissions", "Maps
// segments with correct permissions" (a memory segment's permissions
// are a file's kind), "including size, permissions and type".
var (
	attributeOwners = []string{
		"file", "files", "directory", "directories", "folder", "folders", "segment", "segments",
	}
	attributeLists = []string{"including", "includes", "include", "such"}
)

// A purpose can open with a verb the lists lack ("Echo a message",
// "Pin another agent's keys", "Sanity-check a tool definition"): in
// English only a verb stands just before a determiner at the head of a
// sentence, so a word followed, with nothing but a space between, by one
// of openerDeterminers (maybe after one of openerParticles: "Echoes back
// the input") opens the purpose as its verb, unless it is a function
// word (lex.StopwordSet or nonVerbOpeners: "For each", "Only the",
// "Is the"), an adverb of time or frequency or of the sentence ("Today
// the tool reports", "Often the fastest way", "Otherwise the default
// branch") or an indefinite pronoun ("Everything the agent needs"),
// which stand there too.
var (
	openerDeterminers = []string{
		"a", "an", "the", "another", "your", "its", "their", "this", "these", "those", "each", "every", "all",
		"any", "some", "my", "our", "his", "her", "multiple", "several",
	}
	// "on" is no particle here: a noun stands before "on" and a
	// determiner as often as a verb does ("Information on the ...",
	// "Details on a ...", "Notes on this ..."), so "Pass on a Great
	// Person" keeps its first word named as one the cues do not know.
	openerParticles = []string{"back", "up", "out", "off", "down"}
	nonVerbOpeners  = []string{
		"across", "after", "against", "along", "among", "around", "before", "behind", "below", "beneath", "beside",
		"between", "beyond", "despite", "during", "except", "inside", "like", "near", "outside", "over", "past",
		"per", "since", "through", "throughout", "toward", "towards", "under", "unlike", "until", "upon",
		"whether", "once", "unless", "because", "although", "though", "why", "whenever", "whereas", "both",
		"half", "only", "just", "not", "even", "exactly", "almost", "nearly", "quite", "rather", "many", "most",
		"is", "was", "were", "been", "had", "did", "could", "should", "would", "must", "might", "shall", "also",
		"here", "now", "another", "every", "my", "our", "his", "her", "multiple", "several", "no", "nor", "but",
		// Adverbs of time and frequency, and of the sentence.
		"today", "tomorrow", "yesterday", "tonight", "often", "sometimes", "always", "again", "still", "soon",
		"later", "already", "yet", "first", "otherwise", "however", "therefore", "thus", "hence", "instead",
		"meanwhile", "moreover", "furthermore", "anyway", "perhaps", "maybe", "else",
		// Indefinite pronouns.
		"everything", "something", "anything", "everyone", "someone", "anyone", "everybody", "somebody",
		"anybody", "nobody",
	}
)

// effectGroup, safetyGroup and costGroup are the names of the behaviour groups of
// side effects and of safety: a side effect the text denies of the tool
// ("never mutates") is a claim of safety (effectReading).
const (
	effectGroup = "side effects"
	safetyGroup = "safety"
	costGroup   = "rate limits and cost"
)

// cueGroup is one kind of behavioural disclosure and the phrases that show
// it.
type cueGroup struct {
	name    string
	phrases []string
}

// effectWords are the words of each side-effect phrase (effectGroup's),
// without a trailing "*", split once for effectReading.
var effectWords = func() map[string][]string {
	m := map[string][]string{}
	for _, g := range lists.behaviour {
		if g.name == effectGroup {
			for _, p := range g.phrases {
				m[p] = strings.Fields(strings.TrimSuffix(p, "*"))
			}
		}
	}
	return m
}()

// Lookup tables built once from lists.
var (
	objectVerbSet      = lex.Set(lists.objectVerbs)
	writeVerbSet       = lex.Set(lists.writeVerbs)
	effectVerbSet      = lex.Set(lists.actionVerbsWithEffects)
	genericNounSet     = lex.Set(lists.genericNouns)
	fillerLeadSet      = lex.Set(lists.fillerLead)
	objectMarkerSet    = lex.Set(lists.objectMarkers)
	vagueNounSet       = lex.Set(lists.vagueNouns)
	handleWordSet      = lex.Set(lists.handleWords)
	extraVerbSet       = lex.Set(lists.extraVerbs)
	changeVerbSet      = lex.Set(lists.changeVerbs)
	quantityWordSet    = lex.Set(lists.quantityWords)
	whereSet           = lex.Set(lists.wherePrepositions)
	clauseLeadSet      = lex.Set(lists.clauseLead)
	clauseSubjectSet   = lex.Set(lists.clauseSubject)
	notObjectSet       = lex.Set(lists.notObject)
	beSet              = lex.Set(lists.beForms)
	determinerSet      = lex.Set(determiners)
	inputFormatNextSet = lex.Set(inputFormatNext)
	modalSet           = lex.Set(modals)
	openerDetSet       = lex.Set(openerDeterminers)
	openerParticleSet  = lex.Set(openerParticles)
	nonVerbOpenerSet   = lex.Set(nonVerbOpeners)
)

// The phrase lists read in texts other than a whole description (its
// sentences, its examples) or beside descPhrases, made ready to be found
// in one pass over a text's words (lex.Phrases): a tool's cues read a
// dozen lists, and searching the text again for every phrase of every
// list was a fifth of the judge's time at 5,000 tools. The lists read
// in a whole description alone are descLists, found in one pass.
var (
	usageAlternativePhrases = lex.NewPhrases(lists.usageAlternative)
	pointerPhrases          = lex.NewPhrases(lists.pointers)
	paramFormatPhrases      = lex.NewPhrases(lists.paramFormat)
	notFrontLoadedPhrases   = lex.NewPhrases(lists.notFrontLoaded)
	// behaviourPhrases are the phrases of every behaviour group, group
	// after group; behaviourStart[g] is where group g's begin.
	behaviourPhrases, behaviourStart = groupPhrases(lists.behaviour)
)

// descList names one of the phrase lists the cues look for in a whole
// description (descLists). They are joined into descPhrases and found
// in one pass over its words when a cue first asks (facts.inDesc),
// where each list was a pass of its own: most tools' cues read seven.
type descList int

// The lists of descLists.
const (
	usageWhenList descList = iota
	usageNotList
	usageAlternativeList
	usagePrerequisiteList
	usageImpliedList
	placeholderList
	fillerList
	readOnlyClaimList
	destructiveClaimList
	readOnlyPartList
	paramFormatList
	descListCount
)

var (
	// descLists are the lists the cues look for in a whole description.
	descLists = [descListCount][]string{
		usageWhenList:         lists.usageWhen,
		usageNotList:          lists.usageNot,
		usageAlternativeList:  lists.usageAlternative,
		usagePrerequisiteList: lists.usagePrerequisite,
		usageImpliedList:      lists.usageImplied,
		placeholderList:       lists.placeholders,
		fillerList:            lists.filler,
		readOnlyClaimList:     lists.readOnlyClaims,
		destructiveClaimList:  lists.destructiveClaims,
		readOnlyPartList:      prefixed("read only ", lists.readOnlyPart),
		paramFormatList:       lists.paramFormat,
	}
	// descPhrases are descLists joined, list after list; descStart[l] is
	// where list l's phrases begin in it.
	descPhrases, descStart = joinLists(descLists[:])
)

// joinLists makes the phrases of ls ready as one list, and says where
// each list's phrases begin in it.
func joinLists(ls [][]string) (*lex.Phrases, []int) {
	var all []string
	start := make([]int, len(ls))
	for k, l := range ls {
		start[k] = len(all)
		all = append(all, l...)
	}
	return lex.NewPhrases(all), start
}

// groupPhrases makes the phrases of groups ready as one list, and says
// where each group's phrases begin in it.
func groupPhrases(groups []cueGroup) (*lex.Phrases, []int) {
	var all []string
	start := make([]int, len(groups))
	for g, cg := range groups {
		start[g] = len(all)
		all = append(all, cg.phrases...)
	}
	return lex.NewPhrases(all), start
}

// prefixed returns each word of list with p before it.
func prefixed(p string, list []string) []string {
	out := make([]string, len(list))
	for i, w := range list {
		out[i] = p + w
	}
	return out
}
