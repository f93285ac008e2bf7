// Package lang is the formula language of rubrics: CEL with exact numbers
// and a small library of functions over tool definitions.
//
// Formulas are compiled and type-checked once, when a rubric loads, and
// evaluated many times. Every number literal with a fraction (0.60) is an
// exact num, every division is exact, and arithmetic mixing ints, doubles and
// nums yields a num, so formulas never touch binary floats. Each evaluation
// is bounded by a cost limit, so no formula can run away.
package lang

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/cel-go/cel"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/env"
	"github.com/google/cel-go/common/operators"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/ext"
	"github.com/google/cel-go/interpreter"

	"github.com/rubricmcp/rubric/engine/num"
)

// Version names the language library: its functions and their semantics.
// It is folded into every rubric digest, so a change in what a function
// computes is a change of digest.
const Version = "rubric-lang/1"

// CostLimit bounds the work of one evaluation of one formula over one tool.
// Formulas over a whole surface get CostLimit plus CostPerItem for each
// tool (see Program.WithCostLimit). Formulas over data read from more
// than CostLimit/CostPerByte bytes get CostPerByte more for each byte
// (see LimitFor): the work of a formula that reads each string a few
// dozen times grows with the data, and the data is bounded already (the
// transports' --max-bytes), so a long description or a wide schema is
// scored in time that grows with its length, not refused.
const (
	CostLimit   = 1_000_000
	CostPerItem = 1_000
	CostPerByte = 64
)

// LimitFor is the cost limit of a formula whose limit is base over data
// read from n bytes of input (a tool's canonical JSON, or all of a
// surface's): base while CostPerByte a byte stays within it, else base
// plus CostPerByte a byte rounded up to a power of two, so that a run
// over tools of many lengths builds a formula for a few limits only.
func LimitFor(base, n uint64) uint64 {
	if n <= base/CostPerByte {
		return base
	}
	if n >= 1<<(63-7) { // past 2^56 bytes: no input is that long
		return math.MaxUint64
	}
	return base + 1<<bits.Len64(CostPerByte*n-1)
}

// Var declares a variable visible to formulas.
type Var struct {
	Name string
	Type *cel.Type
}

// Common variable types.
var (
	Dyn     = cel.DynType
	Object  = cel.MapType(cel.StringType, cel.DynType)
	Objects = cel.ListType(cel.MapType(cel.StringType, cel.DynType))
	Bool    = cel.BoolType
	String  = cel.StringType
)

// Env compiles formulas that see a fixed set of variables.
type Env struct {
	env *cel.Env
	// vars are the declared variables' types, for messages.
	vars map[string]*cel.Type
	// key names the variables for the table of formulas compiled ahead
	// of time (see UseCompiled); empty for an environment with options
	// the key cannot name, whose formulas are always compiled.
	key string
}

// NewEnv returns an environment declaring vars. Every environment
// extends one base environment holding the language's library, built
// once per process on first use: declaring the library is most of what
// building an environment costs (about 3 ms), and extending one by a few
// variables is about a hundredth of that.
func NewEnv(vars ...Var) (*Env, error) {
	base, err := baseEnv()
	if err != nil {
		return nil, err
	}
	e, err := base.Extend(variableOptions(vars)...)
	if err != nil {
		return nil, fmt.Errorf("rubric language: %w", err)
	}
	return &Env{env: e, vars: varTypes(vars), key: varsKey("", vars)}, nil
}

// varsKey is key, an environment's, followed by the names and types of
// vars, in order.
func varsKey(key string, vars []Var) string {
	var b strings.Builder
	b.WriteString(key)
	for _, v := range vars {
		b.WriteString(v.Name + ":" + v.Type.String() + ";")
	}
	return b.String()
}

// baseEnv is the environment of the language's library without
// variables, built on first use: a command that compiles no formula
// (rubric --version) does not pay for it.
var baseEnv = sync.OnceValues(func() (*cel.Env, error) {
	baseEnvBuilt.Store(true)
	e, err := cel.NewCustomEnv(libraryOptions()...)
	if err != nil {
		return nil, fmt.Errorf("rubric language: %w", err)
	}
	return e, nil
})

// baseEnvBuilt says baseEnv was built, for tests.
var baseEnvBuilt atomic.Bool

// newEnv is an environment built afresh, not extended from the base,
// with extra options (for tests: a function that counts its calls).
func newEnv(extra []cel.EnvOption, vars ...Var) (*Env, error) {
	opts := append(libraryOptions(), variableOptions(vars)...)
	opts = append(opts, extra...)
	e, err := cel.NewCustomEnv(opts...)
	if err != nil {
		return nil, fmt.Errorf("rubric language: %w", err)
	}
	return &Env{env: e, vars: varTypes(vars)}, nil
}

// libraryOptions declare the language: its types, operators, functions
// and the CEL extensions it uses.
func libraryOptions() []cel.EnvOption {
	opts := []cel.EnvOption{
		cel.StdLib(cel.StdLibSubset(excludedStd())),
		cel.CustomTypeAdapter(Adapter),
		cel.Types(append([]any{NumType}, objectTypes()...)...),
	}
	opts = append(opts, operatorOptions()...)
	opts = append(opts, functionOptions()...)
	opts = append(opts, schemaFunctions()...)
	opts = append(opts, validateFunctions()...)
	opts = append(opts, describedFunctions()...)
	opts = append(opts, objectOptions()...)
	opts = append(opts, subtreeFunctions()...)
	// The extensions are pinned to the versions this language was written
	// against, so that a newer cel-go cannot change what a formula means
	// without Version (and every digest) changing with it.
	return append(opts,
		ext.Strings(ext.StringsVersion(5)),
		// After the extension: its split estimated with its last piece.
		splitPieces(),
		// After the extension: its join sized by the strings it joins.
		joinStrings(),
		ext.Lists(ext.ListsVersion(3)),
		// After the extension: its distinct, charged a linear cost.
		distinctFunctions(),
		// After the extension: its sort sized as the list it sorts.
		sortSizes(),
		ext.Bindings(ext.BindingsVersion(1)),
		// Optional syntax: tool.?title.orValue('') reads a member that
		// may be absent without has(x) ? x : null.
		cel.OptionalTypes(cel.OptionalTypesVersion(1)),
		jsonFunctions(),
		groupFunctions(),
		textFunctions())
}

func variableOptions(vars []Var) []cel.EnvOption {
	opts := make([]cel.EnvOption, len(vars))
	for i, v := range vars {
		opts[i] = cel.Variable(v.Name, v.Type)
	}
	return opts
}

func varTypes(vars []Var) map[string]*cel.Type {
	types := make(map[string]*cel.Type, len(vars))
	for _, v := range vars {
		types[v.Name] = v.Type
	}
	return types
}

func excludedStd() *env.LibrarySubset {
	s := &env.LibrarySubset{}
	for _, op := range replacedOperators {
		s.ExcludeFunctions = append(s.ExcludeFunctions, &env.Function{Name: op})
	}
	return s
}

// Diag is a compile error at a 1-based line and column of the formula text
// (of the let's text, when Let names one: see CompileLets).
type Diag struct {
	Line, Col int
	Msg       string
	Let       string
	// Undeclared is the name, when the error is a reference to a name
	// that is not declared: a caller may suggest the nearest it knows
	// (see Env.Names).
	Undeclared string
}

// String formats the diagnostic as line:col: message, after "let NAME "
// when it is in a let.
func (d Diag) String() string {
	at := fmt.Sprintf("%d:%d: %s", d.Line, d.Col, d.Msg)
	if d.Let != "" {
		return "let " + d.Let + " " + at
	}
	return at
}

// Program is a compiled formula.
type Program struct {
	prg cel.Program
	// fast evaluates without cost tracking, for data up to fastUpTo long.
	fast     cel.Program
	fastUpTo uint64
	env      *cel.Env
	checked  *cel.Ast
	// Source is the formula as written.
	Source string
	// Canonical is the formula re-printed from its syntax tree: white space
	// and comments inside the formula do not change it.
	Canonical string
	// Out is the checked result type.
	Out *cel.Type
	// limit is the cost limit the program runs under.
	limit uint64
	// reads are the variables the formula reads; reading says how.
	reads   map[string]bool
	reading reading
	// limited holds the copies of the formula built for other cost
	// limits, shared by every copy, so each is built once.
	limited *limitedCopies
	// globals are the values of the variables fixed when the formula
	// was compiled (a rubric's weights), nil when it reads none.
	globals Vars
	// apart is the formula compiled to read its lets as variables, nil
	// when it reads none (see Apart).
	apart *apartForm
	// fastKnown, when above 0, is fastUpTo under CostLimit as the table
	// of formulas compiled ahead of time gives it (see UseCompiled).
	fastKnown uint64
	// origin is where the formula's text is written, nil when the
	// loader recorded none (see SetOrigin).
	origin *Origin
	// konst holds the value of a formula that reads no variable but
	// its fixed ones, once computed; nil for any other formula.
	konst *constant
	// data holds what estimating the formula on one evaluation's data
	// needs (see dataEstimate), shared by its copies; nil for a formula
	// made otherwise than by CompileWith.
	data *dataEstimate
}

type limitedCopies struct {
	mu sync.Mutex
	by map[uint64]*Program
}

// Compile parses, rewrites and type-checks src. want, if not nil, is the
// type the result must have (dyn results are checked when evaluated).
func (e *Env) Compile(src string, want *cel.Type) (*Program, []Diag) {
	return e.CompileWith(src, want, nil)
}

// CompileWith is Compile for a formula some of whose variables have
// values known when it is compiled (a rubric's weights): globals gives
// them by name, and every evaluation sees them beside the variables it
// is given. The canonical form keeps the variables' names, not their
// values: a digest covers the values on its own.
func (e *Env) CompileWith(src string, want *cel.Type, globals map[string]any) (*Program, []Diag) {
	var key [32]byte
	var known *compiledEntry
	var ahead *aheadTree
	if e.key != "" {
		key = compiledKey(e.key, typeKey(want), src)
		if ent, a, ok := lookupCompiled(key, src); ok {
			known, ahead = &ent, a
		}
	}
	var checked *cel.Ast
	var canonical string
	if known != nil {
		if ahead != nil {
			checked = ahead.tree()
		} else {
			checked = known.ast(src)
		}
		if canonical = known.canonical; checked != nil {
			compiledUsed.Add(1)
		}
	}
	if checked == nil {
		known = nil
		var ds []Diag
		if checked, canonical, ds = e.compile(src); ds != nil {
			return nil, ds
		}
	}
	out := checked.OutputType()
	if want != nil && !out.IsExactType(cel.DynType) && !want.IsAssignableType(out) && !((want == NumType || want == NumOrNullType) && isNumericType(out)) {
		return nil, []Diag{{Line: 1, Col: 1, Msg: fmt.Sprintf("the formula yields %s, want %s", typeName(out), typeName(want))}}
	}
	unbuilt := &Program{env: e.env, checked: checked, Source: src, Canonical: canonical, Out: out, reads: variablesRead(checked), limited: &limitedCopies{}, data: &dataEstimate{}}
	unbuilt.reading = readingOf(unbuilt)
	for name, v := range globals {
		if unbuilt.reads[name] {
			if unbuilt.globals == nil {
				unbuilt.globals = Vars{}
			}
			unbuilt.globals[name] = v
		}
	}
	if known != nil && known.fastLimit == CostLimit && known.fastSizes == sizesKey(unbuilt.globalSizes()) {
		unbuilt.fastKnown = known.fastUpTo
	}
	p, err := unbuilt.build(CostLimit)
	if err != nil {
		return nil, []Diag{{Line: 1, Col: 1, Msg: err.Error()}}
	}
	if e.key != "" && known == nil {
		recordCompiled(key, src, p)
	}
	return p, nil
}

// compile parses, rewrites and type-checks src: its checked syntax tree
// and its canonical form, or what is wrong with it.
func (e *Env) compile(src string) (*cel.Ast, string, []Diag) {
	parsed, iss := e.env.Parse(src)
	if iss.Err() != nil {
		return nil, "", diags(iss)
	}
	rewrite(parsed.NativeRep(), src)
	// Printed after the rewrite, the canonical form holds every fractional
	// literal as its exact value: 0.6 and 0.60 read alike, while two
	// decimals that only a float64 would confuse do not.
	canonical, err := cel.AstToString(parsed)
	if err != nil {
		canonical = strings.Join(strings.Fields(src), " ")
	}
	checked, iss := e.env.Check(parsed)
	if iss.Err() != nil {
		checked, iss = e.recheck(src, iss)
	}
	if iss.Err() != nil {
		return nil, "", e.objectDiags(parsed, diags(iss), iss)
	}
	return checked, canonical, nil
}

// WithCostLimit returns the same formula with a different cost limit, for
// formulas whose work grows with their data (a mean over every tool of a
// large surface). The copy for a limit is built once and kept.
func (p *Program) WithCostLimit(limit uint64) (*Program, error) {
	if limit == p.limit || p.limited == nil {
		if limit == p.limit {
			return p, nil
		}
		return p.build(limit)
	}
	p.limited.mu.Lock()
	defer p.limited.mu.Unlock()
	if q, ok := p.limited.by[limit]; ok {
		return q, nil
	}
	q, err := p.build(limit)
	if err != nil {
		return nil, err
	}
	if p.limited.by == nil {
		p.limited.by = map[uint64]*Program{}
	}
	p.limited.by[limit] = q
	return q, nil
}

// build makes the formula's programs for a cost limit.
func (p *Program) build(limit uint64) (*Program, error) {
	q := *p
	q.limit = limit
	var err error
	q.prg, err = trackedProgram(p.env, p.checked, p.withGlobals(
		cel.CostLimit(limit),
		cel.InterruptCheckFrequency(1000),
		cel.EvalOptions(cel.OptOptimize))...)
	if err != nil {
		return nil, err
	}
	// The untracked program does not depend on the limit: it is built once.
	if limit == CostLimit && p.fastKnown > 0 {
		q.fastUpTo = p.fastKnown
	} else {
		q.fastUpTo = fastLimit(p.env, p.checked, limit, p.globalSizes())
	}
	if q.fastUpTo > 0 && q.fast == nil {
		if q.fast, err = p.env.Program(p.checked, p.withGlobals(cel.EvalOptions(cel.OptOptimize))...); err != nil {
			return nil, err
		}
	}
	switch {
	case q.fastUpTo == 0 || !isConstant(freeVars(q.checked), q.globals, q.fastUpTo):
		q.konst = nil
	case q.konst == nil:
		q.konst = &constant{}
	}
	return &q, nil
}

// withGlobals adds the formula's fixed variables to opts.
func (p *Program) withGlobals(opts ...cel.ProgramOption) []cel.ProgramOption {
	if p.globals != nil {
		opts = append(opts, cel.Globals(p.globals))
	}
	return opts
}

// globalSizes are, for the cost estimate, the bounds of the fixed
// variables: the longest string, list or map anywhere in each (see
// longestIn), known when the formula is compiled, not bounded by the
// data's.
func (p *Program) globalSizes() map[string]uint64 {
	var out map[string]uint64
	for name, v := range p.globals {
		if out == nil {
			out = map[string]uint64{}
		}
		out[name] = longestIn(v)
	}
	return out
}

// longestIn is the length of the longest string, list or map in v, a
// value of the data (a map's keys among its strings), or the digits of
// its longest exact number (see numSize), at least 1, as the tracker
// measures a number or a boolean; for a value it cannot look into, more
// than any data's.
func longestIn(v any) uint64 {
	switch x := v.(type) {
	case string:
		return max(1, uint64(len(x)))
	case []any:
		n := max(1, uint64(len(x)))
		for _, e := range x {
			n = max(n, longestIn(e))
		}
		return n
	case map[string]any:
		n := max(1, uint64(len(x)))
		for k, e := range x {
			n = max(n, uint64(len(k)), longestIn(e))
		}
		return n
	case num.Num:
		return numSize(x)
	case nil, bool, float64, int, int64, uint64:
		return 1
	}
	return math.MaxUint32
}

// In is act with the formula's fixed variables (its weights) beneath
// it: what the formula sees when it is evaluated in act.
func (p *Program) In(act interpreter.Activation) interpreter.Activation {
	if p == nil || p.globals == nil {
		return act
	}
	return interpreter.NewHierarchicalActivation(p.globals, act)
}

// Uses reports whether the formula reads the variable name. A scope asks
// it several times an evaluation, and a formula reads a few names: a
// scan of their sorted list (see VarsRead) is a few times quicker than
// the map for as many as usesScanMax.
func (p *Program) Uses(name string) bool {
	if p == nil {
		return false
	}
	if names := p.reading.names; len(names) <= usesScanMax {
		return slices.Contains(names, name)
	}
	return p.reads[name]
}

// usesScanMax is how many names Uses scans before it asks the map.
const usesScanMax = 16

// variablesRead are the variables a checked formula reads.
func variablesRead(checked *cel.Ast) map[string]bool {
	reads := map[string]bool{}
	for _, ref := range checked.NativeRep().ReferenceMap() {
		if ref.Value == nil && ref.Name != "" {
			reads[ref.Name] = true
		}
	}
	return reads
}

func isNumericType(t *cel.Type) bool {
	for _, n := range numericTypes {
		if t.IsExactType(n) {
			return true
		}
	}
	return false
}

func typeName(t *cel.Type) string {
	switch {
	case t == NumOrNullType:
		return "num or null"
	case t.IsExactType(NumType):
		return "num"
	case t.IsExactType(cel.NullType):
		return "null"
	}
	return t.String()
}

func diags(iss *cel.Issues) []Diag {
	var out []Diag
	for _, e := range iss.Errors() {
		// CEL has no position for some errors (an empty formula); point at
		// the start rather than nowhere.
		d := Diag{Line: max(e.Location.Line(), 1), Col: max(e.Location.Column()+1, 1), Msg: e.Message}
		// A formula has no container: cel-go's "(in container '')"
		// says nothing to its author.
		if m := undeclared.FindStringSubmatch(e.Message); m != nil {
			d.Msg, d.Undeclared = "undeclared reference to '"+m[1]+"'", m[1]
		} else if msg, ok := operatorMismatch(e.Message); ok {
			d.Msg = msg
		}
		out = append(out, d)
	}
	return out
}

// undeclared is cel-go's message for a name that is not declared.
var undeclared = regexp.MustCompile(`^undeclared reference to '([^']*)' \(in container ''\)$`)

// noOverload is cel-go's message for a function or operator given
// arguments of types it does not take: its internal name (_+_) and the
// types, such as (string, int).
var noOverload = regexp.MustCompile(`^found no matching overload for '([^']*)' applied to '\((.*)\)'$`)

// writtenOps are the operators as a formula writes them, by cel-go's names.
var writtenOps = map[string]string{
	operators.Add: "+", operators.Subtract: "-", operators.Multiply: "*", operators.Divide: "/", operators.Modulo: "%",
	operators.Less: "<", operators.LessEquals: "<=", operators.Greater: ">", operators.GreaterEquals: ">=",
	operators.Equals: "==", operators.NotEquals: "!=", operators.In: "in",
}

// operatorMismatch says in a formula's terms what cel-go reports as
// "found no matching overload for '_?_:_' applied to '(bool, int,
// null)'": which operator, the types as a formula names them, and what
// to write instead. ok is false for other messages (a function's
// arguments keep cel-go's words, which name the function).
func operatorMismatch(msg string) (string, bool) {
	m := noOverload.FindStringSubmatch(msg)
	if m == nil {
		return "", false
	}
	args := splitTypes(m[2])
	for i, a := range args {
		args[i] = strings.ReplaceAll(a, "rubric.num", "num")
	}
	if m[1] == operators.Conditional && len(args) == 3 {
		if args[0] != "bool" {
			return fmt.Sprintf("the condition before ? is %s, not bool: write a comparison, such as x > 0 ? a : b", args[0]), true
		}
		return fmt.Sprintf("the branches of ? : are %s and %s, of different types: give both one type, or wrap each in dyn(), such as c ? dyn(a) : dyn(null)", args[1], args[2]), true
	}
	if m[1] == operators.Index && len(args) == 2 {
		if strings.HasPrefix(args[0], "list(") {
			return fmt.Sprintf("a list is indexed by an int, not %s: write int(i) (an exact number's integer part), such as xs[int(n / 2)]", args[1]), true
		}
		if elem, ok := containerElem(args[0]); ok && strings.HasPrefix(args[0], "map(") {
			return fmt.Sprintf("%s is indexed by its keys, which are %s, not %s: convert the key, such as m[string(k)]", args[0], elem, args[1]), true
		}
		return fmt.Sprintf("[ ] reads a list's item or a map's value, not one of %s", args[0]), true
	}
	op, ok := writtenOps[m[1]]
	if !ok || len(args) != 2 {
		return "", false
	}
	if m[1] == operators.In {
		if elem, ok := containerElem(args[1]); ok {
			return fmt.Sprintf("in looks for a value of type %s in %s, whose %s are %s: write them as the value's type, or compare each, such as xs.exists(v, v == x)", args[0], args[1], items(args[1]), elem) + ifNum(args[0], elem), true
		}
		return fmt.Sprintf("in looks for a value in a list or a map, not in %s: write x in [a, b], or s.contains(x) for text", args[1]), true
	}
	return fmt.Sprintf("%s does not apply to %s and %s: convert one side, such as string(x), int(x) or num(x)", op, args[0], args[1]), true
}

// containerElem is the type of a list's items or a map's keys, as a
// formula names the list or the map (list(int), map(string, dyn)); false
// for any other type.
func containerElem(t string) (string, bool) {
	if inner, ok := strings.CutPrefix(t, "list("); ok {
		return strings.TrimSuffix(inner, ")"), true
	}
	if inner, ok := strings.CutPrefix(t, "map("); ok {
		return splitTypes(strings.TrimSuffix(inner, ")"))[0], true
	}
	return "", false
}

// items names what in reads of a container type: a list's items, a
// map's keys.
func items(t string) string {
	if strings.HasPrefix(t, "map(") {
		return "keys"
	}
	return "items"
}

// ifNum adds, for an exact number looked for among ints or an int among
// exact numbers, how to write the other kind.
func ifNum(value, elem string) string {
	switch {
	case value == "num" && elem == "int":
		return " (an exact number among ints: write the items with a decimal point, 1.0, which the language reads as exact numbers, or look for int(x))"
	case value == "int" && elem == "num":
		return " (an int among exact numbers: look for num(x))"
	}
	return ""
}

// splitTypes splits cel-go's list of argument types at the commas that
// are not inside a type's parentheses: list(map(string, dyn)), int.
func splitTypes(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// macros are CEL's macros, which a formula calls like functions but
// which no environment declares.
var macros = []string{"has", "all", "exists", "exists_one", "map", "filter"}

// Names are the names a formula can call or read: the declared
// variables, the functions and CEL's macros (not the operators), for
// suggesting the nearest to a name that is not declared.
func (e *Env) Names() []string {
	out := slices.Clone(macros)
	for _, v := range e.env.Variables() {
		out = append(out, v.Name())
	}
	for name := range e.env.Functions() {
		if identifier.MatchString(name) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// identifier is a name a formula can write: not an operator (_+_, @in,
// !_) nor a qualified name.
var identifier = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_]*$`)

var numberToken = regexp.MustCompile(`^-?[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?`)

// rewrite replaces every double literal with num("<its text>"), so that 0.1
// in a formula is exactly one tenth, and == and != with the language's exact
// equality.
func rewrite(a *celast.AST, src string) {
	var maxID int64
	var doubles, equalities []celast.Expr
	celast.PostOrderVisit(a.Expr(), celast.NewExprVisitor(func(e celast.Expr) {
		maxID = max(maxID, e.ID())
		switch e.Kind() {
		case celast.LiteralKind:
			if _, ok := e.AsLiteral().(types.Double); ok {
				doubles = append(doubles, e)
			}
		case celast.CallKind:
			if fn := e.AsCall().FunctionName(); fn == operators.Equals || fn == operators.NotEquals {
				equalities = append(equalities, e)
			}
		}
	}))
	fac := celast.NewExprFactory()
	for _, e := range equalities {
		c := e.AsCall()
		fn := equalsFn
		if c.FunctionName() == operators.NotEquals {
			fn = notEqualsFn
		}
		e.SetKindCase(fac.NewCall(e.ID(), fn, c.Args()...))
	}
	info := a.SourceInfo()
	for _, e := range doubles {
		text := literalText(e, info, src)
		if n, err := num.Parse(text); err == nil {
			text = n.Exact()
		}
		maxID++
		call := fac.NewCall(e.ID(), "num", fac.NewLiteral(maxID, types.String(text)))
		e.SetKindCase(call)
	}
}

func literalText(e celast.Expr, info *celast.SourceInfo, src string) string {
	d := float64(e.AsLiteral().(types.Double))
	if r, ok := info.GetOffsetRange(e.ID()); ok {
		runes := []rune(src)
		if int(r.Start) < len(runes) {
			if m := numberToken.FindString(string(runes[r.Start:])); m != "" {
				if !strings.ContainsAny(m, ".eE") {
					m += ".0"
				}
				return m
			}
		}
	}
	return fmt.Sprintf("%v", d)
}

// Eval evaluates the program with the given variables; values should be
// CEL values or plain Go values (JSON-decoded data, num.Num).
func (p *Program) Eval(vars map[string]any) (ref.Val, error) {
	return p.EvalIn(Vars(vars))
}

// EvalIn evaluates the program in an activation, for callers that
// evaluate many formulas over the same variables.
func (p *Program) EvalIn(act interpreter.Activation) (ref.Val, error) {
	return p.evalContext(context.Background(), act)
}

// overCost starts the explanation of a formula stopped by its cost limit.
const overCost = "the formula did more work than its cost limit"

// evalContext evaluates the tracked program, stopping when ctx is done.
func (p *Program) evalContext(ctx context.Context, act interpreter.Activation) (ref.Val, error) {
	out, _, err := p.prg.ContextEval(ctx, act)
	if err != nil {
		if ctxErr := ctx.Err(); ctxErr != nil {
			return nil, fmt.Errorf("the formula was interrupted: %w", ctxErr)
		}
		// A let's error reaches the formula that read it already
		// explained: it is explained once.
		if msg := err.Error(); strings.Contains(msg, "cost limit exceeded") && !strings.Contains(msg, overCost) {
			return nil, fmt.Errorf("%w: %s (%d) allows on this data; the data is unusually large (a long description, a wide schema), or the formula's work grows faster than its data (a scan of a list inside a scan of a list: look items up with index_by instead); for a built-in rubric, report it with the surface, or score with a copy of the rubric (rubric rubrics show --source NAME) whose formula does less", err, overCost, p.limit)
		}
		return nil, err
	}
	return out, nil
}

// Vars is an activation over a map of Go or CEL values, adapted on use.
type Vars map[string]any

// ResolveName implements interpreter.Activation.
func (v Vars) ResolveName(name string) (any, bool) {
	x, ok := v[name]
	if !ok {
		return nil, false
	}
	return Adapter.NativeToValue(x), true
}

// Parent implements interpreter.Activation.
func (v Vars) Parent() interpreter.Activation { return nil }
