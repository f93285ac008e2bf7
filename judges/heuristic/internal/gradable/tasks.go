package gradable

import (
	"regexp"
	"strings"
	"unicode"

	"github.com/rubricmcp/rubric/judges/heuristic/internal/lex"
)

// TasksInput is the structured input of a gradable.tasks question.
type TasksInput struct {
	Generator string  `json:"generator"`
	PerTool   int     `json:"perTool"`
	Tools     []gTool `json:"tools"`
}

// gradTask is one generated task: what a user asks, which tool should
// answer it, whether the action destroys something, and the arguments
// the request states.
type gradTask struct {
	Tool        string         `json:"tool"`
	Task        string         `json:"task"`
	Destructive bool           `json:"destructive"`
	Arguments   map[string]any `json:"arguments"`
}

// tasksAnswer is the answer to a gradable.tasks question.
type tasksAnswer struct {
	Tasks []gradTask `json:"tasks"`
}

// Bounds on the tasks asked for per tool.
const (
	defaultPerTool = 3
	maxPerTool     = 20
	// maxRequestWords cuts a long first sentence when it becomes a task.
	maxRequestWords = 30
	// maxObjectWords bounds the object phrase taken from a purpose.
	maxObjectWords = 6
	// maxSuggestedObjectWords bounds the object a suggested description
	// states; one longer is not stated at all rather than cut.
	maxSuggestedObjectWords = 16
)

// generateTasks writes perTool tasks for every tool, in surface order.
func generateTasks(in *TasksInput) tasksAnswer {
	n := in.PerTool
	if n <= 0 {
		n = defaultPerTool
	}
	n = min(n, maxPerTool)
	a := tasksAnswer{Tasks: []gradTask{}}
	names := make([]string, len(in.Tools))
	for i, t := range in.Tools {
		names[i] = t.Name
	}
	ns := surfaceNamespace(names)
	for _, t := range in.Tools {
		if t.Name == "" {
			continue
		}
		a.Tasks = append(a.Tasks, toolTasks(t, n, ns)...)
	}
	return a
}

// purposeParts is a tool's first sentence read as a purpose: the
// request it becomes, its verb and the verb's object.
type purposeParts struct {
	request string // the sentence as an imperative, without a final stop
	verb    string // base form of the leading verb, or ""
	object  string // what the verb acts on ("the saved bookmarks"), or ""
	// whole is the object read to its natural end (a preposition, a
	// clause mark or the sentence's end) with no word limit, or "" when
	// it runs past maxSuggestedObjectWords: a suggestion states it, and
	// an object cut at maxObjectWords can stop mid-phrase ("the combined
	// status of all status" for "... all status checks for a PR").
	whole string
}

// toolTasks writes n tasks for one tool. Three templates take turns: the
// description's first sentence as a request, the verb's first synonym
// with the object and the arguments, and a question with the verb's
// second synonym. Each task uses the next sample value of every
// parameter it states, and no task repeats another. ns is the surface's
// namespace, which says nothing of what a tool does.
func toolTasks(t gTool, n int, ns string) []gradTask {
	forms := nameForms(t.Name)
	var pp purposeParts
	if ss := lex.Sentences(t.description()); len(ss) > 0 {
		pp = purpose(lex.StripNamePrefix(ss[0], t.Name))
	}
	verb := pp.verb
	if verb == "" {
		verb = firstNameVerb(t.Name)
	}
	object := pp.object
	res := resourceWords(t.Name, ns)
	if object == "" && len(res) > 0 {
		object = "the " + strings.Join(res, " ")
	}
	if object == "" {
		if tw := lex.Words(t.title()); len(tw) > 0 {
			object = "the " + strings.Join(tw, " ")
		}
	}
	ps := params(t.InputSchema)
	if object == "" && len(ps) > 0 {
		object = "the " + strings.Join(ps[0].words, " ")
	}
	if object == "" {
		object = "this"
	}
	resource := ""
	if len(res) > 0 {
		resource = lex.Stem(res[len(res)-1])
	}
	syns := synonymsFor(verb, forms)
	destructive := intendedDestructive(t, pp.verb)

	var stated []gParam
	for _, p := range ps {
		if p.required {
			stated = append(stated, p)
		}
	}
	var optional gParam
	hasOptional := false
	if len(stated) == 0 {
		for _, p := range ps {
			_, hasEnum := p.schema["enum"]
			_, hasExamples := p.schema["examples"]
			if hasEnum || hasExamples {
				optional, hasOptional = p, true
				break
			}
		}
	}

	check := newChecker(t.InputSchema)
	seen := map[string]bool{}
	out := make([]gradTask, 0, n)
	for k := 0; k < n; k++ {
		template := k % 3
		these := stated
		if template != 0 && hasOptional {
			these = []gParam{optional}
		}
		args := map[string]any{}
		var clauses []clause
		for _, p := range these {
			o := sampleOptions{variant: k, resource: resource}
			v := sample(p, o)
			if containsForm(render(v), forms) {
				v = samples["generic"][k%3]
			}
			if !check.accepts(args, p.name, v) {
				// The schema refuses the sample: the first value it
				// takes that does not spell the tool's name, or none.
				found := false
				for _, c := range candidates(p, t.InputSchema, o, v)[1:] {
					if !containsForm(render(c), forms) && check.accepts(args, p.name, c) {
						v, found = c, true
						break
					}
				}
				if !found {
					continue
				}
			}
			args[p.name] = v
			phrase := strings.Join(p.words, " ")
			if phrase == "" {
				phrase = p.name
			}
			clauses = append(clauses, clause{phrase, render(v)})
		}
		// The template's own wording first; if the name had to be
		// scrubbed out and that made it repeat an earlier task, the
		// other frames and synonyms in turn.
		var s string
		for _, c := range wordings(template, k/3, pp.request, syns, verb, object, clauses) {
			s = tidySpaces(scrub(tidySpaces(c), forms))
			if !seen[s] {
				break
			}
		}
		if seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, gradTask{Tool: t.Name, Task: s, Destructive: destructive, Arguments: args})
	}
	return out
}

// wordings returns the ways a task can be worded, the template's own
// first: the description's request with the arguments after "with"; a
// synonym, the object and the arguments after a colon; a question with
// another synonym and a sentence per argument.
func wordings(template, round int, request string, syns []string, verb, object string, cs []clause) []string {
	first := "Please " + pick(syns, round+2, verb) + " " + object + withClause(cs) + "."
	if request != "" {
		first = request + withClause(cs) + "."
	}
	frames := []string{
		first,
		capitalize(pick(syns, round, verb)) + " " + object + colonClause(cs) + ".",
		"Could you " + pick(syns, round+1, verb) + " " + object + " for me?" + isClause(cs),
		"I want to " + pick(syns, round+1, verb) + " " + object + colonClause(cs) + ".",
		"Help me " + pick(syns, round, verb) + " " + object + withClause(cs) + ".",
	}
	out := []string{frames[template]}
	for i, f := range frames {
		if i != template {
			out = append(out, f)
		}
	}
	return out
}

// clause is one stated argument: the parameter's words and its value as
// written.
type clause struct{ name, value string }

func withClause(cs []clause) string {
	if len(cs) == 0 {
		return ""
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.name + " " + c.value
	}
	return " with " + strings.Join(parts, " and ")
}

func colonClause(cs []clause) string {
	if len(cs) == 0 {
		return ""
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.name + " " + c.value
	}
	return ": " + strings.Join(parts, "; ")
}

func isClause(cs []clause) string {
	if len(cs) == 0 {
		return ""
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		be := "is"
		if strings.HasSuffix(c.name, "s") && !strings.HasSuffix(c.name, "ss") {
			be = "are"
		}
		parts[i] = "the " + c.name + " " + be + " " + c.value
	}
	return " " + capitalize(strings.Join(parts, " and ")) + "."
}

// pick returns synonym i (cycling), or the verb itself, or a neutral
// request when there is no verb.
func pick(syns []string, i int, verb string) string {
	if len(syns) > 0 {
		return syns[i%len(syns)]
	}
	if verb != "" {
		return verb
	}
	return "work with"
}

// synonymsFor returns the synonyms of verb that say nothing of the tool's
// name.
func synonymsFor(verb string, forms []string) []string {
	var out []string
	for _, s := range gradable.synonyms[verb] {
		if !containsForm(s, forms) {
			out = append(out, s)
		}
	}
	return out
}

// purpose reads a first sentence as a purpose statement. A short label
// before a bar ("Notion | Retrieve a user") is not part of it.
func purpose(sentence string) purposeParts {
	if label, rest, ok := strings.Cut(sentence, " | "); ok && len(strings.Fields(label)) <= 3 {
		sentence = rest
	}
	fields := strings.Fields(sentence)
	i := 0
	verb := ""
	for ; i < len(fields) && i < 8; i++ {
		w := strings.ToLower(strings.Trim(fields[i], "*_`\"'()[]:,"))
		if v := gVerbForm(w); v != "" && !requestFillerSet[w] {
			verb = v
			break
		}
		if !requestFillerSet[w] && !(len(w) > 4 && strings.HasSuffix(w, "ly")) {
			break
		}
	}
	if verb == "" {
		return purposeParts{request: "I need this done: " + lowerFirst(cutWords(fields, maxRequestWords))}
	}
	rest := fields[i+1:]
	whole, ended := objectWithin(rest, maxSuggestedObjectWords)
	if !ended {
		whole = ""
	}
	object, _ := objectWithin(rest, maxObjectWords)
	return purposeParts{
		request: capitalize(verb) + joinRest(cutWords(rest, maxRequestWords-1)),
		verb:    verb,
		object:  object,
		whole:   whole,
	}
}

func joinRest(s string) string {
	if s == "" {
		return ""
	}
	return " " + s
}

// cutWords joins at most n words; a longer text is cut at the last
// clause mark after its eighth word, or else at n words, and loses its
// final punctuation.
func cutWords(fields []string, n int) string {
	if len(fields) > n {
		cut := n
		for j := n - 1; j >= 8; j-- {
			if strings.ContainsAny(fields[j][len(fields[j])-1:], ",;:") {
				cut = j + 1
				break
			}
		}
		fields = fields[:cut]
	}
	return strings.TrimRight(strings.Join(fields, " "), ".,;:!?")
}

// objectWithin returns the object of a purpose's verb: the words up to a
// preposition or a clause mark, at most limit. "or update" after
// "create" is skipped; a leading preposition is kept ("to a URL"). ended
// says the object reached its natural end rather than the limit.
func objectWithin(rest []string, limit int) (object string, ended bool) {
	var out []string
	ended = true
	for i := 0; i < len(rest); i++ {
		raw := rest[i]
		w := strings.ToLower(strings.Trim(raw, "*_`\"'()[]:,;."))
		if len(out) == 0 && (w == "or" || w == "and") && i+1 < len(rest) && gVerbForm(strings.ToLower(rest[i+1])) != "" {
			i++
			continue
		}
		if strings.HasPrefix(raw, "(") || w == "" {
			break
		}
		if objectStopSet[w] && len(out) > 0 && hasContent(out) {
			break
		}
		if len(out) == limit {
			ended = false
			break
		}
		out = append(out, strings.TrimRight(raw, ",;:.)!?"))
		if strings.ContainsAny(raw[len(raw)-1:], ",;:.)!?") {
			break
		}
	}
	if !hasContent(out) {
		return "", ended
	}
	return lowerFirst(strings.Join(out, " ")), ended
}

func hasContent(ws []string) bool {
	for _, w := range ws {
		lw := strings.ToLower(w)
		if !lex.StopwordSet[lw] && !objectStopSet[lw] {
			return true
		}
	}
	return false
}

// intendedDestructive reports whether a tool's action destroys
// something: a caller reading it would confirm first (see wantsConfirm),
// or, when it is not annotated read-only, a destructive verb is in its
// name or leads its description (verb, the purpose's verb).
func intendedDestructive(t gTool, verb string) bool {
	if confirm, _ := wantsConfirm(t); confirm {
		return true
	}
	if isTrue(t.hint("readOnlyHint")) {
		return false
	}
	for _, w := range lex.NameWords(t.Name) {
		if destructiveVerbSet[gVerbForm(w)] || destructiveVerbSet[w] {
			return true
		}
	}
	return destructiveVerbSet[verb]
}

// prose drops identifiers from a description (back-ticked words and
// snake_case names), which name other tools or fields rather than say
// what this tool does.
func prose(s string) string {
	s = backtickSpan.ReplaceAllString(s, " ")
	return lex.Snake.ReplaceAllString(s, " ")
}

var backtickSpan = regexp.MustCompile("`[^`]*`")

// nameForms are the spellings of a tool's name a task must not contain,
// in ASCII lower case: as written, with "_" and "-" as spaces, and as its
// words.
func nameForms(name string) []string {
	var out []string
	add := func(s string) {
		s = strings.TrimSpace(asciiLower(s))
		if len(s) < 2 {
			return
		}
		for _, f := range out {
			if f == s {
				return
			}
		}
		out = append(out, s)
	}
	add(name)
	add(strings.NewReplacer("_", " ", "-", " ").Replace(name))
	add(strings.Join(lex.NameWords(name), " "))
	return out
}

func containsForm(s string, forms []string) bool {
	low := asciiLower(s)
	for _, f := range forms {
		if strings.Contains(low, f) {
			return true
		}
	}
	return false
}

// asciiLower lowers A-Z only, so that offsets into the result are
// offsets into s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// scrub rewrites s until no form of the tool's name is left in it: the
// words around a match are replaced by a synonym of one of them (a verb,
// or one of the few nouns listed), or else dropped.
func scrub(s string, forms []string) string {
	for range 16 {
		low := asciiLower(s)
		at, form := -1, ""
		for _, f := range forms {
			if i := strings.Index(low, f); i >= 0 {
				at, form = i, f
				break
			}
		}
		if at < 0 {
			return s
		}
		start, end := at, at+len(form)
		for start > 0 && wordByte(low[start-1]) {
			start--
		}
		for end < len(low) && wordByte(low[end]) {
			end++
		}
		s = s[:start] + replaceSpan(s[start:end], forms) + s[end:]
	}
	// A name that resists every synonym is cut out.
	for _, f := range forms {
		for {
			low := asciiLower(s)
			i := strings.Index(low, f)
			if i < 0 {
				break
			}
			s = s[:i] + s[i+len(f):]
		}
	}
	return s
}

func wordByte(c byte) bool {
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 0x80
}

// replaceSpan rewrites the words that spell a name: the first word with a
// synonym that does not bring the name back is replaced; failing that,
// every word but the first is dropped, or a lone word is dropped.
func replaceSpan(span string, forms []string) string {
	ws := strings.FieldsFunc(span, func(r rune) bool { return r == ' ' || r == '_' || r == '-' })
	for i, w := range ws {
		lw := strings.ToLower(w)
		cands := gradable.nounSynonyms[lw]
		if v := gVerbForm(lw); v != "" {
			cands = append(append([]string{}, gradable.synonyms[v]...), cands...)
		}
		for _, c := range cands {
			if containsForm(c, forms) {
				continue
			}
			if len(w) > 0 && unicode.IsUpper(rune(w[0])) {
				c = capitalize(c)
			}
			out := append(append([]string{}, ws[:i]...), c)
			return strings.Join(append(out, ws[i+1:]...), " ")
		}
	}
	if len(ws) > 1 {
		return ws[0]
	}
	return ""
}

// tidySpaces joins fields with single spaces and removes a space before
// punctuation.
func tidySpaces(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	for _, p := range []string{" .", " ,", " ?", " :", " ;"} {
		s = strings.ReplaceAll(s, p, p[1:])
	}
	return strings.TrimSpace(s)
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// lowerFirst lowers the first letter unless the first word looks like an
// acronym or a name with capitals inside ("URL", "GitHub").
func lowerFirst(s string) string {
	first, _, _ := strings.Cut(s, " ")
	r := []rune(first)
	if len(r) == 0 || len(r) > 1 && strings.IndexFunc(string(r[1:]), unicode.IsUpper) >= 0 {
		return s
	}
	rs := []rune(s)
	rs[0] = unicode.ToLower(rs[0])
	return string(rs)
}
