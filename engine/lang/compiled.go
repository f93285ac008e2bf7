package lang

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"maps"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common"
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

// compiledFormat names the table's layout and what CompileWith does to a
// formula before it checks it (rewrite): change it when either changes.
const compiledFormat = "rubric-compiled/1"

// compiledMagic starts every table.
var compiledMagic = []byte("rubric compiled formulas\n")

// compiledEntry is one formula of a table.
type compiledEntry struct {
	// checked is the checked syntax tree: a CheckedExpr, protobuf.
	checked []byte
	// canonical is the formula's canonical form (Program.Canonical).
	canonical string
	// fastUpTo is Program.fastUpTo under the cost limit fastLimit with
	// the fixed variables' sizes fastSizes (see sizesKey).
	fastLimit uint64
	fastSizes string
	fastUpTo  uint64
}

var precompiled struct {
	mu sync.Mutex
	// blob is the registered table, decoded on first use into table.
	blob    []byte
	decoded bool
	table   map[[32]byte]compiledEntry
	// recording, when set, is where every formula compiled goes; the
	// table is not read meanwhile.
	recording map[[32]byte]compiledEntry
}

// compiledUsed counts the formulas taken from the table, for tests.
var compiledUsed atomic.Int64

// UseCompiled registers blob, a table EncodeCompiled made, as the
// formulas compiled ahead of time; nil registers none. It is decoded on
// first use, so registering costs nothing at package init.
func UseCompiled(blob []byte) {
	precompiled.mu.Lock()
	defer precompiled.mu.Unlock()
	precompiled.blob, precompiled.decoded, precompiled.table = blob, false, nil
}

// RecordCompiled starts recording every formula compiled from now on,
// with the registered table put aside so that each is compiled afresh;
// stop ends the recording and returns the recorded table as
// EncodeCompiled writes it. The build's generator (go generate
// ./rubrics) records the built-in rubrics so.
func RecordCompiled() (stop func() []byte) {
	precompiled.mu.Lock()
	precompiled.recording = map[[32]byte]compiledEntry{}
	precompiled.mu.Unlock()
	return func() []byte {
		precompiled.mu.Lock()
		rec := precompiled.recording
		precompiled.recording = nil
		precompiled.mu.Unlock()
		return encodeCompiled(compiledStamp(), rec)
	}
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
	return t.String()
}

// lookupCompiled returns the table's entry for the formula, if the table
// has one and is not being recorded.
func lookupCompiled(key [32]byte) (compiledEntry, bool) {
	precompiled.mu.Lock()
	defer precompiled.mu.Unlock()
	if precompiled.recording != nil {
		return compiledEntry{}, false
	}
	if !precompiled.decoded {
		precompiled.decoded = true
		if precompiled.blob != nil {
			precompiled.table, _ = decodeCompiled(precompiled.blob, compiledStamp())
		}
	}
	e, ok := precompiled.table[key]
	return e, ok
}

// recordCompiled keeps a compiled formula, when recording.
func recordCompiled(key [32]byte, p *Program) {
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
	precompiled.recording[key] = compiledEntry{checked: b, canonical: p.Canonical, fastLimit: p.limit, fastSizes: sizesKey(p.globalSizes()), fastUpTo: p.fastUpTo}
}

// ast is the entry's checked syntax tree for src; nil when it does not
// decode.
func (e compiledEntry) ast(src string) *cel.Ast {
	var pb exprpb.CheckedExpr
	if err := proto.Unmarshal(e.checked, &pb); err != nil {
		return nil
	}
	a, err := cel.CheckedExprToAstWithSource(&pb, common.NewTextSource(src))
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
// key, and the sha256 of all that.
func encodeCompiled(stamp string, table map[[32]byte]compiledEntry) []byte {
	var b bytes.Buffer
	b.Write(compiledMagic)
	putBytes(&b, []byte(stamp))
	putUint(&b, uint64(len(table)))
	keys := slices.SortedFunc(maps.Keys(table), func(x, y [32]byte) int { return bytes.Compare(x[:], y[:]) })
	for _, k := range keys {
		e := table[k]
		b.Write(k[:])
		putBytes(&b, e.checked)
		putBytes(&b, []byte(e.canonical))
		putUint(&b, e.fastLimit)
		putBytes(&b, []byte(e.fastSizes))
		putUint(&b, e.fastUpTo)
	}
	sum := sha256.Sum256(b.Bytes())
	b.Write(sum[:])
	return b.Bytes()
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

// decodeCompiled reads a table made under stamp; it refuses one whose
// checksum fails, made under another stamp, or not whole. The entries
// share blob's bytes.
func decodeCompiled(blob []byte, stamp string) (map[[32]byte]compiledEntry, error) {
	if len(blob) < len(compiledMagic)+sha256.Size || !bytes.HasPrefix(blob, compiledMagic) {
		return nil, errCompiled
	}
	body, sum := blob[:len(blob)-sha256.Size], blob[len(blob)-sha256.Size:]
	if want := sha256.Sum256(body); !bytes.Equal(want[:], sum) {
		return nil, errCompiled
	}
	r := &reader{b: body[len(compiledMagic):]}
	if string(r.bytes()) != stamp {
		return nil, errCompiled
	}
	n := r.uint()
	if r.err || n > uint64(len(r.b)) {
		return nil, errCompiled
	}
	table := make(map[[32]byte]compiledEntry, n)
	for range n {
		var k [32]byte
		if len(r.b) < len(k) {
			return nil, errCompiled
		}
		copy(k[:], r.b)
		r.b = r.b[len(k):]
		e := compiledEntry{checked: r.bytes(), canonical: string(r.bytes()), fastLimit: r.uint(), fastSizes: string(r.bytes()), fastUpTo: r.uint()}
		if r.err {
			return nil, errCompiled
		}
		table[k] = e
	}
	if len(r.b) != 0 {
		return nil, errCompiled
	}
	return table, nil
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
