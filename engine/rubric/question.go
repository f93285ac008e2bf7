package rubric

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/template"
	"text/template/parse"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/internal/jsonscan"
)

// Where a question is asked.
const (
	PerTool    = "tool"    // once for each tool
	PerSurface = "surface" // once for the whole surface
	PerItem    = "item"    // once for each item of a list the answers so far yield
)

// Question is something a rubric asks a judge: of each tool, of the whole
// surface, or of each item of an earlier answer.
type Question struct {
	Name string
	// Kind lets an offline judge recognise the question without reading
	// the prompt, such as "tdqs.tool".
	Kind string
	Per  string
	// Items, for a question per item, yields the items from the surface and
	// the answers before it; Subject names one item (default "item N").
	Items   *lang.Program
	Subject *lang.Program
	// When, if set, decides whether the question is asked at all; a
	// question not asked has a null answer.
	When *lang.Program
	// Input yields the structured input: the data the prompts are rendered
	// from, sent to the judge beside them, and hashed into the cache key.
	Input *lang.Program
	// Shared, if set, yields what the run's questions of this kind share,
	// by name (the server's tools, say): it is evaluated once a run, in
	// the scope of a question about the surface, so that each question's
	// input carries only what is its own. Share, if set, names the entry
	// of Shared a question uses; without it a question uses all of Shared.
	// A judge receives the shared value beside the input, once a run.
	Shared, Share *lang.Program
	// System and User are the prompt templates; Context, if set, is the
	// template of the shared part of the prompt, rendered from the shared
	// value alone (as .shared), once a run, and put before User.
	System, User, Context *Prompt
	// AnswerSchema is the JSON Schema every answer must satisfy, in
	// canonical JSON.
	AnswerSchema []byte
	schema       *jsonschema.Schema
	shape        *answerShape // the schema's fast path, when it has one
	// Retries is how many more times an unreadable answer is asked for.
	Retries int
	// Digest is "sha256:" + the hex sha256 of the question's canonical
	// encoding: everything above that can change an answer.
	Digest string
}

// Prompt is a prompt template: written in the rubric, read from a local
// file, or named by URL and sha256 and fetched on first use.
type Prompt struct {
	// Text is the template; empty for a prompt named by URL until it has
	// been fetched (see Resolve).
	Text string
	// URL and SHA256 name a remote prompt; the text fetched must hash to
	// SHA256 (hex).
	URL, SHA256 string
	// Block, when above 0, takes the prompt from the fetched file's
	// Block-th fenced code block (``` lines, counted from 1), so that a
	// prompt published inside a document is named by the document's
	// hash. Fill reads the prompt as text with {placeholders} rather than
	// a template (see FillPlaceholders).
	Block int
	Fill  bool
	tmpl  *template.Template
	// static is the prompt's text when its template has no action, so
	// that rendering it is the text itself; ok says it is.
	static struct {
		text string
		ok   bool
	}
	// measuring is the template as measured, made when first needed.
	measuring *measuring
}

// setTemplate sets p's parsed template, and its static text when the
// template is text alone: a prompt that reads nothing of the input (a
// system prompt, most often) is then not executed for every question.
func (p *Prompt) setTemplate(t *template.Template) {
	p.tmpl = t
	p.static.text, p.static.ok = staticText(t)
	p.measuring = &measuring{}
}

// staticText returns what t writes whatever its data, when its tree holds
// text nodes only.
func staticText(t *template.Template) (string, bool) {
	if t == nil || t.Tree == nil || t.Tree.Root == nil {
		return "", false
	}
	var b strings.Builder
	for _, n := range t.Tree.Root.Nodes {
		tn, ok := n.(*parse.TextNode)
		if !ok {
			return "", false
		}
		b.Write(tn.Text)
	}
	return b.String(), true
}

// Remote reports whether the prompt's text must be fetched.
func (p *Prompt) Remote() bool { return p.URL != "" }

// Validate checks an answer, JSON text, against the question's schema.
// The error says where the answer breaks the schema.
func (q *Question) Validate(answer []byte) error {
	// Every answer is validated: plain JSON is read by jsonscan, to the
	// values jsonschema's own reader gives.
	v, ok := jsonscan.Decode(answer)
	if !ok {
		var err error
		if v, err = jsonschema.UnmarshalJSON(bytes.NewReader(answer)); err != nil {
			return fmt.Errorf("the answer is not JSON: %v", err)
		}
	}
	return q.ValidateValue(v)
}

// ValidateValue is Validate for an answer already read by jsonscan
// (numbers as json.Number, what the schema validator reads), so that an
// answer read for the formulas is not read again to be validated.
func (q *Question) ValidateValue(v any) error {
	if q.schema == nil {
		return fmt.Errorf("question %q has no answer schema", q.Name)
	}
	if q.shape != nil && q.shape.accepts(v) {
		return nil
	}
	if err := q.schema.Validate(v); err != nil {
		return fmt.Errorf("the answer does not satisfy the question's schema: %s", oneLine(err.Error()))
	}
	return nil
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// templateFuncs are the functions prompt templates may call.
var templateFuncs = template.FuncMap{
	"json":    indentJSON,
	"fence":   Fence,
	"join":    func(sep string, xs []any) string { return joinAny(xs, sep) },
	"default": func(def, v any) any { return orDefault(def, v) },
}

func joinAny(xs []any, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = fmt.Sprint(x)
	}
	return strings.Join(parts, sep)
}

func orDefault(def, v any) any {
	switch x := v.(type) {
	case nil:
		return def
	case string:
		if strings.TrimSpace(x) == "" {
			return def
		}
	case []any:
		if len(x) == 0 {
			return def
		}
	case map[string]any:
		if len(x) == 0 {
			return def
		}
	}
	return v
}

// Fence wraps untrusted text from a definition so that a prompt shows it
// as data: between a begin and an end line that name it and carry a tag
// derived from the text. The tag is chosen so that the end line does not
// occur in the text (tags are tried in a fixed order until one is absent),
// so nothing inside can close the fence early, and the same text is
// fenced the same way every time. A value that is not a string is fenced
// as indented JSON; nil as "null".
func Fence(name string, v any) (string, error) {
	text, ok := v.(string)
	if !ok {
		var err error
		if text, err = indentJSON(v); err != nil {
			return "", err
		}
	}
	// The tag is the first 4 bytes of sha256(name NUL i NUL text) for the
	// first i from 0 whose end line the text does not hold.
	h := sha256.New()
	var sum [sha256.Size]byte
	var tag string
	for i := 0; ; i++ {
		h.Reset()
		io.WriteString(h, name)
		h.Write([]byte{0})
		io.WriteString(h, strconv.Itoa(i))
		h.Write([]byte{0})
		io.WriteString(h, text)
		tag = hex.EncodeToString(h.Sum(sum[:0])[:4])
		if !strings.Contains(text, "[end "+name+" "+tag+"]") {
			break
		}
	}
	var b strings.Builder
	b.Grow(len(text) + 2*len(name) + 2*len(tag) + 16)
	b.WriteString("[begin ")
	b.WriteString(name)
	b.WriteByte(' ')
	b.WriteString(tag)
	b.WriteString("]\n")
	b.WriteString(text)
	b.WriteString("\n[end ")
	b.WriteString(name)
	b.WriteByte(' ')
	b.WriteString(tag)
	b.WriteByte(']')
	return b.String(), nil
}

// Render fills the question's prompts from input (decoded JSON). Prompts
// named by URL must have been resolved first.
func (q *Question) Render(input any) (system, user string, err error) {
	if system, err = q.System.render(input); err != nil {
		return "", "", fmt.Errorf("question %q: system prompt: %w", q.Name, err)
	}
	if user, err = q.User.render(input); err != nil {
		return "", "", fmt.Errorf("question %q: user prompt: %w", q.Name, err)
	}
	return system, user, nil
}

// RenderedLen is the length in bytes of the prompts Render would return
// for input, worked out without keeping them: for a judge that reads the
// structured input alone, the prompts are measured (a report records
// their size) but never sent.
func (q *Question) RenderedLen(input any) (system, user int, err error) {
	if system, err = q.System.renderedLen(input); err != nil {
		return 0, 0, fmt.Errorf("question %q: system prompt: %w", q.Name, err)
	}
	if user, err = q.User.renderedLen(input); err != nil {
		return 0, 0, fmt.Errorf("question %q: user prompt: %w", q.Name, err)
	}
	return system, user, nil
}

// renderedLen is len(p.render(input)), counted as the template writes.
func (p *Prompt) renderedLen(input any) (int, error) {
	if p.Fill && p.Text != "" || p.tmpl == nil || p.static.ok {
		s, err := p.render(input)
		return len(s), err
	}
	if n, ok := p.lengthPlan().measure(input); ok {
		return n, nil
	}
	t := p.measureTemplate()
	if t == nil {
		t = p.tmpl
	}
	var n byteCount
	if err := t.Execute(&n, input); err != nil {
		return 0, err
	}
	return int(n), nil
}

// byteCount is a writer that counts what is written to it.
type byteCount int

func (n *byteCount) Write(b []byte) (int, error) {
	*n += byteCount(len(b))
	return len(b), nil
}

// WriteString lets the template write strings without a copy.
func (n *byteCount) WriteString(s string) (int, error) {
	*n += byteCount(len(s))
	return len(s), nil
}

func (p *Prompt) render(input any) (string, error) {
	if p.Fill && p.Text != "" {
		return FillPlaceholders(p.Text, input)
	}
	if p.tmpl == nil {
		if p.Remote() {
			return "", fmt.Errorf("%s has not been fetched", p.URL)
		}
		return "", fmt.Errorf("no template")
	}
	if p.static.ok {
		return p.static.text, nil
	}
	var buf bytes.Buffer
	if err := p.tmpl.Execute(&buf, input); err != nil {
		return "", err
	}
	return buf.String(), nil
}

func parseTemplate(name, text string) (*template.Template, error) {
	return template.New(name).Option("missingkey=zero").Funcs(templateFuncs).Parse(text)
}

// Resolve sets the text of a prompt named by URL, once fetched; the text
// must hash to the prompt's sha256.
func (p *Prompt) Resolve(text []byte) error {
	sum := sha256.Sum256(text)
	if got := hex.EncodeToString(sum[:]); got != strings.ToLower(p.SHA256) {
		return fmt.Errorf("the prompt at %s has sha256 %s, but the rubric pins %s: the prompt changed, so the rubric refuses it", p.URL, got, p.SHA256)
	}
	if p.Block > 0 {
		b, ok := FencedBlock(string(text), p.Block)
		if !ok {
			return fmt.Errorf("the file at %s has no fenced code block %d: the rubric names a block the file does not have", p.URL, p.Block)
		}
		text = []byte(b)
	}
	if p.Fill {
		p.Text = string(text)
		return nil
	}
	t, err := parseTemplate(p.URL, string(text))
	if err != nil {
		return fmt.Errorf("the prompt at %s is not a valid template: %w", p.URL, err)
	}
	p.Text = string(text)
	p.setTemplate(t)
	return nil
}

// FencedBlock returns the n-th (from 1) fenced code block of a Markdown
// text: the lines between an opening line of three or more backticks
// (with or without an info string such as "text") and the closing line,
// joined by newlines; false when the text has fewer blocks.
func FencedBlock(text string, n int) (string, bool) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	count := 0
	for i := 0; i < len(lines); i++ {
		open := strings.TrimLeft(lines[i], " ")
		if !strings.HasPrefix(open, "```") {
			continue
		}
		fence := open[:len(open)-len(strings.TrimLeft(open, "`"))]
		var body []string
		j := i + 1
		for ; j < len(lines); j++ {
			if c := strings.TrimSpace(lines[j]); strings.HasPrefix(c, fence) && strings.Trim(c, "`") == "" {
				break
			}
			body = append(body, lines[j])
		}
		count++
		if count == n {
			return strings.Join(body, "\n"), true
		}
		i = j
	}
	return "", false
}

// FillPlaceholders renders a prompt written with {placeholders}, as
// specifications publish them, from input, a map: a line whose text
// (trimmed) is a key of input is replaced whole by the key's value, and
// dropped when the value is an empty string; otherwise each {...} span
// (braces balanced) whose inner text is a key is replaced by its value.
// A string value is written as it is, anything else as indented JSON.
// Spans and lines that name no key are left as written, so braces of
// the prompt's own (a JSON example) stay.
func FillPlaceholders(text string, input any) (string, error) {
	vals, _ := input.(map[string]any)
	str := func(v any) (string, error) {
		if s, ok := v.(string); ok {
			return s, nil
		}
		return indentJSON(v)
	}
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if v, ok := vals[strings.TrimSpace(line)]; ok {
			s, err := str(v)
			if err != nil {
				return "", err
			}
			if s != "" {
				out = append(out, s)
			}
			continue
		}
		var b strings.Builder
		for i := 0; i < len(line); {
			if line[i] != '{' {
				b.WriteByte(line[i])
				i++
				continue
			}
			depth, j := 0, i
			for ; j < len(line); j++ {
				if line[j] == '{' {
					depth++
				} else if line[j] == '}' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if j == len(line) {
				b.WriteString(line[i:])
				break
			}
			if v, ok := vals[line[i+1:j]]; ok {
				s, err := str(v)
				if err != nil {
					return "", err
				}
				b.WriteString(s)
			} else {
				b.WriteString(line[i : j+1])
			}
			i = j + 1
		}
		out = append(out, b.String())
	}
	return strings.Join(out, "\n"), nil
}

// Stages splits a rubric's questions into the groups that can be asked at
// once, in order. A question whose formulas read the answers so far (one
// asked per item, or one about the surface that reads answers) starts a
// new stage, so that the answers it reads are there.
func (r *Rubric) Stages() [][]*Question {
	var stages [][]*Question
	var cur []*Question
	for _, q := range r.Questions {
		if q.readsAnswers() && len(cur) > 0 {
			stages = append(stages, cur)
			cur = nil
		}
		cur = append(cur, q)
	}
	if len(cur) > 0 {
		stages = append(stages, cur)
	}
	return stages
}

// ReadsUsage reports whether a formula of the surface reads usage, what
// each answer cost: only then is an answer's cost worth counting when
// its judge reports none (see ask.Asker.CountTokens).
func (r *Rubric) ReadsUsage() bool {
	l := &r.Surface
	progs := []*lang.Program{l.Score, l.Issues, l.Warnings, l.Invalid}
	for _, ms := range [][]*Metric{l.Metrics, l.Signals} {
		for _, m := range ms {
			progs = append(progs, m.Value)
		}
	}
	for _, rep := range l.Reports {
		for _, m := range rep.Fields {
			progs = append(progs, m.Value)
		}
	}
	for _, p := range progs {
		if p.Uses("usage") {
			return true
		}
	}
	return false
}

// RenderContext fills the question's shared prompt from its shared value
// (decoded JSON), seen by the template as .shared; "" when the question
// has no shared prompt.
func (q *Question) RenderContext(shared any) (string, error) {
	if q.Context == nil {
		return "", nil
	}
	s, err := q.Context.render(map[string]any{"shared": shared})
	if err != nil {
		return "", fmt.Errorf("question %q: context prompt: %w", q.Name, err)
	}
	return s, nil
}

// ReadsToolAnswers reports whether the formulas of q that see the whole
// surface may read the tools' answers (tool_answers): what it shares, for
// a question per tool; every formula, for a question about the surface or
// its items. Only such a question waits for every tool to be checked
// before it is asked, so that one that reads no tool (TDQS's coherence
// question) is asked while the tools are.
func (q *Question) ReadsToolAnswers() bool {
	progs := []*lang.Program{q.Shared}
	if q.Per != PerTool {
		progs = append(progs, q.Share, q.When, q.Input, q.Items, q.Subject)
	}
	return slices.ContainsFunc(progs, func(p *lang.Program) bool { return p.MayRead("tool_answers") })
}

// readsAnswers reports whether a question depends on earlier answers.
func (q *Question) readsAnswers() bool {
	if q.Per == PerItem {
		return true
	}
	for _, p := range []*lang.Program{q.When, q.Input, q.Shared, q.Share} {
		if p.Uses("answers") || p.Uses("tool_answers") {
			return true
		}
	}
	return false
}
