package gradable

import (
	"fmt"
	"sort"
	"strings"

	"github.com/rubricmcp/rubric/judges/heuristic/internal/lex"
)

// DefectsInput is the structured input of a gradable.defects question.
type DefectsInput struct {
	Tool *gTool `json:"tool"`
}

// defectsAnswer is the answer to a gradable.defects question.
type defectsAnswer struct {
	Defects              []string `json:"defects"`
	SuggestedDescription string   `json:"suggested_description"`
	Notes                string   `json:"notes"`
}

// The Gradable v1 description defects, in the order an answer lists them.
const (
	defectRestates     = "name_restates_behavior"
	defectParams       = "params_unexplained"
	defectNoReturn     = "no_return_description"
	maxRestatedExtras  = 2 // content words beyond the name and title that still restate it
	maxSuggestedParams = 6 // optional parameters a suggestion lists by name
)

// defectFinding is one defect and the cue that found it.
type defectFinding struct {
	defect, why string
}

// findDefects returns the defects of a tool whose description is desc
// (the tool's own, or a replacement being checked), and, when there are
// none, why not.
func findDefects(t gTool, desc string) ([]defectFinding, []string) {
	var found []defectFinding
	var clean []string
	d := lex.NewText(desc)

	extras := extraWords(t, d)
	switch {
	case len(d.Words) == 0:
		found = append(found, defectFinding{defectRestates, "there is no description, so nothing is said beyond the name"})
	case len(extras) <= maxRestatedExtras:
		found = append(found, defectFinding{defectRestates, fmt.Sprintf("the description adds %s beyond the words of the name and title", wordCount(extras))})
	default:
		clean = append(clean, fmt.Sprintf("the description adds %d content words beyond the name", len(extras)))
	}

	var unexplained []string
	for _, p := range params(t.InputSchema) {
		if p.required && !explained(p, d) {
			unexplained = append(unexplained, p.name)
		}
	}
	if len(unexplained) > 0 {
		found = append(found, defectFinding{defectParams, fmt.Sprintf("required %s no schema description, enum or default, and the description does not name %s",
			plural(unexplained, "parameter %s has", "parameters %s have"), plural(unexplained, "it", "them"))})
	} else {
		clean = append(clean, "every required parameter is described, bounded to values or named in the text")
	}

	switch cue, ok := returnCue(d); {
	case explicitOutput(t.OutputSchema):
		clean = append(clean, "the outputSchema states what comes back")
	case ok:
		clean = append(clean, fmt.Sprintf("the description says what comes back (%q)", cue))
	default:
		found = append(found, defectFinding{defectNoReturn, "there is no outputSchema that describes the result and no return cue (returns, yields, list of...) in the description"})
	}
	return found, clean
}

// inputVerbs tell the caller what to send: a sentence with one speaks of
// what goes in.
var inputVerbs = []string{"provide", "pass", "supply", "specify", "enter"}

// returnCue is the first of returnCues the description d holds as a
// statement of what comes back: "list of" in a sentence that tells the
// caller what to send ("You must provide a list of absolute file
// paths") says what goes in, not what comes back.
func returnCue(d lex.Text) (string, bool) {
	for _, p := range gradable.returnCues {
		if !d.Has(p) {
			continue
		}
		if p != "list of" {
			return strings.TrimSuffix(p, "*"), true
		}
		for k := range d.Sentences {
			if d.SentenceHas(k, p) {
				if _, in := d.Sentence(k).FirstOf(inputVerbs); !in {
					return p, true
				}
			}
		}
	}
	return "", false
}

func plural(names []string, one, many string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	if len(names) == 1 {
		if strings.Contains(one, "%s") {
			return fmt.Sprintf(one, q[0])
		}
		return one
	}
	if strings.Contains(many, "%s") {
		return fmt.Sprintf(many, strings.Join(q, ", "))
	}
	return many
}

func wordCount(ws []string) string {
	switch len(ws) {
	case 0:
		return "no content word"
	case 1:
		return fmt.Sprintf("only one content word (%s)", ws[0])
	}
	return fmt.Sprintf("only %d content words (%s)", len(ws), strings.Join(ws, ", "))
}

// extraWords returns the distinct stemmed content words of a description
// that are not words of the tool's name or title, sorted.
func extraWords(t gTool, d lex.Text) []string {
	own := map[string]bool{}
	for _, ws := range [][]string{lex.NameWords(t.Name), lex.Words(t.title())} {
		for _, w := range ws {
			own[gstem(w)] = true
		}
		own[strings.Join(ws, "")] = true
	}
	seen := map[string]bool{}
	var out []string
	for _, w := range terms(d.Words) {
		if own[w] || seen[w] {
			continue
		}
		seen[w] = true
		out = append(out, w)
	}
	sort.Strings(out)
	return out
}

// explained reports whether a parameter's meaning or values are visible:
// a schema description, an enum or const, a default, or its name in the
// tool's description.
func explained(p gParam, d lex.Text) bool {
	if p.desc != "" {
		return true
	}
	if e, ok := p.schema["enum"].([]any); ok && len(e) > 0 {
		return true
	}
	if _, ok := p.schema["const"]; ok {
		return true
	}
	if _, ok := p.schema["default"]; ok {
		return true
	}
	return lex.Mentions(d, p.name, p.words)
}

// explicitOutput reports whether an outputSchema says something about
// the result: properties, items, a description, a reference or a
// combination, or a type other than a bare object.
func explicitOutput(s map[string]any) bool {
	if len(s) == 0 {
		return false
	}
	if p, ok := s["properties"].(map[string]any); ok && len(p) > 0 {
		return true
	}
	if d, ok := s["description"].(string); ok && strings.TrimSpace(d) != "" {
		return true
	}
	for _, k := range []string{"items", "$ref", "oneOf", "anyOf", "allOf", "additionalProperties", "patternProperties"} {
		if v, ok := s[k]; ok && v != false {
			return true
		}
	}
	typ := schemaType(s)
	return typ != "" && typ != "object"
}

// judgeDefects answers a gradable.defects question.
func judgeDefects(t gTool) defectsAnswer {
	found, clean := findDefects(t, t.description())
	a := defectsAnswer{Defects: []string{}}
	if len(found) == 0 {
		a.Notes = "Heuristic: no defect found: " + strings.Join(clean, "; ") + "."
		return a
	}
	var why []string
	has := map[string]bool{}
	for _, f := range found {
		a.Defects = append(a.Defects, f.defect)
		has[f.defect] = true
		why = append(why, f.defect+": "+f.why)
	}
	var todo []string
	a.SuggestedDescription, todo = suggest(t, has)
	a.Notes = "Heuristic: " + strings.Join(why, "; ") + "."
	if a.SuggestedDescription == "" {
		a.Notes += " The name, schema and current description show nothing a better description could say"
	} else {
		a.Notes += " The suggestion is built from the name, schema and current description only: verify it against the implementation before using it"
	}
	if len(todo) > 0 {
		a.Notes += ", and add what the definition does not show: " + strings.Join(todo, "; ")
	}
	a.Notes += "."
	return a
}

// suggest writes a replacement description from what the definition
// shows and nothing more: a purpose from the name (or the current text
// when it says more than the name), every required parameter with its
// type and documented meaning, the optional ones by name, what the
// annotations say, and what comes back. It is text an author could
// paste as it is: what the definition does not show is left out of it
// and returned apart (todo), for the notes to ask for. It is "" when it
// would say nothing the current description does not.
func suggest(t gTool, has map[string]bool) (string, []string) {
	var b, todo []string
	desc := strings.TrimSpace(t.description())
	if has[defectRestates] || desc == "" {
		purpose, missing := purposeSentence(t)
		if purpose != "" {
			b = append(b, purpose)
		} else {
			todo = append(todo, missing)
		}
		todo = append(todo, "when to use it and what it changes")
	} else {
		b = append(b, desc+strings.Repeat(".", boolInt(!strings.HasSuffix(desc, "."))))
	}
	var optional []string
	unlisted := 0
	for _, p := range params(t.InputSchema) {
		typ := typeName(p)
		if !p.required {
			if len(optional) < maxSuggestedParams {
				optional = append(optional, p.name+parenthesized(typ))
			} else {
				unlisted++
			}
			continue
		}
		m := meaning(p)
		if m == "" {
			todo = append(todo, "what "+p.name+" means and which values it accepts")
		} else {
			m = ": " + m
		}
		b = append(b, "Requires "+p.name+parenthesized(typ)+m+".")
	}
	if unlisted > 0 {
		// A list cut short must not read as the whole of it.
		optional = append(optional, fmt.Sprintf("and %d more (see the inputSchema)", unlisted))
	}
	if len(optional) > 0 {
		b = append(b, "Optional: "+strings.Join(optional, ", ")+".")
	}
	switch {
	case isTrue(t.hint("destructiveHint")):
		b = append(b, "Destructive: confirm with the user before calling it.")
	case isTrue(t.hint("readOnlyHint")):
		b = append(b, "Read-only: it changes nothing.")
	}
	if has[defectNoReturn] || has[defectRestates] {
		if r := returnSentence(t.OutputSchema); r != "" {
			b = append(b, r)
		} else {
			todo = append(todo, "what the call returns")
		}
	}
	text := strings.Join(b, " ")
	if strings.TrimRight(text, ". ") == strings.TrimRight(desc, ". ") {
		text = ""
	}
	return text, todo
}

func parenthesized(s string) string {
	if s == "" {
		return ""
	}
	return " (" + s + ")"
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// purposeSentence states the purpose the definition shows: the verb and
// object of the current description's first sentence, whole and never
// cut at a word limit, else the name's verb and resource. What it cannot state (the action, or what it acts
// on) it returns apart, as what an author must add.
func purposeSentence(t gTool) (sentence, missing string) {
	if ss := lex.Sentences(t.description()); len(ss) > 0 {
		if pp := purpose(lex.StripNamePrefix(ss[0], t.Name)); pp.verb != "" && pp.whole != "" {
			return capitalize(pp.verb) + " " + pp.whole + ".", ""
		}
	}
	res := resourceWords(t.Name, "")
	object := "the " + strings.Join(res, " ")
	v := firstNameVerb(t.Name)
	switch {
	case v != "" && len(res) > 0:
		return capitalize(v) + " " + object + ".", ""
	case v != "":
		return "", "what the tool does and to what"
	case len(res) > 0:
		return "", "what the tool does to " + object
	}
	return "", "what the tool does"
}

// typeName is a parameter's type as the schema gives it, or "".
func typeName(p gParam) string {
	if p.typ == "array" {
		items, _ := p.schema["items"].(map[string]any)
		if it := schemaType(items); it != "" {
			return "array of " + it
		}
	}
	return p.typ
}

// meaning is what the definition says about a parameter, or "".
func meaning(p gParam) string {
	var parts []string
	if p.desc != "" {
		parts = append(parts, strings.TrimRight(p.desc, "."))
	}
	if e, ok := p.schema["enum"].([]any); ok && len(e) > 0 {
		vs := make([]string, 0, len(e))
		for _, v := range e {
			vs = append(vs, compactJSON(v))
		}
		parts = append(parts, "one of "+strings.Join(vs, ", "))
	}
	if d, ok := p.schema["default"]; ok {
		parts = append(parts, "default "+compactJSON(d))
	}
	return strings.Join(parts, "; ")
}

// returnSentence says what comes back, from the outputSchema, or is ""
// when the outputSchema does not say.
func returnSentence(out map[string]any) string {
	if !explicitOutput(out) {
		return ""
	}
	if d, ok := out["description"].(string); ok && strings.TrimSpace(d) != "" {
		return "Returns " + lowerFirst(strings.TrimRight(strings.TrimSpace(d), ".")) + "."
	}
	if p, ok := out["properties"].(map[string]any); ok && len(p) > 0 {
		keys := make([]string, 0, len(p))
		for k := range p {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if len(keys) > maxSuggestedParams {
			keys = append(keys[:maxSuggestedParams], "…")
		}
		return "Returns an object with " + strings.Join(keys, ", ") + " (see the outputSchema)."
	}
	return "Returns what the outputSchema describes."
}
