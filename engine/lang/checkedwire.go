package lang

import (
	"errors"
	"math"
	"unicode/utf8"

	celpb "cel.dev/expr"
	exprpb "google.golang.org/genproto/googleapis/api/expr/v1alpha1"
	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/types/known/emptypb"
	"google.golang.org/protobuf/types/known/structpb"
)

// A checked syntax tree of the table, decoded by hand.
//
// proto.Unmarshal of the first CheckedExpr in a process builds, by
// reflection, the descriptors and field coders of every message the tree
// holds: more than half of what decoding a rubric's trees cost a one-tool
// score. The wire format of those messages is small and fixed (the
// expression syntax of google/api/expr/v1alpha1), so decodeChecked reads
// it directly into the generated structs, which reflection is not needed
// to fill. Whatever it does not read as proto.Unmarshal would (a field it
// does not know, a wire type it does not expect, a duration or timestamp
// constant, a source extension) is errWire, and the caller decodes with
// proto.Unmarshal instead: the result is the same message either way.

// errWire is a tree decodeChecked leaves to proto.Unmarshal.
var errWire = errors.New("not a tree the hand decoder reads")

// wire reads the fields of one message.
type wire struct {
	b []byte
	// num and typ are the field read last; v its varint or fixed64
	// value, p its bytes.
	num protowire.Number
	typ protowire.Type
	v   uint64
	p   []byte
	// lits are the tree's literals, by the id of the expression each
	// is (see wireExpr), shared by every message of the tree.
	lits map[int64]*celpb.Constant
}

// next reads the next field, false at the message's end; a field that
// does not decode panics with errWire.
func (w *wire) next() bool {
	if len(w.b) == 0 {
		return false
	}
	num, typ, n := protowire.ConsumeTag(w.b)
	if n < 0 {
		panic(errWire)
	}
	w.b, w.num, w.typ = w.b[n:], num, typ
	switch typ {
	case protowire.VarintType:
		w.v, n = protowire.ConsumeVarint(w.b)
	case protowire.Fixed64Type:
		w.v, n = protowire.ConsumeFixed64(w.b)
	case protowire.BytesType:
		w.p, n = protowire.ConsumeBytes(w.b)
	default:
		panic(errWire)
	}
	if n < 0 {
		panic(errWire)
	}
	w.b = w.b[n:]
	return true
}

// want panics with errWire unless the field read last is of type t.
func (w *wire) want(t protowire.Type) {
	if w.typ != t {
		panic(errWire)
	}
}

// str reads a string, which proto3 wants valid UTF-8.
func (w *wire) str() string {
	w.want(protowire.BytesType)
	if !utf8.Valid(w.p) {
		panic(errWire)
	}
	return string(w.p)
}

func (w *wire) msg() *wire { w.want(protowire.BytesType); return &wire{b: w.p, lits: w.lits} }

func (w *wire) varint() uint64 { w.want(protowire.VarintType); return w.v }

func (w *wire) int64() int64 { return int64(w.varint()) }

func (w *wire) int32() int32 { return int32(w.varint()) }

func (w *wire) bool() bool { return w.varint() != 0 }

// int32s reads a repeated int32, packed or not, onto s.
func (w *wire) int32s(s []int32) []int32 {
	if w.typ == protowire.VarintType {
		return append(s, int32(w.v))
	}
	w.want(protowire.BytesType)
	for b := w.p; len(b) > 0; {
		v, n := protowire.ConsumeVarint(b)
		if n < 0 {
			panic(errWire)
		}
		s, b = append(s, int32(v)), b[n:]
	}
	return s
}

// wireTree is a checked tree as decodeChecked reads it: the expression
// and its source information as cel.CheckedExprToAstWithSource takes
// them, and the types and references in the canonical messages
// (cel.dev/expr, the same wire format) that cel-go's types.ProtoAsType
// and ast.ProtoConstantAsVal take: cel-go would otherwise convert each
// one from the v1alpha1 message by marshalling and unmarshalling it.
//
// Its literals are left out of the expression too: cel-go converts each
// constant as it converts a type. Each is an identifier with no name in
// pb, with the same id, and the constant is in lits, for the caller to
// put in its place once cel-go has made the tree.
type wireTree struct {
	// pb has no type or reference map, and no constant.
	pb    *exprpb.CheckedExpr
	types map[int64]*celpb.Type
	refs  map[int64]*celpb.Reference
	lits  map[int64]*celpb.Constant
}

// decodeChecked decodes a CheckedExpr the table holds, or returns errWire.
func decodeChecked(b []byte) (t *wireTree, err error) {
	defer func() {
		if r := recover(); r != nil {
			if r != errWire {
				panic(r)
			}
			t, err = nil, errWire
		}
	}()
	t = &wireTree{pb: &exprpb.CheckedExpr{}, types: map[int64]*celpb.Type{}, refs: map[int64]*celpb.Reference{}, lits: map[int64]*celpb.Constant{}}
	pb := t.pb
	w := &wire{b: b, lits: t.lits}
	for w.next() {
		switch w.num {
		case 2:
			k, v := int64(0), &celpb.Reference{}
			for e := w.msg(); e.next(); {
				switch e.num {
				case 1:
					k = e.int64()
				case 2:
					v = wireReference(e.msg())
				default:
					panic(errWire)
				}
			}
			t.refs[k] = v
		case 3:
			k, v := int64(0), &celpb.Type{}
			for e := w.msg(); e.next(); {
				switch e.num {
				case 1:
					k = e.int64()
				case 2:
					v = wireType(e.msg())
				default:
					panic(errWire)
				}
			}
			t.types[k] = v
		case 4:
			unset(pb.Expr != nil)
			pb.Expr = wireExpr(w.msg())
		case 5:
			unset(pb.SourceInfo != nil)
			pb.SourceInfo = wireSourceInfo(w.msg())
		case 6:
			pb.ExprVersion = w.str()
		default:
			panic(errWire)
		}
	}
	return t, nil
}

// sameConstant says whether a and b hold the same constant.
func sameConstant(a, b *celpb.Constant) bool {
	switch x := a.ConstantKind.(type) {
	case *celpb.Constant_NullValue:
		y, ok := b.ConstantKind.(*celpb.Constant_NullValue)
		return ok && x.NullValue == y.NullValue
	case *celpb.Constant_BoolValue:
		y, ok := b.ConstantKind.(*celpb.Constant_BoolValue)
		return ok && x.BoolValue == y.BoolValue
	case *celpb.Constant_Int64Value:
		y, ok := b.ConstantKind.(*celpb.Constant_Int64Value)
		return ok && x.Int64Value == y.Int64Value
	case *celpb.Constant_Uint64Value:
		y, ok := b.ConstantKind.(*celpb.Constant_Uint64Value)
		return ok && x.Uint64Value == y.Uint64Value
	case *celpb.Constant_DoubleValue:
		y, ok := b.ConstantKind.(*celpb.Constant_DoubleValue)
		return ok && math.Float64bits(x.DoubleValue) == math.Float64bits(y.DoubleValue)
	case *celpb.Constant_StringValue:
		y, ok := b.ConstantKind.(*celpb.Constant_StringValue)
		return ok && x.StringValue == y.StringValue
	case *celpb.Constant_BytesValue:
		y, ok := b.ConstantKind.(*celpb.Constant_BytesValue)
		return ok && string(x.BytesValue) == string(y.BytesValue)
	}
	return false
}

func wireReference(w *wire) *celpb.Reference {
	r := &celpb.Reference{}
	for w.next() {
		switch w.num {
		case 1:
			r.Name = w.str()
		case 3:
			r.OverloadId = append(r.OverloadId, w.str())
		case 4:
			unset(r.Value != nil)
			r.Value = wireConstant(w.msg())
		default:
			panic(errWire)
		}
	}
	return r
}

func wireType(w *wire) *celpb.Type {
	t := &celpb.Type{}
	for w.next() {
		switch w.num {
		case 1:
			wireEmpty(w.msg())
			unset(t.TypeKind != nil)
			t.TypeKind = &celpb.Type_Dyn{Dyn: &emptypb.Empty{}}
		case 2:
			unset(t.TypeKind != nil)
			t.TypeKind = &celpb.Type_Null{Null: structpb.NullValue(w.int32())}
		case 3:
			unset(t.TypeKind != nil)
			t.TypeKind = &celpb.Type_Primitive{Primitive: celpb.Type_PrimitiveType(w.int32())}
		case 4:
			unset(t.TypeKind != nil)
			t.TypeKind = &celpb.Type_Wrapper{Wrapper: celpb.Type_PrimitiveType(w.int32())}
		case 5:
			unset(t.TypeKind != nil)
			t.TypeKind = &celpb.Type_WellKnown{WellKnown: celpb.Type_WellKnownType(w.int32())}
		case 6:
			l := &celpb.Type_ListType{}
			for f := w.msg(); f.next(); {
				if f.num != 1 {
					panic(errWire)
				}
				unset(l.ElemType != nil)
				l.ElemType = wireType(f.msg())
			}
			unset(t.TypeKind != nil)
			t.TypeKind = &celpb.Type_ListType_{ListType: l}
		case 7:
			m := &celpb.Type_MapType{}
			for f := w.msg(); f.next(); {
				switch f.num {
				case 1:
					unset(m.KeyType != nil)
					m.KeyType = wireType(f.msg())
				case 2:
					unset(m.ValueType != nil)
					m.ValueType = wireType(f.msg())
				default:
					panic(errWire)
				}
			}
			unset(t.TypeKind != nil)
			t.TypeKind = &celpb.Type_MapType_{MapType: m}
		case 8:
			fn := &celpb.Type_FunctionType{}
			for f := w.msg(); f.next(); {
				switch f.num {
				case 1:
					unset(fn.ResultType != nil)
					fn.ResultType = wireType(f.msg())
				case 2:
					fn.ArgTypes = append(fn.ArgTypes, wireType(f.msg()))
				default:
					panic(errWire)
				}
			}
			unset(t.TypeKind != nil)
			t.TypeKind = &celpb.Type_Function{Function: fn}
		case 9:
			unset(t.TypeKind != nil)
			t.TypeKind = &celpb.Type_MessageType{MessageType: w.str()}
		case 10:
			unset(t.TypeKind != nil)
			t.TypeKind = &celpb.Type_TypeParam{TypeParam: w.str()}
		case 11:
			unset(t.TypeKind != nil)
			t.TypeKind = &celpb.Type_Type{Type: wireType(w.msg())}
		case 12:
			wireEmpty(w.msg())
			unset(t.TypeKind != nil)
			t.TypeKind = &celpb.Type_Error{Error: &emptypb.Empty{}}
		case 14:
			a := &celpb.Type_AbstractType{}
			for f := w.msg(); f.next(); {
				switch f.num {
				case 1:
					a.Name = f.str()
				case 2:
					a.ParameterTypes = append(a.ParameterTypes, wireType(f.msg()))
				default:
					panic(errWire)
				}
			}
			unset(t.TypeKind != nil)
			t.TypeKind = &celpb.Type_AbstractType_{AbstractType: a}
		default:
			panic(errWire)
		}
	}
	return t
}

// unset panics with errWire when set: a oneof or a message field given
// twice, which proto.Unmarshal would merge and the table never holds.
func unset(set bool) {
	if set {
		panic(errWire)
	}
}

// wireEmpty reads an Empty: any field in it is errWire.
func wireEmpty(w *wire) {
	if w.next() {
		panic(errWire)
	}
}

func wireConstant(w *wire) *celpb.Constant {
	c := &celpb.Constant{}
	for w.next() {
		switch w.num {
		case 1:
			unset(c.ConstantKind != nil)
			c.ConstantKind = &celpb.Constant_NullValue{NullValue: structpb.NullValue(w.int32())}
		case 2:
			unset(c.ConstantKind != nil)
			c.ConstantKind = &celpb.Constant_BoolValue{BoolValue: w.bool()}
		case 3:
			unset(c.ConstantKind != nil)
			c.ConstantKind = &celpb.Constant_Int64Value{Int64Value: w.int64()}
		case 4:
			unset(c.ConstantKind != nil)
			c.ConstantKind = &celpb.Constant_Uint64Value{Uint64Value: w.varint()}
		case 5:
			w.want(protowire.Fixed64Type)
			unset(c.ConstantKind != nil)
			c.ConstantKind = &celpb.Constant_DoubleValue{DoubleValue: math.Float64frombits(w.v)}
		case 6:
			unset(c.ConstantKind != nil)
			c.ConstantKind = &celpb.Constant_StringValue{StringValue: w.str()}
		case 7:
			w.want(protowire.BytesType)
			unset(c.ConstantKind != nil)
			c.ConstantKind = &celpb.Constant_BytesValue{BytesValue: append([]byte{}, w.p...)}
		default:
			panic(errWire) // durations and timestamps: proto.Unmarshal's
		}
	}
	return c
}

func wireExpr(w *wire) *exprpb.Expr {
	e := &exprpb.Expr{}
	var lit *celpb.Constant
	defer func() {
		if lit == nil {
			return
		}
		// A literal: an identifier in its place, the constant by its
		// id (the same id in a macro call's copy: the same constant).
		if old, ok := w.lits[e.Id]; ok && !sameConstant(old, lit) {
			panic(errWire)
		}
		w.lits[e.Id] = lit
		e.ExprKind = &exprpb.Expr_IdentExpr{IdentExpr: &exprpb.Expr_Ident{}}
	}()
	for w.next() {
		switch w.num {
		case 2:
			e.Id = w.int64()
		case 3:
			unset(e.ExprKind != nil)
			lit = wireConstant(w.msg())
			e.ExprKind = &exprpb.Expr_ConstExpr{}
		case 4:
			id := &exprpb.Expr_Ident{}
			for f := w.msg(); f.next(); {
				if f.num != 1 {
					panic(errWire)
				}
				id.Name = f.str()
			}
			unset(e.ExprKind != nil)
			e.ExprKind = &exprpb.Expr_IdentExpr{IdentExpr: id}
		case 5:
			s := &exprpb.Expr_Select{}
			for f := w.msg(); f.next(); {
				switch f.num {
				case 1:
					unset(s.Operand != nil)
					s.Operand = wireExpr(f.msg())
				case 2:
					s.Field = f.str()
				case 3:
					s.TestOnly = f.bool()
				default:
					panic(errWire)
				}
			}
			unset(e.ExprKind != nil)
			e.ExprKind = &exprpb.Expr_SelectExpr{SelectExpr: s}
		case 6:
			c := &exprpb.Expr_Call{}
			for f := w.msg(); f.next(); {
				switch f.num {
				case 1:
					unset(c.Target != nil)
					c.Target = wireExpr(f.msg())
				case 2:
					c.Function = f.str()
				case 3:
					c.Args = append(c.Args, wireExpr(f.msg()))
				default:
					panic(errWire)
				}
			}
			unset(e.ExprKind != nil)
			e.ExprKind = &exprpb.Expr_CallExpr{CallExpr: c}
		case 7:
			l := &exprpb.Expr_CreateList{}
			for f := w.msg(); f.next(); {
				switch f.num {
				case 1:
					l.Elements = append(l.Elements, wireExpr(f.msg()))
				case 2:
					l.OptionalIndices = f.int32s(l.OptionalIndices)
				default:
					panic(errWire)
				}
			}
			unset(e.ExprKind != nil)
			e.ExprKind = &exprpb.Expr_ListExpr{ListExpr: l}
		case 8:
			s := &exprpb.Expr_CreateStruct{}
			for f := w.msg(); f.next(); {
				switch f.num {
				case 1:
					s.MessageName = f.str()
				case 2:
					s.Entries = append(s.Entries, wireEntry(f.msg()))
				default:
					panic(errWire)
				}
			}
			unset(e.ExprKind != nil)
			e.ExprKind = &exprpb.Expr_StructExpr{StructExpr: s}
		case 9:
			unset(e.ExprKind != nil)
			e.ExprKind = &exprpb.Expr_ComprehensionExpr{ComprehensionExpr: wireComprehension(w.msg())}
		default:
			panic(errWire)
		}
	}
	return e
}

func wireEntry(w *wire) *exprpb.Expr_CreateStruct_Entry {
	en := &exprpb.Expr_CreateStruct_Entry{}
	for w.next() {
		switch w.num {
		case 1:
			en.Id = w.int64()
		case 2:
			unset(en.KeyKind != nil)
			en.KeyKind = &exprpb.Expr_CreateStruct_Entry_FieldKey{FieldKey: w.str()}
		case 3:
			unset(en.KeyKind != nil)
			en.KeyKind = &exprpb.Expr_CreateStruct_Entry_MapKey{MapKey: wireExpr(w.msg())}
		case 4:
			unset(en.Value != nil)
			en.Value = wireExpr(w.msg())
		case 5:
			en.OptionalEntry = w.bool()
		default:
			panic(errWire)
		}
	}
	return en
}

func wireComprehension(w *wire) *exprpb.Expr_Comprehension {
	c := &exprpb.Expr_Comprehension{}
	for w.next() {
		switch w.num {
		case 1:
			c.IterVar = w.str()
		case 2:
			unset(c.IterRange != nil)
			c.IterRange = wireExpr(w.msg())
		case 3:
			c.AccuVar = w.str()
		case 4:
			unset(c.AccuInit != nil)
			c.AccuInit = wireExpr(w.msg())
		case 5:
			unset(c.LoopCondition != nil)
			c.LoopCondition = wireExpr(w.msg())
		case 6:
			unset(c.LoopStep != nil)
			c.LoopStep = wireExpr(w.msg())
		case 7:
			unset(c.Result != nil)
			c.Result = wireExpr(w.msg())
		case 8:
			c.IterVar2 = w.str()
		default:
			panic(errWire)
		}
	}
	return c
}

func wireSourceInfo(w *wire) *exprpb.SourceInfo {
	s := &exprpb.SourceInfo{}
	for w.next() {
		switch w.num {
		case 1:
			s.SyntaxVersion = w.str()
		case 2:
			s.Location = w.str()
		case 3:
			s.LineOffsets = w.int32s(s.LineOffsets)
		case 4:
			k, v := int64(0), int32(0)
			for e := w.msg(); e.next(); {
				switch e.num {
				case 1:
					k = e.int64()
				case 2:
					v = e.int32()
				default:
					panic(errWire)
				}
			}
			if s.Positions == nil {
				s.Positions = map[int64]int32{}
			}
			s.Positions[k] = v
		case 5:
			k, v := int64(0), &exprpb.Expr{}
			for e := w.msg(); e.next(); {
				switch e.num {
				case 1:
					k = e.int64()
				case 2:
					v = wireExpr(e.msg())
				default:
					panic(errWire)
				}
			}
			if s.MacroCalls == nil {
				s.MacroCalls = map[int64]*exprpb.Expr{}
			}
			s.MacroCalls[k] = v
		default:
			panic(errWire) // extensions: proto.Unmarshal's
		}
	}
	return s
}
