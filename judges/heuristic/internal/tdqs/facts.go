package tdqs

import (
	"fmt"
	"iter"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rubricmcp/rubric/judges/heuristic/internal/lex"
)

// ToolInput is the structured input of a tdqs.tool question. Signals the
// engine may send beside the tool are not read: everything is computed
// from the definition, so the judge gives the same answer with or
// without them.
type ToolInput struct {
	Tool     map[string]any `json:"tool"`
	Siblings []string       `json:"siblings"`
	// Names, when the input lists no siblings, are the server's tool
	// names as the questions of a run share them: each tool's siblings
	// are these less its own.
	Names *Names `json:"-"`
	// View, when set, is what the cues read of the tool, read from the
	// question's JSON by a caller that need not build Tool; it is read
	// instead of Tool, and must be what ViewOf(Tool) would give.
	View *ToolView `json:"-"`
}

// ToolView is what the cues read of a tool's definition: a decoded tool
// has more, which no cue asks for.
type ToolView struct {
	// Name, Title and Description are the tool's strings, "" when a
	// member is missing or not a string. Title is the annotations' title
	// when the tool's own is "".
	Name, Title, Description string
	// ReadOnly, Destructive, Idempotent and OpenWorld are the
	// annotations' hints, nil when missing or not a boolean.
	ReadOnly, Destructive, Idempotent, OpenWorld *bool
	// HasOutput is whether the output schema is an object with members.
	HasOutput bool
	// Params are the input schema's properties, in any order.
	Params []ParamView
}

// ParamView is what the cues read of one input parameter.
type ParamView struct {
	Name string
	// Described is whether its schema's description is a string with
	// more than white space.
	Described bool
	// Nested is whether it holds an object (isNested).
	Nested bool
}

// ViewOf returns what the cues read of a decoded tool; nil for nil.
func ViewOf(tool map[string]any) *ToolView {
	if tool == nil {
		return nil
	}
	v := &ToolView{}
	v.Name, _ = tool["name"].(string)
	ann, _ := tool["annotations"].(map[string]any)
	v.Title, _ = tool["title"].(string)
	if v.Title == "" && ann != nil {
		v.Title, _ = ann["title"].(string)
	}
	v.Description, _ = tool["description"].(string)
	if ann != nil {
		v.ReadOnly = lex.Hint(ann, "readOnlyHint")
		v.Destructive = lex.Hint(ann, "destructiveHint")
		v.Idempotent = lex.Hint(ann, "idempotentHint")
		v.OpenWorld = lex.Hint(ann, "openWorldHint")
	}
	if out, ok := tool["outputSchema"].(map[string]any); ok && len(out) > 0 {
		v.HasOutput = true
	}
	schema, _ := tool["inputSchema"].(map[string]any)
	props, _ := schema["properties"].(map[string]any)
	for pname, s := range props {
		p := ParamView{Name: pname}
		if pm, ok := s.(map[string]any); ok {
			d, _ := pm["description"].(string)
			p.Described = strings.TrimSpace(d) != ""
			p.Nested = isNested(pm)
		}
		v.Params = append(v.Params, p)
	}
	return v
}

// param is one input parameter as the judge sees it.
type param struct {
	name      string
	words     []string
	described bool
	nested    bool
	mentioned bool // the description names it (facts.mentioned)
}

// facts is everything the cues read about one tool, computed once.
type facts struct {
	name       string
	nameWords  []string
	titleWords []string
	siblings   []string
	names      *Names // the siblings as an index, when they came shared

	desc    lex.Text
	hasDesc bool
	nWords  int
	first   lex.Text // the first sentence, with a leading "name:" removed
	// sentences are the description's sentences as texts, made when
	// first needed (sentenceTexts).
	sentences []lex.Text

	leadVerb string // base form of the verb the purpose opens with, or ""
	// leadUnlisted is whether leadVerb is no verb of the lists but a
	// word before a determiner (openerVerb): whether it has effects is
	// not known.
	leadUnlisted bool

	// own are the words of the name and title, stemmed, plus each run
	// together ("mytool" for my-tool): a few words, looked up one by one
	// (owns) rather than put in a map for each question.
	own []string
	// restated is true when every content word of a short description is
	// a word of the name or title ("Update Tool Access By Id").
	restated bool
	// placeholder is the placeholder phrase a short description is made
	// of ("tool description", "TODO"), or "".
	placeholder string

	params    []param // sorted by name
	described int
	nested    bool
	mentioned []string // parameters the description names, sorted

	// contrastCue is the phrase that sets the tool against others
	// (contrast), read once when contrastRead.
	contrastCue  string
	contrastRead bool
	// descHas says, for each phrase of descPhrases, whether the
	// description has it: read once, when a cue first asks (inDesc).
	descHas []bool
	// readOnlyClaim is the read-only claim the description makes
	// (saysReadOnly), read once when readOnlyRead: the contradiction
	// and the claim of a read-only tool each ask for it.
	readOnlyClaim string
	readOnlyRead  bool

	// disclosed are the behavioural disclosures of the description and
	// alternatives the other tools it names, computed once.
	disclosed    []found
	alternatives []string
	// examples is the description without its example values in single
	// quotes (withoutExamples), or "" when it has none.
	examples string

	annotated                              bool
	readOnly, destructive, idem, openWorld *bool
	hasOutput                              bool
}

// readFacts computes the facts of a tdqs.tool input.
func readFacts(in *ToolInput) (*facts, error) {
	v := in.View
	if v == nil {
		if in.Tool == nil {
			return nil, fmt.Errorf(`the question's input has no "tool" object`)
		}
		v = ViewOf(in.Tool)
	}
	name := v.Name
	if name == "" {
		return nil, fmt.Errorf(`the question's tool has no "name"`)
	}
	f := &facts{name: name, nameWords: lex.NameWords(name)}
	for _, s := range in.Siblings {
		if s != "" && s != name {
			f.siblings = append(f.siblings, s)
		}
	}
	sort.Strings(f.siblings)
	if in.Siblings == nil && in.Names != nil && in.Names.others(name) {
		f.names = in.Names
	}

	f.titleWords = lex.Words(v.Title)

	// A cue of several words holds within one sentence: "Do not. Use
	// this when ..." says no "do not use".
	f.desc = lex.NewText(v.Description).WithinSentences()
	f.nWords = len(f.desc.Words)
	f.hasDesc = f.nWords > 0
	if len(f.desc.Sentences) > 0 {
		// No cue reads the first sentence's own sentences: it is
		// prepared as one, cut out of the description's words unless a
		// name before it is stripped.
		if first := stripLabel(lex.StripNamePrefix(f.desc.Sentences[0], name)); first == f.desc.Sentences[0] {
			f.first = f.sentenceTexts()[0]
		} else {
			f.first = lex.NewSentence(first)
		}
	}
	if f.leadVerb = leadVerb(f.first); f.leadVerb == "" {
		f.leadVerb = openerVerb(f.first.Raw)
		f.leadUnlisted = f.leadVerb != ""
	}
	f.own = make([]string, 0, len(f.nameWords)+len(f.titleWords)+2)
	for _, ws := range [2][]string{f.nameWords, f.titleWords} {
		for _, w := range ws {
			f.own = append(f.own, lex.Stem(w))
		}
		if len(ws) > 1 {
			f.own = append(f.own, strings.Join(ws, ""))
		}
	}
	if f.hasDesc && f.nWords <= 12 {
		f.restated = true
		for _, w := range f.desc.Words {
			if !lex.StopwordSet[w] && !f.owns(lex.Stem(w)) {
				f.restated = false
				break
			}
		}
		if f.nWords <= 8 {
			f.placeholder, _ = f.descFirstIn(placeholderList)
		}
	}

	f.params = make([]param, 0, len(v.Params))
	for _, vp := range v.Params {
		p := param{name: vp.Name, words: lex.NameWords(vp.Name), described: vp.Described, nested: vp.Nested}
		if p.described {
			f.described++
		}
		f.nested = f.nested || p.nested
		f.params = append(f.params, p)
	}
	slices.SortFunc(f.params, func(a, b param) int { return strings.Compare(a.name, b.name) })
	for i, p := range f.params {
		if lex.Mentions(f.desc, p.name, p.words) || mentionsHead(f.desc, p.words) {
			f.mentioned = append(f.mentioned, p.name)
			f.params[i].mentioned = true
		}
	}

	f.readOnly, f.destructive, f.idem, f.openWorld = v.ReadOnly, v.Destructive, v.Idempotent, v.OpenWorld
	f.annotated = f.readOnly != nil || f.destructive != nil || f.idem != nil || f.openWorld != nil
	f.hasOutput = v.HasOutput
	if strings.IndexByte(v.Description, '\'') >= 0 {
		if plain := withoutExamples(v.Description); plain != v.Description {
			f.examples = plain
		}
	}
	f.disclosed = f.findDisclosures()
	f.alternatives = f.findAlternatives()
	return f, nil
}

// inDesc returns list l of descLists and, for each of its phrases,
// whether the description has it: f.desc.Matched of the list alone,
// read for every list in one pass.
func (f *facts) inDesc(l descList) (list []string, has []bool) {
	if f.descHas == nil {
		f.descHas = f.desc.Matched(descPhrases)
	}
	list = descLists[l]
	return list, f.descHas[descStart[l] : descStart[l]+len(list)]
}

// descFirstIn is f.desc.FirstIn of list l: the first of its phrases, in
// its order, that the description has, without its "*".
func (f *facts) descFirstIn(l descList) (string, bool) {
	list, has := f.inDesc(l)
	if i := slices.Index(has, true); i >= 0 {
		return strings.TrimSuffix(list[i], "*"), true
	}
	return "", false
}

// descAllIn is f.desc.AllIn of list l: every one of its phrases that the
// description has, in its order, without their "*".
func (f *facts) descAllIn(l descList) []string {
	list, has := f.inDesc(l)
	var out []string
	for i, ok := range has {
		if ok {
			out = append(out, strings.TrimSuffix(list[i], "*"))
		}
	}
	return out
}

// owns reports whether w is one of the tool's own words (f.own).
func (f *facts) owns(w string) bool { return slices.Contains(f.own, w) }

// sentenceTexts returns the description's sentences, each prepared for
// the cues (lex.Text.Sentence: no cue splits a sentence again), made
// once for all of them.
func (f *facts) sentenceTexts() []lex.Text {
	if f.sentences == nil {
		f.sentences = make([]lex.Text, len(f.desc.Sentences))
		for i := range f.desc.Sentences {
			f.sentences[i] = f.desc.Sentence(i)
		}
	}
	return f.sentences
}

// mentionsHead reports whether the description names a parameter by the
// words before a trailing handle word ("the session" for session_id,
// "a thread" for thread_ts): the text speaks of the thing the parameter
// points at.
//
// A head of one word names the thing only where the text speaks of one
// (headAsThing): "10 rules per page" counts rules by pages and "use
// pageIdx to page through the rules" pages, and neither names the page
// pageId targets (chrome-devtools get_css_styles).
func mentionsHead(d lex.Text, ws []string) bool {
	if len(ws) < 2 || !handleWordSet[ws[len(ws)-1]] {
		return false
	}
	head := ws[:len(ws)-1]
	if !lex.Mentions(d, strings.Join(head, "_"), head) {
		return false
	}
	return len(head) > 1 || headAsThing(d.Words, head[0])
}

// headAsThing reports whether words has head, with plurals folded, other
// than after a word of lists.unitBefore ("per page") or before one of
// lists.verbParticles ("page through").
func headAsThing(words []string, head string) bool {
	stem := lex.Stem(head)
	// A word whose stem is stem opens with it, but for the final "y"
	// of a stem a word in "ies" drops: the words that do not are passed
	// over before they are stemmed.
	lead := stem[:max(1, len(stem)-1)]
	for i, w := range words {
		if w != head && (!strings.HasPrefix(w, lead) || lex.Stem(w) != stem) {
			continue
		}
		if i > 0 && slices.Contains(lists.unitBefore, words[i-1]) {
			continue
		}
		if i+1 < len(words) && slices.Contains(lists.verbParticles, words[i+1]) {
			continue
		}
		return true
	}
	return false
}

// isNested reports whether a property holds an object: it is typed
// "object" or declares properties, directly or as the items of an array.
// (The TDQS rubric's hasNestedObjects signal counts the same way.)
func isNested(p map[string]any) bool {
	if isObject(p) {
		return true
	}
	items, ok := p["items"].(map[string]any)
	return ok && isObject(items)
}

func isObject(s map[string]any) bool {
	if _, ok := s["properties"].(map[string]any); ok {
		return true
	}
	switch t := s["type"].(type) {
	case string:
		return t == "object"
	case []any:
		for _, v := range t {
			if v == "object" {
				return true
			}
		}
	}
	return false
}

// stripLabel removes a label of one to three words set before the
// purpose with a bar between spaces ("Notion | Retrieve a user") or,
// maybe after an emoji, before a colon and a capital ("Purpose: Orient
// in one call", "👥 ALL USERS: Get every user"), or one or more tags in
// square brackets ("[rss] Fetch the latest items", "[Requires open
// project] Export a netlist"): the purpose is what follows it. A bar
// inside a word ("ES|QL") is none; nor is a heading that puts something
// before the purpose ("Note: ...", "IMPORTANT: ..."), which conciseness
// reads, nor a purpose before a colon ("Tidy a device: Delete ...").
func stripLabel(s string) string {
	if rest := stripTags(s); rest != s {
		return rest
	}
	label, rest, ok := strings.Cut(s, " | ")
	if !ok {
		return stripColonLabel(s)
	}
	rest = strings.TrimSpace(rest)
	if rest == "" || strings.Contains(rest, " | ") {
		return s
	}
	// A label names; it does not act ("Run a | b" is no label).
	if ws := lex.Words(label); len(ws) < 1 || len(ws) > 3 || verbForm(ws[0]) != "" {
		return s
	}
	return rest
}

// stripColonLabel removes a label of one to three words, maybe after
// an emoji, that opens s before a colon, when a capital letter opens
// what follows ("Purpose: Orient ..."); otherwise it returns s. A
// first word that acts (a verb of the lists, or one before a
// determiner: "Tidy a device: Delete its logs"), or that opens a
// heading conciseness counts against the purpose ("Note", "Warning",
// "When"), makes no label.
func stripColonLabel(s string) string {
	i := strings.Index(s, ": ")
	if i <= 0 || i > 40 {
		return s
	}
	rest := strings.TrimLeft(s[i+2:], " ")
	if r, _ := utf8.DecodeRuneInString(rest); !unicode.IsUpper(r) {
		return s
	}
	ws := lex.Words(s[:i])
	if len(ws) < 1 || len(ws) > 3 || verbForm(ws[0]) != "" || openerVerb(s[:i]) != "" {
		return s
	}
	t := lex.NewSentence(s[:i])
	if p, ok := t.FirstIn(notFrontLoadedPhrases); ok && t.Find(p) == 0 {
		return s
	}
	return rest
}

// stripTags removes the tags in square brackets that open s, each of at
// most four words, when text follows them; otherwise it returns s.
func stripTags(s string) string {
	rest := s
	for strings.HasPrefix(rest, "[") {
		end := strings.IndexByte(rest, ']')
		if end < 0 || len(lex.Words(rest[1:end])) > 4 {
			return s
		}
		rest = strings.TrimLeft(rest[end+1:], " ")
	}
	if rest == "" || len(lex.Words(rest)) == 0 {
		return s
	}
	return rest
}

// openerVerb returns the word that opens purpose sentence raw, after
// filler ("This tool lets you"), as its verb when a determiner follows
// it with only a space between (cues.go, openerDeterminers): "Echo a
// message" gives "echo", "Echoes back the input" "echoes", a compound
// "Sanity-check a tool" "sanity check". It returns "" when the word is a
// function word or follows one ("The echo of a ..."), holds anything
// but letters, digits and inner hyphens, or no determiner follows.
func openerVerb(raw string) string {
	toks := strings.Fields(raw)
	i := 0
	for i < len(toks) && i <= 6 {
		w := strings.ToLower(toks[i])
		if !leadFiller(w) {
			break
		}
		i++
	}
	if i+1 >= len(toks) || i > 0 && openerDetSet[strings.ToLower(toks[i-1])] {
		return ""
	}
	word := strings.ToLower(toks[i])
	parts := strings.Split(word, "-")
	for k, p := range parts {
		if p == "" || !plainToken(p) || k == 0 && !unicode.IsLetter([]rune(p)[0]) {
			return ""
		}
	}
	if lex.StopwordSet[parts[0]] || nonVerbOpenerSet[parts[0]] || openerDetSet[parts[0]] {
		return ""
	}
	next := toks[i+1]
	if openerParticleSet[next] && i+2 < len(toks) {
		next = toks[i+2]
	}
	if !openerDetSet[next] {
		return ""
	}
	return strings.Join(parts, " ")
}

// plainToken reports whether s is made of letters and digits only.
func plainToken(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return true
}

// verbForm is lex.VerbForm with the verbs the TDQS cues add
// (lists.extraVerbs), in base or third-person form: the base form of w
// when it is a known verb, or "".
func verbForm(w string) string {
	if v := lex.VerbFormWith(w, extraVerbSet); v != "" {
		return v
	}
	if s, ok := strings.CutSuffix(w, "es"); ok && extraVerbSet[s] {
		return s
	}
	return ""
}

// verbAt returns the verb that words ws hold at i and how many words it
// takes: a compound verb of two words ("cherry pick", its second word in
// any form verbForm reads) and 2, a verb of one word (verbForm) and 1,
// or "" and 0.
func verbAt(ws []string, i int) (string, int) {
	if i+1 < len(ws) {
		second := ws[i+1]
		if v := lex.Stem(second); v != second {
			second = v
		}
		// Compared word by word: joining the two for a lookup made a
		// string for every word a verb was looked for at.
		for _, c := range lists.compoundVerbs {
			if a, b, _ := strings.Cut(c, " "); a == ws[i] && b == second {
				return c, 2
			}
		}
	}
	if v := verbForm(ws[i]); v != "" {
		return v, 1
	}
	return "", 0
}

// leadVerb returns the base form of the verb a purpose statement opens
// with, after filler such as "This tool lets you" and adverbs such as
// "Permanently", or "". A verb of the lists just before "of" is its
// noun ("Stream of workout change events", "List of users"): no verb
// takes its object through "of"; a verb of one word joined by a hyphen
// to the next is the first part of a compound ("Trace-side counterpart
// to verifyFix", "Follow-up questions"), no verb either; and "read
// only" is the adjective ("Read-only.") unless it reads as the verb
// (readOnlyVerb).
func leadVerb(first lex.Text) string {
	ws := first.Words
	hyphenated := false
	if h := strings.Index(first.Lower, "read-only"); h >= 0 {
		sp := strings.Index(first.Lower, "read only")
		hyphenated = sp < 0 || h < sp
	}
	for i, w := range ws {
		if i > 6 {
			break
		}
		if v, n := verbAt(ws, i); v != "" {
			if i+n < len(ws) && ws[i+n] == "of" {
				return ""
			}
			if v == "read" && i+1 < len(ws) && ws[i+1] == "only" && !readOnlyVerb(ws[i+2:], hyphenated) {
				return ""
			}
			if n == 1 && v != "read" && i+1 < len(ws) && strings.IndexByte(first.Lower, '-') >= 0 &&
				strings.Contains(compoundAt(first.Lower, ws[i]), "-") {
				return ""
			}
			return v
		}
		if !leadFiller(w) {
			return ""
		}
	}
	return ""
}

// readOnlyVerb reports whether "read only", followed by the words ws of
// its sentence, is the verb "read" and an adverb rather than the
// adjective. Written with a hyphen ("Read-only.", "Read-only file
// management tool") it is the adjective. Written with a space it is the
// verb where what follows can be its object: a part of something
// (lists.readOnlyPart: "Read only the first lines"), a determiner, or a
// plural noun ("Read only files that match the glob"), which the
// adjective, a label, rarely qualifies in a purpose; before nothing or
// a singular noun ("Read only access to the vault") it is the adjective
// with its hyphen left out. A judgement call: a model reads "Read only
// files that match" as an instruction of what to read.
func readOnlyVerb(ws []string, hyphenated bool) bool {
	if hyphenated || len(ws) == 0 {
		return false
	}
	w := ws[0]
	return slices.Contains(lists.readOnlyPart, w) || determinerSet[w] ||
		strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !lex.StopwordSet[w]
}

// coverage is the share of parameters with a description, 0 to 1.
func (f *facts) coverage() float64 {
	if len(f.params) == 0 {
		return 1
	}
	return float64(f.described) / float64(len(f.params))
}

// acts reports whether the tool does something beyond answering: its
// annotations say it is not read-only or that it destroys, or, unless
// its text says it is read-only, its purpose opens with a verb that has
// effects (but for a verb that acts through its object, whose object
// reads: readingObject), or (when it opens with none the lists hold)
// its name holds one.
func (f *facts) acts() bool {
	if f.readOnly != nil && *f.readOnly {
		return false
	}
	if f.readOnly != nil && !*f.readOnly {
		return true
	}
	if f.destructive != nil && *f.destructive {
		return true
	}
	if effectVerbSet[f.leadVerb] {
		return !f.readingObject() && !f.claimsReadOnly()
	}
	if f.leadVerb != "" && f.coordinatedEffect() {
		return !f.claimsReadOnly()
	}
	if (f.leadVerb == "" || f.leadUnlisted) && len(f.nameWords) > 0 {
		for _, w := range f.nameWords {
			if effectVerbSet[w] {
				return !f.claimsReadOnly()
			}
		}
	}
	return false
}

// coordinatedEffect reports whether the verb the purpose opens with is
// joined by "and" or "or" to a verb that has effects ("Search and
// replace the text in a file", "Find and delete stale branches"): the
// tool does that too. A second verb that reads ("Search and list the
// files") acts no more than the first.
func (f *facts) coordinatedEffect() bool {
	ws := f.first.Words
	at := slices.IndexFunc(ws[:min(len(ws), 7)], func(w string) bool { return verbForm(w) == f.leadVerb })
	if at < 0 || at+2 >= len(ws) || ws[at+1] != "and" && ws[at+1] != "or" {
		return false
	}
	v, _ := verbAt(ws, at+2)
	return effectVerbSet[v]
}

// claimsReadOnly reports whether the text says the tool is read-only
// ("Run a read-only SQL query"): where no annotation says otherwise, it
// then changes nothing, whatever verb opens its purpose. Only a text
// whose safety disclosure is a read-only claim is read (each one is a
// safety phrase), so a parameter named read_only, which findDisclosures
// does not read, makes no claim.
func (f *facts) claimsReadOnly() bool {
	i := slices.IndexFunc(f.disclosed, func(c found) bool { return c.cue == safetyGroup })
	if i < 0 || !slices.ContainsFunc(lists.readOnlyClaims, func(p string) bool {
		return strings.HasPrefix(f.disclosed[i].phrase, strings.TrimSuffix(p, "*"))
	}) {
		return false
	}
	c := f.saysReadOnly()
	return c != "" && !(c == "read only" && f.readsOnlyPart())
}

// readingObject reports whether the purpose opens with a verb that acts
// only through its object (throughVerbs: run, execute, perform) and
// that object's head, the last word of the noun phrase after the verb,
// is a noun of reading (readingNouns): "Perform a web search and return
// top results", "Perform DNS lookup on a hostname", "Perform control
// flow analysis on machine code" read; "Run a shell command" acts.
// The phrase ends at a stopword or a preposition of place ("Perform a
// search across the files"). A coordinated object ("a search and
// replace", "a lookup and update of records") acts as its dearest
// member: it reads only when every member's head does
// (coordinatedMember tells a member from a verb the tool goes on to,
// "and return top results").
func (f *facts) readingObject() bool {
	if !slices.Contains(throughVerbs, f.leadVerb) {
		return false
	}
	ws := f.first.Words
	at := slices.IndexFunc(ws, func(w string) bool { return verbForm(w) == f.leadVerb })
	if at < 0 {
		return false
	}
	obj := ws[at+1 : min(len(ws), at+7)]
	var heads []string
	head := ""
	for i, w := range obj {
		if determinerSet[w] {
			continue
		}
		if (w == "and" || w == "or") && head != "" {
			// A verb of change after the coordinator ("a search and
			// replace operation", "a lookup and update of the
			// record"), a member or a verb the tool goes on to,
			// changes what the object names.
			if k := i + 1 + countDeterminers(obj[i+1:]); k < len(obj) && changeVerbSet[verbForm(obj[k])] {
				return false
			}
			if coordinatedMember(obj[i+1:]) {
				heads, head = append(heads, head), ""
				continue
			}
		}
		if lex.StopwordSet[w] || whereSet[w] {
			break
		}
		head = w
	}
	heads = append(heads, head)
	return !slices.ContainsFunc(heads, func(h string) bool { return !readingNounSet[h] })
}

// countDeterminers returns how many determiners open ws.
func countDeterminers(ws []string) int {
	i := 0
	for i < len(ws) && determinerSet[ws[i]] {
		i++
	}
	return i
}

// coordinatedMember reports whether the words after a coordinator in
// an object (rest) open another member of it: one word, after any
// determiner, that ends the phrase (the words end, or a stopword or a
// preposition of place follows that is no determiner: "and replace
// across the files"). A word followed by its own object ("and return
// top results", "and return the results") is a verb the tool goes on
// to.
func coordinatedMember(rest []string) bool {
	i := countDeterminers(rest)
	if i >= len(rest) || lex.StopwordSet[rest[i]] || whereSet[rest[i]] {
		return false
	}
	if i+1 == len(rest) {
		return true
	}
	next := rest[i+1]
	return !determinerSet[next] && (lex.StopwordSet[next] || whereSet[next])
}

// findDisclosures returns the kinds of behavioural disclosure the
// description makes, each with the phrase that showed it.
//
// A string between double quotes (an example message such as
// {"message": "add login auth"}, pattern="auth", a request such as
// "find auth stuff") is a value or someone's words, not a statement of
// the tool's behaviour: the text is read without them. What surrounds
// it ({ok:false, error:"..."}) is still read, and so is the text of a
// caution after a "WARNING:" heading, without the heading. A phrase found
// only in the words of a snake_case name (lex.Text.SnakeNameWords: a
// field, a parameter or another tool) discloses nothing, unless the name
// is a credential's, a dry run's or a rate limit's (disclosingName). A phrase counts
// where it is not one of notAfter's readings or an attribute
// (attributeCues), nor a format of what the caller sends
// (inputFormats), nor bareChange where it names what a tool that reads
// reads.
func (f *facts) findDisclosures() []found {
	var out []found
	d := f.desc
	heading := strings.Contains(d.Lower, "warning") && hasCautionHeading(d.Raw)
	if f.examples != "" {
		d = lex.NewText(f.examples).WithinSentences()
	}
	if heading || strings.IndexByte(d.Raw, '"') >= 0 {
		raw := withoutQuoted(d.Raw)
		if heading {
			raw = cautionHeading.ReplaceAllString(raw, " :")
		}
		d = lex.NewText(raw).WithinSentences()
	}
	// The words of a snake_case name (group_limit_type, timeout_ms) are
	// its name, no statement of what the tool does: a phrase is found
	// only outside such names, and in the names that say what they are
	// (access_token, dry_run).
	has := d.MatchedOutside(behaviourPhrases, d.SnakeNameWords(disclosingName))
	// denied is the first side effect the text says the tool does not
	// have ("never mutates the vault"): a claim of safety.
	denied := ""
	for gi, g := range lists.behaviour {
		fired := false
		for k, p := range g.phrases {
			if !has[behaviourStart[gi]+k] {
				continue
			}
			if g.name == effectGroup {
				stated, not := f.effectReading(d, p)
				if denied == "" {
					denied = not
				}
				if !stated {
					continue
				}
			}
			if !(p == "read only" && f.readsOnlyPart()) && f.discloses(d, p) {
				// The words that matched, not the stem: "auth*" quoted
				// as "auth" reads as though the text said "auth".
				out = append(out, found{g.name, d.Matching(p)})
				fired = true
				break
			}
		}
		if !fired && g.name == safetyGroup && denied != "" {
			out = append(out, found{g.name, denied})
		}
		if !fired && g.name == costGroup {
			// A price a call or a cap on calls, which no phrase of
			// words reads: "$0.02/call", "more than 3 times".
			if m := callFigure(d); m != "" {
				out = append(out, found{g.name, m})
			}
		}
	}
	return out
}

// disclosingName reports whether the words of a snake_case name say
// what the name is as prose would: a credential's name ("access_token",
// "api_key", "client_secret": a word of credentialWords before a token,
// key, secret or password, but a handle's before a key: user_key), a dry run's ("dry_run") or a rate limit's
// ("rate_limit_delay"). A tool that asks for one discloses it. Other
// names ("next_page_token", "max_tokens", "group_limit_type") are only
// names (findDisclosures).
func disclosingName(words []string) bool {
	last := words[len(words)-1]
	switch last {
	case "token", "key", "secret", "password":
		for _, w := range words[:len(words)-1] {
			if credentialWordSet[w] && !(last == "key" && keyHandleWordSet[w]) {
				return true
			}
		}
	}
	for i := 0; i+1 < len(words); i++ {
		if words[i] == "dry" && words[i+1] == "run" || words[i] == "rate" && words[i+1] == "limit" {
			return true
		}
	}
	return false
}

// effectReading reads side-effect phrase p (effectGroup's) where d has
// it: stated is whether it occurs once with no negation among the two
// words before it, and denied, the first occurrence with one that the
// text says of the tool ("This never mutates the vault", "It will never
// overwrite", "Never persisted"), quoted from the negation on, or "". A
// negation that opens its clause before a base form ("NEVER overwrite
// the original file") tells the caller what not to do: neither a side
// effect nor a claim of safety. A denial with another subject ("the
// session will not persist") says what that thing does, not what the
// tool leaves alone (ownDenial).
func (f *facts) effectReading(d lex.Text, p string) (stated bool, denied string) {
	pw := effectWords[p]
	prefix := strings.HasSuffix(p, "*")
	// Sentence by sentence: a negation that ends one sentence ("Takes
	// no arguments.") says nothing of the side effect opening the next
	// ("Deletes all cached entries").
	negated := false
	for k := range d.Sentences {
		ws := d.Sentence(k).Words
		for i := range ws {
			if phraseAt(ws, i, pw, prefix) {
				if negationBefore(ws, i) < 0 {
					return true, ""
				}
				negated = true
			}
		}
	}
	if !negated {
		return false, ""
	}
	// Read clause by clause: an imperative opens its clause.
	for _, sentence := range d.Sentences {
		for _, c := range clauses(sentence) {
			ws := lex.Words(c)
			for i := range ws {
				if !phraseAt(ws, i, pw, prefix) {
					continue
				}
				j := negationBefore(ws, i)
				// The base form a starred phrase starts ("overwrite")
				// told to the caller ("NEVER overwrite", "You must never
				// overwrite") is advice, as the imperative is.
				base := prefix && ws[i+len(pw)-1] == pw[len(pw)-1]
				if j < 0 || denied != "" || base && adviceNegation(ws, i) || !f.ownDenial(ws, j, i, pw) {
					continue
				}
				denied = strings.Join(ws[j:i+len(pw)], " ")
			}
		}
	}
	return false, denied
}

// ownDenial reports whether the negation at j of clause ws, before the
// side effect pw at i, denies the tool's own effect. "without" and "no"
// deny it whatever comes before ("without overwriting"). A passive
// ("is never stored", "will not be saved", "Never persisted") denies
// what is done to the data, by the tool. An active verb denies its
// subject's doing: the tool's only with the tool for its subject
// (toolIsSubject: none, "it", "this tool", the tool's name), or the
// server for what it keeps of the data (serverIsSubject); "the session
// will not persist" or "the file does not change" is said of the
// session or the file. The auxiliaries between the subject and the
// negation (effectAuxiliaries: "will", "does") are passed over.
func (f *facts) ownDenial(ws []string, j, i int, pw []string) bool {
	if ws[j] == "without" || ws[j] == "no" {
		return true
	}
	k := j
	for k > 0 && (slices.Contains(effectAuxiliaries, ws[k-1]) || slices.Contains(passiveBe, ws[k-1])) {
		k--
	}
	for _, w := range ws[k:i] {
		if slices.Contains(passiveBe, w) {
			return true
		}
	}
	return f.toolIsSubject(ws[:k]) || keepsData(pw) && serverIsSubject(ws[:k])
}

// clauses cuts a sentence into its clauses, at commas, colons,
// semicolons and dashes (a spaced hyphen or an em dash): advice to the
// caller opens one ("ALWAYS CHUNK - don't wait for performance
// warnings", adviceNegation).
func clauses(sentence string) []string {
	sentence = strings.ReplaceAll(sentence, " - ", " — ")
	return strings.FieldsFunc(sentence, func(r rune) bool { return r == ',' || r == ':' || r == ';' || r == '—' })
}

// phraseInClauses reports whether phrase p occurs in d at least once
// where holds says it counts, read clause by clause (clauses) in the
// sentences that have it and, with parens, part by part between
// parentheses ("(does not modify it)"): holds gets the clause or part
// as written, its words and where p opens in them. The occasions of
// the tool (occasionOfTool), its denied effects (deniesOwnEffect) and
// its safety's "without" (withoutOfTool) are read so.
func phraseInClauses(d lex.Text, p string, parens bool, holds func(clause string, ws []string, i int) bool) bool {
	pw := strings.Fields(p)
	for k, sentence := range d.Sentences {
		if !d.SentenceHas(k, p) {
			continue
		}
		for _, c := range clauses(sentence) {
			if !parens || !strings.ContainsAny(c, "()") {
				if partHolds(c, pw, holds) {
					return true
				}
				continue
			}
			for _, part := range strings.FieldsFunc(c, func(r rune) bool { return r == '(' || r == ')' }) {
				if partHolds(part, pw, holds) {
					return true
				}
			}
		}
	}
	return false
}

// partHolds reports whether the phrase of words pw occurs in part, a
// clause or a part of one, where holds says it counts (phraseInClauses).
func partHolds(part string, pw []string, holds func(clause string, ws []string, i int) bool) bool {
	ws := lex.Words(part)
	for i := range ws {
		if phraseAt(ws, i, pw, false) && holds(part, ws, i) {
			return true
		}
	}
	return false
}

// adviceNegation reports whether the word at i of clause ws, a base
// form, is told to the caller: "never", "dont" or "do not" just before
// it opens the clause, once the words that address the caller
// (callerAddress: "You must", "please") and those that join it to the
// clause before (clauseLead: "and never overwrite") are past. Elsewhere
// the negation is said of the tool ("It will never cache results", "It
// does not wait"). Side effects (effectReading) and timing
// (toldToCaller) read advice this one way.
func adviceNegation(ws []string, i int) bool {
	o := callerAddress(ws)
	for o < len(ws) && clauseLeadSet[ws[o]] {
		o++
	}
	return i == o+1 && (ws[o] == "never" || ws[o] == "dont") || i == o+2 && ws[o] == "do" && ws[o+1] == "not"
}

// phraseAt reports whether words ws hold the phrase of words pw at i,
// its last word only starting a word of ws when prefix is set.
func phraseAt(ws []string, i int, pw []string, prefix bool) bool {
	if i+len(pw) > len(ws) {
		return false
	}
	last := len(pw) - 1
	for k, w := range pw {
		if got := ws[i+k]; got != w && !(k == last && prefix && strings.HasPrefix(got, w)) {
			return false
		}
	}
	return true
}

// descPhraseAt reports whether the description's words hold the phrase
// of words pw at word i within one sentence (lex.Text.Crosses), as the
// description's Has and Find read a phrase of several words: the cues
// that walk its words read them so.
func (f *facts) descPhraseAt(i int, pw []string) bool {
	return phraseAt(f.desc.Words, i, pw, false) && !f.desc.Crosses(i, len(pw))
}

// negationBefore returns the index of the negation nearest before word
// i of ws, among the two words before it, or -1. "without" and "no"
// negate the noun phrase after them ("no external side effects"), so a
// participle a word further ("filename without extension (saved to
// ...)") is not theirs: it denies the extension, not the saving.
func negationBefore(ws []string, i int) int {
	for j := i - 1; j >= max(0, i-2); j-- {
		// "not only", "not just" add what follows to something else
		// ("Not only removes the branch but also its remote copy"):
		// they deny nothing.
		if ws[j] == "not" && j+1 < len(ws) && slices.Contains(notOnlyWords, ws[j+1]) {
			continue
		}
		if lex.Negation(ws[j]) && (j == i-1 || ws[j] != "without" && ws[j] != "no" || !strings.HasSuffix(ws[i], "ed")) {
			return j
		}
	}
	return -1
}

// callerAddress returns how many words at the head of clause ws address
// the caller before what they are told: "please", and "you" with a modal
// of obligation ("You must", "you should"). An imperative after them is
// still advice to the caller.
func callerAddress(ws []string) int {
	o := 0
	for o < len(ws) {
		switch {
		case ws[o] == "please":
			o++
		case ws[o] == "you" && o+1 < len(ws) && slices.Contains(obligationModals, ws[o+1]):
			o += 2
		default:
			return o
		}
	}
	return o
}

// discloses reports whether phrase p, which d (the description of f's
// tool) has, occurs at least once as a disclosure: not after a word of
// notAfter[p]; for an attribute cue, not said of an owner
// (ownedAttribute) nor anywhere after one of attributeLists in its
// sentence; for a format (inputFormats), in a sentence that is not
// about what the caller sends (sendsInput); for bareChange in a tool
// that reads, just after one of changeSubjects; for one of
// keptParticiples in a tool that reads and is not annotated as acting,
// just after one of them or a form of "be" ("are saved to disk").
func (f *facts) discloses(d lex.Text, p string) bool {
	if slices.Contains(inputFormats, p) {
		for k := range d.Sentences {
			if !d.SentenceHas(k, p) {
				continue
			}
			if s := d.Sentence(k); !f.sendsInput(d, k, p) && notAfterOnce(s, p) {
				return true
			}
		}
		return false
	}
	if slices.Contains(secretCues, p) {
		return secretNeeded(d, p)
	}
	if slices.Contains(credentialCues, p) && !credentialNeeded(d, p) {
		return false
	}
	if slices.Contains(tokenCues, p) {
		return credentialToken(d, p)
	}
	if slices.Contains(callerImperatives, p) {
		return !toldToCaller(d, p) && notAfterOnce(d, p) && (p != cacheCue || cachesAt(d)) && (p != waitCue || f.waitsAt(d))
	}
	if slices.Contains(keptParticiples, p) && (f.readOnly != nil && *f.readOnly || f.readOnly == nil && slices.Contains(readLeads, f.leadVerb)) {
		for _, c := range d.Contexts(p) {
			if n := len(c.Before); n > 0 && (beSet[c.Before[n-1]] || slices.Contains(changeSubjects, c.Before[n-1])) {
				return true
			}
		}
		return false
	}
	if p == bareChange && (f.readOnly != nil && *f.readOnly || slices.Contains(readLeads, f.leadVerb)) {
		for _, c := range d.Contexts(p) {
			if n := len(c.Before); n > 0 && slices.Contains(changeSubjects, c.Before[n-1]) {
				return true
			}
		}
		return false
	}
	if p == bareChange {
		for _, c := range d.Contexts(p) {
			if notAfterWord(c, notAfter[p]) && !changeOccasion(c.Before) {
				return true
			}
		}
		return false
	}
	if p == pagingCue {
		return f.pagesAt(d)
	}
	if deniedEffectSet[p] {
		return f.deniesOwnEffect(d, p)
	}
	if p == supersedeCue {
		return replacesData(d)
	}
	if slices.Contains(riskWords, p) {
		return riskOfTool(d, p)
	}
	if slices.Contains(stateCues, p) {
		return stateOfTool(d, p)
	}
	if slices.Contains(leftAloneCues, p) {
		return leftAlone(d, p)
	}
	if withoutSafetySet[p] {
		return f.withoutOfTool(d, p)
	}
	if p == backgroundCue {
		return runsInBackground(d)
	}
	if p == cannotCue {
		return cannotOfTool(d, p)
	}
	if slices.Contains(keepVerbs, p) {
		return keptByTool(d, p)
	}
	not, isAttr := notAfter[p], attributeCues[p]
	if not == nil && notBefore[p] == nil && !isAttr {
		return true
	}
	if isAttr {
		// A list the marker introduces ("including:") goes on in the
		// items under it ("- permissions").
		stem := strings.TrimSuffix(p, "*")
		inList := false
		for k, raw := range d.Sentences {
			item := strings.HasPrefix(raw, "-") || strings.HasPrefix(raw, "*") || strings.HasPrefix(raw, "•")
			inList = inList && item
			ws := d.Sentence(k).Words
			marked := inList
			for i, w := range ws {
				if strings.HasPrefix(w, stem) && !marked && !ownedAttribute(ws, i) {
					return true
				}
				marked = marked || slices.Contains(attributeLists, w)
			}
			if marked && strings.HasSuffix(raw, ":") {
				inList = true
			}
		}
		return false
	}
	return notAfterOnce(d, p)
}

// cannotOfTool reports whether cannotCue (p) occurs in d at least once
// as a limit of the tool's: read clause by clause (phraseInClauses),
// with no word of conditionLeads before it in its clause, which makes
// it a condition ("If you cannot find what you need", "when other
// input methods cannot be used").
func cannotOfTool(d lex.Text, p string) bool {
	return phraseInClauses(d, p, false, func(_ string, ws []string, i int) bool {
		return !slices.ContainsFunc(ws[:i], func(w string) bool { return slices.Contains(conditionLeads, w) })
	})
}

// deniesOwnEffect reports whether the denial of an effect p
// (deniedEffectSet) occurs in d at least once with the tool for its
// subject (see toolSubjects), read within its clause: one that opens
// after a comma, a dash or a parenthesis ("Creates a new file — does
// NOT modify the original", "(does not modify it)") has no subject.
func (f *facts) deniesOwnEffect(d lex.Text, p string) bool {
	keeps := keepsData(strings.Fields(p))
	return phraseInClauses(d, p, true, func(_ string, ws []string, i int) bool {
		return f.toolIsSubject(ws[:i]) || keeps && serverIsSubject(ws[:i])
	})
}

// toolIsSubject reports whether the words of a sentence before a denial
// (before) leave the tool its subject: see toolSubjects.
func (f *facts) toolIsSubject(before []string) bool {
	j := len(before) - 1
	for j >= 0 && slices.Contains(subjectAdverbs, before[j]) {
		j--
	}
	for j > 0 && slices.Contains(relativePronouns, before[j]) {
		j--
	}
	if j < 0 {
		return true
	}
	if n := len(f.nameWords); n > 0 && j+1 >= n && slices.Equal(before[j+1-n:j+1], f.nameWords) {
		return true
	}
	if !slices.Contains(toolSubjects, before[j]) {
		return false
	}
	return j == 0 || !slices.Contains(subordinators, before[j-1])
}

// keepsData reports whether the words of a denial of an effect (pw)
// deny a verb of dataVerbs: what happens to the data a call is given.
func keepsData(pw []string) bool { return slices.Contains(dataVerbs, pw[len(pw)-1]) }

// serverIsSubject reports whether the words of a sentence before a
// denial (before) end with a word of serverWords, the subject of the
// denial, not in a condition (subordinators before it and its
// determiners: "if the server does not save").
func serverIsSubject(before []string) bool {
	j := len(before) - 1
	if j < 0 || !slices.Contains(serverWords, before[j]) {
		return false
	}
	for j > 0 && !slices.Contains(subordinators, before[j-1]) && (determinerSet[before[j-1]] || !lex.StopwordSet[before[j-1]]) {
		j--
	}
	return j == 0 || !slices.Contains(subordinators, before[j-1])
}

// pagesAt reports whether pagingCue occurs in d at least once as the
// tool's paging: not before a word for a parameter ("pagination
// fields", lex.ParamNounSet) when the tool takes no parameter of
// pageWords, since the text then speaks of fields the tool does not
// have ("use required identifiers and pagination fields exactly as
// documented" of a tool that gets one branch).
func (f *facts) pagesAt(d lex.Text) bool {
	stem := strings.TrimSuffix(pagingCue, "*")
	ws := d.Words
	for i, w := range ws {
		if strings.HasPrefix(w, stem) && (i+1 == len(ws) || !lex.ParamNounSet[ws[i+1]]) {
			return true
		}
	}
	return slices.ContainsFunc(f.params, func(p param) bool {
		return slices.ContainsFunc(p.words, func(w string) bool { return pageWordSet[w] })
	})
}

// replacesData reports whether supersedeCue occurs in d at least once
// where what it replaces is no tool: a tool's snake_case name, in which
// a verb stands ("REPLACES basic midi_send_note"), or the word "tool"
// ("Replaces the older note tool") within the four words after it make
// the tool a successor of another, which changes no data.
func replacesData(d lex.Text) bool {
	var mask []bool
	if strings.IndexByte(d.Raw, '_') >= 0 {
		mask = d.SnakeNameWords(nil)
	}
	ws := d.Words
	for i, w := range ws {
		if w != supersedeCue {
			continue
		}
		tool := false
		for j := i + 1; j < min(len(ws), i+5) && !tool; j++ {
			named := mask != nil && mask[j] && verbForm(ws[j]) != ""
			tool = named || ws[j] == "tool" || ws[j] == "tools"
		}
		if !tool {
			return true
		}
	}
	return false
}

// riskOfTool reports whether risk word p (riskWords) occurs in d at
// least once with none of riskTopicLeads before it in its sentence:
// there it says how risky a call is, not what the tool looks for.
func riskOfTool(d lex.Text, p string) bool {
	first, second, _ := strings.Cut(strings.TrimSuffix(p, "*"), " ")
	stem := strings.HasSuffix(p, "*")
	for k := range d.Sentences {
		s := d.Sentence(k)
		if !s.Has(p) {
			continue
		}
		ws := s.Words
		for i, w := range ws {
			if riskTopicLeadSet[w] {
				break
			}
			if second == "" && (w == first || stem && strings.HasPrefix(w, first)) {
				return true
			}
			if second != "" && w == first && i+1 < len(ws) && (ws[i+1] == second || stem && strings.HasPrefix(ws[i+1], second)) {
				return true
			}
		}
	}
	return false
}

// keptByTool reports whether keep verb p (keepVerbs) occurs in d at
// least once as the tool's verb with an object, read clause by clause
// (clauses): see keepVerbs.
func keptByTool(d lex.Text, p string) bool {
	for k, sentence := range d.Sentences {
		if !d.SentenceHas(k, p) {
			continue
		}
		for _, c := range clauses(sentence) {
			ws := lex.Words(c)
			head := 0
			for head < len(ws) && (clauseLeadSet[ws[head]] || clauseSubjectSet[ws[head]]) {
				head++
			}
			for i, w := range ws {
				if w != p || i+1 >= len(ws) || notObjectSet[ws[i+1]] || slices.Contains(trailingNegations, ws[i+1]) {
					continue
				}
				if i == head || slices.Contains(keepVerbLeads, ws[i-1]) {
					return true
				}
			}
		}
	}
	return false
}

// cachesAt reports whether cacheCue occurs in d at least once as the
// tool's caching: not as "cache" before a word of cacheFields ("cache
// size, cache TTL and hit rate"), a figure the tool reports or a
// setting it takes, which says nothing of what the tool keeps or for
// how long its answers stand.
func cachesAt(d lex.Text) bool {
	stem := strings.TrimSuffix(cacheCue, "*")
	ws := d.Words
	for i, w := range ws {
		if !strings.HasPrefix(w, stem) {
			continue
		}
		if w != stem || i+1 == len(ws) || !slices.Contains(cacheFields, ws[i+1]) {
			return true
		}
	}
	return false
}

// runsInBackground reports whether backgroundCue occurs in d at least
// once where something runs in the background (see backgroundCue).
func runsInBackground(d lex.Text) bool {
	ws := d.Words
	for i, w := range ws {
		if w != backgroundCue {
			continue
		}
		if i > 0 && ws[i-1] == "in" || i > 1 && ws[i-1] == "the" && ws[i-2] == "in" {
			return true
		}
		if slices.ContainsFunc(ws[i+1:min(len(ws), i+3)], func(n string) bool { return slices.Contains(backgroundRuns, n) }) {
			return true
		}
	}
	return false
}

// withoutOfTool reports whether safety phrase p (withoutSafetySet:
// "without changing") occurs in d at least once said of
// the tool, read clause by clause (clauses): not after a word of
// callerSubjects in its clause, which makes it what the caller does
// ("choose a get or list tool first when you need to inspect state
// without changing it", gitlab delete_draft_note), nor after a word of
// callVerbs that points at anything but the tool ("use
// `create_issue_note` to add discussion without changing issue fields",
// gitlab create_issue): that is another tool's way.
func (f *facts) withoutOfTool(d lex.Text, p string) bool {
	return phraseInClauses(d, p, false, func(c string, ws []string, i int) bool {
		return !f.othersWay(c, ws[:i])
	})
}

// othersWay reports whether the words of clause before a phrase
// (before) make it what the caller or another tool does: a word of
// callerSubjects, or a pointer at another tool (pointsElsewhere).
func (f *facts) othersWay(clause string, before []string) bool {
	return slices.ContainsFunc(before, func(w string) bool { return slices.Contains(callerSubjects, w) }) ||
		f.pointsElsewhere(clause, before)
}

// waitsAt reports whether waitCue occurs in d at least once as a wait
// of the tool's: not as "waiting" just after a word of stateLinks whose
// subject is another thing (toolIsSubject: "Whether session is waiting
// for input", "REPL is waiting"), which is that thing's state.
func (f *facts) waitsAt(d lex.Text) bool {
	stem := strings.TrimSuffix(waitCue, "*")
	for k := range d.Sentences {
		if !d.SentenceHas(k, waitCue) {
			continue
		}
		ws := d.Sentence(k).Words
		for i, w := range ws {
			if !strings.HasPrefix(w, stem) {
				continue
			}
			if w == "waiting" && i > 0 && slices.Contains(stateLinks, ws[i-1]) && !f.toolIsSubject(ws[:i-1]) {
				continue
			}
			return true
		}
	}
	return false
}

// leftAlone reports whether left-alone cue p (leftAloneCues), a word,
// occurs in d at least once after one of leaveVerbs among the four
// words before it in its sentence ("leaving others unchanged", "are
// left unchanged", "Leaves the parent org intact").
func leftAlone(d lex.Text, p string) bool {
	return wordWhere(d, p, func(_ int, ws []string, i int) bool {
		return slices.ContainsFunc(ws[max(0, i-4):i], func(b string) bool { return slices.Contains(leaveVerbs, b) })
	})
}

// wordWhere reports whether word p occurs in d at least once where at
// holds, given the index k of its sentence, that sentence's words and
// p's index among them. Only the sentences that have p are read.
func wordWhere(d lex.Text, p string, at func(k int, ws []string, i int) bool) bool {
	for k := range d.Sentences {
		if !d.SentenceHas(k, p) {
			continue
		}
		ws := d.Sentence(k).Words
		for i, w := range ws {
			if w == p && at(k, ws, i) {
				return true
			}
		}
	}
	return false
}

// stateOfTool reports whether state cue p (stateCues), a word, occurs
// in d at least once as the tool's own: not as a field's name opening
// its line or item before a colon ("- Blocked: Whether the session
// waits for input"), nor before one of notBefore[p] ("blocked
// status"), nor as a value of a state's field (stateNouns: "Status:
// blocked or running", "with status blocked").
func stateOfTool(d lex.Text, p string) bool {
	return wordWhere(d, p, func(k int, ws []string, i int) bool {
		// A line that opens with a state's field ("Status: blocked or
		// running") gives its values: every cue in it is one.
		if stateField(d.Sentences[k]) || i == 0 && namesField(d.Sentences[k], p) || codeFieldLine(d.Sentences[k]) {
			return false
		}
		return !(i+1 < len(ws) && slices.Contains(notBefore[p], ws[i+1])) &&
			notAfterWord(lex.Context{Before: ws[max(0, i-2):i]}, stateNouns)
	})
}

// stateField reports whether sentence raw opens with one of stateNouns
// as a field's name before a colon (namesField).
func stateField(raw string) bool {
	for _, n := range stateNouns {
		if namesField(raw, n) {
			return true
		}
	}
	return false
}

// codeFieldLine reports whether sentence raw opens, after a list's
// marker or emphasis, with a field's name written as code (camelCase or
// snake_case: "blockedCommands", "max_rows") and then a colon or a
// parenthesis: the line says what the field holds ("- blockedCommands
// (array of blocked shell commands)", desktop-commander get_config), a
// value the tool reads or returns, and every cue in it is of that
// value.
func codeFieldLine(raw string) bool {
	rest := strings.TrimLeft(raw, "-*•#>_` \t")
	end := 0
	for end < len(rest) && (lex.IdentByte(rest[end]) || 'A' <= rest[end] && rest[end] <= 'Z') {
		end++
	}
	if end == 0 || !codeName(rest[:end]) {
		return false
	}
	after := strings.TrimLeft(rest[end:], "`*_ ")
	return strings.HasPrefix(after, ":") || strings.HasPrefix(after, "(")
}

// codeName reports whether id is written as code: with an underscore
// between letters, or a capital after a small letter (camelCase).
func codeName(id string) bool {
	for i := 1; i < len(id); i++ {
		if id[i] == '_' && i+1 < len(id) || 'A' <= id[i] && id[i] <= 'Z' && 'a' <= id[i-1] && id[i-1] <= 'z' {
			return true
		}
	}
	return false
}

// namesField reports whether sentence raw opens, after a list's marker
// or emphasis, with the word w (in any case) and a colon: w is the name
// of a field the line describes.
func namesField(raw, w string) bool {
	rest := strings.TrimLeft(raw, "-*•#>_ \t")
	if len(rest) < len(w) || !strings.EqualFold(rest[:len(w)], w) {
		return false
	}
	return strings.HasPrefix(strings.TrimLeft(rest[len(w):], "*_ "), ":")
}

// credentialNeeded reports whether credential cue p (credentialCues)
// occurs in d at least once where it is not what the tool acts on
// (credentialActedOn): "List API keys" lists keys, it asks for none.
func credentialNeeded(d lex.Text, p string) bool {
	pw := strings.Fields(strings.TrimSuffix(p, "*"))
	prefix := strings.HasSuffix(p, "*")
	for k := range d.Sentences {
		if !d.SentenceHas(k, p) {
			continue
		}
		ws := d.Sentence(k).Words
		for i := range ws {
			if !phraseAt(ws, i, pw, prefix) {
				continue
			}
			// A credential that modifies the noun after it ("your token's
			// bot user") is no resource the verb acts on.
			if end := i + len(pw); end < len(ws) && !lex.StopwordSet[ws[end]] || !credentialActedOn(ws[:i]) {
				return true
			}
		}
	}
	return false
}

// secretNeeded reports whether secret cue p (secretCues), a word,
// occurs in d at least once as a secret the call needs: see secretCues.
func secretNeeded(d lex.Text, p string) bool {
	return wordWhere(d, p, func(_ int, ws []string, i int) bool {
		needed := i > 0 && credentialWordSet[ws[i-1]] && ws[i-1] != "secret" ||
			i+1 < len(ws) && slices.Contains(secretKindAfter, ws[i+1]) ||
			slices.ContainsFunc(ws[:i], func(b string) bool { return slices.Contains(tokenRequirements, b) })
		return needed && !credentialActedOn(ws[:i])
	})
}

// credentialActedOn reports whether the words before a credential cue in
// its sentence make it the object of a verb of the lifecycle or of
// credentialVerbs: read back over at most three determiners and
// modifiers of its phrase ("List API keys", "Revoke a personal access
// token", "Create a new API key"), that verb comes before any other
// verb, function word, negation or word of a requirement ("Requires an
// API key", "requires no API key", "Create a project with your API
// key").
func credentialActedOn(before []string) bool {
	for j := len(before) - 1; j >= max(0, len(before)-4); j-- {
		w := before[j]
		if v := verbForm(w); v != "" {
			_, cycle := lex.LifecycleOf[v]
			return cycle || slices.Contains(credentialVerbs, v)
		}
		if determinerSet[w] || slices.Contains(phraseModifiers, w) {
			continue
		}
		if lex.StopwordSet[w] || lex.Negation(w) || slices.Contains(tokenRequirements, w) || len(w) > 4 && strings.HasSuffix(w, "ing") {
			return false
		}
	}
	return false
}

// credentialToken reports whether token cue p (tokenCues) names a
// credential in d at least once: an occurrence with no word beside it
// that gives it another sense (otherTokenSense). A text keeps one sense
// of the word throughout: once one of its tokens has another sense (a
// design token, a token count) and none has a credential's word beside
// it (credentialSense: an access token, a bearer token) or is required
// (requiredToken: "Requires a GitHub token"), its other tokens share
// that sense ("Loads all tokens and templates,
// deep-merging parent tokens. Returns the token count.").
func credentialToken(d lex.Text, p string) bool {
	bare, other := false, false
	for _, q := range tokenCues {
		for _, c := range d.Contexts(q) {
			switch {
			case credentialSense(c) || requiredToken(c) && !otherTokenSense(c):
				if q == p {
					return true
				}
			case otherTokenSense(c):
				other = true
			default:
				bare = bare || q == p
			}
		}
	}
	return bare && !other
}

// credentialSense reports whether a word just before a token cue makes
// it a credential (credentialWords: "access token", "your token's").
func credentialSense(c lex.Context) bool {
	n := len(c.Before)
	return n > 0 && credentialWordSet[c.Before[n-1]]
}

// requiredToken reports whether a token cue is what a call requires: a
// word of tokenRequirements among the words before it ("Requires a
// GitHub token", "Needs a token to be set"). A tool requires a token to
// be let in; a count or a design token is something it reads or
// returns, never a condition of the call. So a required token keeps its
// sense of a credential whatever sense the text gives its other tokens.
func requiredToken(c lex.Context) bool {
	for _, w := range c.Before {
		if slices.Contains(tokenRequirements, w) {
			return true
		}
	}
	return false
}

// otherTokenSense reports whether the words around a token cue give it
// a sense other than a credential (tokenSenseBefore, tokenSenseAfter,
// or a number just before it: "4k tokens", or "7 K tokens" with its
// thousands written apart).
func otherTokenSense(c lex.Context) bool {
	digit := func(w string) bool { return w[0] >= '0' && w[0] <= '9' }
	if n := len(c.Before); n > 0 {
		if w := c.Before[n-1]; slices.Contains(tokenSenseBefore, w) || digit(w) {
			return true
		}
		if w := c.Before[n-1]; n > 1 && (w == "k" || w == "m") && digit(c.Before[n-2]) {
			return true
		}
	}
	return len(c.After) > 0 && slices.Contains(tokenSenseAfter, c.After[0])
}

// toldToCaller reports whether every occurrence of phrase p (one of
// callerImperatives) in d is its base form told to the caller
// (adviceNegation: "don't wait for performance warnings", "Do not cache
// the page"), not what the tool does ("waits for the page", "does not
// wait", "It will never cache results").
func toldToCaller(d lex.Text, p string) bool {
	base := strings.TrimSuffix(p, "*")
	// First on the text's words: an occurrence that is no base form
	// after a negation is what the tool does, and most are.
	ws := d.Words
	for i, w := range ws {
		if w != base && !(base != p && strings.HasPrefix(w, base)) {
			continue
		}
		if w != base || i == 0 || ws[i-1] != "dont" && ws[i-1] != "never" && !(i > 1 && ws[i-2] == "do" && ws[i-1] == "not") {
			return false
		}
	}
	for _, sentence := range d.Sentences {
		for _, c := range clauses(sentence) {
			ws := lex.Words(c)
			for i, w := range ws {
				if w != base && !(base != p && strings.HasPrefix(w, base)) {
					continue
				}
				if w != base || !adviceNegation(ws, i) {
					return false
				}
			}
		}
	}
	return true
}

// writtenAsValues returns the snake_case identifiers of sentence raw
// that are written, wherever they occur in it, as values rather than
// names of tools: a value assigned to an argument (feedback_type=
// "agent_gap"), the argument's name before "=" (intended_query="..."),
// or a member of a dotted path ('light.living_room',
// refund.lnurl_withdraw). It returns nil when raw has no "=" nor ".".
func writtenAsValues(raw string) map[string]bool {
	if !strings.ContainsAny(raw, "=.") {
		return nil
	}
	var values map[string]bool
	written := map[string]bool{}
	for _, m := range lex.Snake.FindAllStringIndex(raw, -1) {
		id := raw[m[0]:m[1]]
		if !valueAt(raw, m[0], m[1]) {
			written[id] = true
			continue
		}
		if values == nil {
			values = map[string]bool{}
		}
		values[id] = true
	}
	for id := range written {
		delete(values, id)
	}
	return values
}

// valueAt reports whether the identifier at raw[start:end] is written
// as a value: before "=", after "=" and a quote, or after a word and a
// dot.
func valueAt(raw string, start, end int) bool {
	if end < len(raw) && raw[end] == '=' {
		return true
	}
	if start >= 2 && (raw[start-1] == '"' || raw[start-1] == '\'') && raw[start-2] == '=' {
		return true
	}
	return start >= 2 && raw[start-1] == '.' && lex.IdentByte(raw[start-2])
}

// valueName reports whether identifier id names a value rather than a
// tool: it ends in a word for a handle or a token (proposal_id,
// confirmation_token) and holds no verb of the shared list, as a tool's
// name does (get_user_id). The verbs the TDQS cues add
// (lists.extraVerbs) are nouns as often in a name: trace_id, stage_id
// and stash_ref name values.
func valueName(id string) bool {
	ws := lex.NameWords(id)
	if len(ws) < 2 || !handleWordSet[ws[len(ws)-1]] && !slices.Contains(tokenCues, ws[len(ws)-1]) {
		return false
	}
	// The last word is a handle's, "type" or "name" a noun there.
	for _, w := range ws[:len(ws)-1] {
		if lex.VerbForm(w) != "" {
			return false
		}
	}
	return true
}

// ownedAttribute reports whether word i of ws, an attribute cue, is
// said of an owner (attributeOwners): just after it ("file
// permissions"), or after it, "with" and at most two more words
// ("segments with correct permissions").
func ownedAttribute(ws []string, i int) bool {
	if i > 0 && slices.Contains(attributeOwners, ws[i-1]) {
		return true
	}
	for j := i - 1; j >= max(1, i-3); j-- {
		if ws[j] == "with" {
			return slices.Contains(attributeOwners, ws[j-1])
		}
	}
	return false
}

// notAfterOnce reports whether phrase p occurs in d at least once not
// after a word of notAfter[p] (among the two before it) nor before one
// of notBefore[p].
//
// The phrases of both maps are of one or two words, the first of which
// may be a stem ending in * ("authoriz*"), matched on d's words without
// building their contexts: it runs for every tool whose text holds
// "format", "warning" or "up to".
func notAfterOnce(d lex.Text, p string) bool {
	not, notB := notAfter[p], notBefore[p]
	if not == nil && notB == nil {
		return true
	}
	first, second, _ := strings.Cut(p, " ")
	stem, wild := strings.CutSuffix(first, "*")
	ws := d.Words
	for i, w := range ws {
		if wild && !strings.HasPrefix(w, stem) || !wild && w != first {
			continue
		}
		end := i + 1
		if second != "" {
			if end >= len(ws) || ws[end] != second {
				continue
			}
			end++
		}
		after := ws[end:min(end+1, len(ws))]
		if notAfterWord(lex.Context{Before: ws[max(0, i-2):i], After: after}, not) && notBeforeWord(lex.Context{After: after}, notB) {
			return true
		}
	}
	return false
}

// notAfterWord reports whether neither of the two words before an
// occurrence is one of not.
func notAfterWord(c lex.Context, not []string) bool {
	n := len(c.Before)
	return n == 0 || !slices.Contains(not, c.Before[n-1]) && (n < 2 || !slices.Contains(not, c.Before[n-2]))
}

// notBeforeWord reports whether the word after an occurrence is none of
// not.
func notBeforeWord(c lex.Context, not []string) bool {
	return len(c.After) == 0 || !slices.Contains(not, c.After[0])
}

// changeOccasion reports whether a preposition of changeOccasions, or a
// verb that shows, returns or recommends changes (notAfter[bareChange]),
// opens the phrase that ends at an occurrence of bareChange, before
// (nearest last) holding the words before it: read back over words that
// are neither a verb nor in -ing (a verb just after a noun is a
// compound's modifier), it is met before any that is.
func changeOccasion(before []string) bool {
	for j := len(before) - 1; j >= 0; j-- {
		w := before[j]
		// A verb that shows, returns or recommends them, before their
		// modifiers ("recommend pipeline stage changes"), reads them.
		if slices.Contains(changeOccasions, w) || slices.Contains(notAfter[bareChange], w) {
			return true
		}
		if len(w) > 4 && strings.HasSuffix(w, "ing") {
			return false
		}
		// A verb after a noun is a modifier of a compound ("pipeline
		// stage changes"); after anything else it is the phrase's verb.
		if verbForm(w) != "" && !(j > 0 && !lex.StopwordSet[before[j-1]] && verbForm(before[j-1]) == "") {
			return false
		}
	}
	return false
}

// sendsInput reports whether format p (inputFormats) in sentence k
// of d speaks of what the caller sends: where the sentence says nothing
// of what comes back (returnWords), the tool's purpose opens with a
// verb that writes (lists.writeVerbs: what it writes is the caller's),
// or the sentence opens with one of inputLeads ("Pass the message as
// JSON"), or with a parameter's name and "is" or a modal (paramOpens:
// "fields_json is a JSON object", "The file paths should be in the
// correct format"), or is a heading of a few words that names a
// parameter ("Commit Message Format:"), or each time p comes in it, it
// is in a parameter's description (clause.labelled: "holdings: JSON
// string of holdings"), in a clause that says what the caller provides
// (callerProvides: "unless the user provides a library ID in the format
// ..."), or before "string", "escaping" or a word for a parameter
// ("JSON string parameters").
func (f *facts) sendsInput(d lex.Text, k int, p string) bool {
	s := d.Sentence(k)
	ws := s.Words
	if len(ws) == 0 {
		return false
	}
	for _, w := range ws {
		if slices.Contains(returnWords, w) {
			return false
		}
	}
	// A tool that writes takes what it writes from the caller ("Write
	// or append to file contents ... Excel: JSON 2D array").
	if writeVerbSet[f.leadVerb] || slices.Contains(inputLeads, ws[0]) {
		return true
	}
	if f.paramOpens(ws) {
		return true
	}
	if raw := strings.TrimRight(d.Sentences[k], "*_# "); strings.HasSuffix(raw, ":") && len(ws) <= 4 {
		for _, p := range f.params {
			if lex.Mentions(s, p.name, p.words) {
				return true
			}
		}
	}
	first, second, _ := strings.Cut(p, " ")
	all, sent := 0, 0
	for c := range f.clauses(d.Sentences[k]) {
		// What the caller provides, in the clause that says so ("unless
		// the user explicitly provides a library ID in the format
		// ..."); another clause of the sentence may say what comes back
		// ("For the URL you provide, the page comes back as Markdown").
		caller := callerProvides(c.words)
		for i, w := range c.words {
			if w != first {
				continue
			}
			if writtenBefore(c.words[:i]) {
				// What the tool writes somewhere ("appends markdown to
				// the page", "Export notes to a folder as markdown
				// files") is the form of what it puts, not of what
				// comes back.
				all++
				sent++
				continue
			}
			end := i + 1
			if second != "" {
				if end >= len(c.words) || c.words[end] != second {
					continue
				}
				end++
			}
			all++
			if caller || c.labelled || end < len(c.words) && (inputFormatNextSet[c.words[end]] || lex.ParamNounSet[c.words[end]]) {
				sent++
			}
		}
	}
	return all > 0 && sent == all
}

// writtenBefore reports whether clause words ws, before a format,
// hold a verb of writing (writeVerbs, formatWriteVerbs) in its base or
// third-person form: the format is then that of what the tool writes
// ("Writes the markdown to the given file").
func writtenBefore(ws []string) bool {
	for _, w := range ws {
		if v := lex.VerbForm(w); writeVerbSet[v] || slices.Contains(formatWriteVerbs, v) {
			return true
		}
	}
	return false
}

// callerProvides reports whether words ws, a clause, say that the caller
// provides something: a verb of inputLeads just after one of
// callerSubjects, or a word after it ("the user explicitly provides").
func callerProvides(ws []string) bool {
	for i := 1; i < len(ws); i++ {
		if slices.Contains(inputLeads, lex.Stem(ws[i])) &&
			(slices.Contains(callerSubjects, ws[i-1]) || i > 1 && slices.Contains(callerSubjects, ws[i-2])) {
			return true
		}
	}
	return false
}

// paramOpens reports whether words ws, a sentence, open with a
// parameter's words as its subject, after at most a determiner and one
// more word, and go on with a form of "be" or a modal verb: "fields_json
// is a JSON object", "The absolute file paths should be in the correct
// format".
func (f *facts) paramOpens(ws []string) bool {
	for _, p := range f.params {
		n := len(p.words)
		if n == 0 {
			continue
		}
		for k := 0; k <= 2 && k+n < len(ws); k++ {
			if k > 0 && !determinerSet[ws[0]] {
				break
			}
			if slices.Equal(ws[k:k+n], p.words) && (beSet[ws[k+n]] || modalSet[ws[k+n]]) {
				return true
			}
		}
	}
	return false
}

// callPrice is a price a call ("$0.02/call", "5 cents per request"),
// and callCap a cap on calls ("Do not call this tool more than 3
// times", "Allows 60 requests per minute"): what calls cost and how
// many may be made, the rate limits and cost group's, said in figures.
// An amount alone ("a payment of $5") is no price; "times" counts only
// after a form of "call" (retries are no cap: "Retries at most 3
// times"), and calls a period only after a word of allowing or limiting
// (a figure the tool reports is none: "120 requests per day on
// average").
var (
	callPrice = regexp.MustCompile(`(?i)(?:[$€£]\s?\d+(?:\.\d+)?|\b\d+(?:\.\d+)?\s?(?:usd|eur|cents?|credits?))\s?(?:/\s?|\bper\s+|\beach\s+|\ba\s+)(?:call|request|query|run|use|page|search|lookup)s?\b`)
	callCap   = regexp.MustCompile(`(?i)\bcall(?:s|ed|ing)?\b[^.;:]{0,40}?\b(?:more than|at most|maximum of)\s+\d+\s+times\b|\b(?:more than|at most|maximum of)\s+\d+\s+(?:calls|requests)\b|\b(?:allow|allows|allowed|limit|limits|limited|max|maximum|quota|capped)\b[^.;:]{0,30}?\b\d+\s+(?:calls|requests|queries)\s+(?:per|a|an|each)\s+(?:second|minute|hour|day|month)\b`)
)

// callFigure is the first price a call or cap on calls d states
// (callPrice, callCap), or "". Each is looked for only in a sentence
// with a figure and a word of its own: run over every text, the regular
// expressions cost a tool question more than every phrase of words does.
func callFigure(d lex.Text) string {
	if !strings.ContainsAny(d.Raw, "0123456789") {
		return ""
	}
	for _, sen := range d.Sentences {
		if !strings.ContainsAny(sen, "0123456789") {
			continue
		}
		lower := lex.Lower(sen)
		if strings.ContainsAny(sen, "$€£") || containsAny(lower, "usd", "eur", "cent", "credit") {
			if m := callPrice.FindString(sen); m != "" {
				return m
			}
		}
		if containsAny(lower, "time", "call", "request", "quer") && mayCapCalls(sen, lower) {
			if m := callCap.FindString(sen); m != "" {
				return m
			}
		}
	}
	return ""
}

// mayCapCalls reports whether sentence sen (lowered: lower) has a word
// without which callCap matches nothing: "more than", "at most" or
// "maximum of", or a word of allowing or limiting. Of their letters only
// s folds to one beyond ASCII, the long s (U+017F), which the
// expression takes for an s: in a sentence with one, it is left to tell.
func mayCapCalls(sen, lower string) bool {
	return containsAny(lower, "more than", "at most", "allow", "limit", "max", "quota", "capped") || strings.Contains(sen, "\u017f")
}

// containsAny reports whether s contains one of subs.
func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// cautionHeading is a "WARNING:" heading (bold or not): it introduces a
// caution for the caller ("WARNING: Should be used in a separate chat"),
// not an error the tool reports, and is read as a bare colon. A heading
// opens the text or a line, maybe after markdown, emphasis or an emoji
// ("## ", "**", "⚠️ "); "warning:" inside a sentence ("it logs a
// warning: the key is ignored") is the tool's warning.
var cautionHeading = regexp.MustCompile(`(?im)^[^\pL\pN\n]*warning\b[*_ ]*:`)

// hasCautionHeading is cautionHeading.MatchString(s), run only on the
// lines of s that say "warning" in some case: a heading lies within its
// line, and run over the whole of a long text that says "warning"
// somewhere, the expression cost more than every other cue of the text.
// No letter of "warning" folds to a letter beyond ASCII (as k and s do),
// so strings.EqualFold finds every line the expression could match.
func hasCautionHeading(s string) bool {
	const w = "warning"
	for line := range strings.Lines(s) {
		for i := 0; i+len(w) <= len(line); i++ {
			if strings.EqualFold(line[i:i+len(w)], w) {
				if cautionHeading.MatchString(line) {
					return true
				}
				break
			}
		}
	}
	return false
}

// withoutQuoted returns s with every span between double quotes left
// out, each replaced by a space. A quote never closed is no quotation:
// the text is then read whole.
func withoutQuoted(s string) string {
	// The text between quotes is copied in runs, not byte by byte.
	var b strings.Builder
	b.Grow(len(s))
	for rest := s; ; {
		open := strings.IndexByte(rest, '"')
		if open < 0 {
			b.WriteString(rest)
			return b.String()
		}
		b.WriteString(rest[:open])
		end := strings.IndexByte(rest[open+1:], '"')
		if end < 0 {
			return s // a quote never closed
		}
		b.WriteByte(' ')
		rest = rest[open+1+end+1:]
	}
}

// withoutExamples returns s with every example value in single quotes
// left out, each replaced by a space: a span between single quotes
// after a word for an example in its sentence (exampleMarkers: "e.g.
// 'archive_task' or 'done'", "a label like 'overwrites'"). An example
// value is what the caller may pass, no name of a tool nor a statement
// of what the tool does. A quote opens only where no letter or digit is
// just before it and closes only where none is just after it, so the
// apostrophes of "library's" and "users'" open and close nothing; a
// quote never closed in its sentence is no quotation. Quoted names outside
// an example ("Use 'write_pdf' to create PDF files", "Use the 'head'
// parameter") are kept.
func withoutExamples(s string) string {
	lower := lex.Lower(s)
	var b strings.Builder
	active, last := false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n' || c == ';':
			active = false
		case (c == '.' || c == '!' || c == '?') && (i+1 == len(s) || s[i+1] == ' ') && !abbreviationEnds(lower, i):
			active = false
		case c == '\'' && active:
			if end := quoteCloses(s, i); end > 0 {
				b.WriteString(s[last:i])
				b.WriteByte(' ')
				last, i = end+1, end
			}
		case !active && exampleFirst[lower[i]] && (i == 0 || !lex.IdentByte(lower[i-1])):
			for _, m := range exampleMarkers {
				if strings.HasPrefix(lower[i:], m) && (i+len(m) == len(lower) || !lex.IdentByte(lower[i+len(m)])) {
					active = true
					break
				}
			}
		}
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// exampleFirst marks the first byte of each of exampleMarkers: where
// another byte opens a word, withoutExamples looks no further, as it
// reads every byte of nearly every description.
var exampleFirst = func() (first [256]bool) {
	for _, m := range exampleMarkers {
		first[m[0]] = true
	}
	return first
}()

// abbreviationEnds reports whether the dot at i of lower ends "e.g." or
// "i.e.", which end no sentence.
func abbreviationEnds(lower string, i int) bool {
	return i >= 3 && (lower[i-3:i+1] == "e.g." || lower[i-3:i+1] == "i.e.")
}

// quoteCloses returns the index of the quote that closes the one at
// open in s, or -1: the quote opens where no letter or digit is just
// before it and something other than a space just after it, and closes
// at the next quote of its sentence with something other than a space just
// before it and no letter or digit just after it.
func quoteCloses(s string, open int) int {
	if open > 0 {
		if r, _ := utf8.DecodeLastRuneInString(s[:open]); unicode.IsLetter(r) || unicode.IsDigit(r) {
			return -1
		}
	}
	if open+1 >= len(s) || s[open+1] == ' ' {
		return -1
	}
	for j := open + 2; j < len(s); j++ {
		switch s[j] {
		case '\n':
			return -1
		case '.', '!', '?':
			if j+1 < len(s) && s[j+1] == ' ' {
				return -1
			}
		case '\'':
			if s[j-1] == ' ' {
				continue
			}
			if r, _ := utf8.DecodeRuneInString(s[j+1:]); j+1 == len(s) || !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				return j
			}
		}
	}
	return -1
}

// statesChange returns the clause of the description that says what an
// acting tool changes, or "": one that opens with a verb of change
// (lists.changeVerbs) and goes on to its object ("Add file contents to
// the staging area", "delete a branch" among "Manage branches: list all
// branches, ..., delete a branch", "This resets the context"); a verb
// followed by "and" or "are" is a noun ("Writes and raw file access are
// rejected"), and a clause
// just after a parameter's name and a colon describes that parameter
// ("payload: Push notification payload as JSON object").
func (f *facts) statesChange() string {
	for _, sentence := range f.desc.Sentences {
		for c := range f.clauses(sentence) {
			// A clause that opens with a quote or a bracket is a value
			// ("'reset') parameters"), not a statement.
			if t := strings.TrimSpace(c.text); t == "" || !unicode.IsLetter([]rune(t)[0]) || c.labelled {
				continue
			}
			ws := c.words
			i := 0
			for i < len(ws) && clauseLeadSet[ws[i]] {
				i++
			}
			// A subject before the verb ("This resets the context")
			// leaves it in the third person; "This reset flag" is a
			// noun's.
			if i+1 < len(ws) && clauseSubjectSet[ws[i]] {
				if !strings.HasSuffix(ws[i+1], "s") {
					continue
				}
				i++
			}
			if i >= len(ws) {
				continue
			}
			v, n := verbAt(ws, i)
			// A verb joined by "and" or "or" to a verb of change
			// ("Search and replace the text") goes on to it.
			if v != "" && !changeVerbSet[v] && i+n+1 < len(ws) && (ws[i+n] == "and" || ws[i+n] == "or") {
				if v2, n2 := verbAt(ws, i+n+1); changeVerbSet[v2] {
					i, v, n = i+n+1, v2, n2
				}
			}
			if changeVerbSet[v] && i+n < len(ws) && !notObjectSet[ws[i+n]] && !(v == "clear" && adjectiveClear(ws[i+n:])) {
				return strings.TrimSpace(c.text)
			}
		}
	}
	return ""
}

// adjectiveClear reports whether "clear", followed by the words ws of
// its clause, is an adjective, not a verb of change. Before a
// determiner it is the verb ("clear the cache", "clear all entries").
// Before a run of content words it is the verb when the run can be its
// object: a noun phrase ends its clause or meets a function word
// ("clear log entries", "Clear browser session cookies", "clear
// credentials and config"), whatever its length. It is the adjective
// when the run is a subject: a word of it after the first is a verb
// that takes one (subjectVerbs: "Clear instructions give better
// summaries", "Clear descriptions help agents"), or a form of "be" or a
// modal follows it ("Clear errors are returned").
func adjectiveClear(ws []string) bool {
	if len(ws) == 0 || determinerSet[ws[0]] || openerDetSet[ws[0]] {
		return false
	}
	for i, w := range ws {
		if lex.StopwordSet[w] {
			return i > 0 && (beSet[w] || modalSet[w])
		}
		if i > 0 && slices.Contains(subjectVerbs, w) && subjectVerb(ws, i) {
			return true
		}
	}
	return false
}

// subjectVerb reports whether word i of ws, one of subjectVerbs after
// the first word of the run after "clear", is the verb of the run before
// it rather than a noun of the verb's object: it agrees with the word
// before it in number (a plural noun before "give", "help", "work"; a
// singular before "gives", "leads", "works"), and "from" does not follow
// it, which names where "clear" takes its object from ("Clear duplicate
// leads from a campaign", "Clear stale work items from the board": the
// leads and the items are cleared).
func subjectVerb(ws []string, i int) bool {
	prev := ws[i-1]
	plural := strings.HasSuffix(prev, "s") && !strings.HasSuffix(prev, "ss")
	if strings.HasSuffix(ws[i], "s") == plural {
		return false
	}
	return i+1 >= len(ws) || ws[i+1] != "from"
}

// clause is a part of a sentence between commas, colons and
// semicolons.
type clause struct {
	text  string
	words []string
	// labelled is whether it follows a parameter's name and a colon
	// (endsWithParam): it describes that parameter ("payload: Push
	// notification payload as JSON object").
	labelled bool
}

// clauses yields the clauses of sentence in order.
func (f *facts) clauses(sentence string) iter.Seq[clause] {
	return func(yield func(clause) bool) {
		label := false
		for sentence != "" {
			c, sep := sentence, byte(0)
			if end := strings.IndexAny(sentence, ",:;"); end >= 0 {
				c, sep, sentence = sentence[:end], sentence[end], sentence[end+1:]
			} else {
				sentence = ""
			}
			ws := lex.Words(c)
			if !yield(clause{c, ws, label}) {
				return
			}
			label = sep == ':' && f.endsWithParam(ws)
		}
	}
}

// endsWithParam reports whether words ws end with the words of one of
// the tool's parameters, not after a determiner: "device payload"
// before a colon labels the payload's description, "Tidy a device"
// states the purpose.
func (f *facts) endsWithParam(ws []string) bool {
	for _, p := range f.params {
		n := len(p.words)
		if n == 0 || len(ws) < n || !slices.Equal(ws[len(ws)-n:], p.words) {
			continue
		}
		if k := len(ws) - n - 1; k < 0 || !determinerSet[ws[k]] {
			return true
		}
	}
	return false
}

// statesReturn reports whether a clause of the description opens with
// the verb "return" and goes on to its object ("Execute a SQL query and
// return results", "Return the matching rows"): it says what the tool
// gives back, as a purpose that opens with a verb of fetching does
// (returnLeads). "return" after anything but the head of its sentence or
// a word of lists.clauseLead ("Do not return ...", "the return value")
// opens no such clause.
func (f *facts) statesReturn() bool {
	if !f.desc.Has("return") {
		return false
	}
	for _, s := range f.sentenceTexts() {
		ws := s.Words
		for i, w := range ws {
			if w == "return" && i+1 < len(ws) && !lex.StopwordSet[ws[i+1]] && (i == 0 || clauseLeadSet[ws[i-1]]) {
				return true
			}
		}
	}
	return false
}

// readsOnlyPart reports whether "read only" is the verb "read" and a
// limit on how much ("read only the first N lines"), not a claim that
// the tool changes nothing.
func (f *facts) readsOnlyPart() bool {
	_, ok := f.descFirstIn(readOnlyPartList)
	return ok
}

// contrast returns the first phrase of lists.usageAlternative, in the
// list's order, that the description has where it sets the tool against
// others, and whether one was found. In a clause (between semicolons,
// colons or dashes) that sets one thing against another
// (thingContrast: "came from an upload rather than a local path"), or
// that says what comes back (returnContrast: "GitLab returns validation
// errors instead of silently applying an invalid request", "Returns a
// slim confirmation rather than the full issue") the phrase sets one
// result or behaviour against another, not the tool against others.
func (f *facts) contrast() (string, bool) {
	if f.contrastRead {
		return f.contrastCue, f.contrastCue != ""
	}
	f.contrastRead = true
	// Which phrases the text has, read in one pass rather than a search
	// of the text for each.
	list, has := f.inDesc(usageAlternativeList)
	for j, p := range list {
		if !has[j] {
			continue
		}
		pw := strings.Fields(p)
		for k, sentence := range f.desc.Sentences {
			if !f.desc.SentenceHas(k, p) {
				continue
			}
			// A sentence of one clause is read on its own words.
			cs := []string{sentence}
			if strings.ContainsAny(sentence, ";:—") {
				cs = strings.FieldsFunc(sentence, func(r rune) bool { return r == ';' || r == ':' || r == '—' })
			}
			for _, c := range cs {
				ws := f.sentenceTexts()[k].Words
				if len(cs) > 1 {
					ws = lex.Words(c)
				}
				for i := range ws {
					if phraseAt(ws, i, pw, false) && !returnContrast(ws[:i]) && !thingContrast(ws, i, len(pw)) &&
						!(p == preferCue && preferredValue(ws[i+1:])) {
						f.contrastCue = p
						return p, true
					}
				}
			}
		}
	}
	return "", false
}

// preferredValue reports whether the words after "prefer" (ws) are a
// value or an argument the caller is told to pass, not a tool or a way
// of working: a number ("prefer 3-5"), or, among the first three words
// before one of preferStops, a word for a handle or a parameter and no
// verb nor word for a tool ("Prefer paths within mounted directories",
// "Prefer channel ID over channel name", "Prefer the preset arg").
// "Prefer get_passage" and "prefer this tool over ..." still contrast
// the tool with another.
func preferredValue(ws []string) bool {
	for len(ws) > 0 && determinerSet[ws[0]] {
		ws = ws[1:]
	}
	if len(ws) == 0 {
		return false
	}
	if c := ws[0][0]; c >= '0' && c <= '9' {
		return true
	}
	value := false
	for _, w := range ws[:min(3, len(ws))] {
		if slices.Contains(preferStops, w) {
			break
		}
		if lex.VerbForm(w) != "" || slices.Contains(toolWords, w) {
			return false
		}
		value = value || handleWordSet[w] || handleWordSet[lex.Stem(w)] || lex.ParamNounSet[w]
	}
	return value
}

// thingContrast reports whether the contrast phrase at word i of clause
// ws, n words long, sets one thing or behaviour against another rather
// than the tool against others: a determiner opens what follows it
// (after the "of" of "instead of": "came from an upload rather than a
// local path"), or it ends its clause ("If the post is published,
// creates a new draft instead"), and the clause neither advises the
// caller (adviceVerbs: "Use this rather than a shell diff", "call
// get_detail instead") nor names a tool (toolWords: "rather than the
// upload tool").
func thingContrast(ws []string, i, n int) bool {
	if !thingAfter(ws[i+n:]) {
		return false
	}
	for _, w := range ws {
		if slices.Contains(adviceVerbs, w) || slices.Contains(toolWords, w) {
			return false
		}
	}
	return true
}

// thingAfter reports whether words ws, after a contrast phrase in its
// clause, are none or open with a determiner, maybe after "of".
func thingAfter(ws []string) bool {
	if len(ws) == 0 {
		return true
	}
	if ws[0] == "of" {
		ws = ws[1:]
	}
	return len(ws) > 0 && determinerSet[ws[0]]
}

// returnContrast reports whether the words before a contrast phrase in
// its clause say what comes back: read back from the phrase, a word of
// returnContrasts comes before any advice to the caller (use, call,
// prefer, choose, try, see: "Returns a summary, use get_detail
// instead" still points elsewhere).
func returnContrast(before []string) bool {
	for j := len(before) - 1; j >= 0; j-- {
		switch w := before[j]; {
		case slices.Contains(adviceVerbs, w):
			return false
		case slices.Contains(returnContrasts, w):
			return true
		}
	}
	return false
}

// found is a cue that fired and the phrase that fired it.
type found struct {
	cue, phrase string
}

// String is the cue and its phrase quoted as %q quotes it: "errors
// (\"fails\")".
func (f found) String() string { return string(f.appendTo(nil)) }

// appendTo appends f as String writes it to b.
func (f found) appendTo(b []byte) []byte {
	b = append(b, f.cue...)
	b = append(b, " ("...)
	b = strconv.AppendQuote(b, f.phrase)
	return append(b, ')')
}

// findAlternatives returns the other tools the description names. When
// the question lists the siblings, they are the only tool names there
// are; without them, a snake_case or kebab-case identifier (or one in
// backticks) in a sentence that points somewhere ("use x", "see x", "x
// instead") counts, unless it names a value (valueName: "Call
// simulate_impact(proposal_id)"). Elsewhere an identifier is more likely a value or a
// setting than another tool.
func (f *facts) findAlternatives() []string {
	lower := f.desc.Lower
	if f.examples != "" {
		lower = lex.Lower(f.examples)
	}
	if strings.IndexByte(lower, '(') >= 0 {
		src := f.desc.Raw
		if f.examples != "" {
			src = f.examples
		}
		if plain := f.withoutFieldNotes(src); plain != src {
			lower = lex.Lower(plain)
		}
	}
	if f.names != nil {
		return f.notOwnParams(f.names.mentioned(lower, f.name))
	}
	var out []string
	if len(f.siblings) > 0 {
		for _, s := range f.siblings {
			if lex.ToolNameIn(lower, s) && !f.ownParam(s) {
				out = append(out, s)
			}
		}
		return out
	}
	seen := map[string]bool{strings.ToLower(f.name): true}
	for _, p := range f.params {
		seen[strings.ToLower(p.name)] = true
	}
	for _, sentence := range f.sentenceTexts() {
		if _, ok := sentence.FirstIn(pointerPhrases); !ok {
			continue
		}
		values := writtenAsValues(sentence.Raw)
		raw := sentence.Raw
		if f.examples != "" && strings.IndexByte(raw, '\'') >= 0 {
			raw = withoutExamples(raw)
		}
		if strings.IndexByte(raw, '(') >= 0 {
			raw = f.withoutFieldNotes(raw)
		}
		for _, id := range lex.Identifiers(raw) {
			low := strings.ToLower(id)
			if seen[low] || strings.ToUpper(id) == id || valueName(id) || values[id] {
				continue
			}
			seen[low] = true
			out = append(out, id)
		}
	}
	sort.Strings(out)
	return out
}

// withoutFieldNotes returns s with the words of each note on a field
// blanked: a parenthesis just after a field's name written as code
// (codeName, and no tool's name: "fileReadLineLimit (max lines for
// read_file, default 1000)", desktop-commander get_config) says what
// the field holds or governs, and a tool named there is the one the
// value is for, no alternative. A note that points the caller to a tool
// (noteDirects: "timeout_ms (use run_async for longer jobs)") is kept.
func (f *facts) withoutFieldNotes(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] != '(' {
			continue
		}
		end := strings.IndexByte(s[i:], ')')
		if end < 0 {
			break
		}
		end += i
		j := i
		for j > 0 && (s[j-1] == ' ' || s[j-1] == '`') {
			j--
		}
		k := j
		for k > 0 && (lex.IdentByte(s[k-1]) || 'A' <= s[k-1] && s[k-1] <= 'Z') {
			k--
		}
		id := s[k:j]
		if !codeName(id) || f.namesTool(id) || noteDirects(s[i+1:end]) {
			continue
		}
		if b == nil {
			b = []byte(s)
		}
		for m := i + 1; m < end; m++ {
			b[m] = ' '
		}
		i = end
	}
	if b == nil {
		return s
	}
	return string(b)
}

// namesTool reports whether id is the name of a tool of the server: a
// sibling's, one of the names the question shares, or the tool's own.
func (f *facts) namesTool(id string) bool {
	if strings.EqualFold(id, f.name) {
		return true
	}
	if f.names != nil {
		return f.names.byLower[strings.ToLower(id)] != nil
	}
	return slices.Contains(f.siblings, id)
}

// noteDirects reports whether note, the words in a parenthesis, tell the
// caller what to use: a word of noteDirections or a phrase of
// lists.usageAlternative.
func noteDirects(note string) bool {
	t := lex.NewSentence(note)
	if slices.ContainsFunc(t.Words, func(w string) bool { return slices.Contains(noteDirections, w) }) {
		return true
	}
	_, ok := t.FirstIn(usageAlternativePhrases)
	return ok
}

// ownParam reports whether name is one of the tool's own parameters: a
// sibling that shares its name is not what the text speaks of ("Supports
// dry_run to preview changes and create_note to summarize updates",
// gitlab update_issue_description_patch, whose create_note is a flag).
func (f *facts) ownParam(name string) bool {
	return slices.ContainsFunc(f.params, func(p param) bool { return p.name == name })
}

// notOwnParams returns names without the tool's own parameters
// (ownParam), in place.
func (f *facts) notOwnParams(names []string) []string {
	if len(f.params) == 0 {
		return names
	}
	return slices.DeleteFunc(names, f.ownParam)
}
