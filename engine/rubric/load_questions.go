package rubric

import (
	"cmp"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"text/template/parse"

	"github.com/google/cel-go/cel"
	"github.com/hashicorp/hcl/v2"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/nearest"
)

var questionSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "kind", Required: true},
		{Name: "per", Required: true},
		{Name: "items"},
		{Name: "subject"},
		{Name: "when"},
		{Name: "input", Required: true},
		{Name: "shared"},
		{Name: "share"},
		{Name: "system", Required: true},
		{Name: "context"},
		{Name: "user", Required: true},
		{Name: "answer_schema", Required: true},
		{Name: "retries"},
	},
}

// DefaultRetries is how many more times an unreadable answer is asked for
// when a question does not say.
const DefaultRetries = 2

// evalContext gives the HCL expression of a in a rubric the file()
// function, which reads a file beside the rubric file a is written in
// (prompts and answer schemas): a parent's file("p.md") is the p.md
// beside the parent, wherever its child is.
func (l *loader) evalContext(a *hcl.Attribute) *hcl.EvalContext {
	base := l.fileOf(a.Expr.Range())
	return &hcl.EvalContext{Functions: map[string]function.Function{
		"file": function.New(&function.Spec{
			Params: []function.Parameter{{Name: "path", Type: cty.String}},
			Type:   function.StaticReturnType(cty.String),
			Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
				rel := args[0].AsString()
				if strings.HasPrefix(base, "builtin:") {
					return cty.NilVal, fmt.Errorf("a built-in rubric cannot read files; write %s into the rubric", rel)
				}
				path := rel
				if !filepath.IsAbs(path) {
					path = filepath.Join(filepath.Dir(base), rel)
				}
				b, err := boundedread.ReadFile(l.ctx, path, l.maxFile)
				if err != nil {
					return cty.NilVal, fmt.Errorf("read %s: %v", path, err)
				}
				return cty.StringVal(string(b)), nil
			},
		}),
	}}
}

// text reads a string attribute that may call file().
func (l *loader) text(a *hcl.Attribute) (string, bool) {
	if a == nil {
		return "", false
	}
	return l.stringIn(a, l.evalContext(a))
}

func (l *loader) question(b *hcl.Block, before []*Question) *Question {
	q := &Question{Name: b.Labels[0], Retries: DefaultRetries}
	body, ds := b.Body.Content(questionSchema)
	l.hclDiags(ds)
	q.Kind = l.str(body.Attributes["kind"])
	if a := body.Attributes["per"]; a != nil {
		q.Per = l.str(a)
		switch q.Per {
		case PerTool, PerSurface, PerItem:
		default:
			l.errorf(a.Expr.Range(), "per must be %q, %q or %q", PerTool, PerSurface, PerItem)
		}
	}
	if a := body.Attributes["retries"]; a != nil {
		l.whole(a, 10, "", &q.Retries)
	}
	env := l.envs.signal
	switch q.Per {
	case PerSurface:
		env = l.envs.surfaceQuestion
	case PerItem:
		env = l.envs.item
		q.Items = l.formula(l.envs.surfaceQuestion, body.Attributes["items"], cel.ListType(cel.DynType))
		if body.Attributes["items"] == nil {
			l.errorf(body.Attributes["per"].Expr.Range(), "question %q is asked per item: set items to the formula that lists them", q.Name)
		}
		q.Subject = l.formula(env, body.Attributes["subject"], lang.String)
		if len(before) == 0 {
			l.errorf(b.DefRange, "question %q is asked per item of earlier answers, but no question comes before it", q.Name)
		}
	}
	if q.Per != PerItem {
		for _, name := range []string{"items", "subject"} {
			if a := body.Attributes[name]; a != nil {
				l.errorf(a.NameRange, "%s is only for questions asked per item", name)
			}
		}
	}
	q.When = l.formula(env, body.Attributes["when"], lang.Bool)
	q.Input = l.formula(env, body.Attributes["input"], cel.MapType(cel.DynType, cel.DynType))
	q.Shared = l.formula(l.envs.surfaceQuestion, body.Attributes["shared"], cel.MapType(cel.StringType, cel.DynType))
	q.Share = l.formula(env, body.Attributes["share"], lang.String)
	q.System = l.prompt(body.Attributes["system"])
	q.User = l.prompt(body.Attributes["user"])
	if keys, ok := q.Input.LiteralKeys(); ok {
		for _, name := range []string{"system", "user"} {
			l.promptFields(body.Attributes[name], map[string]*Prompt{"system": q.System, "user": q.User}[name], keys)
		}
	}
	if a := body.Attributes["context"]; a != nil {
		q.Context = l.prompt(a)
	}
	for _, name := range []string{"share", "context"} {
		if a := body.Attributes[name]; a != nil && body.Attributes["shared"] == nil {
			l.errorf(a.NameRange, "question %q sets %s but no shared value: set shared to the formula of what its questions share", q.Name, name)
		}
	}
	if a := body.Attributes["answer_schema"]; a != nil {
		q.AnswerSchema, q.schema, q.shape = l.answerSchema(a)
	}
	q.Digest = surface.HashBytes(canonicalQuestionJSON(q))
	return q
}

// prompt reads a prompt: a template string (perhaps from file()), or an
// object { url = "...", sha256 = "..." } naming a prompt to fetch.
func (l *loader) prompt(a *hcl.Attribute) *Prompt {
	p := &Prompt{}
	if a == nil {
		return p
	}
	v, ds := a.Expr.Value(l.evalContext(a))
	if l.hclDiags(ds) {
		return p
	}
	switch {
	case v.Type() == cty.String && !v.IsNull():
		p.Text = v.AsString()
		t, err := parseTemplate(a.Name, p.Text)
		if err != nil {
			l.errorf(a.Expr.Range(), "%s is not a valid template: %v", a.Name, err)
			return p
		}
		p.setTemplate(t)
	case (v.Type().IsObjectType() || v.Type().IsMapType()) && !v.IsNull():
		m := v.AsValueMap()
		url, sum := m["url"], m["sha256"]
		extra := 0
		if b, ok := m["block"]; ok {
			extra++
			var n int64
			if b.Type() == cty.Number && !b.IsNull() && b.AsBigFloat().IsInt() {
				n, _ = b.AsBigFloat().Int64()
			}
			if n < 1 || n > 10000 {
				l.errorf(a.Expr.Range(), "%s block is the number (from 1) of the fenced code block of the file that holds the prompt", a.Name)
				return p
			}
			p.Block = int(n)
		}
		if f, ok := m["fill"]; ok {
			extra++
			if f.Type() != cty.Bool || f.IsNull() {
				l.errorf(a.Expr.Range(), "%s fill is true or false: true reads the prompt's {placeholders} from the question's input", a.Name)
				return p
			}
			p.Fill = f.True()
		}
		if len(m) != 2+extra || url.IsNull() || sum.IsNull() || url.Type() != cty.String || sum.Type() != cty.String {
			l.errorf(a.Expr.Range(), "a fetched %s prompt is { url = \"https://...\", sha256 = \"<64 hex digits>\" }, with block = N to take the N-th fenced code block of the file and fill = true for a prompt with {placeholders}", a.Name)
			return p
		}
		p.URL, p.SHA256 = url.AsString(), strings.ToLower(sum.AsString())
		if !strings.HasPrefix(p.URL, "https://") && !strings.HasPrefix(p.URL, "http://") {
			l.errorf(a.Expr.Range(), "%s url must start with https:// or http://", a.Name)
		}
		if len(p.SHA256) != 64 || strings.Trim(p.SHA256, "0123456789abcdef") != "" {
			l.errorf(a.Expr.Range(), "%s sha256 must be 64 hex digits", a.Name)
		}
	default:
		l.errorf(a.Expr.Range(), "%s must be a template string or { url, sha256 }", a.Name)
	}
	return p
}

// answerSchema reads and compiles a JSON Schema, returning it in canonical
// JSON (sorted keys), so that layout does not move the digest, and its
// shape when it has one (see answerShape).
func (l *loader) answerSchema(a *hcl.Attribute) ([]byte, *jsonschema.Schema, *answerShape) {
	src, ok := l.text(a)
	if !ok {
		return nil, nil, nil
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(src))
	if err != nil {
		l.errorf(a.Expr.Range(), "answer_schema is not JSON: %v", err)
		return nil, nil, nil
	}
	canonical, err := json.Marshal(doc)
	if err != nil {
		l.errorf(a.Expr.Range(), "answer_schema: %v", err)
		return nil, nil, nil
	}
	c := jsonschema.NewCompiler()
	const loc = "rubric:answer_schema.json"
	if err := c.AddResource(loc, doc); err != nil {
		l.errorf(a.Expr.Range(), "answer_schema: %v", err)
		return nil, nil, nil
	}
	s, err := c.Compile(loc)
	if err != nil {
		l.errorf(a.Expr.Range(), "answer_schema is not a valid JSON Schema: %s", oneLine(err.Error()))
		return nil, nil, nil
	}
	return canonical, s, newAnswerShape(doc)
}

// levelExtras reads what a tool or surface block holds besides metrics and
// the score: signals, issues and report values.
func (l *loader) levelExtras(kind string, body *hcl.BodyContent, lv *Level) {
	if kind == "tool" {
		lv.Issues = l.formula(l.envs.tool, body.Attributes["issues"], cel.ListType(cel.DynType))
		if a := body.Attributes["titles"]; a != nil {
			if body.Attributes["issues"] == nil {
				l.errorf(a.NameRange, "titles name the checks the tool's issues formula names: set issues, or remove titles")
			}
			lv.Titles = l.titles(a)
		}
	} else {
		lv.Warnings = l.formula(l.envs.surface, body.Attributes["warnings"], cel.ListType(cel.StringType))
		lv.Invalid = l.formula(l.envs.surface, body.Attributes["invalid"], nil)
	}
	reportEnv := l.envs.toolReport
	if kind == "surface" {
		reportEnv = l.envs.surfaceReport
	}
	reports := map[string]hcl.Range{}
	for _, b := range body.Blocks {
		switch b.Type {
		case "signals":
			if lv.Signals != nil {
				l.errorf(b.DefRange, "only one signals block is allowed")
			}
			env := l.envs.signal
			if kind == "surface" {
				env = l.envs.surfaceSignal
			}
			lv.Signals = append(l.fields(b, env), lv.Signals...)
		case "report":
			r := &Report{}
			if len(b.Labels) > 0 {
				r.Name = b.Labels[0]
				if reserved[r.Name] {
					l.errorf(b.LabelRanges[0], "%q is a member every report already has; name this report block otherwise", r.Name)
				}
			}
			if prev, dup := reports[r.Name]; dup {
				l.errorf(b.DefRange, "report %q is declared twice (first at line %d)", r.Name, prev.Start.Line)
			}
			reports[r.Name] = b.DefRange
			values, maxBlocks := splitMax(b.Body)
			r.Fields = l.fieldsIn(values, reportEnv)
			for _, mb := range maxBlocks {
				if r.Max != nil {
					l.errorf(mb.DefRange, "only one max block is allowed in a report block")
					continue
				}
				r.Max = l.maxima(mb, r.Fields)
			}
			if r.Name == "" {
				for _, f := range r.Fields {
					if reservedTool[f.Name] {
						l.errorf(b.DefRange, "%q is a member every tool entry already has; name the report value otherwise", f.Name)
					}
				}
			}
			lv.Reports = append(lv.Reports, r)
		}
	}
}

// titles reads the titles of the checks an issues formula names: a map
// of check names to titles, such as { sensitive_path = "Sensitive path" }
// (a name that is not a word is quoted).
func (l *loader) titles(a *hcl.Attribute) map[string]string {
	pairs, ds := hcl.ExprMap(a.Expr)
	if l.hclDiags(ds) {
		return nil
	}
	out := make(map[string]string, len(pairs))
	l.titlesAt = make(map[string]hcl.Range, len(pairs))
	for _, kv := range pairs {
		name := hcl.ExprAsKeyword(kv.Key)
		if name == "" {
			v, d := kv.Key.Value(nil)
			if d.HasErrors() || v.Type() != cty.String || v.IsNull() || v.AsString() == "" {
				l.errorf(kv.Key.Range(), "titles: a check is named by a word, such as sensitive_path, or a quoted name")
				continue
			}
			name = v.AsString()
		}
		v, d := kv.Value.Value(nil)
		if d.HasErrors() || v.Type() != cty.String || v.IsNull() || strings.TrimSpace(v.AsString()) == "" {
			l.errorf(kv.Value.Range(), "titles: the title of %s must be a string, such as \"Sensitive path\"", name)
			continue
		}
		if _, dup := out[name]; dup {
			l.errorf(kv.Key.Range(), "titles: %s is given twice", name)
		}
		out[name] = v.AsString()
		l.titlesAt[name] = kv.Key.Range()
	}
	return out
}

// reserved and reservedTool are the members of a report and of a tool's
// entry that report blocks may not take.
var (
	reserved = map[string]bool{"report_version": true, "generator": true, "rubric": true, "target": true, "surface": true,
		"complete": true, "score": true, "exact": true, "grade": true, "no_score": true, "metrics": true, "tools": true,
		"judge": true, "calls": true, "answers": true, "warnings": true, "timings": true, "embedded_surface": true,
		"fixes": true, "notes": true}
	reservedTool = map[string]bool{"name": true, "hash": true, "score": true, "exact": true, "grade": true,
		"metrics": true, "checks": true, "issues": true, "answers": true}
)

// fields reads a block of name = "formula" attributes, in file order.
func (l *loader) fields(b *hcl.Block, env *lang.Env) []*Metric { return l.fieldsIn(b.Body, env) }

// fieldsIn reads a body of name = "formula" attributes, in the order
// written: with extends, the order of the merged body (the parent's,
// then the child's new ones), not that of the byte offsets of two files,
// which put a child's signal before the parent's it reads.
func (l *loader) fieldsIn(b hcl.Body, env *lang.Env) []*Metric {
	attrs, ds := b.JustAttributes()
	if l.hclDiags(ds) {
		return nil
	}
	list := make([]*hcl.Attribute, 0, len(attrs))
	for _, a := range attrs {
		list = append(list, a)
	}
	l.inOrder(list)
	out := make([]*Metric, 0, len(list))
	for _, a := range list {
		out = append(out, &Metric{Name: a.Name, Value: l.formula(env, a, nil)})
	}
	return out
}

// inOrder sorts the attributes of one body as merged (see body.syntax),
// or, for a body the merge did not build, by where they are written.
func (l *loader) inOrder(list []*hcl.Attribute) {
	rank := func(a *hcl.Attribute) int { return a.NameRange.Start.Byte }
	merged := true
	for _, a := range list {
		if _, ok := l.order[keyOf(a.NameRange)]; !ok {
			merged = false
			break
		}
	}
	if merged {
		rank = func(a *hcl.Attribute) int { return l.order[keyOf(a.NameRange)] }
	}
	slices.SortFunc(list, func(a, b *hcl.Attribute) int { return cmp.Compare(rank(a), rank(b)) })
}

// promptFields refuses a template of p (the prompt attribute a) that
// reads a member of the input (.nmae, $.nmae) that the question's input,
// a map of the keys given, does not have: text/template would write
// "<no value>" into what the judge reads, and nothing would say so.
// Inside range and with, where the dot is another value, only $ is read.
func (l *loader) promptFields(a *hcl.Attribute, p *Prompt, keys []string) {
	if a == nil || p == nil || p.tmpl == nil || p.Fill || p.tmpl.Tree == nil {
		return
	}
	var missing []string
	// defaulted are the missing members read only as what default
	// replaces ({{default "none" .title}}, {{.title | default "none"}}):
	// the judge reads the default there, always. inDefault counts the
	// default calls the walk is inside.
	defaulted := map[string]bool{}
	inDefault := 0
	note := func(name string) {
		if slices.Contains(keys, name) {
			return
		}
		if !slices.Contains(missing, name) {
			missing = append(missing, name)
			defaulted[name] = inDefault > 0
		} else if inDefault == 0 {
			defaulted[name] = false
		}
	}
	isDefault := func(c *parse.CommandNode) bool {
		id, ok := c.Args[0].(*parse.IdentifierNode)
		return ok && id.Ident == "default"
	}
	var walk func(n parse.Node, top bool)
	// walkBranch walks an if, range or with; its list is walked with
	// inner as its top (an if keeps the dot, range and with change it).
	walkBranch := func(b *parse.BranchNode, top, inner bool) {
		walk(b.Pipe, top)
		walk(b.List, inner)
		walk(b.ElseList, top)
	}
	walk = func(n parse.Node, top bool) {
		switch x := n.(type) {
		case *parse.ListNode:
			if x == nil {
				return
			}
			for _, c := range x.Nodes {
				walk(c, top)
			}
		case *parse.ActionNode:
			walk(x.Pipe, top)
		case *parse.PipeNode:
			if x == nil {
				return
			}
			d := slices.ContainsFunc(x.Cmds, func(c *parse.CommandNode) bool { return len(c.Args) > 0 && isDefault(c) })
			if d {
				inDefault++
			}
			for _, c := range x.Cmds {
				walk(c, top)
			}
			if d {
				inDefault--
			}
		case *parse.CommandNode:
			for _, arg := range x.Args {
				walk(arg, top)
			}
		case *parse.FieldNode:
			if top && len(x.Ident) > 0 {
				note(x.Ident[0])
			}
		case *parse.VariableNode:
			if len(x.Ident) > 1 && x.Ident[0] == "$" {
				note(x.Ident[1])
			}
		case *parse.ChainNode:
			walk(x.Node, top)
		case *parse.IfNode:
			walkBranch(&x.BranchNode, top, top)
		case *parse.RangeNode:
			walkBranch(&x.BranchNode, top, false)
		case *parse.WithNode:
			walkBranch(&x.BranchNode, top, false)
		case *parse.TemplateNode:
			walk(x.Pipe, top)
		}
	}
	walk(p.tmpl.Tree.Root, true)
	for _, m := range missing {
		msg := fmt.Sprintf("%s reads .%s, which the question's input does not have", a.Name, m)
		if near := nearest.Key(m, keys); near != "" {
			msg += fmt.Sprintf(": did you mean .%s?", near)
		}
		reads := "<no value>"
		if defaulted[m] {
			reads = "the default"
		}
		l.errorf(a.Expr.Range(), "%s (its keys are %s); the judge would read %s there, always", msg, strings.Join(keys, ", "), reads)
	}
}
