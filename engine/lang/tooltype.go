package lang

import (
	"fmt"
	"slices"
	"strings"

	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/operators"
	"reflect"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"

	"github.com/rubricmcp/rubric/internal/nearest"
)

// ObjectField is one member of a declared object type and the CEL type
// formulas read it as.
type ObjectField struct {
	Name string
	Type *cel.Type
}

// ObjectDecl declares an object type to the type checker: a formula that
// selects a member the type does not list (tool.descripton) is a type
// error when it is compiled. Values of the type are still the maps a
// definition decodes to: only the checker knows the declaration, so what
// a formula computes on a given definition is what it computed when the
// value was an open map.
type ObjectDecl struct {
	// Name is the type's name, as errors and type() show it.
	Name string
	// What says what the type is, for messages: "an MCP tool".
	What   string
	Fields []ObjectField
}

// The MCP Tool of the 2025-11-25 revision, as formulas read a definition.
// Its JSON Schema bodies (inputSchema, outputSchema) and _meta stay
// dynamic: any member may be read there. The leaves are dyn as well: a
// server may send a description that is a number, and a rubric that asks
// is_string(tool.description) must go on seeing it.
var (
	AnnotationsDecl = &ObjectDecl{Name: "mcp.ToolAnnotations", What: "a tool's annotations", Fields: []ObjectField{
		{"title", Dyn}, {"readOnlyHint", Dyn}, {"destructiveHint", Dyn}, {"idempotentHint", Dyn}, {"openWorldHint", Dyn},
	}}
	ExecutionDecl = &ObjectDecl{Name: "mcp.ToolExecution", What: "a tool's execution", Fields: []ObjectField{
		{"taskSupport", Dyn},
	}}
	ToolDecl = &ObjectDecl{Name: "mcp.Tool", What: "an MCP tool", Fields: []ObjectField{
		{"name", cel.StringType},
		{"title", Dyn},
		{"description", Dyn},
		{"inputSchema", Dyn},
		{"outputSchema", Dyn},
		{"annotations", AnnotationsDecl.Type()},
		{"icons", Dyn},
		{"execution", ExecutionDecl.Type()},
		{"_meta", Dyn},
	}}
	// Tool is the CEL type of a tool definition: the type of the tool
	// variable.
	Tool = ToolDecl.Type()
)

// objectDecls are the declared object types every environment knows.
var objectDecls = []*ObjectDecl{ToolDecl, AnnotationsDecl, ExecutionDecl}

// Type is the declared type as a CEL type.
func (d *ObjectDecl) Type() *cel.Type { return cel.ObjectType(d.Name) }

// FieldNames lists the type's members in declaration order.
func (d *ObjectDecl) FieldNames() []string {
	out := make([]string, len(d.Fields))
	for i, f := range d.Fields {
		out[i] = f.Name
	}
	return out
}

// DeclOf returns the declared object type called name, or nil.
func DeclOf(name string) *ObjectDecl {
	for _, d := range objectDecls {
		if d.Name == name {
			return d
		}
	}
	return nil
}

// objectType registers an ObjectDecl with cel-go's registry: a ref.Type
// that is also a struct type descriptor, so the checker finds its fields.
type objectType struct {
	*types.Type
	decl *ObjectDecl
}

func objectTypes() []any {
	out := make([]any, len(objectDecls))
	for i, d := range objectDecls {
		out[i] = objectType{Type: types.NewObjectType(d.Name), decl: d}
	}
	return out
}

// ReflectType implements types.StructTypeDescriptor: no Go type backs it.
func (o objectType) ReflectType() reflect.Type { return nil }

// FieldNames implements types.StructTypeDescriptor.
func (o objectType) FieldNames() []string { return o.decl.FieldNames() }

// FindFieldType implements types.StructTypeDescriptor. The field has no
// accessors, so a selection reads the member of the map the value is.
func (o objectType) FindFieldType(name string) (*types.FieldType, bool) {
	for _, f := range o.decl.Fields {
		if f.Name == name {
			return &types.FieldType{Type: f.Type}, true
		}
	}
	return nil, false
}

// NewValue implements types.StructTypeDescriptor: a formula builds no
// tool (mcp.Tool{...}); it reads the one it is given.
func (o objectType) NewValue(types.Adapter, map[string]ref.Val) ref.Val {
	return types.NewErr("a formula cannot build a %s: build a map instead", o.decl.Name)
}

// Adapt implements types.StructTypeDescriptor.
func (o objectType) Adapt(a types.Adapter, v any) ref.Val { return a.NativeToValue(v) }

// objectOptions declare what a definition can do beside naming its
// members, since it is a JSON object: be indexed by any key
// (tool['rubric/server'], a member a caller added) and be tested with
// in. They are type-check only: at run time the value is the map, and
// CEL's own index and in read it. (A conditional against a map is
// Env.recheck's.)
func objectOptions() []cel.EnvOption {
	var opts []cel.EnvOption
	for _, d := range objectDecls {
		t, id := d.Type(), strings.ReplaceAll(d.Name, ".", "_")
		opts = append(opts,
			cel.Function(operators.Index, cel.Overload("index_"+id+"_string", []*cel.Type{t, cel.StringType}, Dyn)),
			cel.Function(operators.In, cel.Overload("in_string_"+id, []*cel.Type{cel.StringType, t}, cel.BoolType)),
		)
	}
	return opts
}

// recheck checks src again when its only trouble is a declared object in
// a conditional against a map (has(tool.annotations) ? tool.annotations :
// {}), which CEL refuses since the two types differ: the branches of
// those conditionals are read as dyn, which they are at run time. The
// canonical form is printed before, so it does not change.
func (e *Env) recheck(src string, iss *cel.Issues) (*cel.Ast, *cel.Issues) {
	ids := map[int64]bool{}
	for _, err := range iss.Errors() {
		if strings.Contains(err.Message, "'"+operators.Conditional+"'") && mentionsDecl(err.Message) {
			ids[err.ExprID] = true
		}
	}
	if len(ids) == 0 {
		return nil, iss
	}
	parsed, piss := e.env.Parse(src)
	if piss.Err() != nil {
		return nil, iss
	}
	a := parsed.NativeRep()
	rewrite(a, src)
	var maxID int64
	var conds []celast.Expr
	celast.PostOrderVisit(a.Expr(), celast.NewExprVisitor(func(x celast.Expr) {
		maxID = max(maxID, x.ID())
		if x.Kind() == celast.CallKind && ids[x.ID()] && x.AsCall().FunctionName() == operators.Conditional {
			conds = append(conds, x)
		}
	}))
	fac := celast.NewExprFactory()
	for _, x := range conds {
		c := x.AsCall()
		args := c.Args()
		for i := 1; i < len(args); i++ {
			maxID++
			args[i] = fac.NewCall(maxID, "dyn", args[i])
		}
		x.SetKindCase(fac.NewCall(x.ID(), operators.Conditional, args...))
	}
	return e.env.Check(parsed)
}

func mentionsDecl(msg string) bool {
	for _, d := range objectDecls {
		if strings.Contains(msg, d.Name) {
			return true
		}
	}
	return false
}

// objectDiags rewrites CEL's "undefined field" of a declared object type
// into what the author meant: the member as written from its variable,
// what it is not a member of, and the nearest member there is (or every
// member, when none is near). The diagnostic points at the variable, where
// the member's path starts.
func (e *Env) objectDiags(parsed *cel.Ast, ds []Diag, iss *cel.Issues) []Diag {
	errs := iss.Errors()
	if len(errs) != len(ds) {
		return ds
	}
	var byID map[int64]celast.Expr
	for i, err := range errs {
		if !strings.HasPrefix(err.Message, "undefined field '") {
			continue
		}
		if byID == nil {
			byID = map[int64]celast.Expr{}
			celast.PostOrderVisit(parsed.NativeRep().Expr(), celast.NewExprVisitor(func(x celast.Expr) { byID[x.ID()] = x }))
		}
		x, ok := byID[err.ExprID]
		if !ok {
			continue
		}
		path, root, ok := memberPath(x)
		if !ok || len(path) < 2 {
			continue
		}
		if _, isVar := e.vars[path[0]]; !isVar {
			// A macro's variable (tools.map(t, t.descripton)): its type
			// is not known here, so the member is looked for in each
			// declared type, the tool's first.
			for _, d := range objectDecls {
				if near := nearest.Key(path[len(path)-1], d.FieldNames()); near != "" {
					loc := parsed.NativeRep().SourceInfo().GetStartLocation(root.ID())
					msg := ds[i].Msg + fmt.Sprintf(": did you mean %s?", strings.Join(path[:len(path)-1], ".")+"."+near)
					ds[i] = Diag{Line: max(loc.Line(), 1), Col: max(loc.Column()+1, 1), Msg: msg}
					break
				}
			}
			continue
		}
		// The type of what the last member is selected from.
		t, known := e.vars[path[0]], true
		for _, name := range path[1 : len(path)-1] {
			d := DeclOf(t.TypeName())
			if d == nil {
				known = false
				break
			}
			ft, found := objectType{decl: d}.FindFieldType(name)
			if !found {
				known = false
				break
			}
			t = ft.Type
		}
		if !known || t == nil {
			continue
		}
		d := DeclOf(t.TypeName())
		if d == nil {
			continue
		}
		field := path[len(path)-1]
		ref := strings.Join(path, ".")
		msg := fmt.Sprintf("%s is not a field of %s", ref, d.What)
		if near := nearest.Key(field, d.FieldNames()); near != "" {
			msg += fmt.Sprintf(": did you mean %s?", strings.Join(path[:len(path)-1], ".")+"."+near)
		} else {
			msg += ": its fields are " + strings.Join(d.FieldNames(), ", ")
		}
		loc := parsed.NativeRep().SourceInfo().GetStartLocation(root.ID())
		ds[i] = Diag{Line: max(loc.Line(), 1), Col: max(loc.Column()+1, 1), Msg: msg}
	}
	return ds
}

// memberPath reads a chain of selections (tool.annotations.x, with or
// without ?) back to its variable: the names, variable first, and the
// variable's expression.
func memberPath(x celast.Expr) ([]string, celast.Expr, bool) {
	var rev []string
	for {
		switch x.Kind() {
		case celast.IdentKind:
			rev = append(rev, x.AsIdent())
			slices.Reverse(rev)
			return rev, x, true
		case celast.SelectKind:
			rev = append(rev, x.AsSelect().FieldName())
			x = x.AsSelect().Operand()
		case celast.CallKind:
			c := x.AsCall()
			if c.FunctionName() != operators.OptSelect || len(c.Args()) != 2 || c.Args()[1].Kind() != celast.LiteralKind {
				return nil, nil, false
			}
			name, ok := c.Args()[1].AsLiteral().Value().(string)
			if !ok {
				return nil, nil, false
			}
			rev = append(rev, name)
			x = c.Args()[0]
		default:
			return nil, nil, false
		}
	}
}
