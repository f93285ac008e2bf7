package rubric

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/google/cel-go/cel"
	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/words"
)

// Diagnostic is one problem in a rubric file, at a 1-based line and column.
type Diagnostic struct {
	File      string
	Line, Col int
	Msg       string
}

// String formats the diagnostic as file:line:col: message.
func (d Diagnostic) String() string {
	return fmt.Sprintf("%s:%d:%d: %s", d.File, d.Line, d.Col, d.Msg)
}

// Error is every problem found while loading a rubric, in file order.
type Error struct {
	Diagnostics []Diagnostic
}

// Error lists every diagnostic, one a line.
func (e *Error) Error() string {
	parts := make([]string, len(e.Diagnostics))
	for i, d := range e.Diagnostics {
		parts[i] = d.String()
	}
	return strings.Join(parts, "\n")
}

// Name returns the name of the rubric in src without compiling it: the
// label of its rubric block, "" when there is none to read (Load then
// says what is wrong).
func Name(filename string, src []byte) string {
	if _, deep := tooDeep(src); deep {
		return ""
	}
	f, ds := hclsyntax.ParseConfig(src, filename, hcl.Pos{Line: 1, Column: 1})
	if ds.HasErrors() {
		return ""
	}
	content, _, _ := f.Body.PartialContent(fileSchema)
	if content == nil || len(content.Blocks) != 1 {
		return ""
	}
	return content.Blocks[0].Labels[0]
}

// LoadFile reads and loads the rubric at path, refusing a rubric or a
// prompt file larger than boundedread.Limit() (--max-file-size).
func LoadFile(path string) (*Rubric, error) {
	return LoadFileContext(context.Background(), path, boundedread.Limit())
}

// LoadFileContext is LoadFile with a size limit of max bytes for the
// rubric and each file it reads (the CLI's --max-file-size), and a
// context that ends the reads.
func LoadFileContext(ctx context.Context, path string, max int64) (*Rubric, error) {
	src, err := ReadFile(ctx, path, max)
	if err != nil {
		return nil, err
	}
	_, r, err := loadFile(ctx, path, src, max)
	return r, err
}

// ReadFile reads the text of the rubric file at path as LoadFileContext
// does, at most max bytes, until ctx ends; its error names the file and
// says what to give instead.
func ReadFile(ctx context.Context, path string, max int64) ([]byte, error) {
	src, err := boundedread.ReadFile(ctx, path, max)
	if err != nil {
		return nil, boundedread.Named(err, "rubric file", path, "give the path of a .hcl file, or the name of a built-in rubric (rubric rubrics list)")
	}
	return src, nil
}

// loadFile loads src, the text of the rubric file at path, and the tests
// beside it, reading what it reads (a parent, a prompt file) until ctx
// ends; it returns the loader too, for FlatFile.
func loadFile(ctx context.Context, path string, src []byte, max int64) (*loader, *Rubric, error) {
	l := &loader{file: path, src: src, ctx: ctx, maxFile: max}
	r, err := l.result()
	if err != nil {
		return nil, nil, err
	}
	return l, r, l.siblingTests(r)
}

// Load parses and compiles a rubric from src; filename is used in
// diagnostics and recorded as File.
func Load(filename string, src []byte) (*Rubric, error) {
	l := &loader{file: filename, src: src, ctx: context.Background(), maxFile: boundedread.Limit()}
	return l.result()
}

// result loads the rubric and gathers its diagnostics.
func (l *loader) result() (*Rubric, error) {
	r := l.load()
	if l.testFile != nil {
		return nil, l.testFile
	}
	if len(l.diags) > 0 {
		sort.SliceStable(l.diags, func(i, j int) bool {
			a, b := l.diags[i], l.diags[j]
			return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col
		})
		return nil, &Error{Diagnostics: l.diags}
	}
	r.Digest = digest(r)
	return r, nil
}

type loader struct {
	file string
	src  []byte
	// ctx and maxFile bound the files the rubric reads with file().
	ctx     context.Context
	maxFile int64
	// at is where each compiled formula is, for checks after compiling.
	at    map[*lang.Program]formulaAt
	diags []Diagnostic
	envs  envs
	// globals are the values every formula is compiled with: the
	// rubric's weights.
	globals map[string]any
	// weightsAt is where the weights are declared, for messages.
	weightsAt hcl.Range
	// weights are the rubric's weights, for the maxima of report values.
	weights []Weight
	// weightKeys is where each weight is named, for messages.
	weightKeys map[string]hcl.Range
	// hclWeights are the weights an HCL expression (a max block) reads,
	// by name; "" when one reads them whole.
	hclWeights map[string]bool
	// srcs are the texts of the parents an extends read, by file.
	srcs map[string][]byte
	// flat is the rubric's body after extends; order is the place of
	// each of its attributes among its body's, as merged (see
	// body.syntax).
	flat  *body
	order map[attrKey]int
	// extendsAt is where the rubric names its parent.
	extendsAt hcl.Range
	// scope are the lets the formulas being compiled see; letsAt is
	// where each let is, and letSeen the let errors already reported.
	// cyclic are the lets that read themselves, reported once where
	// the cycle is: a formula that reads one is not told it is
	// undeclared as well.
	scope   []lang.Let
	letsAt  map[string]letAt
	letSeen map[string]bool
	cyclic  map[string]bool
	// testFile is set when the file holds a rubric's tests, not a
	// rubric.
	testFile *TestFileError
	// overrides are the weights the loaded file sets over its
	// parent's, as merged.
	overrides []override
	// scaleAt is where the scale's min and max are, and toolScoreAt
	// the tool's score formula, for boundTools.
	scaleAt     map[string]hcl.Range
	toolScoreAt hcl.Range
	// titlesAt is where the tool block titles each check its issues
	// formula names, for the check blocks it must not name.
	titlesAt map[string]hcl.Range
}

// TestFileError is a file of test blocks alone given where a rubric is
// wanted: the tests of the rubric Rubric, NAME.hcl beside the file
// NAME_test.hcl, or "" when there is no such rubric.
type TestFileError struct {
	File   string
	Rubric string
}

// Error says what the file is and what to name instead.
func (e *TestFileError) Error() string {
	if e.Rubric == "" {
		return fmt.Sprintf("%s holds test blocks and no rubric block: name a rubric; its tests go in its rubric block, or in NAME_test.hcl beside the rubric NAME.hcl", e.File)
	}
	return fmt.Sprintf("%s holds the tests of %s, not a rubric: name %s instead (rubric test %s runs these tests)", e.File, e.Rubric, e.Rubric, e.Rubric)
}

// testsOnly reports whether f holds test blocks and nothing else: the
// tests of a rubric beside it (see siblingTests), not a rubric.
func testsOnly(f *hcl.File) bool {
	body, ok := f.Body.(*hclsyntax.Body)
	if !ok || len(body.Blocks) == 0 || len(body.Attributes) > 0 {
		return false
	}
	for _, b := range body.Blocks {
		if b.Type != "test" {
			return false
		}
	}
	return true
}

// rubricBeside is the rubric file NAME.hcl whose tests the file
// NAME_test.hcl holds, when it is there; "" otherwise.
func rubricBeside(file string) string {
	base, ok := strings.CutSuffix(file, "_test.hcl")
	if !ok || base == "" || strings.HasSuffix(base, "/") || strings.HasSuffix(base, string(os.PathSeparator)) {
		return ""
	}
	if fi, err := os.Stat(base + ".hcl"); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	return base + ".hcl"
}

func (l *loader) errorf(rng hcl.Range, format string, args ...any) {
	l.diags = append(l.diags, Diagnostic{File: l.fileOf(rng), Line: rng.Start.Line, Col: rng.Start.Column, Msg: fmt.Sprintf(format, args...)})
}

func (l *loader) hclDiags(ds hcl.Diagnostics) bool {
	for _, d := range ds {
		if d.Severity != hcl.DiagError {
			continue
		}
		msg := d.Summary
		if d.Detail != "" {
			msg += ": " + d.Detail
		}
		// hcl names another place as file:line,col-col; every other
		// place a rubric's messages name is file:line:col.
		msg = hclPlace.ReplaceAllString(msg, ":$1:$2")
		rng := hcl.Range{Start: hcl.Pos{Line: 1, Column: 1}}
		if d.Subject != nil {
			rng = *d.Subject
		}
		l.errorf(rng, "%s", msg)
	}
	return ds.HasErrors()
}

// hclPlace is a range as hcl.Range.String writes it in a message:
// file:3,5-9 or file:3,5-4,2.
var hclPlace = regexp.MustCompile(`:(\d+),(\d+)-\d+(?:,\d+)?\b`)

// syntaxDiags reports the first syntax error of a file, and how many
// more the parser found after it: one quote left open makes every later
// string look open, a dozen errors for one mistake, each after the first
// most likely its echo. It reports whether there was an error.
func (l *loader) syntaxDiags(ds hcl.Diagnostics) bool {
	var errs hcl.Diagnostics
	for _, d := range ds {
		if d.Severity == hcl.DiagError {
			errs = append(errs, d)
		}
	}
	if len(errs) == 0 {
		return false
	}
	first := *errs[0]
	// hcl says a string left open is "split over multiple lines"; what
	// the author did is leave out its closing quote.
	switch first.Summary {
	case "Invalid multi-line string":
		first.Summary, first.Detail = "a string is not closed on its line", `add its closing " (a text over several lines is a heredoc: <<-EOT, the lines, then EOT)`
	case "Invalid block definition":
		// pass "x" without its = reads to hcl as a block labelled "x".
		first.Detail += ` An argument is written NAME = VALUE: if this line is one, add its "=".`
	}
	l.hclDiags(hcl.Diagnostics{&first})
	if len(errs) > 1 {
		last := &l.diags[len(l.diags)-1]
		last.Msg += fmt.Sprintf(" (and %s after it, which may follow from it: fix this one first)", words.Count(len(errs)-1, "more syntax error"))
	}
	return true
}

var fileSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "rubric", LabelNames: []string{"name"}}}}

var rubricSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "version", Required: true},
		{Name: "title"},
		{Name: "description"},
		{Name: "round"},
		{Name: "min_scored"},
		{Name: "grades", Required: true},
		{Name: "judge_labels"},
		{Name: "weights"},
		{Name: "extends"},
	},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "check", LabelNames: []string{"name"}},
		{Type: "tool"},
		{Type: "surface"},
		{Type: "question", LabelNames: []string{"name"}},
		{Type: "gate"},
		{Type: "fixes"},
		{Type: "scale"},
		{Type: "test", LabelNames: []string{"name"}},
		*letSchema,
	},
}

var checkSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{
		{Name: "title"},
		{Name: "points"},
		{Name: "each"},
		{Name: "pass", Required: true},
		{Name: "label"},
		{Name: "issue", Required: true},
		{Name: "stop"},
	},
	Blocks: []hcl.BlockHeaderSchema{*letSchema},
}

var toolSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "score", Required: true}, {Name: "issues"}, {Name: "titles"}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "metric", LabelNames: []string{"name"}},
		{Type: "signals"},
		{Type: "report"},
		*letSchema,
	},
}

var surfaceSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "score", Required: true}, {Name: "warnings"}, {Name: "invalid"}},
	Blocks: []hcl.BlockHeaderSchema{
		{Type: "metric", LabelNames: []string{"name"}},
		{Type: "signals"},
		{Type: "report", LabelNames: []string{"name"}},
		*letSchema,
	},
}

var metricSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{{Name: "value", Required: true}}}

func (l *loader) load() *Rubric {
	r := &Rubric{File: l.file, Round: 1}
	prepare(l.src)
	if at, deep := tooDeep(l.src); deep {
		l.errorf(hcl.Range{Start: at}, "the rubric nests more than %d levels of braces, brackets and parentheses here; a rubric needs a dozen", MaxNesting)
		return r
	}
	f, ds := hclsyntax.ParseConfig(l.src, l.file, hcl.Pos{Line: 1, Column: 1, Byte: 0})
	if l.syntaxDiags(ds) {
		return r
	}
	if testsOnly(f) {
		l.testFile = &TestFileError{File: l.file, Rubric: rubricBeside(l.file)}
		return r
	}
	content, ds := f.Body.Content(fileSchema)
	if l.hclDiags(ds) {
		return r
	}
	if n := len(content.Blocks); n != 1 {
		rng := f.Body.MissingItemRange()
		if n > 1 {
			rng = content.Blocks[1].DefRange
		}
		l.errorf(rng, "a rubric file holds exactly one rubric block, found %d", n)
		return r
	}
	block := content.Blocks[0]
	r.Name = block.Labels[0]
	if r.Name == "" {
		l.errorf(block.LabelRanges[0], "the rubric needs a name")
	}
	l.flat = l.extends(f.Body.(*hclsyntax.Body).Blocks[0], []string{l.file})
	if l.flat == nil {
		return r
	}
	l.order = map[attrKey]int{}
	body, ds := l.flat.syntax(l.order).Content(rubricSchema)
	l.hclDiags(ds)

	l.globals = map[string]any{"weights": map[string]any{}}
	if a := body.Attributes["weights"]; a != nil {
		r.Weights = l.readWeights(a)
		l.weights, l.weightsAt = r.Weights, a.NameRange
		ws := make(map[string]any, len(r.Weights))
		for _, w := range r.Weights {
			ws[w.Name] = weightValue(w.Value)
		}
		l.globals["weights"] = ws
	}
	r.Version = l.str(body.Attributes["version"])
	r.Title = l.str(body.Attributes["title"])
	r.Description = l.str(body.Attributes["description"])
	if a := body.Attributes["round"]; a != nil {
		l.whole(a, 12, " of digits", &r.Round)
	}
	if a := body.Attributes["min_scored"]; a != nil {
		if n, ok := l.number(a.Expr); ok {
			if n.Sign() <= 0 || n.Cmp(num.One) > 0 {
				l.errorf(a.Expr.Range(), "min_scored is the share of the tools that must be scored, above 0 and at most 1 (0.8 for 80%%)")
			} else {
				r.MinScored = n
			}
		}
	}
	if a := body.Attributes["grades"]; a != nil {
		r.Grades = l.grades(a)
	}
	if a := body.Attributes["judge_labels"]; a != nil {
		r.JudgeLabels = l.labels(a)
	}
	// The environments are built meanwhile (prepare): the text is
	// parsed first.
	var err error
	if l.envs, err = environments(); err != nil {
		l.errorf(hcl.Range{Start: hcl.Pos{Line: 1, Column: 1}}, "%v", err)
		return r
	}
	l.scope = l.lets(body.Blocks, nil)
	seen := map[string]hcl.Range{}
	levels := map[string]hcl.Range{}
	questions := map[string]hcl.Range{}
	var gateAt *hcl.Range
	var gateFields []*hcl.Attribute
	for _, b := range body.Blocks {
		switch b.Type {
		case "gate":
			if gateAt != nil {
				l.errorf(b.DefRange, "only one gate block is allowed (first at line %d)", gateAt.Start.Line)
				continue
			}
			gateAt = &b.DefRange
			r.Gate, gateFields = l.gate(b, r)
		case "scale":
			if r.Scale != nil {
				l.errorf(b.DefRange, "only one scale block is allowed")
				continue
			}
			r.Scale = l.scale(b, r.Grades, body.Attributes["grades"])
		case "fixes":
			if r.Fixes != nil {
				l.errorf(b.DefRange, "only one fixes block is allowed")
				continue
			}
			r.Fixes = l.fixes(b)
		case "test":
			if t := l.test(b); t != nil {
				if slices.ContainsFunc(r.Tests, func(o *Test) bool { return o.Name == t.Name }) {
					l.errorf(b.LabelRanges[0], "test %q is declared twice", t.Name)
				}
				r.Tests = append(r.Tests, t)
			}
		case "question":
			q := l.question(b, r.Questions)
			if prev, dup := questions[q.Name]; dup {
				l.errorf(b.LabelRanges[0], "question %q is declared twice (first at line %d)", q.Name, prev.Start.Line)
			}
			questions[q.Name] = b.DefRange
			r.Questions = append(r.Questions, q)
		case "check":
			c := l.check(b, r)
			if prev, dup := seen[c.Name]; dup {
				l.errorf(b.LabelRanges[0], "check %q is declared twice (first at line %d)", c.Name, prev.Start.Line)
			}
			seen[c.Name] = b.DefRange
			r.Checks = append(r.Checks, c)
		case "tool", "surface":
			if prev, dup := levels[b.Type]; dup {
				l.errorf(b.DefRange, "only one %s block is allowed (first at line %d)", b.Type, prev.Start.Line)
				continue
			}
			levels[b.Type] = b.DefRange
			if b.Type == "tool" {
				r.Tool = l.level(b)
			} else {
				r.Surface = l.level(b)
			}
		}
	}
	if r.Gate != nil {
		l.finishGate(r, gateFields)
	}
	for _, c := range r.Checks {
		if at, ok := l.titlesAt[c.Name]; ok {
			l.errorf(at, "titles: %s is a check block, whose title is its own title attribute: remove it from titles", c.Name)
		}
	}
	l.checkReferences(r)
	r.formulas = make([]*lang.Program, 0, len(l.at))
	for p := range l.at {
		r.formulas = append(r.formulas, p)
	}
	if _, ok := levels["tool"]; !ok {
		l.errorf(block.DefRange, "the rubric has no tool block: add tool { score = \"...\" } to say how a tool is scored")
	}
	if _, ok := levels["surface"]; !ok {
		l.errorf(block.DefRange, "the rubric has no surface block: add surface { score = \"...\" } to say how the tools' scores combine")
	}
	if len(l.diags) == 0 {
		r.Overrides = l.overridesOf(r)
		l.boundTools(r)
	}
	return r
}

func (l *loader) check(b *hcl.Block, r *Rubric) *Check {
	c := &Check{Name: b.Labels[0]}
	body, ds := b.Body.Content(checkSchema)
	l.hclDiags(ds)
	c.Title = l.str(body.Attributes["title"])
	if c.Title == "" {
		c.Title = c.Name
	}
	if a := body.Attributes["points"]; a != nil {
		if n, ok := l.number(a.Expr); ok {
			if n.Sign() < 0 {
				l.errorf(a.Expr.Range(), "points must not be negative")
			}
			c.Points = n
		}
		if _, both := r.Weight(c.Name); both {
			l.errorf(a.NameRange, "check %q has points and a weight of the same name: remove points, and its weight %s is its points", c.Name, c.Name)
		}
	} else if w, ok := r.Weight(c.Name); ok {
		c.Points = w
	} else if l.extendsAt.Filename != "" && b.DefRange.Filename == l.file {
		// A child sets its parent's weights, and adds none: a check of
		// its own has its points.
		l.errorf(b.DefRange, "check %q has no points: set points (points = 10); a rubric that extends another sets the weights its parent declares and adds none", c.Name)
	} else if hclsyntax.ValidIdentifier(c.Name) {
		l.errorf(b.DefRange, "check %q has no points: set points, or give the rubric a weight named %s (weights = { %s = 10 })", c.Name, c.Name, c.Name)
	} else {
		// A weight is named by a word, which this name is not.
		word := wordFor(c.Name)
		l.errorf(b.DefRange, "check %q has no points: set points; a weight names only a check named by a word (letters, digits, _ and -), so to weigh it, name it %s and give the rubric a weight named %s (weights = { %s = 10 })", c.Name, word, word, word)
	}
	// The check's lets are in scope for its formulas and its CEL message.
	outer := l.scope
	l.scope = l.lets(body.Blocks, outer)
	defer func() { l.scope = outer }()
	if a := body.Attributes["issue"]; a == nil || l.interpolates(a) {
		// reported (issue is required; ${...} is refused); the message
		// is left empty
	} else if call, ok := a.Expr.(*hclsyntax.FunctionCallExpr); ok && call.Name == "cel" {
		c.Message = l.message(a, call)
	} else {
		c.Issue = l.str(a)
		l.placeholders(a, c.Issue)
	}
	if a := body.Attributes["stop"]; a != nil {
		v, d := a.Expr.Value(nil)
		if !l.hclDiags(d) {
			if v.Type() != cty.Bool || v.IsNull() {
				l.errorf(a.Expr.Range(), "stop must be true or false")
			} else {
				c.Stop = v.True()
			}
		}
	}
	env := l.envs.check
	c.Each = l.formula(env, body.Attributes["each"], cel.ListType(cel.DynType))
	c.Pass = l.formula(env, body.Attributes["pass"], lang.Bool)
	c.Label = l.formula(env, body.Attributes["label"], lang.String)
	if c.Label != nil && c.Each == nil {
		l.errorf(body.Attributes["label"].NameRange, "label names the items of each: set each, or remove label")
	}
	// Without each there is no item: a pass that reads one sees null and
	// fails every tool, a rubric that loads and scores zero.
	if a := body.Attributes["pass"]; c.Pass != nil && body.Attributes["each"] == nil && c.Pass.Reads("item") {
		l.errorf(a.Expr.Range(), "pass reads item, which only a check with each has: set each to the list of items to check (such as each = \"params(tool)\"), or read tool")
	}
	if strings.Contains(c.Issue, "{items}") && body.Attributes["each"] == nil {
		l.errorf(body.Attributes["issue"].Expr.Range(), "{items} needs items: set each, or remove {items}")
	}
	return c
}

func (l *loader) level(b *hcl.Block) Level {
	var lv Level
	env, schema := l.envs.tool, toolSchema
	if b.Type == "surface" {
		env, schema = l.envs.surface, surfaceSchema
	}
	body, ds := b.Body.Content(schema)
	l.hclDiags(ds)
	outer := l.scope
	l.scope = l.lets(body.Blocks, outer)
	defer func() { l.scope = outer }()
	l.levelExtras(b.Type, body, &lv)
	names := map[string]hcl.Range{}
	for _, mb := range body.Blocks {
		if mb.Type != "metric" {
			continue
		}
		m := &Metric{Name: mb.Labels[0]}
		if prev, ok := names[m.Name]; ok {
			l.errorf(mb.LabelRanges[0], "metric %q is declared twice (first at line %d)", m.Name, prev.Start.Line)
		} else {
			names[m.Name] = mb.DefRange
		}
		mc, ds := mb.Body.Content(metricSchema)
		l.hclDiags(ds)
		m.Value = l.formula(env, mc.Attributes["value"], nil)
		lv.Metrics = append(lv.Metrics, m)
	}
	// A surface's score may be null (none for this surface); a tool's
	// is a number.
	want := lang.NumType
	if b.Type == "surface" {
		want = lang.NumOrNullType
	}
	lv.Score = l.formula(env, body.Attributes["score"], want)
	if a := body.Attributes["score"]; a != nil && b.Type == "tool" {
		l.toolScoreAt = a.Expr.Range()
	}
	return lv
}

func (l *loader) grades(a *hcl.Attribute) []Grade {
	pairs, ds := hcl.ExprMap(a.Expr)
	if l.hclDiags(ds) {
		return nil
	}
	var out []Grade
	mins := map[string]string{}
	at := map[string]hcl.Range{}
	for _, kv := range pairs {
		letter := hcl.ExprAsKeyword(kv.Key)
		if letter == "" {
			v, d := kv.Key.Value(nil)
			if d.HasErrors() || v.Type() != cty.String {
				l.errorf(kv.Key.Range(), "a grade is named by a word, such as A")
				continue
			}
			letter = v.AsString()
		}
		if first, dup := at[letter]; dup {
			l.errorf(kv.Key.Range(), "grade %s is given twice (first at line %d): a grade starts at one score", letter, first.Start.Line)
			continue
		}
		n, ok := l.number(kv.Value)
		if !ok {
			continue
		}
		if other, dup := mins[n.Exact()]; dup {
			l.errorf(kv.Value.Range(), "grades %s and %s start at the same score %s", other, letter, n)
		}
		mins[n.Exact()] = letter
		at[letter] = kv.Value.Range()
		out = append(out, Grade{Letter: letter, Min: n})
	}
	if len(out) == 0 && len(pairs) == 0 {
		l.errorf(a.Expr.Range(), "grades needs at least one band, such as { A = 90, F = 0 }")
	}
	l.letterOrder(out, at)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Min.Cmp(out[j].Min) > 0 })
	return out
}

// letterOrder refuses grades named by single capital letters whose
// alphabetical order is not their order of rank: a grade is named by any
// word (gold, pass), which is a label and ranks by its start alone, but
// with letters A comes first, and { A = 75, B = 90 } is a swap that would
// grade a perfect score B. Only the school letters A to F are held to it:
// an S above A (S-tier) is a convention of its own. at is where each
// grade's start is written.
func (l *loader) letterOrder(grades []Grade, at map[string]hcl.Range) {
	var byLetter []Grade
	for _, g := range grades {
		if len(g.Letter) != 1 || g.Letter[0] < 'A' || g.Letter[0] > 'Z' {
			return
		}
		if g.Letter[0] <= 'F' {
			byLetter = append(byLetter, g)
		}
	}
	sort.Slice(byLetter, func(i, j int) bool { return byLetter[i].Letter < byLetter[j].Letter })
	for i := 1; i < len(byLetter); i++ {
		hi, lo := byLetter[i-1], byLetter[i]
		if hi.Min.Cmp(lo.Min) < 0 {
			l.errorf(at[hi.Letter], "grade %s starts at %s, below %s at %s: graded by letter, A is the highest grade and each next letter starts lower; swap the two starts if that was meant", hi.Letter, hi.Min, lo.Letter, lo.Min)
		}
	}
}

// siblingTests adds the test blocks of NAME_test.hcl, beside the rubric
// file NAME.hcl, to r's tests, when that file exists. Tests move no
// score, so the digest stays what it is.
func (l *loader) siblingTests(r *Rubric) error {
	path := strings.TrimSuffix(l.file, ".hcl") + "_test.hcl"
	if path == l.file+"_test.hcl" || strings.HasSuffix(l.file, "_test.hcl") {
		return nil
	}
	src, err := boundedread.ReadFile(l.context(), path, l.maxFile)
	if err != nil {
		return nil // no sibling: the rubric's own blocks are its tests
	}
	f, ds := hclsyntax.ParseConfig(src, path, hcl.Pos{Line: 1, Column: 1})
	if !l.hclDiags(ds) {
		content, ds := f.Body.Content(&hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "test", LabelNames: []string{"name"}}}})
		if !l.hclDiags(ds) {
			for _, b := range content.Blocks {
				t := l.test(b)
				if t == nil {
					continue
				}
				// rubric test names a test by its name alone: two of
				// one name print two lines no one can tell apart.
				if i := slices.IndexFunc(r.Tests, func(o *Test) bool { return o.Name == t.Name }); i >= 0 {
					o := r.Tests[i]
					l.errorf(b.LabelRanges[0], "test %q is declared twice: here and at %s:%d; name one otherwise", t.Name, o.File, o.Line)
					continue
				}
				r.Tests = append(r.Tests, t)
			}
		}
	}
	if len(l.diags) > 0 {
		return &Error{Diagnostics: l.diags}
	}
	return nil
}

var testSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "surface", Required: true}, {Name: "answers"}, {Name: "expect", Required: true}},
}

// test reads a test block.
func (l *loader) test(b *hcl.Block) *Test {
	body, ds := b.Body.Content(testSchema)
	if l.hclDiags(ds) {
		return nil
	}
	t := &Test{Name: b.Labels[0], File: l.fileOf(b.DefRange), Line: b.DefRange.Start.Line}
	t.Surface = l.str(body.Attributes["surface"])
	l.inlineSurface(t, body.Attributes["surface"])
	t.Answers = l.str(body.Attributes["answers"])
	a := body.Attributes["expect"]
	pairs, ds := hcl.ExprMap(a.Expr)
	if l.hclDiags(ds) {
		return nil
	}
	refused := false // an expectation refused: say so, not that expect names nothing
	seen := map[string]int{}
	for _, kv := range pairs {
		path := hcl.ExprAsKeyword(kv.Key)
		if path == "" {
			v, d := kv.Key.Value(nil)
			if d.HasErrors() || v.Type() != cty.String {
				l.errorf(kv.Key.Range(), "an expected value is named by a report path, such as score or \"tools.NAME.score\"")
				refused = true
				continue
			}
			path = v.AsString()
		}
		if first, dup := seen[path]; dup {
			l.errorf(kv.Key.Range(), "expect %s is given twice (first at line %d): a test expects one value of each", path, first)
			refused = true
			continue
		}
		seen[path] = kv.Key.Range().Start.Line
		e := Expectation{Path: path, Line: kv.Key.Range().Start.Line, Col: kv.Key.Range().Start.Column}
		v, d := kv.Value.Value(nil)
		switch {
		case d.HasErrors() || v.IsNull() || !v.IsKnown() || v.Type() != cty.String && v.Type() != cty.Bool && v.Type() != cty.Number:
			l.errorf(kv.Value.Range(), "expect %s: want a number, a string, true or false", path)
			refused = true
			continue
		case v.Type() == cty.String:
			e.Want = v.AsString()
		case v.Type() == cty.Bool:
			// A report holds true and false too (complete, a check's
			// items, a metric that is a condition).
			e.Want, e.Bool = fmt.Sprint(v.True()), true
		default:
			want, ok := l.expectedNumber(kv.Value, path)
			if !ok {
				refused = true
				continue
			}
			e.Want, e.Number = want, true
		}
		t.Expect = append(t.Expect, e)
	}
	if len(t.Expect) == 0 && !refused {
		l.errorf(a.Expr.Range(), "expect names nothing: say what the report must hold, such as { score = 91.2, grade = \"A\" }")
	}
	return t
}

// inlineSurface refuses a test's inline surface (JSON written in the
// rubric's file) that is no surface, at its place in the file: the test
// could never run, so the rubric's file is broken as a typo in a formula
// leaves it. A surface in a file of its own is read when the test runs.
func (l *loader) inlineSurface(t *Test, a *hcl.Attribute) {
	src := t.Surface
	if a == nil || !IsInlineSurface(src) {
		return
	}
	_, err := surface.Parse("", []byte(src))
	if err == nil {
		return
	}
	var se *surface.Error
	if !errors.As(err, &se) {
		l.errorf(a.Expr.Range(), "test %q: surface: %v", t.Name, err)
		return
	}
	msg := se.Msg
	if se.Path != "" {
		msg = se.Path + ": " + msg
	}
	msg = fmt.Sprintf("test %q: surface: %s", t.Name, msg)
	if se.Line == 0 {
		l.errorf(a.Expr.Range(), "%s", msg)
		return
	}
	line, col := l.position(a.Expr.Range(), src, se.Line, se.Col)
	if c, ok := l.quotedColumn(a.Expr.Range(), se.Line, se.Col); ok {
		col = c
	}
	l.diags = append(l.diags, Diagnostic{File: l.fileOf(a.Expr.Range()), Line: line, Col: col, Msg: msg})
}

// quotedColumn is the column in the file of the col-th character of a
// one-line quoted string at rng, its escapes (\", \\, \uXXXX, $${)
// counted as the one character each stands for: JSON written in quotes
// escapes every quote, and a column that ignored them would point ever
// further left. ok is false for any other text (a heredoc).
func (l *loader) quotedColumn(rng hcl.Range, line, col int) (int, bool) {
	src := l.srcOf(rng)
	if line != 1 || rng.Start.Line != rng.End.Line || rng.Start.Byte >= len(src) || src[rng.Start.Byte] != '"' {
		return 0, false
	}
	text := src[rng.Start.Byte+1 : min(rng.End.Byte, len(src))]
	i := 0
	for n := 1; n < col && i < len(text); n++ {
		switch {
		case text[i] == '\\' && i+1 < len(text) && text[i+1] == 'u':
			i += 6
		case text[i] == '\\' && i+1 < len(text) && text[i+1] == 'U':
			i += 10
		case text[i] == '\\':
			i += 2
		case (text[i] == '$' || text[i] == '%') && i+2 < len(text) && text[i+1] == text[i] && text[i+2] == '{':
			i += 2
		default:
			i++
		}
	}
	return rng.Start.Column + 1 + i, true
}

// IsInlineSurface reports whether a test's surface is written inline, as
// JSON, rather than named by a path.
func IsInlineSurface(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "{") || strings.HasPrefix(s, "[")
}

// message compiles an issue written as cel("CEL string"): a message
// computed from the tool and the failing items' labels (items).
func (l *loader) message(a *hcl.Attribute, call *hclsyntax.FunctionCallExpr) *lang.Program {
	if len(call.Args) != 1 {
		l.errorf(call.Range(), "%s: cel(...) takes one string, the message as a CEL expression, such as cel(\"'parameters without a description: ' + items.join(', ')\")", a.Name)
		return nil
	}
	arg := &hcl.Attribute{Name: a.Name, Expr: call.Args[0], Range: a.Range, NameRange: a.NameRange}
	if l.interpolates(arg) {
		return nil
	}
	return l.formula(l.envs.message, arg, lang.String)
}

// interpolates reports (and says what to write instead) an issue message
// that holds ${...}: HCL would read it as its own template, and a
// message names the failing items with {items}, or is a CEL expression.
func (l *loader) interpolates(a *hcl.Attribute) bool {
	te, ok := a.Expr.(*hclsyntax.TemplateExpr)
	if !ok || te.IsStringLiteral() {
		return false
	}
	for _, part := range te.Parts {
		if _, lit := part.(*hclsyntax.LiteralValueExpr); lit {
			continue
		}
		rng := part.Range()
		// The part starts after "${": point at the "$".
		if rng.Start.Column > 2 {
			rng.Start.Column -= 2
		}
		l.errorf(rng, "%s: ${...} is not read in a message; write {items} where the failing items' names go (with each set), and plain text elsewhere, or compute the message in CEL: %s = cel(\"'parameters without a description: ' + items.join(', ')\")", a.Name, a.Name)
		return true
	}
	return false
}

// placeholder is a word in braces in a message, such as {item}.
var placeholder = regexp.MustCompile(`\{([A-Za-z_][A-Za-z0-9_.]*)\}`)

// placeholders refuses a word in braces other than {items} in an issue
// message: {item}, {tool} or {tool.name} look filled in, and are printed
// as written.
func (l *loader) placeholders(a *hcl.Attribute, msg string) {
	for _, m := range placeholder.FindAllStringSubmatch(msg, -1) {
		if m[1] == "items" {
			continue
		}
		l.errorf(a.Expr.Range(), "%s: %s is not filled in, but printed as written: a message fills only {items}, the failing items' names (with each set); for anything else, compute the message in CEL: %s = cel(\"tool.name + ': no description'\")", a.Name, m[0], a.Name)
		return
	}
}

// readWeights reads the rubric's weights: a map of names to numbers, in the
// order they are written.
func (l *loader) readWeights(a *hcl.Attribute) []Weight {
	pairs, ds := hcl.ExprMap(a.Expr)
	if l.hclDiags(ds) {
		return nil
	}
	var out []Weight
	seen := map[string]bool{}
	for _, kv := range pairs {
		name := hcl.ExprAsKeyword(kv.Key)
		if name == "" {
			l.errorf(kv.Key.Range(), "a weight is named by a word, such as purpose_clarity")
			continue
		}
		if seen[name] {
			l.errorf(kv.Key.Range(), "weight %s is given twice", name)
			continue
		}
		seen[name] = true
		// A weight that is not a number is reported once; it is still
		// a weight, so that nothing that reads it is reported again.
		n, ok := l.number(kv.Value)
		if ok && n.Sign() < 0 {
			l.errorf(kv.Value.Range(), "weight %s is %s: a weight is at least 0 (a check's points, or a number formulas read as weights.%s); to take points away, subtract them in a formula", name, n, name)
		}
		if l.weightKeys == nil {
			l.weightKeys = map[string]hcl.Range{}
		}
		l.weightKeys[name] = kv.Key.Range()
		out = append(out, Weight{Name: name, Value: n})
	}
	return out
}

// weightValue is a weight as formulas see it: a whole number is an int
// and any other a num, as the same number written in a formula would be,
// so that weights.x reads exactly like the literal it replaces.
func weightValue(n num.Num) any {
	if n.IsInt() && n.Big().Num().IsInt64() {
		return n.Big().Num().Int64()
	}
	return n
}

// str reads a string attribute, "" when it is absent or wrong (and then
// reported).
func (l *loader) str(a *hcl.Attribute) string {
	v, _ := l.strOK(a)
	return v
}

// strOK reads a string attribute and says whether it holds one; a wrong
// value has been reported when it says no.
func (l *loader) strOK(a *hcl.Attribute) (string, bool) { return l.stringIn(a, nil) }

// stringIn reads a string attribute evaluated in ctx (nil: no functions).
func (l *loader) stringIn(a *hcl.Attribute, ctx *hcl.EvalContext) (string, bool) {
	if a == nil {
		return "", false
	}
	v, ds := a.Expr.Value(ctx)
	if l.hclDiags(ds) {
		return "", false
	}
	if v.IsNull() || v.Type() != cty.String {
		l.errorf(a.Expr.Range(), "%s must be a string", a.Name)
		return "", false
	}
	return v.AsString(), true
}

// expectedNumber reads an expected value that is a number: exactly, as
// number does, and a fraction of two numbers (1/3) as its exact quotient,
// where HCL would divide in binary floating point and the test would
// want a fraction of 150 digits. Any other division is refused, with the
// string to write. false when it is refused (said at its place).
func (l *loader) expectedNumber(x hcl.Expression, path string) (string, bool) {
	op, ok := x.(*hclsyntax.BinaryOpExpr)
	if !ok || op.Op != hclsyntax.OpDivide {
		n, ok := l.number(x)
		return n.String(), ok
	}
	_, lit := op.LHS.(*hclsyntax.LiteralValueExpr)
	_, rlit := op.RHS.(*hclsyntax.LiteralValueExpr)
	if !lit || !rlit {
		text := strings.TrimSpace(string(x.Range().SliceBytes(l.srcOf(x.Range()))))
		l.errorf(x.Range(), "expect %s: HCL works out %s in binary floating point, not exactly: write the fraction as a string, such as \"1/3\", which the test reads exactly", path, text)
		return "", false
	}
	a, aok := l.number(op.LHS)
	b, bok := l.number(op.RHS)
	if !aok || !bok {
		return "", false
	}
	q, err := a.Quo(b)
	if err != nil {
		l.errorf(x.Range(), "expect %s: %v", path, err)
		return "", false
	}
	return q.Exact(), true
}

// notNumber says what v, which should be a number, is instead: ", not
// the string "forty"" (a number in quotes is told to lose them).
func notNumber(v cty.Value) string {
	switch {
	case !v.IsKnown():
		return ""
	case v.IsNull():
		return ", not null"
	case v.Type() == cty.String:
		if _, err := num.Parse(v.AsString()); err == nil {
			return fmt.Sprintf(", not the string %q: write it without quotes", v.AsString())
		}
		return fmt.Sprintf(", not the string %q", v.AsString())
	case v.Type() == cty.Bool:
		return ", not " + strconv.FormatBool(v.True())
	}
	return ", not " + v.Type().FriendlyName()
}

// number reads an HCL number exactly: cty keeps numbers as big.Float, so
// the decimal is recovered from its shortest text form.
func (l *loader) number(e hcl.Expression) (num.Num, bool) { return l.numberIn(e, nil) }

// numberIn is number for an expression evaluated in ctx.
func (l *loader) numberIn(e hcl.Expression, ctx *hcl.EvalContext) (num.Num, bool) {
	v, ds := e.Value(ctx)
	if l.hclDiags(ds) {
		return num.Num{}, false
	}
	if v.IsNull() || v.Type() != cty.Number || !v.IsKnown() {
		l.errorf(e.Range(), "want a number%s", notNumber(v))
		return num.Num{}, false
	}
	f := v.AsBigFloat()
	if f.IsInf() || f.Sign() != 0 && (f.MantExp(nil) > maxNumberExp || f.MantExp(nil) < -maxNumberExp) {
		l.errorf(e.Range(), "%s is out of range: a number in a rubric lies between -1e15 and 1e15, and is 0 or at least 1e-15 away from it", numberText(f))
		return num.Num{}, false
	}
	n := exactNumber(f)
	if n.Cmp(maxNumber) > 0 || n.Cmp(maxNumber.Neg()) < 0 || n.Sign() != 0 && n.Cmp(minNumber) < 0 && n.Cmp(minNumber.Neg()) > 0 {
		l.errorf(e.Range(), "%s is out of range: a number in a rubric lies between -1e15 and 1e15, and is 0 or at least 1e-15 away from it", numberText(f))
		return num.Num{}, false
	}
	return n, true
}

// The range of a number in a rubric: points, grade bounds and digits are
// never near it, and a number beyond it (1e999999999) cannot be held
// exactly. maxNumberExp is a binary exponent beyond both ends.
var (
	maxNumber = num.Int(1_000_000_000_000_000)
	minNumber = num.MustParse("0.000000000000001")
)

const maxNumberExp = 64

// numberText is a number as a message shows it: short, however long it is.
func numberText(f *big.Float) string {
	if f.IsInf() {
		return "the number"
	}
	// Text writes a number out in full before it rounds it: 1e99999999
	// would take minutes. Past 4096 binary digits, its order of magnitude
	// says enough.
	if exp := f.MantExp(nil); exp > 4096 || exp < -4096 {
		sign := ""
		if f.Sign() < 0 {
			sign = "-"
		}
		return fmt.Sprintf("about %s1e%+d", sign, int64(math.Round(float64(exp)*math.Log10(2))))
	}
	return f.Text('g', 6)
}

// whole reads a whole number from 0 to most into *dst; unit, such as
// " of digits", says in the error what the number counts.
func (l *loader) whole(a *hcl.Attribute, most int64, unit string, dst *int) {
	n, ok := l.number(a.Expr)
	if !ok {
		return
	}
	if !n.IsInt() || n.Sign() < 0 || n.Cmp(num.Int(most)) > 0 {
		l.errorf(a.Expr.Range(), "%s must be a whole number%s from 0 to %d", a.Name, unit, most)
		return
	}
	*dst = int(n.Big().Num().Int64())
}

func exactNumber(f *big.Float) num.Num {
	n, err := num.Parse(f.Text('g', -1))
	if err != nil {
		r, _ := f.Rat(nil)
		return num.Rat(r)
	}
	return n
}

// formula compiles a string attribute as CEL, mapping the positions of CEL
// errors back into the rubric file.
func (l *loader) formula(env *lang.Env, a *hcl.Attribute, want *cel.Type) *lang.Program {
	if a == nil {
		return nil
	}
	src, ok := l.strOK(a)
	if !ok {
		return nil
	}
	if src == "" {
		l.errorf(a.Expr.Range(), "%s is empty: write a formula", a.Name)
		return nil
	}
	p, ds := env.CompileLets(src, want, l.globals, l.scope)
	if p != nil {
		if l.at == nil {
			l.at = map[*lang.Program]formulaAt{}
		}
		l.at[p] = formulaAt{a.Expr.Range(), src}
		l.setOrigins(p, formulaAt{a.Expr.Range(), src})
	}
	for _, d := range ds {
		if d.Undeclared != "" && l.cyclic[d.Undeclared] {
			continue // the cycle says why it has no value
		}
		if d.Let != "" {
			l.letDiag(d.Let, d, a.Name, l.nameHint(env, d))
			continue
		}
		line, col := l.position(a.Expr.Range(), src, d.Line, d.Col)
		l.diags = append(l.diags, Diagnostic{File: l.fileOf(a.Expr.Range()), Line: line, Col: col, Msg: fmt.Sprintf("%s: %s%s", a.Name, d.Msg, l.nameHint(env, d))})
	}
	return p
}

// position maps a 1-based line and column inside a formula to the file. A
// quoted string starts one column after its quote; a heredoc's text starts
// on the line after its marker, shifted by the indentation <<- removed.
func (l *loader) position(rng hcl.Range, formula string, line, col int) (int, int) {
	start := rng.Start
	if src := l.srcOf(rng); start.Byte < len(src) && src[start.Byte] == '<' {
		fileLine := start.Line + line
		lines := strings.Split(string(src), "\n")
		celLines := strings.Split(formula, "\n")
		if fileLine-1 < len(lines) && line-1 < len(celLines) {
			text, cel := strings.TrimRight(lines[fileLine-1], "\r"), celLines[line-1]
			if strings.HasSuffix(text, cel) {
				col += len(text) - len(cel)
			}
		}
		return fileLine, col
	}
	if line == 1 {
		return start.Line, start.Column + col
	}
	return start.Line + line - 1, col
}

// setOrigins records where p's text is (at) and, through the lets p
// reads apart, where each let's is, so that an error a formula meets
// while scoring names its place in the file (see lang.Program.Where).
func (l *loader) setOrigins(p *lang.Program, at formulaAt) {
	p.SetOrigin(l.origin(at))
	// A let reads only lets compiled before it (a cycle is refused), so
	// this ends.
	_, lets := p.Apart()
	for _, let := range lets {
		// The let of that name in scope: the one compiled into p.
		if la, ok := l.letsAt[let.Name]; ok && let.Program != p {
			l.setOrigins(let.Program, la.formulaAt)
		}
	}
}

// origin is where the text of the formula at begins in the file, and
// how later lines of it are indented: what position gives for each of
// its lines, found once for the whole formula.
func (l *loader) origin(at formulaAt) lang.Origin {
	start := at.rng.Start
	o := lang.Origin{File: l.fileOf(at.rng), Line: start.Line, Col: start.Column + 1}
	file := l.srcOf(at.rng)
	if start.Byte >= len(file) || file[start.Byte] != '<' {
		return o // a quoted string: its text starts after the quote
	}
	// A heredoc: its text starts on the line after the marker, each
	// line shifted by the indentation <<- removed, the same for every
	// line; the first line with text says how much.
	o.Line, o.Col = start.Line+1, 1
	_, rest, _ := bytes.Cut(file[start.Byte:], []byte("\n"))
	for text, more := at.src, true; more; {
		var line []byte
		line, rest, _ = bytes.Cut(rest, []byte("\n"))
		var cel string
		cel, text, more = strings.Cut(text, "\n")
		line = bytes.TrimRight(line, "\r")
		if strings.TrimSpace(cel) != "" && bytes.HasSuffix(line, []byte(cel)) {
			o.Indent = len(line) - len(cel)
			o.Col = o.Indent + 1
			break
		}
	}
	return o
}

// labels reads a map of names to strings, such as
// { taskGeneratorVersion = "tasks-v1" }.
func (l *loader) labels(a *hcl.Attribute) map[string]string {
	pairs, ds := hcl.ExprMap(a.Expr)
	if l.hclDiags(ds) {
		return nil
	}
	out := make(map[string]string, len(pairs))
	for _, kv := range pairs {
		name := hcl.ExprAsKeyword(kv.Key)
		if name == "" {
			l.errorf(kv.Key.Range(), "a label is named by a word, such as taskGeneratorVersion")
			continue
		}
		v, d := kv.Value.Value(nil)
		if d.HasErrors() || v.Type() != cty.String || v.IsNull() {
			l.errorf(kv.Value.Range(), "label %s must be a string, such as \"tasks-v1\"", name)
			continue
		}
		if _, dup := out[name]; dup {
			l.errorf(kv.Key.Range(), "label %s is given twice", name)
		}
		if slices.ContainsFunc(judge.BlockMembers, func(m string) bool { return strings.EqualFold(m, name) }) {
			l.errorf(kv.Key.Range(), "%q is a member the judge block already has; name the label otherwise", name)
		}
		out[name] = v.AsString()
	}
	return out
}

// wordFor is name made a word, that a weight can be named by: each
// character HCL does not take in a name becomes _, and one that starts
// with a digit is prefixed with c_.
func wordFor(name string) string {
	var b strings.Builder
	for _, r := range name {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteRune('_')
		}
	}
	w := b.String()
	if !hclsyntax.ValidIdentifier(w) {
		w = "c_" + w
	}
	return w
}
