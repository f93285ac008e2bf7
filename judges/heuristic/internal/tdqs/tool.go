package tdqs

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rubricmcp/rubric/internal/jsonstr"
	"github.com/rubricmcp/rubric/judges/heuristic/internal/lex"
)

// dimension is one scored dimension of an answer.
type dimension struct {
	Score         int    `json:"score"`
	Justification string `json:"justification"`
}

// toolScores holds the six TDQS dimensions, in the rubric's order.
type toolScores struct {
	PurposeClarity         dimension `json:"purpose_clarity"`
	UsageGuidelines        dimension `json:"usage_guidelines"`
	BehavioralTransparency dimension `json:"behavioral_transparency"`
	ParameterSemantics     dimension `json:"parameter_semantics"`
	ConcisenessStructure   dimension `json:"conciseness_structure"`
	ContextualCompleteness dimension `json:"contextual_completeness"`
}

// toolAnswer is the answer to a tdqs.tool question.
type toolAnswer struct {
	Scores                  toolScores `json:"scores"`
	AnnotationContradiction bool       `json:"annotation_contradiction"`
	Summary                 string     `json:"summary"`
}

// scoreTool answers a tdqs.tool question from the tool's facts.
func scoreTool(f *facts) toolAnswer {
	contradiction, why := f.contradiction()
	var a toolAnswer
	a.AnnotationContradiction = contradiction
	a.Scores.PurposeClarity = f.purpose()
	a.Scores.UsageGuidelines = f.usage()
	a.Scores.BehavioralTransparency = f.transparency(contradiction, why)
	a.Scores.ParameterSemantics = f.parameters()
	a.Scores.ConcisenessStructure = f.conciseness()
	a.Scores.ContextualCompleteness = f.completeness(a.Scores.UsageGuidelines.Score, a.Scores.BehavioralTransparency.Score)
	a.Summary = f.summary(a)
	return a
}

// dim builds a dimension, clamping the score to 1-5 and marking the
// justification as a heuristic's.
func dim(score int, format string, args ...any) dimension {
	score = max(1, min(5, score))
	// Formatted after the prefix into one buffer, so that the
	// justification is one string, not a formatted one and a joined one.
	var buf [256]byte
	b := append(buf[:0], "Heuristic: "...)
	if out, ok := appendf(b, format, args); ok {
		b = out
	} else {
		b = fmt.Appendf(b, format, args...)
	}
	return dimension{Score: score, Justification: string(b)}
}

// appendf appends format with args to b as fmt.Appendf does, for the
// verbs justifications use: %s of a string or bytes, %q of a string, %d
// of an int and %%. Every answer has six justifications, and fmt's
// machinery was most of their cost. ok is false for any other verb,
// flag or argument, or a count of arguments that does not fit: the
// caller then formats it all with fmt.
func appendf(b []byte, format string, args []any) (_ []byte, ok bool) {
	n := 0 // arguments used
	for {
		i := strings.IndexByte(format, '%')
		if i < 0 {
			return append(b, format...), n == len(args)
		}
		b = append(b, format[:i]...)
		if i+1 == len(format) {
			return b, false
		}
		verb := format[i+1]
		format = format[i+2:]
		if verb == '%' {
			b = append(b, '%')
			continue
		}
		if n == len(args) {
			return b, false
		}
		switch a := args[n].(type) {
		case string:
			switch verb {
			case 's':
				b = append(b, a...)
			case 'q':
				b = strconv.AppendQuote(b, a)
			default:
				return b, false
			}
		case []byte:
			if verb != 's' {
				return b, false
			}
			b = append(b, a...)
		case int:
			if verb != 'd' {
				return b, false
			}
			b = strconv.AppendInt(b, int64(a), 10)
		default:
			return b, false
		}
		n++
	}
}

// purpose scores purpose clarity: a specific verb and resource, set apart
// from the siblings.
func (f *facts) purpose() dimension {
	if !f.hasDesc {
		return dim(1, "no description, so the purpose is missing.")
	}
	if f.placeholder != "" {
		return dim(1, "the description %q is placeholder text (%q), so the purpose is missing.", lex.Quote(f.desc.Raw, 60), f.placeholder)
	}
	// The specific content words (lex.ContentWords, not vague), and those
	// beyond the name and title, counted only as far as the cues ask: one
	// specific word, and two beyond.
	specific, beyond := 0, 0
	for _, w := range f.desc.Words {
		if len(w) < 2 || lex.StopwordSet[w] {
			continue
		}
		if w = lex.Stem(w); lex.VagueVerbSet[w] || genericNounSet[w] {
			continue
		}
		specific++
		if !f.owns(w) {
			if beyond++; beyond == 2 {
				break
			}
		}
	}
	if specific == 0 {
		return dim(1, "the description %q names no action or resource beyond vague words.", lex.Quote(f.desc.Raw, 60))
	}
	if beyond == 0 {
		return dim(2, "the description %q only restates the tool's name or title.", lex.Quote(f.desc.Raw, 60))
	}
	first := lex.Quote(f.first.Raw, 70)
	switch {
	case f.leadVerb == "":
		// A word the cues do not know may be a verb they lack (or one
		// of another language): they say so, not that it is none.
		if w := f.openingWord(); w != "" {
			return dim(3, "the first sentence %q opens with %q, which is no action verb the cues know, so they cannot tell what the tool does from it.", first, w)
		}
		return dim(3, "the first sentence %q opens with no action verb, so what the tool does is left to inference.", first)
	case lex.VagueVerbSet[f.leadVerb] && !objectVerbSet[f.leadVerb]:
		return dim(3, "the purpose opens with the vague verb %q (%q).", f.leadVerb, first)
	case beyond < 2 && contentCount(f.first.Words) < 3:
		return dim(3, "the verb %q has too little around it (%q) to pin down the resource.", f.leadVerb, first)
	}
	if alts := f.alternatives; len(alts) > 0 {
		return dim(5, "opens with the verb %q on a named resource (%q) and names %s, which sets it apart from other tools.", f.leadVerb, first, strings.Join(alts, ", "))
	}
	if p, ok := f.contrast(); ok {
		return dim(5, "opens with the verb %q on a named resource (%q) and contrasts itself with other tools (%q).", f.leadVerb, first, p)
	}
	return dim(4, "opens with the verb %q on a named resource (%q), but nothing sets it apart from sibling tools.", f.leadVerb, first)
}

// openingWord returns the word the first sentence opens with after
// filler, as written with any parts a hyphen joins to it
// ("cross-exchange"), when it is a word of content the cues may not
// know as a verb, or "" when it is a function word ("If", "For"), a
// number or a word after a determiner ("The cheapest hours"), of which
// the cues know there is no verb.
func (f *facts) openingWord() string {
	for i, w := range f.first.Words {
		if i > 6 {
			break
		}
		if leadFiller(w) {
			continue
		}
		// After a determiner ("The cheapest hours") it is a noun
		// phrase's.
		if lex.StopwordSet[w] || nonVerbOpenerSet[w] || openerDetSet[w] || !unicode.IsLetter([]rune(w)[0]) ||
			i > 0 && openerDetSet[f.first.Words[i-1]] {
			return ""
		}
		// A verb the cues know, used as a noun ("Stream of events"):
		// it is known, and no verb here.
		if verbForm(w) != "" {
			return ""
		}
		return compoundAt(f.first.Lower, w)
	}
	return ""
}

// compoundAt returns word w as ls, a lower-case sentence, first writes
// it as a word: with the parts a hyphen joins to it ("cross-exchange"
// for "cross"), or w when it is written otherwise. A word ends where an
// identifier does (identByte), so "cross" in "cross_rates" is no word.
func compoundAt(ls, w string) string {
	for from := 0; from < len(ls); {
		k := strings.Index(ls[from:], w)
		if k < 0 {
			return w
		}
		at, end := from+k, from+k+len(w)
		if at > 0 && lex.IdentByte(ls[at-1]) || end < len(ls) && lex.IdentByte(ls[end]) {
			from = at + 1
			continue
		}
		for end+1 < len(ls) && ls[end] == '-' && lex.IdentByte(ls[end+1]) {
			end++
			for end < len(ls) && lex.IdentByte(ls[end]) {
				end++
			}
		}
		return ls[at:end]
	}
	return w
}

// leadFiller reports whether word w, before a purpose's verb, is filler
// ("This tool lets you", lists.fillerLead) or an adverb in -ly
// ("Permanently"), which the cues read past.
func leadFiller(w string) bool {
	return fillerLeadSet[w] || len(w) > 4 && strings.HasSuffix(w, "ly")
}

// contentCount is len(lex.ContentWords(ws)), without making them.
func contentCount(ws []string) int {
	n := 0
	for _, w := range ws {
		if len(w) >= 2 && !lex.StopwordSet[w] {
			n++
		}
	}
	return n
}

// usage scores usage guidelines: when to use the tool, when not, and what
// to use instead.
func (f *facts) usage() dimension {
	if !f.hasDesc || f.nWords <= 2 || f.placeholder != "" {
		return dim(1, "the description is missing, placeholder text or too short to guide use.")
	}
	when, hasWhen := f.whenToUse()
	not, hasNot := f.whenNot()
	alt, hasAlt := f.contrast()
	pre, hasPre := f.prerequisite()
	named := f.alternatives
	var cues []string
	if hasWhen {
		cues = append(cues, fmt.Sprintf("when to use (%q)", when))
	}
	if hasNot {
		cues = append(cues, fmt.Sprintf("when not to (%q)", not))
	}
	if hasAlt {
		cues = append(cues, fmt.Sprintf("an alternative (%q)", alt))
	}
	if len(named) > 0 {
		cues = append(cues, "named tools "+strings.Join(named, ", "))
	}
	if hasPre {
		cues = append(cues, fmt.Sprintf("a prerequisite or order (%q)", pre))
	}
	list := strings.Join(cues, ", ")
	switch {
	case len(named) > 0 && (hasAlt || hasNot || hasWhen):
		return dim(5, "it gives %s: explicit guidance with a named alternative.", list)
	case hasWhen && hasNot && hasAlt:
		return dim(5, "it gives %s.", list)
	case hasWhen || hasNot || hasPre || len(named) > 0 || hasAlt:
		return dim(4, "it gives %s, but not the full when / when-not / instead set.", list)
	}
	// The first implied cue, found in one pass; only a "when" that sets
	// no condition sends the search on to the others.
	if p, ok := f.descFirstIn(usageImpliedList); ok {
		if f.impliedHolds(p) {
			return dim(3, "usage is only implied (%q); no explicit when-to-use guidance.", f.desc.Matching(p))
		}
		for _, q := range f.descAllIn(usageImpliedList) {
			if q != p && f.impliedHolds(q) {
				return dim(3, "usage is only implied (%q); no explicit when-to-use guidance.", f.desc.Matching(q))
			}
		}
	}
	return dim(2, "no cue says when to use the tool, when not to, or what to use instead.")
}

// impliedHolds reports whether implied usage cue p, which the
// description has, implies the tool's usage: "when" only where it sets
// a condition (whenOpensClause); usedCue only with the tool for its
// subject (usedOfTool); ifCue only where it sets a condition on the
// call (callCondition); an example (exampleCues) only of a use
// (exampleOfUse); a purpose (effectPurposeCues) only of a call
// (purposeOfCall).
func (f *facts) impliedHolds(p string) bool {
	switch p {
	case "when":
		return f.whenOpensClause()
	case usedCue:
		return f.usedOfTool()
	case ifCue:
		return f.callCondition()
	}
	if slices.Contains(exampleCues, p) {
		return f.exampleOfUse(p)
	}
	if slices.Contains(effectPurposeCues, p) {
		return f.purposeOfCall(p)
	}
	return true
}

// purposeOfCall reports whether purpose phrase p (effectPurposeCues)
// occurs in the description at least once in a sentence that does not
// open with the tool's own verb in the third person (toolStepOpens)
// or that speaks of a call (callWords): there it says what a call is
// for ("Call it first so that the session is ready"); in a sentence of
// the tool's own act ("Resizes the window so that the page has the
// given size") it says what the act is for.
//
// A sentence that a line break cut in the middle (lex.Text.GoesOn) is
// read whole: its opening is its first line's.
func (f *facts) purposeOfCall(p string) bool {
	ss := f.sentenceTexts()
	for k := range f.desc.Sentences {
		if !f.desc.SentenceHas(k, p) {
			continue
		}
		first, last := k, k
		for f.desc.GoesOn(first) {
			first--
		}
		for f.desc.GoesOn(last + 1) {
			last++
		}
		if !toolStepOpens(ss[first].Words) {
			return true
		}
		for _, s := range ss[first : last+1] {
			if slices.ContainsFunc(s.Words, func(w string) bool { return callWords[w] }) {
				return true
			}
		}
	}
	return false
}

// callCondition reports whether ifCue occurs in the description at
// least once where it sets a condition on calling the tool: just before
// a word of callerSubjects (or "the" and one) and, past the auxiliaries,
// adverbs and negations of conditionFillers, a verb of wantVerbs ("If
// you need the raw text", "If you do not need it formatted"); or in a
// sentence where a word of callVerbs opens a clause, once the words
// that address the caller are past (callerAddress), just before "this"
// or "it" ("If a dialog was opened, use this command to handle it"). A
// condition on what the caller passes ("If you do not specify a path")
// or on the result ("If the user has no read access, returns an
// error"), and "run it" said of what the caller can do ("you can run it
// again"), say nothing of when to call the tool.
func (f *facts) callCondition() bool {
	for k, s := range f.sentenceTexts() {
		if !f.desc.SentenceHas(k, ifCue) {
			continue
		}
		ws := s.Words
		for i, w := range ws {
			if w != ifCue {
				continue
			}
			j := i + 1
			if j+1 < len(ws) && ws[j] == "the" {
				j++
			}
			if j >= len(ws) || !slices.Contains(callerSubjects, ws[j]) {
				continue
			}
			j++
			for j < len(ws) && (conditionFillerSet[ws[j]] || lex.Negation(ws[j])) {
				j++
			}
			if j < len(ws) && wantVerbSet[ws[j]] {
				return true
			}
		}
		if !callsTool(ws) {
			continue
		}
		// Only a sentence that has a call of the tool is cut into
		// clauses, to find whether one opens with it.
		for _, c := range clauses(f.desc.Sentences[k]) {
			cw := lex.Words(c)
			o := callerAddress(cw)
			for o < len(cw) && clauseLeadSet[cw[o]] {
				o++
			}
			if o+1 < len(cw) && slices.Contains(callVerbs, cw[o]) && (cw[o+1] == "this" || cw[o+1] == "it") {
				return true
			}
		}
	}
	return false
}

// callsTool reports whether words ws have a word of callVerbs just
// before "this" or "it" ("use this", "run it").
func callsTool(ws []string) bool {
	for i := 0; i+1 < len(ws); i++ {
		if slices.Contains(callVerbs, ws[i]) && (ws[i+1] == "this" || ws[i+1] == "it") {
			return true
		}
	}
	return false
}

// exampleOfUse reports whether example cue p (exampleCues) occurs in
// the description at least once before a word of exampleOccasions,
// "to" and a verb (infinitiveAt: "e.g. to draw a square", not "e.g. to
// metres or feet"), or "for" and a verb in -ing ("e.g. for checking the
// status"): an example of when or what for to call the tool, not of a
// value.
func (f *facts) exampleOfUse(p string) bool {
	pw := strings.Fields(p)
	ws := f.desc.Words
	for i := range ws {
		if !f.descPhraseAt(i, pw) {
			continue
		}
		j := i + len(pw)
		if j < len(ws) && slices.Contains(exampleOccasions, ws[j]) || j+1 < len(ws) && (ws[j] == "for" && gerund(ws[j+1]) || ws[j] == "to" && infinitiveAt(ws[j+1:])) {
			return true
		}
	}
	return false
}

// infinitiveAt reports whether words ws, just after "to", open with a
// verb: one verbForm knows, or a word that is no function word before
// a determiner of openerDeterminers ("to price an order": in English
// only a verb stands there). "to metres or feet" opens with a value.
func infinitiveAt(ws []string) bool {
	if len(ws) == 0 {
		return false
	}
	if verbForm(ws[0]) != "" {
		return true
	}
	return len(ws) > 1 && openerDetSet[ws[1]] && !lex.StopwordSet[ws[0]] && !openerDetSet[ws[0]] && !nonVerbOpenerSet[ws[0]]
}

// usedOfTool reports whether usedCue ("can be used") occurs in the
// description at least once with the tool for its subject
// (toolIsSubject: none, "it", "this tool", a joining "and": "Works
// across directories and can be used for renaming"). Another subject
// says how that thing is used ("Demonstrates how annotations can be
// used to provide metadata", "a resource reference that can be used by
// MCP clients"), not when to use the tool.
func (f *facts) usedOfTool() bool {
	uw := strings.Fields(usedCue)
	for _, sentence := range f.desc.Sentences {
		for _, c := range clauses(sentence) {
			ws := lex.Words(c)
			for i := range ws {
				if phraseAt(ws, i, uw, false) && f.toolIsSubject(ws[:i]) {
					return true
				}
			}
		}
	}
	return false
}

// whenToUse returns the first phrase of lists.usageWhen that the
// description has where it says when to use the tool, and whether one
// was found: not just after a negation ("Do
// not call this tool more than 3 times" tells the caller when to stop,
// which whenNot reads, not when to call); "use for", "use to" and "use
// when" not after "to", which makes them say what a value is for
// ("defaultShell (shell to use for commands)", desktop-commander
// get_config), not when to use the tool; none that opens with "use" or
// "call" after a word of requirementWords and "to", which says what the
// call needs ("the library ID required to use this tool", context7
// query-docs). A negation a word further
// denies something else ("Returns entity records, not memories — use it
// to resolve an entity_key").
func (f *facts) whenToUse() (string, bool) {
	p, ok := f.descFirstIn(usageWhenList)
	if !ok {
		return p, ok
	}
	// says reports whether phrase q occurs once as a when-to-use cue,
	// read on the description's words without building contexts.
	says := func(q string) bool {
		qw := strings.Fields(q)
		if qw[0] == "when" || qw[0] == "if" {
			return f.occasionOfTool(q)
		}
		bare := qw[0] == "use" && len(qw) == 2
		verb := qw[0] == "use" || qw[0] == "call"
		ws := f.desc.Words
		for i := range ws {
			if !f.descPhraseAt(i, qw) {
				continue
			}
			if verb && i > 1 && ws[i-1] == "to" && slices.Contains(requirementWords, ws[i-2]) {
				continue
			}
			if i == 0 || !lex.Negation(ws[i-1]) && !(bare && ws[i-1] == "to") {
				return true
			}
		}
		return false
	}
	if says(p) {
		return p, true
	}
	for _, q := range f.descAllIn(usageWhenList) {
		if q != p && says(q) {
			return q, true
		}
	}
	return "", false
}

// occasionOfTool reports whether the occasion phrase q ("when you
// need", "if you only need") occurs in the description at least once as
// this tool's occasion, read clause by clause (clauses): not just after a
// negation, and not after a word of callVerbs or "choose" that points at
// anything but the tool (pointsElsewhere: "choose a get or list tool
// first when you need to inspect state", gitlab delete_draft_note, says
// when to use that other tool).
func (f *facts) occasionOfTool(q string) bool {
	return phraseInClauses(f.desc, q, false, func(c string, ws []string, i int) bool {
		return (i == 0 || !lex.Negation(ws[i-1])) && !f.pointsElsewhere(c, ws[:i])
	})
}

// pointsElsewhere reports whether the words of clause before a phrase
// (before) point the caller at another tool: a word of callVerbs or
// "choose" before an article or a determiner of pointerDeterminers
// ("choose a get or list tool") or a name other than the tool's
// (pointedName). Before anything else, a preposition above all, the
// verb says how to call this tool ("Run with dry_run set when you need
// a preview only"), and "this" and "it" are the tool.
func (f *facts) pointsElsewhere(clause string, before []string) bool {
	pointed := false
	for j, w := range before {
		if (w == "choose" || slices.Contains(callVerbs, w)) && j+1 < len(before) && before[j+1] != "this" && before[j+1] != "it" {
			pointed = true
			break
		}
	}
	if !pointed {
		return false
	}
	fs := strings.Fields(clause)
	for j := 0; j+1 < len(fs); j++ {
		if w := strings.ToLower(strings.Trim(fs[j], nameMarks)); w != "choose" && !slices.Contains(callVerbs, w) {
			continue
		}
		t := strings.ToLower(strings.Trim(fs[j+1], nameMarks))
		if slices.Contains(pointerDeterminers, t) || f.pointedName(fs[j+1], t) {
			return true
		}
	}
	return false
}

// pointedName reports whether field, a word of a clause as written
// (lowered: t), is the name of a tool other than this one: a sibling's
// (namesTool), one written as a name (writtenAsName) or, where the
// question lists no tool names, of kebab case (kebabToolName), but not
// the tool's own name nor one of its own words that is no name of snake
// or kebab case ("Use GraphQL when you need nested data", of
// query_graphql; but "use `create_issue_note`" of create_issue points
// elsewhere).
func (f *facts) pointedName(field, t string) bool {
	if t == "" || strings.EqualFold(t, f.name) || !strings.ContainsAny(t, "_-") && f.owns(lex.Stem(t)) {
		return false
	}
	return f.writtenAsName(field) || f.names == nil && len(f.siblings) == 0 && kebabToolName(t)
}

// kebabToolName reports whether t, a lowered word as written, reads as
// a tool's name of kebab case: letters on both sides of each hyphen,
// a verb first and no function word nor particle (kebabParticles) after
// it ("apply-diff", "list-labels"). A word of English written with
// hyphens ("kebab-case", "read-only", "up-to-date") names no tool; where the question lists
// the tools, only theirs are names (namesTool), so "Use kebab-case
// names" points nowhere.
func kebabToolName(t string) bool {
	parts := strings.Split(t, "-")
	if len(parts) < 2 || verbForm(parts[0]) == "" {
		return false
	}
	for _, p := range parts {
		if p == "" || !lex.IdentByte(p[0]) || !lex.IdentByte(p[len(p)-1]) {
			return false
		}
	}
	for _, p := range parts[1:] {
		if lex.StopwordSet[p] || slices.Contains(kebabParticles, p) {
			return false
		}
	}
	return true
}

// nameMarks are the marks around a word or a name in a clause as
// written ("`create_issue_note`", "(GraphQL)").
const nameMarks = "`*'\"()[].,;:"

// whenNot returns the first phrase of lists.usageNot, in the list's
// order, that the description has where it says when not to use the
// tool, and whether one was found (whenNotHolds).
func (f *facts) whenNot() (string, bool) {
	p, ok := f.descFirstIn(usageNotList)
	if !ok || f.whenNotHolds(p) {
		return p, ok
	}
	for _, q := range lists.usageNot {
		if q != p && f.desc.Has(q) && f.whenNotHolds(q) {
			return q, true
		}
	}
	return "", false
}

// whenNotHolds reports whether when-not phrase p, which the description
// has, says when not to use the tool: deprecatedCue only where the tool
// is what is deprecated (toolDeprecated), and a phrase that opens with
// "only" ("only when", "only for") only where "only" is a word of its
// own (onlyAlone).
func (f *facts) whenNotHolds(p string) bool {
	switch {
	case p == deprecatedCue:
		return f.toolDeprecated()
	case strings.HasPrefix(p, onlyWord+" "):
		return f.onlyAlone(p)
	}
	return true
}

// onlyWord opens the when-not phrases of a restriction ("only when").
const onlyWord = "only"

// onlyAlone reports whether phrase p, which opens with onlyWord, holds
// in the description where "only" is no part of a word written with a
// hyphen or an underscore: "read-only" (or read_only) is one word, and
// "Open it read-only when you need to inspect it" restricts nothing,
// where "Use it only when you need to inspect it" does. The words split
// such a word, so the text is read again with each joined (joinedOnly),
// which only a text that has one and a phrase of "only" pays.
func (f *facts) onlyAlone(p string) bool {
	joined, ok := joinedOnly(f.desc.Raw)
	if !ok {
		return true
	}
	return lex.NewText(joined).WithinSentences().Has(p)
}

// joinedOnly returns s with the hyphen or underscore dropped before
// each "only" that ends a word so written ("read-only" as "readonly",
// in any case), and whether it dropped one.
func joinedOnly(s string) (string, bool) {
	var b []byte
	last := 0
	for i := 1; i+len(onlyWord) < len(s); i++ {
		if s[i] != '-' && s[i] != '_' || !alnumByte(s[i-1]) {
			continue
		}
		end := i + 1 + len(onlyWord)
		if !strings.EqualFold(s[i+1:end], onlyWord) || end < len(s) && (alnumByte(s[end]) || s[end] == '_') {
			continue
		}
		b = append(b, s[last:i]...)
		last = i + 1
	}
	if b == nil {
		return s, false
	}
	return string(append(b, s[last:]...)), true
}

// alnumByte reports whether b is an ASCII letter or digit in either
// case, or a byte of a character beyond ASCII.
func alnumByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b >= 0x80
}

// toolDeprecated reports whether deprecatedCue occurs in the
// description at least once said of the tool, read clause by clause
// (clauses): opening its clause ("DEPRECATED: Use read_text_file
// instead", "Deprecated in favour of fetch_v2"), but not before a word
// for a parameter ("Deprecated parameters are ignored"); or after a
// form of "be" and its adverbs (deprecationLinks) whose subject is the
// tool (toolIsSubject: "This tool is deprecated", "It is now
// deprecated"). A path, a field or a parameter that is deprecated
// ("`/rest/api/3/search` is deprecated!", "The legacy_id field is
// deprecated") is a value not to pass, no tool not to use.
func (f *facts) toolDeprecated() bool {
	for k, sentence := range f.desc.Sentences {
		if !f.desc.SentenceHas(k, deprecatedCue) {
			continue
		}
		for _, c := range clauses(sentence) {
			ws := lex.Words(c)
			for i, w := range ws {
				if w != deprecatedCue {
					continue
				}
				j := i
				for j > 0 && slices.Contains(deprecationLinks, ws[j-1]) {
					j--
				}
				switch {
				case j == 0 && j < i:
					// "Is deprecated", no subject: the tool's.
					return true
				case j == 0:
					if i+1 == len(ws) || !lex.ParamNounSet[ws[i+1]] {
						return true
					}
				case j < i && f.toolIsSubject(ws[:j]):
					return true
				}
			}
		}
	}
	return false
}

// prerequisite returns the first phrase of lists.usagePrerequisite, in
// the list's order, that the description has where it orders the tool
// with something else (prerequisiteHolds), and whether one was found. A
// word of concessive with "even" just before it concedes ("even after reaching the end",
// "even before the build finishes"), and a requirement in a relative
// clause (relativeLeads among the words before it: "Situations where
// irrelevant information needs to be filtered out") describes a thing:
// neither orders a call.
func (f *facts) prerequisite() (string, bool) {
	p, ok := f.descFirstIn(usagePrerequisiteList)
	if !ok || f.prerequisiteHolds(p) {
		return p, ok
	}
	// The first phrase concedes, describes or spans two sentences
	// everywhere (rare): the others, in the list's order.
	for _, q := range lists.usagePrerequisite {
		if q != p && f.desc.Has(q) && f.prerequisiteHolds(q) {
			return q, true
		}
	}
	return "", false
}

// prerequisiteHolds reports whether prerequisite phrase p, which the
// description has (within one sentence, as every cue of several words:
// "Search the bookmarks, newest first. Use it when ..." has no "first
// use"), orders the call: for the phrases of prerequisiteWords, where
// ordersAt finds it.
func (f *facts) prerequisiteHolds(p string) bool {
	return prerequisiteWords[p] == nil || f.ordersAt(p)
}

// ordersAt reports whether prerequisite phrase p (one of
// prerequisiteWords) occurs in the description's words at least once
// neither conceded ("even after") nor in a relative clause ("where ...
// needs to be"): read on the words, without building contexts, as
// "before" and "after" are in many texts.
func (f *facts) ordersAt(p string) bool {
	if slices.Contains(concessive, p) {
		return f.ordersCall(p)
	}
	pw := prerequisiteWords[p]
	ws := f.desc.Words
	for i := range ws {
		if !f.descPhraseAt(i, pw) {
			continue
		}
		before := ws[max(0, i-3):i]
		conceded := slices.Contains(concessive, p) && i > 0 && ws[i-1] == "even"
		relative := slices.Contains(relativeRequirements, p) && slices.ContainsFunc(before, func(w string) bool { return slices.Contains(relativeLeads, w) })
		if !conceded && !relative {
			return true
		}
	}
	return false
}

// ordersCall reports whether "before" or "after" (p, one of concessive)
// occurs in the description at least once where it orders the call
// with something else, read clause by clause (clauses): not conceded
// ("even after"), not before a duration ("Stories disappear after 24
// hours", durationAt), not opening a clause whose next clause opens with
// the tool's own verb in the third person ("Before writing, snapshots
// the affected file": when the tool acts, toolStepOpens), not in a
// sentence that opens with that verb and speaks of no call (callWords:
// "Returns a checklist the agent must satisfy before the session is
// considered shipped", git git_wrapup_instructions) unless a name comes
// just after p there (nameAfter: "Deploys the app after build_app has
// finished" waits on another tool), and not
// before a gerund that ends a sentence opening with "for", which names
// whom the tool is for ("For developers and compliance teams auditing
// licence risk before shipping": a time of their work). Only the
// sentences that have p are cut into clauses.
func (f *facts) ordersCall(p string) bool {
	for k, sentence := range f.desc.Sentences {
		if !f.desc.SentenceHas(k, p) {
			continue
		}
		sw := f.sentenceTexts()[k].Words
		if toolStepOpens(sw) && !slices.ContainsFunc(sw, func(w string) bool { return callWords[w] }) && !f.nameAfter(sentence, p) {
			// The sentence says what the tool does or gives back: an
			// order in it is of the tool's steps or of what the caller
			// does with its result.
			continue
		}
		audience := len(sw) > 0 && sw[0] == "for"
		cs := clauses(sentence)
		for j, c := range cs {
			ws := lex.Words(c)
			for i, w := range ws {
				switch {
				case w != p, i > 0 && ws[i-1] == "even", durationAt(ws[i+1:]):
				case i == 0 && j+1 < len(cs) && toolStepOpens(lex.Words(cs[j+1])):
				case audience && j+1 == len(cs) && i+2 == len(ws) && gerund(ws[i+1]):
				default:
					return true
				}
			}
		}
	}
	return false
}

// nameAfter reports whether the word just after p in sentence, as
// written, is a name (writtenAsName): what the call waits for or comes
// before is another tool or a thing of code, no step of the tool's own.
func (f *facts) nameAfter(sentence, p string) bool {
	fs := strings.Fields(sentence)
	for j := 0; j+1 < len(fs); j++ {
		if strings.ToLower(strings.Trim(fs[j], nameMarks)) == p && f.writtenAsName(fs[j+1]) {
			return true
		}
	}
	return false
}

// writtenAsName reports whether field, a word of a clause as written,
// is a name: in backticks, of snake or camel case (codeName), or a
// tool's of the server (namesTool).
func (f *facts) writtenAsName(field string) bool {
	if strings.HasPrefix(field, "`") {
		return true
	}
	t := strings.Trim(field, nameMarks)
	return t != "" && (codeName(t) || f.namesTool(t))
}

// durationAt reports whether words ws open with a length of time: a
// number, in figures or words, or "a" or "an", then a unit of
// timeUnits ("24 hours", "five minutes", "an hour").
func durationAt(ws []string) bool {
	if len(ws) < 2 || !timeUnitSet[ws[1]] {
		return false
	}
	w := ws[0]
	return startsWithDigit(w) || numberWordSet[w] || w == "a" || w == "an"
}

// toolStepOpens reports whether words ws, a clause, open with a verb in
// the third person, maybe after "it" or "this": the tool's own act
// ("snapshots the affected file", "it executes the query").
func toolStepOpens(ws []string) bool {
	if len(ws) > 1 && (ws[0] == "it" || ws[0] == "this") {
		ws = ws[1:]
	}
	if len(ws) == 0 || !strings.HasSuffix(ws[0], "s") {
		return false
	}
	v := verbForm(ws[0])
	return v != "" && v != ws[0]
}

// gerund reports whether w is a verb's form in -ing ("shipping").
func gerund(w string) bool { return len(w) > 4 && strings.HasSuffix(w, "ing") }

// whenOpensClause reports whether "when" comes in the description
// before more words of its sentence, where it can set a condition ("when
// a file is given"); the last word of a sentence asks when ("who last
// modified each line and when").
func (f *facts) whenOpensClause() bool {
	for _, s := range f.sentenceTexts() {
		for i, w := range s.Words {
			if w == "when" && i+1 < len(s.Words) {
				return true
			}
		}
	}
	return false
}

// contradiction reports whether the description says the opposite of the
// annotations, and how. A phrase counts only in context: a write verb or
// claim of a read-only tool whose description also says it changes
// nothing (a "does not modify") is no contradiction; a read-only claim
// counts of the tool, not of what it acts on ("fails on read-only
// files") and not negated; "permanently" counts before an active verb
// that destroys ("permanently deletes"), not before a participle
// ("items permanently deleted after 30 days"); "destroys" and "wipes"
// count only as claims of the tool.
func (f *facts) contradiction() (bool, string) {
	if !f.hasDesc {
		return false, ""
	}
	if f.readOnly != nil && *f.readOnly && f.saysReadOnly() == "" {
		if writeVerbSet[f.leadVerb] && !f.first.NegatedAfter(f.leadVerb) {
			return true, fmt.Sprintf("readOnlyHint is true but the description opens with the write verb %q (%q)", f.leadVerb, lex.Quote(f.first.Raw, 60))
		}
		for _, c := range lists.writeClaims {
			if f.first.Claims(c) {
				return true, fmt.Sprintf("readOnlyHint is true but the first sentence says it %s (%q)", c, lex.Quote(f.first.Raw, 60))
			}
		}
	}
	if f.destructive != nil && *f.destructive && (f.readOnly == nil || !*f.readOnly) {
		if c := f.saysReadOnly(); c != "" {
			return true, fmt.Sprintf("destructiveHint is true but the description says %q", c)
		}
	}
	if (f.destructive != nil && !*f.destructive) || (f.readOnly != nil && *f.readOnly) {
		if c := f.saysDestructive(); c != "" {
			return true, fmt.Sprintf("the annotations say the tool destroys nothing but the description says %q", c)
		}
	}
	return false, ""
}

// saysReadOnly returns the read-only claim the description makes of the
// tool, or "": the phrase not negated and not the object of a
// preposition or of a verb of its own ("on read-only files", "skips
// read-only ones").
func (f *facts) saysReadOnly() string {
	if f.readOnlyRead {
		return f.readOnlyClaim
	}
	f.readOnlyRead = true
	// Most texts make no claim: one pass over their words says so,
	// where looking for each claim in turn searched the text again.
	if _, ok := f.descFirstIn(readOnlyClaimList); !ok {
		return ""
	}
	for _, c := range lists.readOnlyClaims {
		for _, ctx := range f.desc.Contexts(c) {
			if ctx.Negated() {
				continue
			}
			prev := ""
			for j := len(ctx.Before) - 1; j >= 0; j-- {
				if w := ctx.Before[j]; w != "a" && w != "an" && w != "the" {
					prev = w
					break
				}
			}
			if objectMarkerSet[prev] {
				continue
			}
			f.readOnlyClaim = strings.TrimSuffix(c, "*")
			return f.readOnlyClaim
		}
	}
	return ""
}

// saysDestructive returns the claim of lasting destruction the
// description makes of the tool, or "".
func (f *facts) saysDestructive() string {
	if _, ok := f.descFirstIn(destructiveClaimList); !ok {
		return "" // no claim is even said: read in one pass
	}
	for _, c := range lists.destructiveClaims {
		switch c {
		case "destroys", "wipes":
			if f.desc.Claims(c) {
				return c
			}
		case "permanently":
			for _, ctx := range f.desc.Contexts(c) {
				if ctx.Negated() || len(ctx.After) == 0 {
					continue
				}
				next := ctx.After[0]
				if writeVerbSet[lex.VerbForm(next)] && !strings.HasSuffix(next, "ed") {
					return c
				}
			}
		default:
			if f.desc.HasUnnegated(c) {
				return strings.TrimSuffix(c, "*")
			}
		}
	}
	return ""
}

// thinDescription says which of the faults that leave a description
// saying nothing it has: none at all, placeholder text, or at most two
// words (the test transparency and completeness make). It does not quote
// the description, so that tools with the same fault share one entry of
// a fix list.
func (f *facts) thinDescription() string {
	switch {
	case f.desc.Raw == "":
		return "no description"
	case !f.hasDesc:
		return "a description with no words"
	case f.placeholder != "":
		return fmt.Sprintf("a placeholder description (%q)", f.placeholder)
	}
	return "a description of only " + lex.Count(f.nWords, "word", "words")
}

// transparency scores behavioural transparency. A contradiction with the
// annotations scores 1, and a description that says nothing 1 (2 with
// annotations). Otherwise one monotone rule of three robust features,
// fitted by cross-validation on the tuning part (README.md, "Version
// 1.4.0"): 1 + ln(1 + words)/2 + kinds/8 + 1/2 with annotations, rounded
// half up. Each doubling of the description's length adds about a third
// of a point, each kind of disclosure an eighth, annotations half a
// point: the registry's score follows how much a description says more
// closely than which phrases it uses.
func (f *facts) transparency(contradiction bool, why string) dimension {
	if contradiction {
		return dim(1, "%s: the description contradicts the annotations.", why)
	}
	if !f.hasDesc || f.nWords <= 2 || f.placeholder != "" {
		if f.annotated {
			return dim(2, "the description is missing, placeholder text or too short; only the annotations say anything about behaviour.")
		}
		return dim(1, "no annotations and %s: nothing is disclosed.", f.thinDescription())
	}
	cues := f.disclosed
	k := len(cues)
	x := 1 + math.Log(float64(1+f.nWords))/2 + float64(k)/8
	base := "no annotations"
	if f.annotated {
		x += 0.5
		base = "annotations are present"
	}
	score := int(math.Floor(x + 0.5))
	if k == 0 {
		return dim(score, "%s; %s and no disclosure of side effects, auth, limits, errors or return format.", base, lex.Count(f.nWords, "word", "words"))
	}
	// Each cue as found.String writes it, joined by ", ", written into
	// one buffer the size they take unescaped (a buffer on the stack
	// deepened every goroutine's stack).
	n := 0
	for _, c := range cues {
		n += len(c.cue) + len(c.phrase) + 6
	}
	b := make([]byte, 0, n)
	for i, c := range cues {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = c.appendTo(b)
	}
	return dim(score, "%s; %s disclosing %s.", base, lex.Count(f.nWords, "word", "words"), b)
}

func hasCue(cues []found, name string) bool {
	for _, c := range cues {
		if c.cue == name {
			return true
		}
	}
	return false
}

// parameters scores parameter semantics against the schema's description
// coverage.
func (f *facts) parameters() dimension {
	n := len(f.params)
	if n == 0 {
		return dim(4, "the tool takes no parameters, so there is nothing to explain (baseline 4).")
	}
	cov := f.coverage()
	pct := int(cov*100 + 0.5)
	var undescribed, undescMentioned []string
	for _, p := range f.params {
		if !p.described {
			undescribed = append(undescribed, p.name)
			if p.mentioned {
				undescMentioned = append(undescMentioned, p.name)
			}
		}
	}
	format, at, after, explains := f.paramCue()
	named := "none"
	if len(f.mentioned) > 0 {
		named = strings.Join(f.mentioned, ", ")
	}
	switch {
	case cov > 0.8:
		if explains && len(f.mentioned)*3 >= n*2 && f.nWords >= 40 {
			// The cue is one sentence's: the text names most
			// parameters and says what values one of them takes, not
			// what each one does (seqthink names nine, and gives a
			// value for one).
			return dim(5, "schema coverage %d%% and the description names most parameters (%s) in %d words, with format or value cues (%q).", pct, named, f.nWords, format)
		}
		if explains {
			return dim(4, "schema coverage %d%% (baseline 3) and the description adds meaning for %s (%q).", pct, named, format)
		}
		if len(f.mentioned) > 0 {
			// It names them: that is not nothing, but no cue says
			// what values they take.
			return dim(3, "schema coverage %d%% gives the baseline 3; the description names %s but gives no format or value cue for %s.", pct, named, lex.Agree(len(f.mentioned), "it", "them"))
		}
		return dim(3, "schema coverage %d%% gives the baseline 3; the description adds nothing about parameters (named: none).", pct)
	case cov >= 0.5:
		// Below full coverage the rule reads that the text names the
		// undescribed parameters and that one sentence naming a
		// parameter gives a cue, not that each is explained (filevine
		// create_invoice names two and gives a value of one): the
		// sentence says what it read (cueWhere).
		if len(undescMentioned) == len(undescribed) && explains {
			return dim(4, "schema coverage %d%%, and the description names the undescribed %s %s, with a format or value cue (%q) %s.", pct, lex.Agree(len(undescribed), "parameter", "parameters"), strings.Join(undescribed, ", "), format, f.cueWhere(at, after))
		}
		return dim(3, "schema coverage %d%%; undescribed: %s; the description names %s.", pct, strings.Join(undescribed, ", "), named)
	}
	share := float64(len(undescMentioned)) / float64(len(undescribed))
	switch {
	case share == 1 && explains:
		return dim(4, "schema coverage is only %d%%, but the description names every undescribed parameter (%s), with a format or value cue (%q) %s.", pct, strings.Join(undescribed, ", "), format, f.cueWhere(at, after))
	case share >= 0.5 && explains:
		return dim(3, "schema coverage is only %d%%; the description names %d of the %d undescribed parameters (%s), with a format or value cue (%q) %s.", pct, len(undescMentioned), len(undescribed), strings.Join(undescMentioned, ", "), format, f.cueWhere(at, after))
	case len(undescMentioned) > 0:
		return dim(2, "schema coverage is only %d%%; the description names %s but does not say what values %s.", pct, strings.Join(undescMentioned, ", "), lex.Agree(len(undescMentioned), "it takes", "they take"))
	case cov > 0:
		return dim(2, "schema coverage is only %d%% and the description does not name the undescribed parameters (%s).", pct, strings.Join(undescribed, ", "))
	}
	if n == 1 {
		return dim(1, "the one parameter has no description and the description does not name it.")
	}
	return dim(1, "no parameter has a description (0%% of %d) and the description names none of them.", n)
}

// explainsParams returns the first format or value cue ("e.g.",
// "default", "must") in a sentence that names a parameter, or that
// opens with a value cue (valueOpeners) and names none just after one
// that does ("multimer_cutoff: Distance (A) between chains ... Default
// 8.0A is suitable ..."): a cue elsewhere ("read-only by default") says
// nothing about the values.
func (f *facts) explainsParams() (string, bool) {
	cue, _, _, ok := f.paramCue()
	return cue, ok
}

// paramCue is explainsParams, with the index of the sentence that names
// the parameters the cue was read with, and whether the cue opens the
// sentence after that one (a value opener).
func (f *facts) paramCue() (cue string, named int, after, ok bool) {
	if len(f.mentioned) == 0 {
		return "", 0, false, false
	}
	// A sentence has a cue only where the description does (within one
	// sentence): a description with none is read no further.
	if _, found := f.descFirstIn(paramFormatList); !found {
		return "", 0, false, false
	}
	ss := f.sentenceTexts()
	for k, t := range ss {
		// Most sentences have no cue, found in one pass that allocates
		// nothing; the first cue, in the list's order, often holds.
		cue, ok := t.FirstIn(paramFormatPhrases)
		if ok && !f.paramCueHolds(t, cue) {
			cue, ok = "", false
			for _, c := range t.AllIn(paramFormatPhrases) {
				if f.paramCueHolds(t, c) {
					cue, ok = c, true
					break
				}
			}
		}
		if !ok {
			continue
		}
		if f.namesMentioned(t) {
			return t.Matching(cue), k, false, true
		}
		if k > 0 && t.Find(cue) == 0 && slices.Contains(valueOpeners, cue) && f.namesMentioned(ss[k-1]) {
			return t.Matching(cue), k - 1, true, true
		}
	}
	return "", 0, false, false
}

// cueWhere says where a cue of paramCue was read, given the sentence
// k and the after it returned: "in a sentence naming" the parameters
// sentence k names, or "opening the sentence after one naming" them.
func (f *facts) cueWhere(k int, after bool) string {
	names := strings.Join(f.namedIn(f.sentenceTexts()[k]), ", ")
	if after {
		return "opening the sentence after one naming " + names
	}
	return "in a sentence naming " + names
}

// namesMentioned reports whether sentence t names one of the
// parameters the description names.
func (f *facts) namesMentioned(t lex.Text) bool {
	return slices.ContainsFunc(f.params, func(p param) bool { return namedBy(t, p) })
}

// namedBy reports whether sentence t names parameter p, which the
// description names.
func namedBy(t lex.Text, p param) bool {
	return p.mentioned && (lex.Mentions(t, p.name, p.words) || mentionsHead(t, p.words))
}

// namedIn returns the parameters sentence t names, of those the
// description names, in the order of f.params.
func (f *facts) namedIn(t lex.Text) []string {
	var out []string
	for _, p := range f.params {
		if namedBy(t, p) {
			out = append(out, p.name)
		}
	}
	return out
}

// paramCueHolds reports whether value cue c, which sentence t has, says
// something of a parameter's values there: "required" of a parameter
// (requiredOfParam), "between" before a number ("between 0 and 100",
// not "relations between entities") or before two bounds in words or
// parameters' names ("between one and ten", "between min and max"), any
// cue not before a word of
// notBefore ("up to 10", not "up-to-date"), no handle word that is
// the whole name of a parameter (paramNamed: "url" of url), and no cue
// found only among the words of a parameter's longer name as the
// sentence writes it (inParamNames: "default branch" of default_branch).
func (f *facts) paramCueHolds(t lex.Text, c string) bool {
	if f.paramNamed(c) || f.inParamNames(t, c) {
		return false
	}
	if flagValueCues[c] {
		return f.afterParamName(t, c)
	}
	switch c {
	case "required":
		return f.requiredOfParam(t)
	case rangeCue:
		ws := t.Words
		for i, w := range ws {
			if w != rangeCue || i+1 == len(ws) {
				continue
			}
			// A sign is not a word: "between -1 and 1" reads "1".
			if startsWithDigit(ws[i+1]) {
				return true
			}
			// Bounds in words or named by parameters say a range only
			// as a pair ("between one and ten", "between min and max"):
			// "a link between two issues" counts issues.
			if i+3 < len(ws) && ws[i+2] == "and" && f.boundWord(ws[i+1]) && (startsWithDigit(ws[i+3]) || f.boundWord(ws[i+3])) {
				return true
			}
		}
		return false
	}
	if not := notBefore[c]; not != nil {
		for _, ctx := range t.Contexts(c) {
			if notBeforeWord(ctx, not) {
				return true
			}
		}
		return false
	}
	return true
}

// afterParamName reports whether phrase c follows, somewhere in t, the
// words of one of the tool's parameter names (the last three, as far as
// Contexts sees).
func (f *facts) afterParamName(t lex.Text, c string) bool {
	for _, ctx := range t.Contexts(c) {
		if len(ctx.Before) == 0 {
			continue
		}
		last := ctx.Before[len(ctx.Before)-1]
		for _, p := range f.params {
			// Written as one word (nextThoughtNeeded), or in its words
			// (next_thought_needed, "next thought needed").
			if last == strings.ToLower(p.name) {
				return true
			}
			ws := p.words[max(0, len(p.words)-len(ctx.Before)):]
			if len(ws) > 0 && slices.Equal(ctx.Before[len(ctx.Before)-len(ws):], ws) {
				return true
			}
		}
	}
	return false
}

// paramNamed reports whether value cue c is a handle word
// (handleWordSet: "url") that is the whole name of one of the
// tool's parameters: there the word names the parameter ("Go to a URL"
// of url), and says nothing of its values. A value cue that names a
// kind of values ("format", "range", "pattern") still counts where it
// is a parameter's name: "as a JSON, CSV or Markdown document" of
// format gives its values in words no cue reads.
func (f *facts) paramNamed(c string) bool {
	if !handleWordSet[c] {
		return false
	}
	return slices.ContainsFunc(f.params, func(p param) bool { return len(p.words) == 1 && p.words[0] == c })
}

// inParamNames reports whether every occurrence of value cue c in
// sentence t is among the words of a parameter whose name has more
// words than c, written there in its words ("Change the default branch
// of a project" of default_branch, "Use range_start/range_end" of
// range_start): there the cue is the parameter's name, and says
// nothing of its values, as paramNamed holds of a handle word that is
// a whole name. A word for a kind of values (valueKinds) that ends the
// name still counts, as it does where it is the whole name (see
// paramNamed): a report_format holds a format, and the text often
// gives its values in words no cue reads ("report_format: \"console\",
// \"json\", or \"html\"").
func (f *facts) inParamNames(t lex.Text, c string) bool {
	n := strings.Count(c, " ") + 1
	ws := t.Words
	found := false
	for i := range ws {
		if i+n > len(ws) || !wordsAre(ws[i:i+n], c) {
			continue
		}
		found = true
		if !f.insideParamName(ws, i, n) {
			return false
		}
	}
	return found
}

// wordsAre reports whether ws are the words of phrase, which separates
// them by single spaces, without splitting it: it runs for every cue
// of every sentence that has one.
func wordsAre(ws []string, phrase string) bool {
	for _, w := range ws {
		head, rest, _ := strings.Cut(phrase, " ")
		if w != head {
			return false
		}
		phrase = rest
	}
	return phrase == ""
}

// insideParamName reports whether the n words of ws from i on lie
// within the words of a parameter's name of more than n words, written
// there word by word, other than as a word of valueKinds that ends it.
func (f *facts) insideParamName(ws []string, i, n int) bool {
	for _, p := range f.params {
		m := len(p.words)
		if m <= n || n == 1 && slices.Contains(valueKinds, ws[i]) && p.words[m-1] == ws[i] {
			continue
		}
		for j := max(0, i+n-m); j <= i && j+m <= len(ws); j++ {
			if slices.Equal(ws[j:j+m], p.words) {
				return true
			}
		}
	}
	return false
}

// startsWithDigit reports whether word w opens with a digit.
func startsWithDigit(w string) bool {
	return w != "" && w[0] >= '0' && w[0] <= '9'
}

// boundWord reports whether w can bound a range of values: a number
// word (numberWords) or a word of one of the tool's parameter names
// ("min", "max"), not any word ("between friends").
func (f *facts) boundWord(w string) bool {
	return numberWordSet[w] || f.paramWord(w)
}

// requiredOfParam reports whether "required" in sentence t says that a
// parameter is required ("path is required", "path (required)",
// "required params", "- required for nested namespaces"), not that
// something the tool acts on is needed ("ensuring required paths
// exist", "the capability required for this page"). It counts before a
// word for a parameter; after a form of "be" or a parameter's word;
// and before a function word or at the end of its sentence, unless a
// content word other than a word for a parameter comes just before it
// in its clause, whose thing it then says is needed; never before the
// "by" of a reduced relative clause ("the core required by a board").
func (f *facts) requiredOfParam(t lex.Text) bool {
	ws, ls := t.Words, t.Lower
	from := 0 // where in ls the next "required" is looked for
	for i, w := range ws {
		if w != "required" {
			continue
		}
		// The same "required" in ls, for the text between it and the
		// word before: read in place, as it runs for every sentence
		// with the cue.
		clauseStart := i == 0
		if at := lex.IdentifierAt(ls, "required", from); at >= 0 {
			from = at + len("required")
			before := strings.TrimRight(ls[:at], " (")
			clauseStart = clauseStart || before == "" || !letterOrDigit(utf8.DecodeLastRuneInString(before))
		}
		next := ""
		if i+1 < len(ws) {
			next = ws[i+1]
		}
		prev := ""
		if !clauseStart {
			prev = ws[i-1]
		}
		switch {
		case next == "by" && !beSet[prev]:
			// A thing "required by" another ("the Arduino core required
			// by a board FQBN") is what that other needs: no parameter
			// is said to be required ("path is required by the API"
			// still is).
			continue
		case lex.ParamNounSet[next]:
			return true
		case prev != "" && (beSet[prev] || f.paramWord(prev)):
			return true
		case (next == "" || lex.StopwordSet[next]) && (prev == "" || lex.StopwordSet[prev] || lex.ParamNounSet[prev]):
			return true
		}
	}
	return false
}

// letterOrDigit reports whether r, the first value of a decoding, is a
// letter or a digit.
func letterOrDigit(r rune, _ int) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// paramWord reports whether w is a word of one of the tool's parameter
// names.
func (f *facts) paramWord(w string) bool {
	for _, p := range f.params {
		if slices.Contains(p.words, w) || strings.EqualFold(p.name, w) {
			return true
		}
	}
	return false
}

// conciseness scores size and structure: appropriately sized, purpose
// first, nothing wasted.
func (f *facts) conciseness() dimension {
	if !f.hasDesc {
		return dim(1, "%s.", f.thinDescription())
	}
	n := f.nWords
	var score int
	var why string
	switch {
	case n <= 2:
		return dim(2, "%s (%q) is under-specification, not conciseness.", lex.Count(n, "word", "words"), lex.Quote(f.desc.Raw, 40))
	case f.placeholder != "":
		return dim(2, "%q is placeholder text: under-specification, not conciseness.", lex.Quote(f.desc.Raw, 40))
	case f.restated:
		return dim(2, "%q only restates the name: under-specification, not conciseness.", lex.Quote(f.desc.Raw, 40))
	case n <= 10:
		score, why = f.shortConciseness(n)
	case n <= 100:
		score, why = 5, fmt.Sprintf("%d words in %s", n, lex.Count(proseSentences(f.sentenceTexts()), "sentence", "sentences"))
	case n <= 160:
		score, why = 4, fmt.Sprintf("%d words: on the long side", n)
	case n <= 250:
		score, why = 3, fmt.Sprintf("%d words: long enough that key facts get buried", n)
	default:
		score, why = 2, fmt.Sprintf("%d words: far longer than a tool description needs", n)
	}
	var faults []string
	if p, ok := f.first.FirstIn(notFrontLoadedPhrases); ok && f.first.Find(p) == 0 {
		faults = append(faults, fmt.Sprintf("the first sentence opens with %q instead of the purpose", p))
	}
	if fill := f.descAllIn(fillerList); len(fill) >= 2 {
		faults = append(faults, "filler such as "+quoteAll(fill))
	}
	if repeated(f.sentenceTexts()) {
		faults = append(faults, "a sentence is repeated")
	}
	for _, s := range f.sentenceTexts() {
		if len(s.Words) > 60 {
			faults = append(faults, "a sentence runs past 60 words")
			break
		}
	}
	if len(faults) > 0 {
		score -= min(2, len(faults))
		return dim(score, "%s; %s.", why, strings.Join(faults, "; "))
	}
	if score == 5 {
		return dim(5, "%s, purpose first (%q), no filler.", why, lex.Quote(f.first.Raw, 50))
	}
	return dim(score, "%s.", why)
}

// shortConcisenessUndescribed is how many parameters without a schema
// description make a description of 3 to 10 words under-specified
// rather than concise (README.md, "A second candidate 1.5.0").
const shortConcisenessUndescribed = 3

// shortConciseness scores a description of 3 to 10 words by what the
// schema carries beside it: 5 when the schema describes every parameter,
// or the tool takes none (since 1.5.10; either way the short text
// leaves nothing unsaid), 3 when three or more have no description
// (under-specification, not conciseness), else 4 (short and to the
// point, but thin).
func (f *facts) shortConciseness(n int) (int, string) {
	undescribed := len(f.params) - f.described
	switch {
	case len(f.params) == 0:
		return 5, fmt.Sprintf("%d words, and the tool takes no parameters", n)
	case undescribed == 0:
		return 5, fmt.Sprintf("%d words, and the schema describes every parameter", n)
	case undescribed >= shortConcisenessUndescribed:
		return 3, fmt.Sprintf("only %d words, and the schema leaves %d of its %s undescribed: under-specified rather than concise", n, undescribed, lex.Count(len(f.params), "parameter", "parameters"))
	}
	return 4, fmt.Sprintf("%d words: short and to the point, but thin", n)
}

// quoteAll quotes each phrase as %q does and joins them with commas:
// "simply", "just", "this tool".
func quoteAll(phrases []string) string {
	q := make([]string, len(phrases))
	for i, p := range phrases {
		q[i] = strconv.Quote(p)
	}
	return strings.Join(q, ", ")
}

// proseSentences counts the sentences of ss that hold a word other than
// a number: the markers of a numbered list ("1.") are cut into sentences
// of their own, and are none.
func proseSentences(ss []lex.Text) int {
	n := 0
	for _, s := range ss {
		if slices.ContainsFunc(s.Words, func(w string) bool {
			return strings.ContainsFunc(w, func(r rune) bool { return !unicode.IsDigit(r) })
		}) {
			n++
		}
	}
	return n
}

// minRepeatedWords is the fewest words a sentence that repeats must
// have: the markers of a numbered list ("1.", "2.") and a heading
// ("Takes:") are cut into sentences of their own, and repeat in any list.
const minRepeatedWords = 3

// repeated reports whether two sentences of minRepeatedWords words or
// more have the same words. A description has a few sentences: each is
// compared with those before it, and only a long one's are put in a map.
func repeated(ss []lex.Text) bool {
	if len(ss) > 32 {
		seen := make(map[string]bool, len(ss))
		for _, s := range ss {
			if len(s.Words) < minRepeatedWords {
				continue
			}
			k := s.JoinedWords()
			if seen[k] {
				return true
			}
			seen[k] = true
		}
		return false
	}
	for i, s := range ss {
		if len(s.Words) < minRepeatedWords {
			continue
		}
		k := s.JoinedWords()
		for _, prev := range ss[:i] {
			if prev.JoinedWords() == k {
				return true
			}
		}
	}
	return false
}

// completenessUndescribed is how many parameters without a schema
// description cost completeness two points rather than one (README.md,
// "A second candidate 1.5.0").
const completenessUndescribed = 3

// completeness scores contextual completeness against the tool's
// complexity and its structured fields. Each parameter the schema leaves
// undescribed is one more thing an agent must guess: one or two cost a
// point, three or more two; the description naming them does not make
// up for it, since the registry's scores did not (README.md). An output
// schema with members says what the call returns in a form an agent can
// read, and adds a point (since 1.5.10: the registry scored such tools
// half a point above 1.5.9 on average, in every fold of the tuning
// data).
func (f *facts) completeness(usage, behaviour int) dimension {
	if !f.hasDesc || f.nWords <= 2 || f.placeholder != "" {
		return dim(1, "the description is missing, placeholder text or too short to give any context.")
	}
	score := 3
	var plus, minus []string
	if f.nWords <= 5 {
		score = 2
		minus = append(minus, fmt.Sprintf("a description of more than %d words", f.nWords))
	}
	if f.nWords >= 30 {
		score++
		plus = append(plus, fmt.Sprintf("%d words of context", f.nWords))
	}
	if usage >= 4 {
		score++
		plus = append(plus, "usage guidance")
	}
	k := len(f.disclosed)
	if k >= 2 || (f.annotated && k >= 1) {
		score++
		plus = append(plus, "behavioural detail")
	}
	if f.acts() {
		returns := f.hasOutput || hasCue(f.disclosed, "return format") || slices.Contains(returnLeads, f.leadVerb) || f.statesReturn()
		effects := hasCue(f.disclosed, "side effects") || f.destructive != nil || f.statesChange() != ""
		switch {
		case !returns:
			score = min(score-1, 3)
			minus = append(minus, "a statement of what this action tool returns (no output schema)")
		case !effects:
			score--
			minus = append(minus, "a statement of what this action tool changes")
		}
	}
	switch undescribed := len(f.params) - f.described; {
	case undescribed >= completenessUndescribed:
		score -= 2
		minus = append(minus, "a description of the "+lex.Count(undescribed, "parameter", "parameters")+" the schema leaves undescribed")
	case undescribed > 0:
		score--
		minus = append(minus, "a description of the "+lex.Count(undescribed, "parameter", "parameters")+" the schema leaves undescribed")
	}
	if f.restated && score > 2 {
		score = 2
		minus = append(minus, "anything beyond restating the name")
	}
	if (len(f.params) >= 5 || f.nested) && f.nWords < 30 {
		score--
		minus = append(minus, "a description long enough for "+f.complexTool())
	}
	if f.hasOutput {
		score++
		plus = append(plus, "an output schema for the return value")
	}
	var parts []string
	if len(plus) > 0 {
		parts = append(parts, "has "+strings.Join(plus, ", "))
	}
	if len(minus) > 0 {
		parts = append(parts, "lacks: "+strings.Join(minus, "; "))
	}
	if len(parts) == 0 {
		parts = append(parts, "an adequate description with nothing notable added or missing")
	}
	score = blendCompleteness(score, behaviour)
	return dim(score, "%s.", strings.Join(parts, "; "))
}

// summary says in one line what the answer found, weakest dimension
// first.
func (f *facts) summary(a toolAnswer) string {
	s := a.Scores
	dims := []struct {
		name  string
		score int
	}{
		{"purpose", s.PurposeClarity.Score}, {"usage", s.UsageGuidelines.Score},
		{"behaviour", s.BehavioralTransparency.Score}, {"parameters", s.ParameterSemantics.Score},
		{"conciseness", s.ConcisenessStructure.Score}, {"completeness", s.ContextualCompleteness.Score},
	}
	weakest := dims[0]
	for _, d := range dims[1:] {
		if d.score < weakest.score {
			weakest = d
		}
	}
	// "Heuristic: word and pattern cues, not a model, scored NAME:
	// purpose 4, usage 2, ...; weakest is usage.", appended into one
	// buffer rather than formatted part by part and joined.
	var buf [256]byte
	b := append(buf[:0], "Heuristic: word and pattern cues, not a model, scored "...)
	b = append(b, f.name...)
	b = append(b, ": "...)
	for i, d := range dims {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, d.name...)
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(d.score), 10)
	}
	b = append(b, "; weakest is "...)
	b = append(b, weakest.name...)
	b = append(b, '.')
	if a.AnnotationContradiction {
		b = append(b, " The description contradicts the annotations."...)
	}
	return string(b)
}

// blendCompleteness pulls the completeness score halfway towards the
// behavioural-transparency score, rounding up: the registry's two scores
// move together (a description that discloses behaviour leaves an agent
// less to guess), and on the tuning part the blend agrees better than
// either alone (contextual_completeness MAD 0.62 alone, 0.53 behaviour
// alone, 0.50 blended).
func blendCompleteness(score, behaviour int) int {
	score = max(1, min(5, score))
	return (score + behaviour + 1) / 2
}

// AppendJSON appends the answer as encoding/json writes it with HTML
// escaping off (what the judge sends), without reflection: every tool
// question is answered this way, and encoding a struct through
// reflection was a fortieth of the judge's time.
// TestAppendJSONAgreesWithEncodingJSON holds the two together.
func (a toolAnswer) AppendJSON(b []byte) []byte {
	s := &a.Scores
	// The names, numbers and punctuation take 379 bytes, the text what it
	// takes and a byte more for each quote it escapes.
	b = slices.Grow(b, 448+len(a.Summary)+len(s.PurposeClarity.Justification)+len(s.UsageGuidelines.Justification)+
		len(s.BehavioralTransparency.Justification)+len(s.ParameterSemantics.Justification)+
		len(s.ConcisenessStructure.Justification)+len(s.ContextualCompleteness.Justification))
	b = append(b, `{"scores":{`...)
	for i, d := range [...]struct {
		name string
		dim  *dimension
	}{
		{"purpose_clarity", &s.PurposeClarity}, {"usage_guidelines", &s.UsageGuidelines},
		{"behavioral_transparency", &s.BehavioralTransparency}, {"parameter_semantics", &s.ParameterSemantics},
		{"conciseness_structure", &s.ConcisenessStructure}, {"contextual_completeness", &s.ContextualCompleteness},
	} {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, d.name...)
		b = append(b, `":{"score":`...)
		b = strconv.AppendInt(b, int64(d.dim.Score), 10)
		b = append(b, `,"justification":`...)
		b = jsonstr.Append(b, d.dim.Justification, jsonstr.EncodingJSON)
		b = append(b, '}')
	}
	b = append(b, `},"annotation_contradiction":`...)
	b = strconv.AppendBool(b, a.AnnotationContradiction)
	b = append(b, `,"summary":`...)
	b = jsonstr.Append(b, a.Summary, jsonstr.EncodingJSON)
	return append(b, '}')
}

// complexTool says what makes the tool complex: its many parameters,
// the nested objects some of them hold, or both ("a tool with 8
// parameters, 2 of them holding nested objects", "a tool whose one
// parameter holds nested objects").
func (f *facts) complexTool() string {
	nested := 0
	for _, p := range f.params {
		if p.nested {
			nested++
		}
	}
	n := len(f.params)
	switch {
	case nested == 0:
		return fmt.Sprintf("a tool with %d parameters", n)
	case n == 1:
		return "a tool whose one parameter holds nested objects"
	case nested == n:
		return fmt.Sprintf("a tool whose %d parameters all hold nested objects", n)
	}
	return fmt.Sprintf("a tool with %d parameters, %d of them holding nested objects", n, nested)
}
