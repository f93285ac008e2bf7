package lang

import (
	"errors"
	"os"
	"testing"

	celpb "cel.dev/expr"
	"github.com/google/cel-go/cel"
	exprpb "google.golang.org/genproto/googleapis/api/expr/v1alpha1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/rubricmcp/rubric/internal/heavytest"
)

// sameAsProto checks that decodeChecked reads b as proto.Unmarshal does:
// the same expression and source information, the same types and
// references (as the canonical messages cel-go converts them to), or
// errWire (proto.Unmarshal's turn) where proto refuses b or must is
// set. It returns decodeChecked's error.
func sameAsProto(t *testing.T, name string, b []byte, must bool) error {
	t.Helper()
	got, err := decodeChecked(b)
	var want exprpb.CheckedExpr
	perr := proto.Unmarshal(b, &want)
	switch {
	case err != nil && !errors.Is(err, errWire):
		t.Errorf("%s: error %v, want errWire or none", name, err)
	case err == nil && perr != nil:
		t.Errorf("%s: decoded what proto.Unmarshal refuses (%v)", name, perr)
	case err != nil && must:
		t.Errorf("%s: left to proto.Unmarshal: %v", name, err)
	}
	if err != nil || perr != nil {
		return err
	}
	types, refs := want.TypeMap, want.ReferenceMap
	want.TypeMap, want.ReferenceMap = nil, nil
	restore(t, got.pb.GetExpr(), got.lits)
	for _, call := range got.pb.GetSourceInfo().GetMacroCalls() {
		restore(t, call, got.lits)
	}
	if !proto.Equal(got.pb, &want) {
		t.Errorf("%s: decoded\n%v\nproto.Unmarshal gives\n%v", name, got.pb, &want)
	}
	if len(got.types) != len(types) || len(got.refs) != len(refs) {
		t.Errorf("%s: %d types and %d references, proto.Unmarshal gives %d and %d", name, len(got.types), len(got.refs), len(types), len(refs))
	}
	for id, typ := range types {
		if c := canonical(t, typ, &celpb.Type{}); !proto.Equal(got.types[id], c) {
			t.Errorf("%s: type %d decoded as %v, want %v", name, id, got.types[id], c)
		}
	}
	for id, r := range refs {
		if c := canonical(t, r, &celpb.Reference{}); !proto.Equal(got.refs[id], c) {
			t.Errorf("%s: reference %d decoded as %v, want %v", name, id, got.refs[id], c)
		}
	}
	return nil
}

// restore puts back in e the literals the hand decoder left out (see
// wireTree), as v1alpha1 constants.
func restore(t *testing.T, e *exprpb.Expr, lits map[int64]*celpb.Constant) {
	t.Helper()
	if e == nil {
		return
	}
	if c, ok := lits[e.Id]; ok && e.GetIdentExpr() != nil {
		e.ExprKind = &exprpb.Expr_ConstExpr{ConstExpr: canonical(t, c, &exprpb.Constant{})}
	}
	switch k := e.ExprKind.(type) {
	case *exprpb.Expr_SelectExpr:
		restore(t, k.SelectExpr.Operand, lits)
	case *exprpb.Expr_CallExpr:
		restore(t, k.CallExpr.Target, lits)
		for _, a := range k.CallExpr.Args {
			restore(t, a, lits)
		}
	case *exprpb.Expr_ListExpr:
		for _, a := range k.ListExpr.Elements {
			restore(t, a, lits)
		}
	case *exprpb.Expr_StructExpr:
		for _, en := range k.StructExpr.Entries {
			restore(t, en.GetMapKey(), lits)
			restore(t, en.Value, lits)
		}
	case *exprpb.Expr_ComprehensionExpr:
		c := k.ComprehensionExpr
		for _, a := range []*exprpb.Expr{c.IterRange, c.AccuInit, c.LoopCondition, c.LoopStep, c.Result} {
			restore(t, a, lits)
		}
	}
}

// canonical is m as c, a message of the same wire format (a v1alpha1
// message as the canonical one, or the other way).
func canonical[M proto.Message](t *testing.T, m proto.Message, c M) M {
	t.Helper()
	b, err := proto.Marshal(m)
	if err == nil {
		err = proto.Unmarshal(b, c)
	}
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// sameTree checks that the entry's syntax tree by the hand decoder
// (wireAST) is the one cel-go makes of proto.Unmarshal's message, or
// that the hand decoder leaves it to that (never where must is set).
func sameTree(t *testing.T, e compiledEntry, must bool) {
	t.Helper()
	got := e.wireAST(e.src)
	var pb exprpb.CheckedExpr
	var want *cel.Ast
	if proto.Unmarshal(e.checked, &pb) == nil {
		want = checkedAST(&pb, e.src)
	}
	switch {
	case got == nil && must:
		t.Errorf("%s: left to proto.Unmarshal", e.src)
	case got == nil:
	case want == nil:
		t.Errorf("%s: a tree where proto.Unmarshal and cel-go make none", e.src)
	default:
		g, gerr := cel.AstToCheckedExpr(got)
		w, werr := cel.AstToCheckedExpr(want)
		if gerr != nil || werr != nil || !proto.Equal(g, w) {
			t.Errorf("%s: the tree differs from cel-go's (%v, %v):\n%v\nwant\n%v", e.src, gerr, werr, g, w)
		}
	}
}

// TestDecodeCheckedBuiltins: every syntax tree of the built-in rubrics'
// table (rubrics/compiled.bin) is decoded by hand as proto.Unmarshal
// decodes it, and gives the tree cel-go makes of that.
func TestDecodeCheckedBuiltins(t *testing.T) {
	heavytest.Later(t)
	table := builtinTable(t)
	if len(table.entries) == 0 {
		t.Fatal("the table holds no formulas")
	}
	for _, e := range table.entries {
		sameAsProto(t, e.src, e.checked, true)
		sameTree(t, e, true)
	}
}

// treeOf is a checked tree holding expr.
func treeOf(expr *exprpb.Expr) *exprpb.CheckedExpr {
	return &exprpb.CheckedExpr{Expr: expr}
}

func ident(id int64, name string) *exprpb.Expr {
	return &exprpb.Expr{Id: id, ExprKind: &exprpb.Expr_IdentExpr{IdentExpr: &exprpb.Expr_Ident{Name: name}}}
}

func constExpr(id int64, c *exprpb.Constant) *exprpb.Expr {
	return &exprpb.Expr{Id: id, ExprKind: &exprpb.Expr_ConstExpr{ConstExpr: c}}
}

func primitive(p exprpb.Type_PrimitiveType) *exprpb.Type {
	return &exprpb.Type{TypeKind: &exprpb.Type_Primitive{Primitive: p}}
}

// TestDecodeChecked: trees with every kind of expression, constant, type
// and source information are decoded by hand as proto.Unmarshal decodes
// them; what the hand decoder does not read (durations, timestamps,
// source extensions, unknown or repeated fields) is left to
// proto.Unmarshal, and so is every cut of a tree.
func TestDecodeChecked(t *testing.T) {
	list := &exprpb.Expr{Id: 5, ExprKind: &exprpb.Expr_ListExpr{ListExpr: &exprpb.Expr_CreateList{
		Elements: []*exprpb.Expr{ident(6, "a"), ident(7, "b")}, OptionalIndices: []int32{1},
	}}}
	call := &exprpb.Expr{Id: 1, ExprKind: &exprpb.Expr_CallExpr{CallExpr: &exprpb.Expr_Call{
		Target: ident(2, "x"), Function: "f", Args: []*exprpb.Expr{
			constExpr(3, &exprpb.Constant{ConstantKind: &exprpb.Constant_Int64Value{Int64Value: -7}}),
			&exprpb.Expr{Id: 4, ExprKind: &exprpb.Expr_SelectExpr{SelectExpr: &exprpb.Expr_Select{Operand: ident(8, "y"), Field: "z", TestOnly: true}}},
			list,
		},
	}}}
	structs := &exprpb.Expr{Id: 10, ExprKind: &exprpb.Expr_StructExpr{StructExpr: &exprpb.Expr_CreateStruct{
		MessageName: "m.M",
		Entries: []*exprpb.Expr_CreateStruct_Entry{
			{Id: 11, KeyKind: &exprpb.Expr_CreateStruct_Entry_FieldKey{FieldKey: "k"}, Value: ident(12, "v"), OptionalEntry: true},
			{Id: 13, KeyKind: &exprpb.Expr_CreateStruct_Entry_MapKey{MapKey: ident(14, "mk")}, Value: ident(15, "mv")},
		},
	}}}
	comp := &exprpb.Expr{Id: 20, ExprKind: &exprpb.Expr_ComprehensionExpr{ComprehensionExpr: &exprpb.Expr_Comprehension{
		IterVar: "i", IterVar2: "j", IterRange: ident(21, "r"), AccuVar: "@result",
		AccuInit:      constExpr(22, &exprpb.Constant{ConstantKind: &exprpb.Constant_BoolValue{BoolValue: true}}),
		LoopCondition: ident(23, "c"), LoopStep: ident(24, "s"), Result: ident(25, "@result"),
	}}}
	constants := []*exprpb.Constant{
		{ConstantKind: &exprpb.Constant_NullValue{NullValue: structpb.NullValue_NULL_VALUE}},
		{ConstantKind: &exprpb.Constant_BoolValue{BoolValue: false}},
		{ConstantKind: &exprpb.Constant_Int64Value{Int64Value: 1 << 40}},
		{ConstantKind: &exprpb.Constant_Uint64Value{Uint64Value: 1<<64 - 1}},
		{ConstantKind: &exprpb.Constant_DoubleValue{DoubleValue: -0.25}},
		{ConstantKind: &exprpb.Constant_StringValue{StringValue: "héllo"}},
		{ConstantKind: &exprpb.Constant_BytesValue{BytesValue: []byte{0, 0xff}}},
	}
	var consts []*exprpb.Expr
	for i, c := range constants {
		consts = append(consts, constExpr(int64(30+i), c))
	}
	types := map[int64]*exprpb.Type{
		1:  {TypeKind: &exprpb.Type_Dyn{Dyn: &emptypb.Empty{}}},
		2:  {TypeKind: &exprpb.Type_Null{Null: structpb.NullValue_NULL_VALUE}},
		3:  primitive(exprpb.Type_STRING),
		4:  {TypeKind: &exprpb.Type_Wrapper{Wrapper: exprpb.Type_INT64}},
		5:  {TypeKind: &exprpb.Type_WellKnown{WellKnown: exprpb.Type_DURATION}},
		6:  {TypeKind: &exprpb.Type_ListType_{ListType: &exprpb.Type_ListType{ElemType: primitive(exprpb.Type_BOOL)}}},
		7:  {TypeKind: &exprpb.Type_MapType_{MapType: &exprpb.Type_MapType{KeyType: primitive(exprpb.Type_STRING), ValueType: primitive(exprpb.Type_DOUBLE)}}},
		8:  {TypeKind: &exprpb.Type_Function{Function: &exprpb.Type_FunctionType{ResultType: primitive(exprpb.Type_INT64), ArgTypes: []*exprpb.Type{primitive(exprpb.Type_UINT64), primitive(exprpb.Type_BYTES)}}}},
		9:  {TypeKind: &exprpb.Type_MessageType{MessageType: "m.M"}},
		10: {TypeKind: &exprpb.Type_TypeParam{TypeParam: "T"}},
		11: {TypeKind: &exprpb.Type_Type{Type: primitive(exprpb.Type_INT64)}},
		12: {TypeKind: &exprpb.Type_Error{Error: &emptypb.Empty{}}},
		14: {TypeKind: &exprpb.Type_AbstractType_{AbstractType: &exprpb.Type_AbstractType{Name: "optional_type", ParameterTypes: []*exprpb.Type{primitive(exprpb.Type_STRING)}}}},
		15: {},
	}
	whole := &exprpb.CheckedExpr{
		Expr:         call,
		TypeMap:      types,
		ReferenceMap: map[int64]*exprpb.Reference{1: {Name: "f", OverloadId: []string{"f_a", "f_b"}}, 2: {Name: "x", Value: constants[2]}, 3: {}},
		SourceInfo: &exprpb.SourceInfo{
			SyntaxVersion: "cel1", Location: "<input>", LineOffsets: []int32{4, 9},
			Positions:  map[int64]int32{1: 0, 2: 3, -1: -5},
			MacroCalls: map[int64]*exprpb.Expr{20: comp, 21: {}},
		},
		ExprVersion: "v",
	}
	for _, tc := range []struct {
		name string
		tree *exprpb.CheckedExpr
		// byHand says that the hand decoder reads it.
		byHand bool
	}{
		{"empty", &exprpb.CheckedExpr{}, true},
		{"call, select, list", treeOf(call), true},
		{"struct", treeOf(structs), true},
		{"comprehension", treeOf(comp), true},
		{"constants", treeOf(&exprpb.Expr{Id: 29, ExprKind: &exprpb.Expr_ListExpr{ListExpr: &exprpb.Expr_CreateList{Elements: consts}}}), true},
		{"types, references, source", whole, true},
		//lint:ignore SA1019 a deprecated constant kind a checked tree can still carry
		{"duration", treeOf(constExpr(1, &exprpb.Constant{ConstantKind: &exprpb.Constant_DurationValue{DurationValue: durationpb.New(5)}})), false},
		{"extension", &exprpb.CheckedExpr{SourceInfo: &exprpb.SourceInfo{Extensions: []*exprpb.SourceInfo_Extension{{Id: "e"}}}}, false},
	} {
		for _, deterministic := range []bool{true, false} {
			b, err := proto.MarshalOptions{Deterministic: deterministic}.Marshal(tc.tree)
			if err != nil {
				t.Fatal(err)
			}
			if err := sameAsProto(t, tc.name, b, tc.byHand); err == nil != tc.byHand {
				t.Errorf("%s: decoded by hand %v, want %v", tc.name, err == nil, tc.byHand)
			}
			// Every cut is read as proto.Unmarshal reads it, or left
			// to it.
			for n := range len(b) {
				sameAsProto(t, tc.name+" cut", b[:n], false)
				sameTree(t, compiledEntry{checked: b[:n], src: "a.b(c)"}, false)
			}
			sameTree(t, compiledEntry{checked: b, src: "a.b(c)"}, false)
		}
	}

	b, err := proto.Marshal(treeOf(call))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		// A field of CheckedExpr no version has (proto keeps it as
		// unknown).
		{"unknown field", protowire.AppendString(protowire.AppendTag(append([]byte{}, b...), 99, protowire.BytesType), "x")},
		// The expression twice: proto.Unmarshal merges the two.
		{"expression twice", append(append([]byte{}, b...), b...)},
		// A string that is not UTF-8.
		{"not UTF-8", protowire.AppendString(protowire.AppendTag(nil, 6, protowire.BytesType), "\xff")},
		// The expression version as a varint.
		{"wrong wire type", protowire.AppendVarint(protowire.AppendTag(nil, 6, protowire.VarintType), 1)},
	} {
		if err := sameAsProto(t, tc.name, tc.b, false); err == nil {
			t.Errorf("%s: decoded by hand, want it left to proto.Unmarshal", tc.name)
		}
	}
}

// builtinTable is the built-in rubrics' table of compiled formulas,
// rubrics/compiled.bin, as the package reads it.
func builtinTable(t *testing.T) compiledTable {
	t.Helper()
	blob, err := os.ReadFile("../../rubrics/compiled.bin")
	if err != nil {
		t.Fatal(err)
	}
	_, table, err := parseCompiled(blob)
	if err != nil {
		t.Fatal(err)
	}
	return table
}
