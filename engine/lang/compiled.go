package lang

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash/crc32"
	"maps"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	celpb "cel.dev/expr"
	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common"
	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	exprpb "google.golang.org/genproto/googleapis/api/expr/v1alpha1"
	"google.golang.org/protobuf/proto"
)

// Formulas compiled ahead of time.
//
// Compiling a formula (parse, rewrite, type check, cost estimate) is most
// of what loading a rubric costs, and loading the rubric was a third of a
// one-tool scan. A table of compiled formulas, made when rubric is built
// (package rubrics embeds one for its built-in rubrics) and registered
// with UseCompiled, lets CompileWith take a formula's checked syntax tree,
// canonical form and cost ladder from it instead of computing them.
//
// An entry is found by what decides its content: the environment's
// variables, the wanted type and the formula's text. The table as a whole
// is stamped with compiledStamp (this format, the language's Version, the
// cel-go version and a fingerprint of every function the language
// declares): a table made by another build is not used at all, and one
// whose checksum fails is not either. An entry that does not decode is
// compiled as if absent. So a stale or damaged table costs time, never a
// different score.

// compiledFormat names the table's layout, what CompileWith does to a
// formula before it checks it (rewrite) and how its static estimate is
// worked out (an entry keeps the size it bounds the formula up to,
// fastUpTo): change it when any of them changes.
const compiledFormat = "rubric-compiled/3"

// compiledMagic starts every table.
var compiledMagic = []byte("rubric compiled formulas\n")

// compiledEntry is one formula of a table.
type compiledEntry struct {
	// checked is the checked syntax tree: a CheckedExpr, protobuf.
	checked []byte
	// src is the formula's text, which its syntax tree is decoded with.
	src string
	// canonical is the formula's canonical form (Program.Canonical).
	canonical string
	// fastUpTo is Program.fastUpTo under the cost limit fastLimit with
	// the fixed variables' sizes fastSizes (see sizesKey).
	fastLimit uint64
	fastSizes string
	fastUpTo  uint64
}

// compiledTable is a table's entries by key, and its groups: by a
// group's id (see Begin), the keys of the formulas compiled after it
// began, in the order they were compiled.
type compiledTable struct {
	entries map[[32]byte]compiledEntry
	groups  map[string][][32]byte
}

var precompiled struct {
	mu sync.Mutex
	// blob is the registered table, decoded on first use into table
	// when its stamp is this build's (decoded). It is read before the
	// stamp is known (parsed): its stamp and entries, or none when it
	// is damaged.
	blob        []byte
	parsed      bool
	parsedStamp string
	parsedTable compiledTable
	decoded     bool
	table       compiledTable
	// recording, when set, is where every formula compiled goes, under
	// the group begun last (group); the table is not read meanwhile.
	recording *compiledTable
	group     string
	// ahead are the syntax trees of a group being decoded ahead, by key
	// (see Begin): each is taken by the first compile of its formula.
	ahead map[[32]byte]*aheadTree
	// taken are the keys a compile took from the table before Ahead
	// queued them, which Ahead then leaves alone: a tree decoded for a
	// formula already compiled would be work for nothing, and kept.
	taken map[[32]byte]bool
}

// compiledUsed counts the formulas taken from the table, for tests.
var compiledUsed atomic.Int64

// UseCompiled registers blob, a table EncodeCompiled made, as the
// formulas compiled ahead of time; nil registers none. It is decoded on
// first use, so registering costs nothing at package init.
func UseCompiled(blob []byte) {
	precompiled.mu.Lock()
	defer precompiled.mu.Unlock()
	precompiled.blob, precompiled.ahead, precompiled.taken = blob, nil, nil
	precompiled.parsed, precompiled.parsedStamp, precompiled.parsedTable = false, "", compiledTable{}
	precompiled.decoded, precompiled.table = false, compiledTable{}
}

// RecordCompiled starts recording every formula compiled from now on,
// with the registered table put aside so that each is compiled afresh;
// stop ends the recording and returns the recorded table as
// EncodeCompiled writes it. The build's generator (go generate
// ./rubrics) records the built-in rubrics so.
func RecordCompiled() (stop func() []byte) {
	precompiled.mu.Lock()
	precompiled.recording = &compiledTable{entries: map[[32]byte]compiledEntry{}, groups: map[string][][32]byte{}}
	precompiled.group = ""
	precompiled.mu.Unlock()
	return func() []byte {
		precompiled.mu.Lock()
		rec := precompiled.recording
		precompiled.recording, precompiled.group = nil, ""
		precompiled.mu.Unlock()
		return encodeCompiled(compiledStamp(), *rec)
	}
}

// Begin says that the formulas compiled next, until the next Begin, are
// the group id names (a rubric's, say, by a hash of its text): while
// RecordCompiled records, they are recorded as that group's, so that
// Ahead finds them.
func Begin(id string) {
	precompiled.mu.Lock()
	defer precompiled.mu.Unlock()
	if precompiled.recording != nil {
		precompiled.group = id
	}
}

// Prepare makes what the first formula compiled in a process makes
// first: the language's environment, and the stamp a table of compiled
// formulas is checked against. A loader runs it on a goroutine of its
// own as it begins, so that it is made on another core while it parses.
func Prepare() { compiledStamp() }

// Ahead decodes the syntax trees of the formulas of the registered
// table's group id (see Begin), last first: a loader runs it on a
// goroutine of its own while it compiles them, first first, and each
// tree is decoded once, by whichever comes to it first, so that a
// group's trees are decoded on two cores where there are two. It does
// not wait for the table's stamp to be checked: a tree is used only once
// it has been (lookupCompiled).
func Ahead(id string) {
	precompiled.mu.Lock()
	if precompiled.recording != nil {
		precompiled.mu.Unlock()
		return
	}
	parseRegistered()
	var trees []*aheadTree
	for _, k := range precompiled.parsedTable.groups[id] {
		e, ok := precompiled.parsedTable.entries[k]
		if _, queued := precompiled.ahead[k]; !ok || queued || precompiled.taken[k] {
			continue
		}
		if precompiled.ahead == nil {
			precompiled.ahead = map[[32]byte]*aheadTree{}
		}
		a := &aheadTree{e: e}
		precompiled.ahead[k] = a
		trees = append(trees, a)
	}
	precompiled.mu.Unlock()
	for _, a := range slices.Backward(trees) {
		a.tree()
	}
}

// aheadTree is a formula's syntax tree decoded ahead of its compile.
type aheadTree struct {
	once sync.Once
	e    compiledEntry
	ast  *cel.Ast
}

// tree decodes the syntax tree, once; nil when it does not decode.
func (a *aheadTree) tree() *cel.Ast {
	a.once.Do(func() { a.ast = a.e.ast(a.e.src) })
	return a.ast
}

// compiledStamp is what a table must have been made under to be used: the
// format, the language, the cel-go version and the declarations of the
// language's functions, with their overloads' signatures. Computed once.
var compiledStamp = sync.OnceValue(func() string {
	base, err := baseEnv()
	if err != nil {
		return "unusable"
	}
	// Written without fmt: the stamp is computed by every process that
	// loads a rubric, over about a thousand overloads.
	var b strings.Builder
	b.WriteString(compiledFormat + "\n" + Version + "\ncel-go " + celVersion() + "\n")
	fns := base.Functions()
	for _, name := range slices.Sorted(maps.Keys(fns)) {
		b.WriteString("fn " + name + "\n")
		for _, o := range fns[name].OverloadDecls() {
			b.WriteString(" " + o.ID())
			if o.IsMemberFunction() {
				b.WriteString(" member")
			}
			for _, t := range o.ArgTypes() {
				b.WriteString(" " + t.String())
			}
			b.WriteString(" -> " + o.ResultType().String() + "\n")
		}
	}
	for _, t := range objectDecls {
		b.WriteString("type " + t.Name + " " + strings.Join(t.FieldNames(), " ") + "\n")
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:])
})

// celVersion is the version of cel-go this binary was built with, as its
// build information says ("" when it has none).
func celVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, m := range info.Deps {
		if m.Path == "github.com/google/cel-go" {
			if m.Replace != nil {
				return m.Replace.Path + "@" + m.Replace.Version
			}
			return m.Version
		}
	}
	return ""
}

// compiledKey identifies a formula: the environment's variables (key),
// the type wanted and the text.
func compiledKey(env, want, src string) [32]byte {
	h := sha256.New()
	for _, s := range []string{env, want, src} {
		var n [binary.MaxVarintLen64]byte
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
		h.Write([]byte(s))
	}
	var k [32]byte
	h.Sum(k[:0])
	return k
}

// typeKey is a wanted type as a key names it.
func typeKey(t *cel.Type) string {
	if t == nil {
		return "-"
	}
	// A formula's compiled form does not depend on whether its number
	// may be null (that is checked after): a surface score keeps the
	// key it had when it was checked as a number.
	if t == NumOrNullType {
		t = NumType
	}
	return t.String()
}

// lookupCompiled returns the table's entry for the formula src, if the
// table has one and is not being recorded, and its syntax tree when one
// is being decoded ahead (nil otherwise), which the caller now owns.
func lookupCompiled(key [32]byte, src string) (compiledEntry, *aheadTree, bool) {
	stamp := compiledStamp() // computed once, outside the lock
	precompiled.mu.Lock()
	defer precompiled.mu.Unlock()
	if precompiled.recording != nil {
		return compiledEntry{}, nil, false
	}
	decodeRegistered(stamp)
	e, ok := precompiled.table.entries[key]
	if !ok || e.src != src {
		return compiledEntry{}, nil, false
	}
	a, queued := precompiled.ahead[key]
	if queued {
		delete(precompiled.ahead, key)
	} else {
		if precompiled.taken == nil {
			precompiled.taken = map[[32]byte]bool{}
		}
		precompiled.taken[key] = true
	}
	return e, a, true
}

// parseRegistered reads the registered table, the first time, without
// checking its stamp; precompiled.mu is held.
func parseRegistered() {
	if !precompiled.parsed {
		precompiled.parsed = true
		if precompiled.blob != nil {
			precompiled.parsedStamp, precompiled.parsedTable, _ = parseCompiled(precompiled.blob)
		}
	}
}

// decodeRegistered makes the registered table the one used, the first
// time, when it was made under stamp; precompiled.mu is held.
func decodeRegistered(stamp string) {
	if !precompiled.decoded {
		precompiled.decoded = true
		parseRegistered()
		if precompiled.parsedStamp == stamp && precompiled.parsedTable.entries != nil {
			precompiled.table = precompiled.parsedTable
		}
	}
}

// recordCompiled keeps a compiled formula, its text src, when recording.
func recordCompiled(key [32]byte, src string, p *Program) {
	precompiled.mu.Lock()
	defer precompiled.mu.Unlock()
	if precompiled.recording == nil {
		return
	}
	pb, err := cel.AstToCheckedExpr(p.checked)
	if err != nil {
		return
	}
	b, err := proto.MarshalOptions{Deterministic: true}.Marshal(pb)
	if err != nil {
		return
	}
	rec := precompiled.recording
	rec.entries[key] = compiledEntry{checked: b, src: src, canonical: p.Canonical, fastLimit: p.limit, fastSizes: sizesKey(p.globalSizes()), fastUpTo: p.fastUpTo}
	if g := precompiled.group; g != "" && !slices.Contains(rec.groups[g], key) {
		rec.groups[g] = append(rec.groups[g], key)
	}
}

// ast is the entry's checked syntax tree for src; nil when it does not
// decode.
func (e compiledEntry) ast(src string) *cel.Ast {
	if a := e.wireAST(src); a != nil {
		return a
	}
	var pb exprpb.CheckedExpr
	if err := proto.Unmarshal(e.checked, &pb); err != nil {
		return nil
	}
	return checkedAST(&pb, src)
}

// wireAST is ast by the hand decoder (decodeChecked), without protobuf
// reflection: the expression converted by cel-go, its types and
// references set after; nil where the decoder or a conversion fails,
// for ast to decode it by proto.Unmarshal as cel-go does.
func (e compiledEntry) wireAST(src string) *cel.Ast {
	t, err := decodeChecked(e.checked)
	if err != nil || len(t.types) == 0 {
		return nil
	}
	a, err := cel.CheckedExprToAstWithSource(t.pb, common.NewTextSource(src))
	if err != nil || a == nil {
		return nil
	}
	native := a.NativeRep()
	if !putLiterals(native, t.lits) {
		return nil
	}
	for id, r := range t.refs {
		var v ref.Val
		if r.Value != nil {
			if v, err = celast.ProtoConstantAsVal(r.Value); err != nil {
				return nil
			}
		}
		native.SetReference(id, &celast.ReferenceInfo{Name: r.Name, OverloadIDs: r.OverloadId, Value: v})
	}
	for id, pt := range t.types {
		typ, err := types.ProtoAsType(pt)
		if err != nil {
			return nil
		}
		native.SetType(id, typ)
	}
	if !a.IsChecked() || a.OutputType() == nil {
		return nil
	}
	return a
}

// putLiterals puts in tree each literal the hand decoder left out (see
// wireTree), in the expression and in the macro calls of its source
// information; false when a constant does not convert.
func putLiterals(tree *celast.AST, lits map[int64]*celpb.Constant) bool {
	if len(lits) == 0 {
		return true
	}
	vals := make(map[int64]ref.Val, len(lits))
	for id, c := range lits {
		v, err := celast.ProtoConstantAsVal(c)
		if err != nil {
			return false
		}
		vals[id] = v
	}
	fac := celast.NewExprFactory()
	put := celast.NewExprVisitor(func(e celast.Expr) {
		if v, ok := vals[e.ID()]; ok && e.Kind() == celast.IdentKind && e.AsIdent() == "" {
			e.SetKindCase(fac.NewLiteral(e.ID(), v))
		}
	})
	celast.PostOrderVisit(tree.Expr(), put)
	for _, call := range tree.SourceInfo().MacroCalls() {
		celast.PostOrderVisit(call, put)
	}
	return true
}

// checkedAST is cel-go's syntax tree of pb, the text of which is src;
// nil when it is not one.
func checkedAST(pb *exprpb.CheckedExpr, src string) *cel.Ast {
	a, err := cel.CheckedExprToAstWithSource(pb, common.NewTextSource(src))
	if err != nil || a == nil || !a.IsChecked() || a.OutputType() == nil {
		return nil
	}
	return a
}

// sizesKey writes the fixed variables' sizes in one string, by name.
func sizesKey(sizes map[string]uint64) string {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(sizes)) {
		b.WriteString(name + "=" + strconv.FormatUint(sizes[name], 10) + ";")
	}
	return b.String()
}

// encodeCompiled writes a table: the magic, the stamp, the entries by
// key, the groups by id, and the CRC-32C of all that. The table is
// embedded in the binary: its checksum is there against damage, as in a
// bad merge, not against forgery, and a CRC finds damage at a small
// fraction of the time a sha256 takes.
func encodeCompiled(stamp string, table compiledTable) []byte {
	var b bytes.Buffer
	b.Write(compiledMagic)
	putBytes(&b, []byte(stamp))
	putUint(&b, uint64(len(table.entries)))
	keys := slices.SortedFunc(maps.Keys(table.entries), func(x, y [32]byte) int { return bytes.Compare(x[:], y[:]) })
	for _, k := range keys {
		e := table.entries[k]
		b.Write(k[:])
		putBytes(&b, e.checked)
		putBytes(&b, []byte(e.src))
		putBytes(&b, []byte(e.canonical))
		putUint(&b, e.fastLimit)
		putBytes(&b, []byte(e.fastSizes))
		putUint(&b, e.fastUpTo)
	}
	putUint(&b, uint64(len(table.groups)))
	for _, id := range slices.Sorted(maps.Keys(table.groups)) {
		putBytes(&b, []byte(id))
		putUint(&b, uint64(len(table.groups[id])))
		for _, k := range table.groups[id] {
			b.Write(k[:])
		}
	}
	return binary.BigEndian.AppendUint32(b.Bytes(), crc32.Checksum(b.Bytes(), castagnoli))
}

func putUint(b *bytes.Buffer, n uint64) {
	var buf [binary.MaxVarintLen64]byte
	b.Write(buf[:binary.PutUvarint(buf[:], n)])
}

func putBytes(b *bytes.Buffer, p []byte) {
	putUint(b, uint64(len(p)))
	b.Write(p)
}

// errCompiled says a table cannot be used.
var errCompiled = errors.New("not a table of compiled formulas of this build")

// castagnoli is the CRC-32C table.
var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// decodeCompiled reads a table made under stamp; it refuses one whose
// checksum fails, made under another stamp, or not whole.
func decodeCompiled(blob []byte, stamp string) (compiledTable, error) {
	made, table, err := parseCompiled(blob)
	if err != nil || made != stamp {
		return compiledTable{}, errCompiled
	}
	return table, nil
}

// parseCompiled reads a table and the stamp it was made under; it
// refuses one whose checksum fails or that is not whole. The entries
// share blob's bytes.
func parseCompiled(blob []byte) (string, compiledTable, error) {
	if len(blob) < len(compiledMagic)+4 || !bytes.HasPrefix(blob, compiledMagic) {
		return "", compiledTable{}, errCompiled
	}
	body, sum := blob[:len(blob)-4], blob[len(blob)-4:]
	if crc32.Checksum(body, castagnoli) != binary.BigEndian.Uint32(sum) {
		return "", compiledTable{}, errCompiled
	}
	r := &reader{b: body[len(compiledMagic):]}
	stamp := string(r.bytes())
	n := r.count(32)
	table := compiledTable{entries: make(map[[32]byte]compiledEntry, n), groups: map[string][][32]byte{}}
	for range n {
		k := r.key()
		e := compiledEntry{checked: r.bytes(), src: string(r.bytes()), canonical: string(r.bytes()), fastLimit: r.uint(), fastSizes: string(r.bytes()), fastUpTo: r.uint()}
		if r.err {
			return "", compiledTable{}, errCompiled
		}
		table.entries[k] = e
	}
	for range r.count(1) {
		id := string(r.bytes())
		keys := make([][32]byte, r.count(32))
		for i := range keys {
			keys[i] = r.key()
		}
		if r.err {
			return "", compiledTable{}, errCompiled
		}
		table.groups[id] = keys
	}
	if r.err || len(r.b) != 0 {
		return "", compiledTable{}, errCompiled
	}
	return stamp, table, nil
}

// reader reads what putUint and putBytes wrote; err is set once it runs
// out.
type reader struct {
	b   []byte
	err bool
}

func (r *reader) uint() uint64 {
	n, size := binary.Uvarint(r.b)
	if size <= 0 {
		r.err = true
		return 0
	}
	r.b = r.b[size:]
	return n
}

// count reads a number of items at least size bytes long each: 0, with
// err set, when fewer bytes are left than that many items take.
func (r *reader) count(size uint64) uint64 {
	n := r.uint()
	if r.err || n > uint64(len(r.b))/size {
		r.err = true
		return 0
	}
	return n
}

// key reads a 32-byte key.
func (r *reader) key() (k [32]byte) {
	if r.err || len(r.b) < len(k) {
		r.err = true
		return k
	}
	copy(k[:], r.b)
	r.b = r.b[len(k):]
	return k
}

func (r *reader) bytes() []byte {
	n := r.uint()
	if r.err || n > uint64(len(r.b)) {
		r.err = true
		return nil
	}
	p := r.b[:n:n]
	r.b = r.b[n:]
	return p
}
