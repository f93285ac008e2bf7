package tdqs

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"unicode"

	"github.com/rubricmcp/rubric/judges/heuristic/internal/lex"
)

// CoherenceInput is the structured input of a tdqs.coherence question.
type CoherenceInput struct {
	Server    string          `json:"server"`
	ToolCount int             `json:"toolCount"`
	Tools     []CoherenceTool `json:"tools"`
	// ShadowCandidates, when the question sends them (TDQS from v1.3's
	// shadowing check), are the pairs to judge for shadowing risk; the
	// answer then carries shadowing_risks.
	ShadowCandidates *[]string `json:"shadowCandidates"`
}

// CoherenceTool is one tool of a coherence question: its name and
// description (nil when it has none).
type CoherenceTool struct {
	Name        string  `json:"name"`
	Description *string `json:"description"`
}

// coherenceScores holds the four coherence dimensions.
type coherenceScores struct {
	Disambiguation           dimension `json:"disambiguation"`
	NamingConsistency        dimension `json:"naming_consistency"`
	ToolCountAppropriateness dimension `json:"tool_count_appropriateness"`
	Completeness             dimension `json:"completeness"`
}

// coherenceAnswer is the answer to a tdqs.coherence question.
type coherenceAnswer struct {
	Scores coherenceScores `json:"scores"`
	// ShadowingRisks is nil (left out) when the question sends no
	// candidates, and empty when it does: overlapping purpose is a
	// judgement the heuristic's word cues cannot make, so it confirms no
	// pair.
	ShadowingRisks *[]shadowingRisk `json:"shadowing_risks,omitempty"`
	Summary        string           `json:"summary"`
}

// shadowingRisk is a confirmed shadowing pair.
type shadowingRisk struct {
	Tool           string `json:"tool"`
	CheaperSibling string `json:"cheaper_sibling"`
	Justification  string `json:"justification"`
}

// surfaceTool is one tool of a coherence question, prepared for the cues.
type surfaceTool struct {
	name  string
	words []string // words of the name
	desc  string   // the description, "" when it has none
	// terms are the stemmed content words of the description, counted;
	// tools with the same description share them, and nothing changes
	// them once made.
	terms map[string]int
	key   string // the name's words without version words
	vague bool
	// verb is the base form of the name's verb, class its lifecycle class
	// ("create", "read", "update", "delete") and resource the rest of the
	// name; each may be "".
	verb, class, resource string
}

// Thresholds of the coherence cues.
const (
	// confusableCosine is the TF-IDF cosine similarity above which two
	// descriptions look like the same tool. Words every tool shares (a
	// server's boilerplate) weigh least, so templated descriptions do not
	// look alike for the template alone.
	confusableCosine = 0.7
	// minConfusableWords keeps two near-empty descriptions from looking
	// alike just for being short.
	minConfusableWords = 4
)

// scoreCoherence answers a tdqs.coherence question.
func scoreCoherence(in *CoherenceInput) coherenceAnswer {
	tools, ns := prepare(in)
	count := in.ToolCount
	if count < len(tools) {
		count = len(tools)
	}
	var a coherenceAnswer
	d, redundant := disambiguation(tools)
	a.Scores.Disambiguation = d
	a.Scores.NamingConsistency = naming(tools, ns)
	a.Scores.ToolCountAppropriateness = toolCount(count, len(tools), redundant, tools)
	a.Scores.Completeness = lifecycle(tools, ns)
	if in.ShadowCandidates != nil {
		a.ShadowingRisks = &[]shadowingRisk{}
	}
	s := a.Scores
	a.Summary = fmt.Sprintf("Heuristic: name and word-overlap cues, not a model, scored %s of %s: disambiguation %d, naming %d, tool count %d, completeness %d.",
		theTools(count), serverName(in.Server), s.Disambiguation.Score, s.NamingConsistency.Score, s.ToolCountAppropriateness.Score, s.Completeness.Score)
	return a
}

// prepare reads each tool of a coherence question for the cues and
// returns them with the names' shared namespace.
func prepare(in *CoherenceInput) ([]surfaceTool, string) {
	tools := make([]surfaceTool, 0, len(in.Tools))
	// Tools with one description share its terms, counted once.
	termsOf := map[string]map[string]int{}
	for _, t := range in.Tools {
		st := surfaceTool{name: t.Name, words: lex.NameWords(t.Name)}
		if t.Description != nil {
			st.desc = *t.Description
		}
		if st.terms = termsOf[st.desc]; st.terms == nil {
			st.terms = map[string]int{}
			for _, w := range lex.ContentWords(lex.Words(st.desc)) {
				st.terms[w]++
			}
			termsOf[st.desc] = st.terms
		}
		var keyBuf [8]string
		key := keyBuf[:0]
		// Vague: only vague verbs, generic nouns and version words
		// ("process", "do_thing"), or any verbs with nothing but vague
		// nouns ("get_data", "fetch_info").
		vague := len(st.words) > 0
		vagueNoun := len(st.words) > 0
		hasVagueNoun := false
		for _, w := range st.words {
			if !lex.VersionWordSet[w] {
				key = append(key, w)
			}
			if !lex.VagueVerbSet[w] && !genericNounSet[w] && !lex.VersionWordSet[w] {
				vague = false
			}
			switch {
			case vagueNounSet[w]:
				hasVagueNoun = true
			case verbForm(w) == "" && !lex.VersionWordSet[w]:
				vagueNoun = false
			}
		}
		vague = vague || vagueNoun && hasVagueNoun
		st.key = strings.Join(key, " ")
		st.vague = vague
		tools = append(tools, st)
	}
	nameWords := make([][]string, len(tools))
	for i, t := range tools {
		nameWords[i] = t.words
	}
	ns := lex.Namespace(nameWords)
	for i := range tools {
		tools[i].class, tools[i].resource = operation(tools[i].words, ns)
		tools[i].verb = nameVerb(tools[i].words, ns)
	}
	return tools, ns
}

// theTools names a server's tools by their count: "the 7 tools", "the
// only tool", "no tools".
func theTools(n int) string {
	switch n {
	case 0:
		return "no tools"
	case 1:
		return "the only tool"
	}
	return fmt.Sprintf("the %d tools", n)
}

func serverName(s string) string {
	if s == "" {
		return "the server"
	}
	return fmt.Sprintf("%q", s)
}

// disambiguation looks for tools a model could mistake for each other:
// vague names, variants of one name, and descriptions that share most of
// their words. It returns the dimension and the share of tools involved.
//
// Two tools are a look-alike pair when their names differ only in version
// words, or when nothing in their names sets them apart and the TF-IDF
// cosine of their descriptions reaches confusableCosine. Tools are
// grouped first (see lookAlikes), so the work grows with the tool count
// and the number of pairs, not with every pair of tools.
func disambiguation(tools []surfaceTool) (dimension, float64) {
	n := len(tools)
	if d, share, ok := disambiguationOfFew(tools); ok {
		return d, share
	}
	var vague []string
	involved := make([]bool, n)
	for i, t := range tools {
		if t.vague {
			vague = append(vague, t.name)
			involved[i] = true
		}
	}
	la := lookAlikes(tools, involved)
	pairs := make([]string, 0, len(la.first))
	for _, p := range la.first {
		pairs = append(pairs, tools[p[0]].name+"/"+tools[p[1]].name)
	}
	nInvolved := 0
	for _, in := range involved {
		if in {
			nInvolved++
		}
	}
	shown := pairs
	if la.count > 5 {
		shown = append(shown, fmt.Sprintf("and %d more", la.count-5))
	}
	return disambiguationOf(n, vague, shown, la.count, nInvolved)
}

// disambiguationOfFew is disambiguation of no tool or of one, and false
// for more.
func disambiguationOfFew(tools []surfaceTool) (dimension, float64, bool) {
	switch {
	case len(tools) == 0:
		return dim(3, "no tool names were given, so distinctness cannot be judged."), 0, true
	case len(tools) > 1:
		return dimension{}, 0, false
	case tools[0].vague:
		return dim(2, "the only tool, %s, has a vague name.", tools[0].name), 1, true
	}
	return dim(5, "a single tool cannot be confused with another."), 0, true
}

// disambiguationOf scores n tools of which vague have vague names and
// pairCount pairs look alike (shown names them, as the explanation
// should), involved tools being in either: the more issues a tool, the
// lower. It returns the dimension and the share of tools involved.
func disambiguationOf(n int, vague, shown []string, pairCount, involved int) (dimension, float64) {
	issues := len(vague) + pairCount
	ratio := float64(issues) / float64(n)
	var score int
	switch {
	case issues == 0:
		return dim(5, "none of the %d tools has a vague name, a variant of another's name, or a description that reads like another's without a name that sets them apart.", n), 0
	case ratio <= 0.1:
		score = 4
	case ratio <= 0.25:
		score = 3
	case ratio <= 0.5:
		score = 2
	default:
		score = 1
	}
	var parts []string
	if len(vague) > 0 {
		parts = append(parts, fmt.Sprintf("vague names (%s)", strings.Join(cap5(vague), ", ")))
	}
	if pairCount > 0 {
		parts = append(parts, fmt.Sprintf("look-alike pairs (%s)", strings.Join(shown, ", ")))
	}
	return dim(score, "%s among %d tools: %s.", lex.Count(issues, "issue", "issues"), n, strings.Join(parts, "; ")), float64(involved) / float64(n)
}

func cap5(s []string) []string {
	if len(s) <= 5 {
		return s
	}
	return append(append([]string{}, s[:5]...), fmt.Sprintf("and %d more", len(s)-5))
}

// tfidfWeight weighs a description word by how often it comes in the
// description (tf) and how rare it is among the n tools' descriptions
// (df of them hold it): smoothed inverse document frequency.
func tfidfWeight(tf, df int, n float64) float64 {
	return float64(tf) * (math.Log((n+1)/float64(df+1)) + 1)
}

// nameStyle classifies a tool name's case convention. One lower-case word
// is "word", which fits any convention.
func nameStyle(name string) string {
	hasUpper, hasLower := false, false
	for _, r := range name {
		hasUpper = hasUpper || unicode.IsUpper(r)
		hasLower = hasLower || unicode.IsLower(r)
	}
	switch {
	case strings.Contains(name, "."):
		return "dotted"
	case strings.Contains(name, "_") && strings.Contains(name, "-"):
		return "mixed separators"
	case strings.Contains(name, "_") && hasUpper && hasLower:
		return "mixed case snake"
	case strings.Contains(name, "_") && !hasLower:
		return "SCREAMING_SNAKE"
	case strings.Contains(name, "_"):
		return "snake_case"
	case strings.Contains(name, "-"):
		return "kebab-case"
	case hasUpper && len(name) > 0 && unicode.IsUpper([]rune(name)[0]):
		return "PascalCase"
	case hasUpper:
		return "camelCase"
	}
	return "word"
}

// nameVerb returns the base form of a name's verb, after any namespace:
// its first word if that is a verb, else its last word if that is one.
func nameVerb(ws []string, ns string) string {
	ws = lex.WithoutNamespace(ws, ns)
	if len(ws) == 0 {
		return ""
	}
	if v, _ := verbAt(ws, 0); v != "" {
		return v
	}
	if len(ws) > 1 {
		return lastVerb(ws)
	}
	return ""
}

// lastVerb returns the verb a name of two or more words ends with: a
// compound verb of its last two words, or its last word's verb form, or "".
func lastVerb(ws []string) string {
	if n := len(ws); n > 2 {
		if v, k := verbAt(ws, n-2); k == 2 {
			return v
		}
	}
	return verbForm(ws[len(ws)-1])
}

// verbPlace says where a name puts its verb, after any namespace:
// "verb first", "verb last", or "no verb".
func verbPlace(ws []string, ns string) string {
	ws = lex.WithoutNamespace(ws, ns)
	if len(ws) == 0 {
		return "no verb"
	}
	if v, _ := verbAt(ws, 0); v != "" {
		return "verb first"
	}
	if len(ws) > 1 && lastVerb(ws) != "" {
		return "verb last"
	}
	return "no verb"
}

// naming scores naming consistency: one case convention and one place for
// the verb.
func naming(tools []surfaceTool, ns string) dimension {
	if len(tools) == 0 {
		return dim(3, "no tool names were given, so naming cannot be judged.")
	}
	styles := map[string]int{}
	places := map[string]int{}
	multi := 0
	for _, t := range tools {
		if s := nameStyle(t.name); s != "word" {
			styles[s]++
			multi++
		}
		places[verbPlace(t.words, ns)]++
	}
	domStyle, domN := lex.Dominant(styles)
	domPlace, placeN := lex.Dominant(places)
	p := float64(placeN) / float64(len(tools))
	minority := 0.0
	if multi > 0 {
		minority = 1 - float64(domN)/float64(multi)
	}
	var score int
	switch {
	case len(styles) <= 1:
		switch {
		case p >= 0.8 && domPlace != "no verb":
			score = 5
		case p >= 0.6:
			score = 4
		default:
			score = 3
		}
	case minority <= 0.1:
		score = 4
		if p < 0.6 {
			score = 3
		}
	case len(styles) == 2 && minority <= 0.25:
		score = 3
	case len(styles) == 2 || minority <= 0.4:
		score = 2
	default:
		score = 1
	}
	prefix := ""
	if ns != "" {
		prefix = fmt.Sprintf(" after the shared prefix %q", ns)
	}
	// Names that carry no verb put none anywhere: they are counted as
	// such (seqthink's lone "sequentialthinking").
	placing := fmt.Sprintf("%d of %d put the verb the same way (%s%s)", placeN, len(tools), domPlace, prefix)
	if domPlace == "no verb" {
		placing = fmt.Sprintf("%d of %d carry no verb%s", placeN, len(tools), prefix)
	}
	if len(styles) <= 1 {
		style := domStyle
		if style == "" {
			style = "single words"
		}
		return dim(score, "every name uses %s; %s.", style, placing)
	}
	return dim(score, "names mix conventions (%s); %s.", describeCounts(styles), placing)
}

func describeCounts(m map[string]int) string {
	var parts []string
	for _, k := range lex.SortedKeys(m) {
		parts = append(parts, fmt.Sprintf("%d %s", m[k], k))
	}
	return strings.Join(parts, ", ")
}

// toolCount scores the number of tools: 3 to 15 is comfortable, and
// redundant tools make a count heavier than it looks.
func toolCount(count, listed int, redundant float64, tools []surfaceTool) dimension {
	var score int
	var why string
	switch {
	case count == 0:
		return dim(1, "the server offers no tools.")
	case count == 1:
		score, why = 2, "a single tool"
		if listed == 1 && tools[0].vague {
			score, why = 1, "a single tool with a vague name"
		}
	case count == 2:
		score, why = 3, "2 tools: a thin surface"
	case count <= 15:
		score, why = 5, fmt.Sprintf("%d tools, within the comfortable 3-15", count)
	case count <= 20:
		score, why = 4, fmt.Sprintf("%d tools, slightly over 15", count)
	case count <= 25:
		score, why = 3, fmt.Sprintf("%d tools: heavy", count)
	case count <= 50:
		score, why = 2, fmt.Sprintf("%d tools: too many to choose from easily", count)
	default:
		score, why = 1, fmt.Sprintf("%d tools: an extreme number", count)
	}
	switch {
	case redundant >= 0.5 && score >= 3:
		return dim(score-2, "%s, but %.0f%% of them are vague or look alike, so the count is inflated.", why, redundant*100)
	case redundant >= 0.25 && score >= 3:
		return dim(score-1, "%s, but %.0f%% of them are vague or look alike.", why, redundant*100)
	}
	return dim(score, "%s.", why)
}

// lifecycle scores completeness: for each resource the server creates or
// changes, how many of create, read, update and delete it offers. A
// server that only reads, or acts without a lifecycle (click, navigate),
// has none to complete.
func lifecycle(tools []surfaceTool, ns string) dimension {
	if len(tools) == 0 {
		return dim(3, "no tool names were given, so completeness cannot be judged.")
	}
	// The classes each resource has, a bit a class (classBit), and how
	// many tools act on it: two maps for all resources, not a map each.
	ops := map[string]uint8{}
	perResource := map[string]int{}
	actions := 0
	res := lifecycleResources(tools, ns)
	classes := make([]string, len(tools))
	for i, t := range tools {
		classes[i] = t.class
	}
	headReads(tools, ns, classes, res)
	for i, t := range tools {
		if t.verb != "" && !lex.VagueVerbSet[t.verb] {
			actions++
		}
		if classes[i] == "" || res[i] == "" {
			continue
		}
		ops[res[i]] |= classBit(classes[i])
		perResource[res[i]]++
	}
	if 4*actions < len(tools) {
		return dim(2, "only %d of %d names carry a specific action verb, so the domain and its gaps cannot be told.", actions, len(tools))
	}
	var written, gaps []string
	total := 0.0
	inWritten := 0
	for _, r := range lex.SortedKeys(ops) {
		o := ops[r]
		if o&(classBit("create")|classBit("update")|classBit("delete")) == 0 {
			continue
		}
		inWritten += perResource[r]
		written = append(written, r)
		total += float64(bits.OnesCount8(o)) / 4
		var missingBuf [4]string
		missing := missingBuf[:0]
		for _, c := range lifecycleClasses {
			if o&classBit(c) == 0 {
				missing = append(missing, c)
			}
		}
		if len(missing) > 0 {
			if len(gaps) >= 5 {
				// cap5 shows five gaps and counts the rest: what
				// the rest would name elsewhere is never read, and
				// looking it up for every resource costs resources
				// x tools.
				gaps = append(gaps, "")
				continue
			}
			gap := fmt.Sprintf("no tool named for %s does %s", r, strings.Join(missing, "/"))
			gaps = append(gaps, gap+elsewhere(byClass(tools, classes, res, missing, r)))
		}
	}
	return completeness(len(tools), written, gaps, inWritten, total)
}

// completeness turns what lifecycle found into the dimension: n tools,
// the resources they change (written, sorted), the gaps it names (empty
// when every written resource has all four classes), how many tools act
// on a written resource (inWritten), and total, the sum over written of
// the share of the four classes each has.
func completeness(n int, written, gaps []string, inWritten int, total float64) dimension {
	if len(written) == 0 {
		if n == 1 {
			return dim(3, "a single tool that changes no resource; nothing shows whether the domain needs more.")
		}
		return dim(4, "no tool name creates, updates or deletes a resource, so no create/read/update/delete lifecycle is expected of these %d tools.", n)
	}
	if 4*inWritten < n {
		return dim(4, "most tools act or read without a resource lifecycle; the few that change a resource (%s) are incidental to the domain.", strings.Join(cap5(written), ", "))
	}
	mean := total / float64(len(written))
	var score int
	switch {
	case mean >= 0.9:
		score = 5
	case mean >= 0.65:
		score = 4
	case mean >= 0.45:
		score = 3
	case mean >= 0.3:
		score = 2
	default:
		score = 1
	}
	if len(gaps) == 0 {
		return dim(score, "every resource the server changes (%s) has create, read, update and delete.", strings.Join(cap5(written), ", "))
	}
	return dim(score, "%.0f%% of the create/read/update/delete operations are present for the resources it changes; %s.", mean*100, strings.Join(cap5(gaps), "; "))
}

// lifecycleClasses are the lifecycle classes (lex.LifecycleOf's), in
// the order a gap names them.
var lifecycleClasses = [...]string{"create", "read", "update", "delete"}

// classBit is the bit that stands for a lifecycle class in lifecycle's
// sets of them (TestClassBits holds every class to one).
func classBit(class string) uint8 {
	switch class {
	case "create":
		return 1
	case "read":
		return 2
	case "update":
		return 4
	case "delete":
		return 8
	}
	return 0
}

// headReads reads a name of two or more words with no lifecycle verb
// that does not open with a verb ("collection-indexes") as a read of its
// last noun when other tools create, update or delete that resource
// (create-index, drop-index): such a tool shows the resource it is named
// for. classes and res, each tool's lifecycle class
// and resource, are set for it.
func headReads(tools []surfaceTool, ns string, classes, res []string) {
	var changed map[string]bool
	for i, c := range classes {
		if c != "" && c != "read" && res[i] != "" {
			if changed == nil {
				changed = map[string]bool{}
			}
			changed[res[i]] = true
		}
	}
	if changed == nil {
		return
	}
	for i, t := range tools {
		if classes[i] != "" {
			continue
		}
		// Its last word may read as a verb too ("indexes"); its first
		// may not ("run_tests" runs them).
		ws := lex.WithoutNamespace(t.words, ns)
		if len(ws) < 2 {
			continue
		}
		if v, _ := verbAt(ws, 0); v != "" {
			continue
		}
		if head := lex.Stem(ws[len(ws)-1]); changed[head] {
			classes[i], res[i] = "read", head
		}
	}
}

// byClass returns the names of the tools whose lifecycle class (in
// classes, a tool's own or headReads') is one of wanted and whose
// resource (res, lifecycleResources') is not r, each
// sorted: those on another resource, and those whose resource is not
// known (a name with a verb and no noun, "remove", whose description
// names no resource either).
func byClass(tools []surfaceTool, classes, res, wanted []string, r string) (other, unknown []string) {
	for i, t := range tools {
		if res[i] != r && slices.Contains(wanted, classes[i]) {
			if res[i] == "" {
				unknown = append(unknown, t.name)
			} else {
				other = append(other, t.name)
			}
		}
	}
	slices.Sort(other)
	slices.Sort(unknown)
	return other, unknown
}

// elsewhere says, after a lifecycle gap, which tools do the missing
// operations elsewhere: on another resource, or on one their names do
// not name (which may be the very resource of the gap, so it is not
// called another). It is "" when there are none.
func elsewhere(other, unknown []string) string {
	var parts []string
	only := "only "
	if len(other) > 0 && len(unknown) > 0 {
		only = ""
	}
	// doers says who does it, and how, in the singular or the plural.
	doers := func(names []string, one, many string) {
		switch len(names) {
		case 0:
		case 1:
			parts = append(parts, only+names[0]+" does, "+one)
		default:
			parts = append(parts, only+strings.Join(cap5(names), ", ")+" do, "+many)
		}
	}
	doers(other, "on another resource", "on other resources")
	doers(unknown, "but its name names no resource", "but their names name no resource")
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, "; ") + ")"
}

// lifecycleResources returns the resource each tool acts on, for the
// lifecycle: the one its name names, or, when its name has a lifecycle
// verb and no resource ("remove"), the first resource of another tool's
// name that the first sentence of its description names: "Removes a
// bookmark." of remove, beside update_bookmark, is read as a model
// would read it, a delete of bookmarks. The namespace ns counts as such
// a name: a name that is the namespace and a verb ("jira_delete",
// "Delete Jira resources.") acts on the namespace's own resources, which
// operation leaves out of every name. A noun only descriptions name is
// never taken for a resource: not every word after a verb is one.
func lifecycleResources(tools []surfaceTool, ns string) []string {
	res := make([]string, len(tools))
	var known map[string][][]string // a resource's first stem: the stems of each resource it begins
	for i, t := range tools {
		res[i] = t.resource
		if t.class != "" && t.resource == "" && t.desc != "" && known == nil {
			known = map[string][][]string{}
		}
	}
	if known == nil {
		return res
	}
	seen := map[string]bool{}
	// The namespace as the names' resources are: stemmed, so that a
	// plural namespace ("notes") meets the words of "Delete notes".
	var nsStems []string
	if ns != "" {
		for _, w := range strings.Split(ns, "_") {
			nsStems = append(nsStems, lex.Stem(w))
		}
		r := strings.Join(nsStems, "_")
		seen[r] = true
		known[nsStems[0]] = [][]string{nsStems}
	}
	for _, t := range tools {
		if t.resource != "" && !seen[t.resource] {
			seen[t.resource] = true
			stems := strings.Split(t.resource, "_")
			known[stems[0]] = append(known[stems[0]], stems)
		}
	}
	for i, t := range tools {
		if t.class != "" && t.resource == "" && t.desc != "" {
			res[i] = describedResource(t.desc, known, nsStems)
		}
	}
	return res
}

// describedResource returns the first resource of known that the first
// sentence of desc names, its words in order (the longest where several
// begin at one word), or "". The namespace ns (its stems) is named only
// where it names the namespace's things (namespaceThings: "Delete Jira
// resources", "Delete notes."), not where it modifies a noun of its own
// ("Close the browser page" closes a page) or names, alone in the
// singular, the one thing the server drives ("Close the browser.").
func describedResource(desc string, known map[string][][]string, ns []string) string {
	ss := lex.Sentences(desc)
	if len(ss) == 0 {
		return ""
	}
	ws := lex.Words(ss[0])
	// What the verb acts on comes before where it acts: "a collection"
	// of "Insert documents into a collection" is not what is inserted.
	for i, w := range ws {
		if i > 0 && whereSet[w] {
			ws = ws[:i]
			break
		}
	}
	stems := make([]string, len(ws))
	for i, w := range ws {
		stems[i] = lex.Stem(w)
	}
	for i := range stems {
		var best []string
		for _, r := range known[stems[i]] {
			if len(r) > len(best) && len(r) <= len(stems)-i && slices.Equal(stems[i:i+len(r)], r) {
				best = r
			}
		}
		if best != nil && slices.Equal(best, ns) && !namespaceThings(ws, i, len(best)) {
			continue
		}
		if best != nil {
			return strings.Join(best, "_")
		}
	}
	return ""
}

// namespaceThings reports whether the namespace, its n words at word i
// of ws, names the namespace's things, as a resource: before a word of
// nsThingSet or a vague noun ("Delete Jira resources", "Read any notes
// data"), or alone in the plural ("Delete notes."). Before a noun of its
// own it is a product's name that modifies it ("Close the browser
// page"); alone in the singular it is the one thing the server drives
// ("Close the browser."), no kind of resource with a lifecycle.
func namespaceThings(ws []string, i, n int) bool {
	if end := i + n; end < len(ws) && !lex.StopwordSet[ws[end]] {
		return !modifiesNoun(ws[end])
	}
	last := ws[i+n-1]
	return lex.Stem(last) != last
}

// modifiesNoun reports whether w, the word after a namespace in a
// description, is a noun the namespace modifies: a content word that
// is no adverb (in -ly) and none of nsThingSet or the vague nouns, which
// leave the namespace's own things as what is meant.
func modifiesNoun(w string) bool {
	return !lex.StopwordSet[w] && !nsThingSet[w] && !vagueNounSet[w] && !strings.HasSuffix(w, "ly")
}

// operation reads a tool name as a lifecycle class and a resource, after
// any namespace: "create_issue" is create on "issue", "list_repos" read
// on "repo".
func operation(ws []string, ns string) (class, resource string) {
	ws = lex.WithoutNamespace(ws, ns)
	at := -1
	for i, w := range ws {
		if c, ok := lex.LifecycleOf[w]; ok {
			class, at = c, i
			break
		}
	}
	if at < 0 {
		return "", ""
	}
	var rest []string
	for i, w := range ws {
		// A generic noun can be the server's own resource ("task" of
		// create_task and delete_task); a vague one never is ("data").
		// "many" of insert_many says how many, not what.
		if i != at && !lex.VersionWordSet[w] && !lex.StopwordSet[w] && !vagueNounSet[w] && !quantityWordSet[w] {
			rest = append(rest, lex.Stem(w))
		}
	}
	return class, strings.Join(rest, "_")
}
