package gradable

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/rubricmcp/rubric/judges/heuristic/internal/lex"
)

// This file holds what the four Gradable v1 kinds share: the tool as the
// questions send it, its parameters, sample values for them, how a value
// is written into a task and read back out of one, and the word forms the
// retrieval and similarity cues compare.

// gTool is one tool of a Gradable question: a tools/list entry. Members
// the question leaves out or sends as null decode to their zero value.
type gTool struct {
	Name         string         `json:"name"`
	Title        *string        `json:"title"`
	Description  *string        `json:"description"`
	InputSchema  map[string]any `json:"inputSchema"`
	OutputSchema map[string]any `json:"outputSchema"`
	Annotations  map[string]any `json:"annotations"`
}

func (t gTool) title() string {
	if t.Title != nil && strings.TrimSpace(*t.Title) != "" {
		return *t.Title
	}
	s, _ := t.Annotations["title"].(string)
	return s
}

func (t gTool) description() string {
	if t.Description == nil {
		return ""
	}
	return strings.TrimSpace(*t.Description)
}

// hint returns an annotation hint, or nil when it is not set.
func (t gTool) hint(key string) *bool { return lex.Hint(t.Annotations, key) }

func isTrue(b *bool) bool { return b != nil && *b }

// gParam is one top-level input parameter.
type gParam struct {
	name     string
	words    []string // words of the name
	schema   map[string]any
	typ      string // JSON type, inferred when not declared; "" when unknown
	required bool
	desc     string
}

// params returns the parameters of an input schema: the required ones in
// the order of "required", then the others sorted by name. A required
// name with no property is kept, with an empty schema.
func params(schema map[string]any) []gParam {
	props, _ := schema["properties"].(map[string]any)
	req := map[string]bool{}
	var out []gParam
	if list, ok := schema["required"].([]any); ok {
		for _, v := range list {
			n, ok := v.(string)
			if !ok || req[n] {
				continue
			}
			req[n] = true
			ps, _ := props[n].(map[string]any)
			out = append(out, newParam(n, ps, true))
		}
	}
	var rest []string
	for n := range props {
		if !req[n] {
			rest = append(rest, n)
		}
	}
	sort.Strings(rest)
	for _, n := range rest {
		ps, _ := props[n].(map[string]any)
		out = append(out, newParam(n, ps, false))
	}
	return out
}

func newParam(name string, s map[string]any, required bool) gParam {
	if s == nil {
		s = map[string]any{}
	}
	d, _ := s["description"].(string)
	return gParam{name: name, words: lex.NameWords(name), schema: s, typ: schemaType(s), required: required, desc: strings.TrimSpace(d)}
}

// schemaType returns a schema's JSON type: its declared "type" (the first
// that is not null), else what its keywords or enum imply, else "".
func schemaType(s map[string]any) string {
	switch t := s["type"].(type) {
	case string:
		return t
	case []any:
		for _, v := range t {
			if n, ok := v.(string); ok && n != "null" {
				return n
			}
		}
	}
	if _, ok := s["properties"]; ok {
		return "object"
	}
	if _, ok := s["items"]; ok {
		return "array"
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		return jsonType(e[0])
	}
	if c, ok := s["const"]; ok {
		return jsonType(c)
	}
	return ""
}

func jsonType(v any) string {
	switch x := v.(type) {
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64:
		if x == math.Trunc(x) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return ""
}

// isID reports whether a parameter names an identifier: "id", "*_id",
// "*Id", "*ID".
func isID(name string) bool {
	ws := lex.NameWords(name)
	return len(ws) > 0 && ws[len(ws)-1] == "id"
}

// has reports whether the parameter's name holds one of ws.
func (p gParam) has(ws ...string) bool {
	for _, w := range p.words {
		for _, x := range ws {
			if w == x {
				return true
			}
		}
	}
	return false
}

// Sample values by kind, one per variant; variant i takes entry i mod len.
var samples = map[string][]string{
	"url":      {"https://example.com/docs", "https://go.dev/blog/", "https://example.org/news"},
	"path":     {"/tmp/notes.txt", "/tmp/report.md", "/tmp/data.csv"},
	"dir":      {"/tmp/project", "/tmp/work", "/tmp/docs"},
	"email":    {"ana@example.com", "li@example.org", "sam@example.net"},
	"date":     {"2026-01-15", "2026-03-02", "2026-06-30"},
	"datetime": {"2026-01-15T09:30:00Z", "2026-03-02T14:00:00Z", "2026-06-30T08:15:00Z"},
	"uuid":     {"3f2a9c1e-8d4b-4c2a-9e1f-5b6d7a8c9e0f", "a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d", "0f9e8d7c-6b5a-4c3d-9e2f-1a0b9c8d7e6f"},
	"query":    {"quarterly report", "json schema", "release notes"},
	"name":     {"Quarterly report", "Release notes", "Team roadmap"},
	"text":     {"Looks good to me", "Please review this", "Thanks for the update"},
	"branch":   {"main", "develop", "feature-login"},
	"repo":     {"demo-repo", "website", "tools"},
	"owner":    {"octo", "acme", "sam"},
	"selector": {"#submit", "#search", ".menu"},
	"key":      {"Enter", "Escape", "Tab"},
	"code":     {"document.title", "1 + 1", "window.location.href"},
	"sql":      {"SELECT 1", "SELECT count(*) FROM orders", "SELECT name FROM users"},
	"language": {"en", "fr", "de"},
	"host":     {"example.com", "api.example.org", "localhost"},
	"ip":       {"192.168.1.10", "10.0.0.5", "172.16.0.2"},
	"generic":  {"sample-1", "sample-2", "sample-3"},
}

var idNumbers = []int{42, 7, 19}
var numberSamples = []float64{5, 10, 3}

// stringKind picks the kind of sample a string parameter takes, from its
// format, then the words of its name.
func stringKind(p gParam, s map[string]any) string {
	switch f, _ := s["format"].(string); f {
	case "uri", "url", "iri", "uri-reference":
		return "url"
	case "email", "idn-email":
		return "email"
	case "date":
		return "date"
	case "date-time":
		return "datetime"
	case "uuid":
		return "uuid"
	case "hostname", "idn-hostname":
		return "host"
	case "ipv4", "ipv6":
		return "ip"
	}
	switch {
	case len(p.words) == 0:
		return "generic"
	case isID(p.name):
		return "id"
	case p.has("url", "uri", "link", "href", "endpoint", "website"):
		return "url"
	case p.has("dir", "directory", "folder", "cwd", "root"):
		return "dir"
	case p.has("path", "file", "filename", "filepath"):
		return "path"
	case p.has("email"):
		return "email"
	case p.has("date", "since", "until"):
		return "date"
	case p.has("sql"):
		return "sql"
	case p.has("query", "q", "search", "keyword", "keywords", "term", "terms", "pattern"):
		return "query"
	case p.has("name", "title", "label", "subject"):
		return "name"
	case p.has("message", "body", "content", "comment", "note", "text", "description", "summary", "thought", "prompt"):
		return "text"
	case p.has("branch", "ref"):
		return "branch"
	case p.has("repo", "repository", "project"):
		return "repo"
	case p.has("owner", "org", "organization", "user", "username", "namespace", "author"):
		return "owner"
	case p.has("selector", "element", "locator"):
		return "selector"
	case p.has("key"):
		return "key"
	case p.has("code", "script", "function", "expression", "js"):
		return "code"
	case p.has("language", "lang", "locale"):
		return "language"
	case p.has("host", "hostname", "domain"):
		return "host"
	}
	return "generic"
}

// sampleOptions says where a sample value may come from.
type sampleOptions struct {
	variant  int
	resource string // the tool's resource word, for ids ("bookmark-42")
	// schemaFirst takes the default before the examples and always the
	// first enum value: the choice of a caller that fills in what the
	// task left out. Without it, enum values and examples vary with
	// the variant: the choice of a task writer.
	schemaFirst bool
}

// sample returns a plausible value for a parameter: a const or enum
// value, an example or the default, else a placeholder that fits the
// type, format and name.
func sample(p gParam, o sampleOptions) any {
	return sampleSchema(p, p.schema, o, 0)
}

func sampleSchema(p gParam, s map[string]any, o sampleOptions, depth int) any {
	v := o.variant
	if c, ok := s["const"]; ok {
		return c
	}
	if e, ok := s["enum"].([]any); ok && len(e) > 0 {
		if o.schemaFirst {
			return e[0]
		}
		return e[v%len(e)]
	}
	ex, _ := s["examples"].([]any)
	def, hasDef := s["default"]
	if o.schemaFirst && hasDef && def != nil {
		return def
	}
	if len(ex) > 0 {
		if o.schemaFirst {
			return ex[0]
		}
		return ex[v%len(ex)]
	}
	if hasDef && def != nil {
		return def
	}
	typ := schemaType(s)
	switch typ {
	case "integer", "number":
		return sampleNumber(p, s, v)
	case "boolean":
		return v%2 == 0
	case "array":
		items, _ := s["items"].(map[string]any)
		if items == nil {
			items = map[string]any{}
		}
		n := 1
		if m, ok := s["minItems"].(float64); ok && m > 1 {
			n = int(min(m, 3))
		}
		out := make([]any, 0, n)
		for i := 0; i < n; i++ {
			io := o
			io.variant = v + i
			out = append(out, sampleSchema(p, items, io, depth+1))
		}
		return out
	case "object":
		out := map[string]any{}
		if depth >= 3 {
			return out
		}
		for _, q := range params(s) {
			if q.required {
				out[q.name] = sampleSchema(q, q.schema, o, depth+1)
			}
		}
		return out
	}
	kind := stringKind(p, s)
	if kind == "id" {
		prefix := "item"
		if len(p.words) > 1 {
			prefix = strings.Join(p.words[:len(p.words)-1], "-")
		} else if o.resource != "" {
			prefix = o.resource
		}
		return fmt.Sprintf("%s-%d", prefix, idNumbers[v%len(idNumbers)])
	}
	list := samples[kind]
	return list[v%len(list)]
}

func sampleNumber(p gParam, s map[string]any, v int) any {
	x := numberSamples[v%len(numberSamples)]
	switch {
	case p.has("page"):
		x = float64(1 + v%3)
	case p.has("port"):
		x = 8080
	case p.has("timeout", "ms", "milliseconds"):
		x = 5000
	}
	if lo, ok := s["minimum"].(float64); ok && x < lo {
		x = lo
	}
	if lo, ok := s["exclusiveMinimum"].(float64); ok && x <= lo {
		x = math.Floor(lo) + 1
	}
	if hi, ok := s["maximum"].(float64); ok && x > hi {
		x = hi
	}
	if hi, ok := s["exclusiveMaximum"].(float64); ok && x >= hi {
		x = math.Ceil(hi) - 1
	}
	if schemaType(s) == "integer" {
		return int64(math.Round(x))
	}
	return x
}

// bareValue is a string a task may write without quotes.
var bareValue = regexp.MustCompile(`^[A-Za-z0-9_./:@#~+\-]*[A-Za-z0-9_/#~+\-]$`)

// render writes a value as a task states it: short tokens bare, other
// strings in double quotes, strings inside lists always quoted, numbers
// and booleans as written in JSON, objects and lists of objects as JSON.
func render(v any) string {
	switch x := v.(type) {
	case string:
		if bareValue.MatchString(x) && !lex.StopwordSet[strings.ToLower(x)] {
			return x
		}
		return quoteValue(x)
	case []any:
		parts := make([]string, 0, len(x))
		for _, e := range x {
			switch e := e.(type) {
			case map[string]any, []any:
				return compactJSON(v)
			case string:
				parts = append(parts, quoteValue(e))
			default:
				parts = append(parts, render(e))
			}
		}
		return strings.Join(parts, ", ")
	case map[string]any:
		return compactJSON(v)
	case nil:
		return "null"
	}
	return compactJSON(v)
}

func quoteValue(s string) string {
	if strings.Contains(s, `"`) {
		return "'" + s + "'"
	}
	return `"` + s + `"`
}

func compactJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	return string(b)
}

// parseValue reads one value at the start of s: a quoted string, a JSON
// object or array, or a bare token (with trailing punctuation dropped).
// It returns the value as written, the rest of s, and whether a value was
// there; a stopword or punctuation is no value.
func parseValue(s string) (any, string, bool) {
	if s == "" {
		return nil, s, false
	}
	switch s[0] {
	case '"', '\'':
		end := strings.IndexByte(s[1:], s[0])
		if end < 0 {
			return nil, s, false
		}
		return s[1 : 1+end], s[2+end:], true
	case '{', '[':
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			return nil, s, false
		}
		return normalizeNumbers(v), s[dec.InputOffset():], true
	}
	end := strings.IndexFunc(s, unicode.IsSpace)
	if end < 0 {
		end = len(s)
	}
	tok := strings.TrimRight(s[:end], ".,;:?!)")
	if tok == "" || !bareValue.MatchString(tok) || lex.StopwordSet[strings.ToLower(tok)] {
		return nil, s, false
	}
	return tok, s[len(tok):], true
}

// normalizeNumbers turns json.Numbers into int64 or float64.
func normalizeNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = normalizeNumbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = normalizeNumbers(x[k])
		}
	}
	return v
}

// parseList reads one or more values separated by commas or "and".
func parseList(s string) ([]any, bool) {
	first, rest, ok := parseValue(s)
	if !ok {
		return nil, false
	}
	if l, isList := first.([]any); isList {
		return l, true
	}
	out := []any{first}
	for {
		r := strings.TrimLeft(rest, " ")
		switch {
		case strings.HasPrefix(r, ","):
			r = strings.TrimLeft(r[1:], " ")
			r = strings.TrimPrefix(r, "and ")
		case strings.HasPrefix(r, "and "):
			r = r[4:]
		default:
			return out, true
		}
		if r == "" || (r[0] != '"' && r[0] != '\'' && !unicode.IsDigit(rune(r[0]))) {
			return out, true
		}
		v, next, ok := parseValue(r)
		if !ok {
			return out, true
		}
		out = append(out, v)
		rest = next
	}
}

// coerce turns a value read from a task into the parameter's type; ok is
// false when it cannot be.
func coerce(v any, s map[string]any) (any, bool) {
	switch schemaType(s) {
	case "integer":
		if f, ok := toFloat(v); ok && f == math.Trunc(f) {
			return int64(f), true
		}
		return nil, false
	case "number":
		if f, ok := toFloat(v); ok {
			return f, true
		}
		return nil, false
	case "boolean":
		switch strings.ToLower(fmt.Sprint(v)) {
		case "true", "yes", "on":
			return true, true
		case "false", "no", "off":
			return false, true
		}
		return nil, false
	case "array":
		items, _ := s["items"].(map[string]any)
		if items == nil {
			items = map[string]any{}
		}
		list, isList := v.([]any)
		if !isList {
			list = []any{v}
		}
		out := make([]any, 0, len(list))
		for _, e := range list {
			c, ok := coerce(e, items)
			if !ok {
				return nil, false
			}
			out = append(out, c)
		}
		return out, true
	case "object":
		m, ok := v.(map[string]any)
		return m, ok
	case "string":
		switch x := v.(type) {
		case string:
			return x, true
		case int64, float64:
			return render(x), true
		}
		return nil, false
	}
	// Untyped: a caller reading prose passes what it read, as text.
	if f, ok := v.(float64); ok {
		return render(f), true
	}
	if i, ok := v.(int64); ok {
		return strconv.FormatInt(i, 10), true
	}
	return v, true
}

func toFloat(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case string:
		f, err := strconv.ParseFloat(x, 64)
		return f, err == nil
	}
	return 0, false
}

// gstem is the stemmer of the Gradable cues, lighter than a real one but
// stronger than stem: plurals and third persons fold, then "-ing" and
// "-ed", then a final "e" ("created", "creating", "creates", "create"
// are all "creat").
func gstem(w string) string {
	w = lex.Stem(w)
	switch {
	case len(w) > 5 && strings.HasSuffix(w, "ing"):
		w = undouble(w[:len(w)-3])
	case len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed"):
		w = undouble(w[:len(w)-2])
	}
	if len(w) > 3 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

// undouble drops a doubled final consonant ("stopp" from "stopped").
func undouble(w string) string {
	n := len(w)
	if n > 3 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiousl", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

// terms returns the stemmed content words of ws: no stopwords, no single
// letters.
func terms(ws []string) []string {
	out := make([]string, 0, len(ws))
	for _, w := range ws {
		if len(w) < 2 || lex.StopwordSet[w] {
			continue
		}
		out = append(out, gstem(w))
	}
	return out
}

// relatedTo maps a stemmed word to the stemmed words of its groups in
// gradable.related, itself excluded, sorted.
var relatedTo = func() map[string][]string {
	m := map[string]map[string]bool{}
	for _, g := range gradable.related {
		for _, a := range g {
			sa := gstem(a)
			for _, b := range g {
				if sb := gstem(b); sb != sa {
					if m[sa] == nil {
						m[sa] = map[string]bool{}
					}
					m[sa][sb] = true
				}
			}
		}
	}
	out := map[string][]string{}
	for w, set := range m {
		for r := range set {
			out[w] = append(out[w], r)
		}
		sort.Strings(out[w])
	}
	return out
}()

// canonical maps a stemmed word to the first word of its first group in
// gradable.related, so that "fetch" and "get" compare equal.
var canonical = func() map[string]string {
	m := map[string]string{}
	for _, g := range gradable.related {
		head := gstem(g[0])
		for _, w := range g {
			if _, ok := m[gstem(w)]; !ok {
				m[gstem(w)] = head
			}
		}
	}
	return m
}()

func canon(w string) string {
	if c, ok := canonical[w]; ok {
		return c
	}
	return w
}

// dangerous returns the danger wording of a description (not negated),
// or "".
func dangerous(t lex.Text) string {
	for _, p := range gradable.dangerWords {
		if t.HasUnnegated(p) {
			return strings.TrimSuffix(p, "*")
		}
	}
	return ""
}

// resourceWords returns the words of a tool's name after dropping the
// surface's namespace (ns, "" for none), its first verb and an "api"
// prefix: "bookmark" of get_bookmark, "merge request pipelines" of
// list_merge_request_pipelines, "branch" of git_branch.
func resourceWords(name, ns string) []string {
	var out []string
	verbSeen := false
	for _, w := range lex.WithoutNamespace(lex.NameWords(name), ns) {
		if !verbSeen && gVerbForm(w) != "" {
			verbSeen = true
			continue
		}
		if lex.StopwordSet[w] || w == "api" || len(w) < 2 {
			continue
		}
		out = append(out, w)
	}
	return out
}

// firstNameVerb returns the base form of the first word of a name that is
// a known verb, or "".
func firstNameVerb(name string) string {
	for _, w := range lex.NameWords(name) {
		if v := gVerbForm(w); v != "" {
			return v
		}
	}
	return ""
}

// gVerbForm is verbForm with the few verbs the Gradable cues add.
func gVerbForm(w string) string {
	return lex.VerbFormWith(w, extraVerbSet)
}

// surfaceNamespace returns the namespace most tool names of a surface
// share ("git" of git_add, git_commit...), or "".
func surfaceNamespace(names []string) string {
	ws := make([][]string, len(names))
	for i, n := range names {
		ws[i] = lex.NameWords(n)
	}
	return lex.Namespace(ws)
}
