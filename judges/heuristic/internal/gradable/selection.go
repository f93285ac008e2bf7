package gradable

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"sync"

	"github.com/rubricmcp/rubric/judges/heuristic/internal/lex"
)

// SelectionInput is the structured input of a gradable.selection
// question: one task and the whole surface, without the expected tool.
type SelectionInput struct {
	Version string          `json:"version"`
	Task    string          `json:"task"`
	Tools   json.RawMessage `json:"tools"`
	// Key, when set, names Tools for the cache of prepared surfaces (the
	// hash a run's questions share them under), so that it need not be
	// hashed again for every task.
	Key string `json:"-"`
}

// preparedSurface is a surface made ready for selection questions: its
// tools decoded, indexed, and its namespace found.
type preparedSurface struct {
	tools []gTool
	ix    *bm25Index
	ns    string
	// checks validate arguments against each tool's inputSchema.
	checks *checkers
}

// maxPrepared is how many surfaces the selection cache keeps. A run asks
// every task of one surface in a row (twice with rewritten descriptions),
// so a few suffice.
const maxPrepared = 8

// prepared caches surfaces by the sha256 of their tools' JSON, so that
// the hundreds of tasks of one surface decode and index it once, however
// many are asked at the same time (a run asks six at once, and each
// preparing the surface on its own was a fifth of the judge's CPU). It
// changes no answer: the same bytes always prepare the same surface.
var prepared = struct {
	sync.Mutex
	m     map[[32]byte]*preparing
	order [][32]byte
}{m: map[[32]byte]*preparing{}}

// preparing is a surface being prepared, or prepared, once.
type preparing struct {
	once sync.Once
	p    *preparedSurface
	err  error
}

// prepareSurface decodes and indexes a selection question's tools (a
// test counts the calls).
var prepareSurface = func(raw json.RawMessage) (*preparedSurface, error) {
	var tools []gTool
	if len(bytes.TrimSpace(raw)) > 0 {
		if err := json.Unmarshal(raw, &tools); err != nil {
			return nil, fmt.Errorf("the question's input is not a gradable.selection object: %w", err)
		}
	}
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return &preparedSurface{tools: tools, ix: indexTools(tools), ns: surfaceNamespace(names), checks: newCheckers(len(tools))}, nil
}

// prepare returns the prepared surface of a selection question's tools,
// raw, named by name when it is not empty.
func prepare(name string, raw json.RawMessage) (*preparedSurface, error) {
	var key [32]byte
	if name != "" {
		key = sha256.Sum256([]byte("shared\x00" + name))
	} else {
		key = sha256.Sum256(raw)
	}
	prepared.Lock()
	e, ok := prepared.m[key]
	if !ok {
		if len(prepared.order) >= maxPrepared {
			delete(prepared.m, prepared.order[0])
			prepared.order = prepared.order[1:]
		}
		e = &preparing{}
		prepared.m[key] = e
		prepared.order = append(prepared.order, key)
	}
	prepared.Unlock()
	e.once.Do(func() { e.p, e.err = prepareSurface(raw) })
	return e.p, e.err
}

// selectionAnswer is the answer to a gradable.selection question.
type selectionAnswer struct {
	Tool      *string        `json:"tool"`
	Arguments map[string]any `json:"arguments"`
	Confirm   bool           `json:"confirm"`
	Steps     int            `json:"steps"`
	Reasoning string         `json:"reasoning"`
}

// BM25 parameters and field weights of the selection retriever.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
	// A word of the tool's name counts three times, of its title twice,
	// of its description and its parameters' names and descriptions
	// once: a name is short and says most.
	nameWeight  = 3
	titleWeight = 2
	// relatedWeight is what a task word's related word (gradable.related:
	// "fetch" for "get") adds, against 1 for the word itself.
	relatedWeight = 0.5
)

// bm25Index holds the term counts of every tool of a surface.
type bm25Index struct {
	docs  []map[string]float64
	lens  []float64
	df    map[string]int
	avgdl float64
	// postings are, for each term, the documents that hold it and its
	// weight in each, in the documents' order: a task's scores are
	// summed over its terms' postings, not looked up in every document.
	postings map[string][]posting
}

// posting is a term's weight in one document.
type posting struct {
	doc int
	tf  float64
}

// indexTools builds the retrieval index. A description's mentions of
// another tool by a name of two or more words ("use get_bookmark
// instead") are left out: they point away from the tool.
func indexTools(tools []gTool) *bm25Index {
	others := map[string]bool{}
	for _, t := range tools {
		if len(lex.NameWords(t.Name)) > 1 {
			others[strings.ToLower(t.Name)] = true
		}
	}
	ix := &bm25Index{df: map[string]int{}, postings: map[string][]posting{}}
	total := 0.0
	for _, t := range tools {
		d := map[string]float64{}
		n := 0.0
		add := func(ws []string, weight float64) {
			for _, w := range terms(ws) {
				d[w] += weight
				n += weight
			}
		}
		add(lex.NameWords(t.Name), nameWeight)
		add(lex.Words(t.title()), titleWeight)
		self := strings.ToLower(t.Name)
		desc := identifierToken.ReplaceAllStringFunc(t.description(), func(id string) string {
			l := strings.ToLower(strings.TrimRight(id, ".-"))
			if l != self && others[l] {
				return " "
			}
			return id
		})
		add(lex.Words(desc), 1)
		for _, p := range params(t.InputSchema) {
			add(p.words, 1)
			add(lex.Words(p.desc), 1)
		}
		for w, tf := range d {
			ix.df[w]++
			ix.postings[w] = append(ix.postings[w], posting{len(ix.docs), tf})
		}
		ix.docs = append(ix.docs, d)
		ix.lens = append(ix.lens, n)
		total += n
	}
	if len(tools) > 0 {
		ix.avgdl = total / float64(len(tools))
	}
	return ix
}

var identifierToken = regexp.MustCompile(`[A-Za-z][A-Za-z0-9_.\-]*`)

// queryTerm is one word of a task with its weight.
type queryTerm struct {
	term   string
	weight float64
}

// query turns a task into weighted terms: its content words, then the
// words related to them at relatedWeight, each once, in order.
func query(task string) []queryTerm {
	var out []queryTerm
	seen := map[string]bool{}
	base := terms(lex.Words(task))
	for _, w := range base {
		if !seen[w] {
			seen[w] = true
			out = append(out, queryTerm{w, 1})
		}
	}
	for _, w := range base {
		for _, r := range relatedTo[w] {
			if !seen[r] {
				seen[r] = true
				out = append(out, queryTerm{r, relatedWeight})
			}
		}
	}
	return out
}

// scores are the BM25 scores of every document for q, as score gives
// them: each document's terms are added in q's order, so the sums are
// score's to the last bit.
func (ix *bm25Index) scores(q []queryTerm) []float64 {
	n := float64(len(ix.docs))
	out := make([]float64, len(ix.docs))
	for _, qt := range q {
		ps := ix.postings[qt.term]
		if len(ps) == 0 {
			continue
		}
		df := float64(ix.df[qt.term])
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range ps {
			norm := p.tf + bm25K1*(1-bm25B+bm25B*ix.lens[p.doc]/ix.avgdl)
			out[p.doc] += qt.weight * idf * p.tf * (bm25K1 + 1) / norm
		}
	}
	return out
}

// score is the BM25 score of document i for q, and the task words that
// matched it.
func (ix *bm25Index) score(i int, q []queryTerm) (float64, []string) {
	n := float64(len(ix.docs))
	d := ix.docs[i]
	s := 0.0
	var matched []string
	for _, qt := range q {
		tf := d[qt.term]
		if tf == 0 {
			continue
		}
		df := float64(ix.df[qt.term])
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		norm := tf + bm25K1*(1-bm25B+bm25B*ix.lens[i]/ix.avgdl)
		s += qt.weight * idf * tf * (bm25K1 + 1) / norm
		matched = append(matched, qt.term)
	}
	return s, matched
}

// selectTool answers a gradable.selection question.
func selectTool(in *SelectionInput) (selectionAnswer, error) {
	a := selectionAnswer{Arguments: map[string]any{}, Steps: 1}
	ps, err := prepare(in.Key, in.Tools)
	if err != nil {
		return a, err
	}
	tools, ix := ps.tools, ps.ix
	q := query(in.Task)
	best, second := -1, -1
	var bestScore, secondScore float64
	for i, s := range ix.scores(q) {
		switch {
		case s > bestScore:
			second, secondScore = best, bestScore
			best, bestScore = i, s
		case s > secondScore:
			second, secondScore = i, s
		}
	}
	if best < 0 {
		a.Reasoning = "Heuristic: no word of the task matches " + theToolsWords(len(tools)) + ", so no tool is chosen."
		return a, nil
	}
	_, bestWords := ix.score(best, q)
	t := tools[best]
	name := t.Name
	a.Tool = &name
	args, missingID, fromSchema, unfilled := fillArguments(t, ps.checks.of(best, t), in.Task, ps.ns)
	a.Arguments = args
	confirm, cue := wantsConfirm(t)
	a.Confirm = confirm
	if missingID != "" && hasLookup(tools, best) {
		a.Steps = 2
	}
	var why strings.Builder
	fmt.Fprintf(&why, "Heuristic: BM25 over names, titles, descriptions and parameters chose %s (%.2f) for the words %s", name, bestScore, strings.Join(capWords(bestWords, 8), ", "))
	if second >= 0 {
		fmt.Fprintf(&why, "; next was %s (%.2f)", tools[second].Name, secondScore)
	}
	why.WriteString(".")
	if a.Confirm {
		fmt.Fprintf(&why, " It asks first: %s.", cue)
	}
	if a.Steps > 1 {
		fmt.Fprintf(&why, " The task gives no %s, so a lookup comes first.", missingID)
	}
	if len(fromSchema) > 0 {
		fmt.Fprintf(&why, " The task gives no valid %s, so %s from the schema.", strings.Join(fromSchema, ", "), plural(fromSchema, "a value stands in", "values stand in"))
	}
	if len(unfilled) > 0 {
		fmt.Fprintf(&why, " No value it can build satisfies the schema of %s, so %s left out and a caller would have to ask for %s.", strings.Join(unfilled, ", "), plural(unfilled, "it is", "they are"), plural(unfilled, "it", "them"))
	}
	a.Reasoning = why.String()
	return a, nil
}

// theToolsWords names where a task's words were looked for, agreeing
// with the number of tools: "any of the 7 tools' names, ...", "the only
// tool's name, ...", or, with none, that there is nothing to match.
func theToolsWords(n int) string {
	switch n {
	case 0:
		return "anything, as there are no tools"
	case 1:
		return "the only tool's name, title, description or parameters"
	}
	return fmt.Sprintf("any of the %d tools' names, titles, descriptions or parameters", n)
}

func capWords(ws []string, n int) []string {
	if len(ws) <= n {
		return ws
	}
	return append(append([]string{}, ws[:n]...), "…")
}

// wantsConfirm reports whether a caller who reads the definition would
// ask before calling: the tool is annotated destructive, or, unless it
// is annotated read-only, its prose warns of data loss. The second
// result names the cue.
func wantsConfirm(t gTool) (bool, string) {
	if isTrue(t.hint("destructiveHint")) {
		return true, "the tool is annotated destructiveHint true"
	}
	if isTrue(t.hint("readOnlyHint")) {
		return false, ""
	}
	if w := dangerous(lex.NewText(prose(t.description()))); w != "" {
		return true, fmt.Sprintf("the description says %q", w)
	}
	return false, ""
}

// hasLookup reports whether another tool of the surface finds things: its
// name holds a lookup verb (list, search, find, get...).
func hasLookup(tools []gTool, except int) bool {
	for i, t := range tools {
		if i == except {
			continue
		}
		for _, w := range lex.NameWords(t.Name) {
			if lookupVerbSet[w] || lookupVerbSet[gVerbForm(w)] {
				return true
			}
		}
	}
	return false
}

// Patterns of values a task may carry without naming the parameter.
var (
	urlPattern    = regexp.MustCompile(`https?://[^\s"'<>]+`)
	pathPattern   = regexp.MustCompile(`(?:^|\s)(~?/[^\s"']+)`)
	idPattern     = regexp.MustCompile(`\b[A-Za-z]+-[0-9]+\b|\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`)
	numberPattern = regexp.MustCompile(`(?:^|[\s(])(-?[0-9]+(?:\.[0-9]+)?)\b`)
	quotedPattern = regexp.MustCompile(`"([^"]*)"|'([^']*)'|“([^”]*)”`)
)

// fillArguments fills the chosen tool's required parameters, and the
// optional ones the task names with a value, from the task when it
// states them and from the schema otherwise; every value is one the
// tool's schema accepts (c checks it). It returns the first required
// identifier the task did not supply, or "", the required parameters
// filled from the schema because the task gave no valid value, and
// those no value built from the schema satisfies, which are left out.
func fillArguments(t gTool, c *checker, task, ns string) (args map[string]any, missingID string, fromSchema, unfilled []string) {
	args = map[string]any{}
	used := map[string]bool{}
	res := resourceWords(t.Name, ns)
	resource := ""
	if len(res) > 0 {
		resource = lex.Stem(res[len(res)-1])
	}
	ps := params(t.InputSchema)
	names := map[string]bool{}
	for _, p := range ps {
		names[strings.Join(p.words, " ")] = true
		names[strings.ToLower(p.name)] = true
	}
	for _, p := range ps {
		if v, ok := stated(p, task, names); ok && c.accepts(args, p.name, v) {
			args[p.name] = v
			used[usedKey(v)] = true
			continue
		}
		if !p.required {
			continue
		}
		if v, ok := spotted(p, task, used); ok && c.accepts(args, p.name, v) {
			args[p.name] = v
			continue
		}
		if missingID == "" && isID(p.name) {
			missingID = p.name
		}
		o := sampleOptions{resource: resource, schemaFirst: true}
		v, ok := fitting(c, args, p, t.InputSchema, o, sample(p, o))
		if !ok {
			unfilled = append(unfilled, p.name)
			continue
		}
		args[p.name] = v
		fromSchema = append(fromSchema, p.name)
	}
	return args, missingID, fromSchema, unfilled
}

// fitting returns the first of a parameter's candidate values (first,
// then those its schema offers) that the checker accepts as the member
// p.name of args, and false when none is.
func fitting(c *checker, args map[string]any, p gParam, root map[string]any, o sampleOptions, first any) (any, bool) {
	if c.accepts(args, p.name, first) {
		return first, true
	}
	for _, v := range candidates(p, root, o, first)[1:] {
		if c.accepts(args, p.name, v) {
			return v, true
		}
	}
	return nil, false
}

// usedKey is how a value taken from the task is remembered, so that one
// value does not fill two parameters.
func usedKey(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return render(v)
}

// stated finds the parameter's name in the task followed by a value
// ("with id bm-3", "the format is csv"), the last such mention first, and
// returns the value in the parameter's type. Another parameter's name is
// no value ("url: id bm-2" states no url).
func stated(p gParam, task string, names map[string]bool) (any, bool) {
	low := asciiLower(task)
	var phrases []string
	if len(p.words) > 0 {
		phrases = append(phrases, strings.Join(p.words, " "))
	}
	if l := asciiLower(p.name); len(phrases) == 0 || l != phrases[0] {
		phrases = append(phrases, l)
	}
	for _, ph := range phrases {
		if ph == "" {
			// A parameter named "" is mentioned nowhere; an empty
			// phrase would be found at every end, and never move it.
			continue
		}
		for end := len(low); end > 0; {
			i := strings.LastIndex(low[:end], ph)
			if i < 0 {
				break
			}
			end = i
			after := i + len(ph)
			if i > 0 && wordByte(low[i-1]) || after < len(low) && wordByte(low[after]) {
				continue
			}
			rest := strings.TrimLeft(task[after:], " ")
			for range 2 {
				w, r, _ := strings.Cut(rest, " ")
				if !valueSkipSet[strings.ToLower(w)] || r == "" {
					break
				}
				rest = r
			}
			var v any
			var ok bool
			if schemaType(p.schema) == "array" {
				var l []any
				l, ok = parseList(rest)
				v = l
			} else {
				v, _, ok = parseValue(rest)
			}
			if s, isString := v.(string); !ok || isString && names[strings.ToLower(s)] && !strings.HasPrefix(rest, `"`) {
				continue
			}
			if c, ok := coerce(v, p.schema); ok {
				return c, true
			}
		}
	}
	return nil, false
}

// spotted finds a value for a required parameter that the task carries
// without naming it: an enum value, a URL, a path, an identifier, a
// number or a quoted string, as the parameter's kind asks, not used by
// another parameter.
func spotted(p gParam, task string, used map[string]bool) (any, bool) {
	if e, ok := p.schema["enum"].([]any); ok {
		t := lex.NewText(task)
		for _, v := range e {
			if s, ok := v.(string); ok && s != "" && t.Has(strings.Join(lex.Words(s), " ")) {
				return v, true
			}
		}
		return nil, false
	}
	var candidates []string
	switch typ := schemaType(p.schema); {
	case typ == "integer" || typ == "number":
		for _, m := range numberPattern.FindAllStringSubmatch(task, -1) {
			candidates = append(candidates, m[1])
		}
	case typ == "string" || typ == "":
		switch stringKind(p, p.schema) {
		case "url":
			candidates = urlPattern.FindAllString(task, -1)
		case "path", "dir":
			for _, m := range pathPattern.FindAllStringSubmatch(task, -1) {
				candidates = append(candidates, m[1])
			}
		case "id":
			candidates = idPattern.FindAllString(task, -1)
		default:
			for _, m := range quotedPattern.FindAllStringSubmatch(task, -1) {
				candidates = append(candidates, m[1]+m[2]+m[3])
			}
		}
	}
	for _, c := range candidates {
		c = strings.TrimRight(c, ".,;:?!)")
		if c == "" || used[c] {
			continue
		}
		if v, ok := coerce(c, p.schema); ok {
			used[c] = true
			return v, true
		}
	}
	return nil, false
}
