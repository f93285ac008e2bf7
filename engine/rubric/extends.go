package rubric

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"

	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/nearest"
)

// Library finds the rubrics an extends names by a name rather than a
// path: the built-in ones. Package rubrics sets it; nil means none.
var Library interface {
	// Source returns the file a built-in rubric is read from (as
	// diagnostics name it) and its text, false when there is none of
	// that name.
	Source(name string) (file string, src []byte, ok bool)
	// Names are the built-in rubrics' names, for messages.
	Names() []string
}

// containers are the blocks a child merges into its parent's block of the
// same kind member by member; every other block a child declares replaces
// the parent's block of the same kind and name whole.
var containers = map[string]bool{"tool": true, "surface": true, "signals": true, "report": true, "let": true, "max": true}

// childOnly are what a child sets for itself and never inherits.
var childOnly = []string{"extends"}

// body is a rubric body after extends: attributes and blocks in order,
// each read from the file it was written in.
type body struct {
	attrs  []*hclsyntax.Attribute
	blocks []*block
	from   *hclsyntax.Body
}

type block struct {
	b    *hclsyntax.Block
	body *body // merged, for containers
}

func bodyOf(b *hclsyntax.Body) *body {
	out := &body{from: b}
	for _, a := range b.Attributes {
		out.attrs = append(out.attrs, a)
	}
	slices.SortFunc(out.attrs, func(x, y *hclsyntax.Attribute) int { return x.SrcRange.Start.Byte - y.SrcRange.Start.Byte })
	for _, bl := range b.Blocks {
		out.blocks = append(out.blocks, &block{b: bl, body: bodyOf(bl.Body)})
	}
	return out
}

// syntax builds the hclsyntax body the loader reads. Its attributes are
// a map, which keeps no order: order is given each attribute's place
// among its body's, as merged (the parent's in their order, a child's
// override in the place of the parent's member, the child's new members
// after them), which is the order the flat form writes them in and the
// order named values (signals) are computed in.
func (b *body) syntax(order map[attrKey]int) *hclsyntax.Body {
	out := &hclsyntax.Body{Attributes: hclsyntax.Attributes{}, SrcRange: b.from.SrcRange, EndRange: b.from.EndRange}
	for i, a := range b.attrs {
		out.Attributes[a.Name] = a
		order[keyOf(a.NameRange)] = i
	}
	for _, bl := range b.blocks {
		c := *bl.b
		c.Body = bl.body.syntax(order)
		out.Blocks = append(out.Blocks, &c)
	}
	return out
}

// attrKey names an attribute by where its name is written: the byte
// offsets of members of one merged body may be of different files.
type attrKey struct {
	file string
	at   int
}

func keyOf(r hcl.Range) attrKey { return attrKey{r.Filename, r.Start.Byte} }

func sameBlock(a, b *hclsyntax.Block) bool {
	return a.Type == b.Type && slices.Equal(a.Labels, b.Labels)
}

// extends resolves the rubric block's extends, if it has one: the body
// the loader reads is then the parent's, flattened, with the child's
// merged in. chain are the files already on the way down, for cycles.
func (l *loader) extends(rb *hclsyntax.Block, chain []string) *body {
	child := bodyOf(rb.Body)
	a, ok := rb.Body.Attributes["extends"]
	if !ok {
		return child
	}
	ref, ok := l.strOK(a.AsHCLAttribute())
	if !ok {
		return nil
	}
	file, src, ok := l.findParent(a, ref)
	if !ok {
		return nil
	}
	if len(chain) == 1 {
		l.extendsAt = a.Expr.Range()
	}
	if slices.Contains(chain, file) {
		// Said where the user's own rubric names its parent.
		l.errorf(l.extendsAt, "extends makes a cycle: %s -> %s; a rubric cannot extend itself through its parents", strings.Join(chain, " -> "), file)
		return nil
	}
	if len(chain) >= maxExtends {
		l.errorf(a.Expr.Range(), "extends goes more than %d rubrics deep; flatten a parent (rubric rubrics show --flat) and extend that", maxExtends)
		return nil
	}
	if l.srcs == nil {
		l.srcs = map[string][]byte{}
	}
	l.srcs[file] = src
	if _, deep := tooDeep(src); deep {
		l.errorf(a.Expr.Range(), "the parent %s nests too deep to read", file)
		return nil
	}
	f, ds := hclsyntax.ParseConfig(src, file, hcl.Pos{Line: 1, Column: 1})
	if l.hclDiags(ds) {
		return nil
	}
	pb := f.Body.(*hclsyntax.Body)
	if len(pb.Blocks) != 1 || pb.Blocks[0].Type != "rubric" {
		l.errorf(a.Expr.Range(), "the parent %s holds no single rubric block", file)
		return nil
	}
	parent := l.extends(pb.Blocks[0], append(chain, file))
	if parent == nil {
		return nil
	}
	if _, ok := rb.Body.Attributes["version"]; !ok {
		l.errorf(rb.DefRange(), "a rubric that extends another sets its own version: add version = \"...\" (such as the parent's with a suffix)")
	}
	// A child's tests are its own: its parent's expect the parent's
	// numbers.
	parent.blocks = slices.DeleteFunc(parent.blocks, func(b *block) bool { return b.b.Type == "test" })
	l.merge(parent, child)
	return parent
}

// maxExtends bounds a chain of extends.
const maxExtends = 16

// findParent reads the rubric ref names: a path relative to the child's
// file when it looks like one (a separator, or .hcl at the end), else a
// built-in rubric.
func (l *loader) findParent(a *hclsyntax.Attribute, ref string) (string, []byte, bool) {
	child := a.SrcRange.Filename
	if strings.ContainsRune(ref, '/') || strings.ContainsRune(ref, os.PathSeparator) || strings.HasSuffix(ref, ".hcl") {
		if strings.HasPrefix(child, "builtin:") {
			l.errorf(a.Expr.Range(), "a built-in rubric extends only built-in rubrics, not the file %s", ref)
			return "", nil, false
		}
		path := ref
		if !filepath.IsAbs(path) {
			path = filepath.Join(filepath.Dir(child), ref)
		}
		src, err := boundedread.ReadFile(l.context(), path, l.maxFile)
		if err != nil {
			if _, serr := os.Stat(path + ".hcl"); serr == nil && !strings.HasSuffix(ref, ".hcl") {
				l.errorf(a.Expr.Range(), "extends %q: %v; did you mean %q?", ref, err, ref+".hcl")
				return "", nil, false
			}
			l.errorf(a.Expr.Range(), "extends %q: %v; a path is relative to this rubric's file%s", ref, err, builtinHint(ref, err))
			return "", nil, false
		}
		return path, src, true
	}
	var names []string
	if Library != nil {
		if file, src, ok := Library.Source(ref); ok {
			return file, src, true
		}
		names = Library.Names()
	}
	builtins := ""
	if len(names) > 0 {
		builtins = " (" + strings.Join(names, ", ") + ")"
	}
	if strings.TrimSpace(ref) == "" {
		l.errorf(a.Expr.Range(), "extends is empty: name the rubric this one extends, a built-in one by its name%s or a file by its path, relative to this rubric's file", builtins)
		return "", nil, false
	}
	msg := fmt.Sprintf("extends %q names no built-in rubric", ref)
	// A file of that name beside the child is what was meant, named
	// without its .hcl (which makes ref a path).
	if !strings.HasPrefix(child, "builtin:") {
		if _, err := os.Stat(filepath.Join(filepath.Dir(child), ref+".hcl")); err == nil {
			l.errorf(a.Expr.Range(), "%s: for the file beside this rubric, write extends = %q", msg, ref+".hcl")
			return "", nil, false
		}
	}
	switch near := nearest.Key(ref, names); {
	case near != "":
		msg += fmt.Sprintf(": did you mean %q? The built-in rubrics are %s; a file is named by its path, relative to this rubric's file", near, strings.Join(names, ", "))
	case len(names) > 0:
		msg += fmt.Sprintf("; the built-in rubrics are %s, and a file is named by its path, relative to this rubric's file", strings.Join(names, ", "))
	}
	l.errorf(a.Expr.Range(), "%s", msg)
	return "", nil, false
}

// builtinHint is what a missing parent file adds to its message when
// the user may have meant a built-in rubric (extends = "tdqs.hcl" for
// extends = "tdqs"): the built-in rubric whose name the file's is, or is
// nearest to by spelling, and the names of them all. It is "" for any
// other error than a file that does not exist, and without a library.
func builtinHint(ref string, err error) string {
	if Library == nil || !errors.Is(err, fs.ErrNotExist) {
		return ""
	}
	names := Library.Names()
	if len(names) == 0 {
		return ""
	}
	all := strings.Join(names, ", ")
	stem := strings.TrimSuffix(filepath.Base(filepath.ToSlash(ref)), ".hcl")
	if slices.Contains(names, stem) {
		return fmt.Sprintf("; for the built-in rubric, write extends = %q (a built-in rubric is named without .hcl: %s)", stem, all)
	}
	if near := nearest.Key(stem, names); near != "" {
		return fmt.Sprintf("; did you mean the built-in rubric %q (extends = %q)? The built-in rubrics are %s", near, near, all)
	}
	return fmt.Sprintf(", and a built-in rubric is named alone, without .hcl: %s", all)
}

func (l *loader) context() context.Context {
	if l.ctx == nil {
		return context.Background()
	}
	return l.ctx
}

// merge puts child into parent: an attribute replaces the parent's (the
// weights merge key by key), a container block merges into the parent's
// of the same kind, any other block replaces the parent's of the same
// kind and name; a new block is added after the parent's. A weight, or a
// block whose name comes near one of the parent's, that the parent does
// not have is an error: it is most likely a slip.
//
// Whether a child's member overrides the parent's or is new is decided
// against the parent's members alone, as the parent wrote them: the
// members the child adds are appended as the merge goes, and a second
// new member (license_2 after license_1) is neither an override of the
// first nor a slip for it. The same member twice in the child is
// refused, as it is in a rubric without a parent.
func (l *loader) merge(parent, child *body) {
	attrs, blocks := parent.attrs[:len(parent.attrs):len(parent.attrs)], parent.blocks[:len(parent.blocks):len(parent.blocks)]
	for _, a := range child.attrs {
		if slices.Contains(childOnly, a.Name) {
			continue
		}
		i := slices.IndexFunc(parent.attrs, func(p *hclsyntax.Attribute) bool { return p.Name == a.Name })
		switch {
		case i < 0:
			if near := nearest.Key(a.Name, attrNames(attrs)); near != "" && near != a.Name && !knownAttr(a.Name) {
				l.errorf(a.NameRange, "the parent has no %s: did you mean %s?", a.Name, near)
				continue
			}
			parent.attrs = append(parent.attrs, a)
		case a.Name == "weights":
			parent.attrs[i] = l.mergeWeights(parent.attrs[i], a)
		default:
			parent.attrs[i] = a
		}
	}
	for j, cb := range child.blocks {
		if k := slices.IndexFunc(child.blocks[:j], func(p *block) bool { return sameBlock(p.b, cb.b) }); k >= 0 {
			l.errorf(cb.b.DefRange(), "%s is declared twice in this rubric (first at line %d): a child replaces or adds a block once", blockName(cb.b), child.blocks[k].b.DefRange().Start.Line)
			continue
		}
		i := slices.IndexFunc(blocks, func(p *block) bool { return sameBlock(p.b, cb.b) })
		if i >= 0 {
			if containers[cb.b.Type] {
				l.merge(parent.blocks[i].body, cb.body)
			} else {
				l.keepsStop(parent.blocks[i], cb)
				parent.blocks[i] = cb
			}
			continue
		}
		if len(cb.b.Labels) == 1 {
			name := cb.b.Labels[0]
			var same []string
			kind := ""
			for _, p := range blocks {
				if len(p.b.Labels) != 1 {
					continue
				}
				if p.b.Type == cb.b.Type {
					same = append(same, p.b.Labels[0])
				} else if p.b.Labels[0] == name {
					kind = p.b.Type
				}
			}
			if kind != "" {
				l.errorf(cb.b.DefRange(), "the parent's %q is a %s, not a %s: a block replaces only one of its own kind; name the %s otherwise", name, kind, cb.b.Type, cb.b.Type)
				continue
			}
			if near := nearest.Key(name, same); near != "" {
				l.errorf(cb.b.LabelRanges[0], "the parent has no %s %q: did you mean %q? (a new %s needs a name unlike the parent's)", cb.b.Type, name, near, cb.b.Type)
				continue
			}
		}
		parent.blocks = append(parent.blocks, cb)
	}
}

// keepsStop refuses a check that replaces one of the parent's that sets
// stop, without saying stop itself: the parent's later checks may read
// what only a tool that passed it has (Schema Quality's read the
// inputSchema its first check stops without), so that dropping stop
// silently would fail them on such a tool, at a line of the parent's.
func (l *loader) keepsStop(parent, child *block) {
	if child.b.Type != "check" || parent.b.Body.Attributes["stop"] == nil || child.b.Body.Attributes["stop"] != nil {
		return
	}
	l.errorf(child.b.DefRange(), "%s replaces the parent's, which sets stop (a tool that fails it is scored no further, and the checks after it may rely on that): set stop here too, stop = true to keep that, or stop = false to score such a tool on", blockName(child.b))
}

// blockName is a block as a message names it: check "x", or tool.
func blockName(b *hclsyntax.Block) string {
	out := b.Type
	for _, lb := range b.Labels {
		out += fmt.Sprintf(" %q", lb)
	}
	return out
}

// knownAttr reports whether name is an attribute a rubric may set.
func knownAttr(name string) bool {
	return slices.ContainsFunc(rubricSchema.Attributes, func(a hcl.AttributeSchema) bool { return a.Name == name })
}

func attrNames(as []*hclsyntax.Attribute) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Name
	}
	return out
}

// mergeWeights merges the child's weights into the parent's, key by key:
// a key the parent does not have is an error, with the nearest one.
func (l *loader) mergeWeights(parent, child *hclsyntax.Attribute) *hclsyntax.Attribute {
	pm, ok1 := parent.Expr.(*hclsyntax.ObjectConsExpr)
	cm, ok2 := child.Expr.(*hclsyntax.ObjectConsExpr)
	if !ok1 || !ok2 {
		l.errorf(child.Expr.Range(), "weights must be written as { name = number, ... } in the parent and the child")
		return parent
	}
	merged := &hclsyntax.ObjectConsExpr{SrcRange: child.Expr.Range(), OpenRange: cm.OpenRange}
	merged.Items = append(merged.Items, pm.Items...)
	var names []string
	for _, it := range pm.Items {
		names = append(names, hcl.ExprAsKeyword(it.KeyExpr))
	}
	for _, it := range cm.Items {
		k := hcl.ExprAsKeyword(it.KeyExpr)
		i := slices.Index(names, k)
		if i < 0 {
			msg := fmt.Sprintf("the parent has no weight %s", k)
			if near := nearest.Key(k, names); near != "" {
				msg += fmt.Sprintf(": did you mean %s?", near)
			}
			l.errorf(it.KeyExpr.Range(), "%s (its weights are %s)", msg, list(names))
			continue
		}
		merged.Items[i] = it
		if it.KeyExpr.Range().Filename == l.file {
			l.overrides = append(l.overrides, override{name: k, at: it.KeyExpr.Range(), was: pm.Items[i].ValueExpr})
		}
	}
	out := *parent
	out.Expr = merged
	out.SrcRange = child.SrcRange
	out.NameRange = child.NameRange
	return &out
}

// fileOf is the file a range lies in: the child's, or a parent's.
func (l *loader) fileOf(rng hcl.Range) string {
	if rng.Filename != "" {
		return rng.Filename
	}
	return l.file
}

// srcOf is the text of the file a range lies in.
func (l *loader) srcOf(rng hcl.Range) []byte {
	if src, ok := l.srcs[rng.Filename]; ok {
		return src
	}
	return l.src
}

// Flat returns the rubric in src with its extends resolved, as one HCL
// file: the rubric that is scored, whose digest is the rubric's. filename
// names src in diagnostics and anchors the paths its extends gives.
func Flat(filename string, src []byte) ([]byte, error) {
	l := &loader{file: filename, src: src, ctx: context.Background(), maxFile: boundedread.Limit()}
	r, err := l.result()
	if err != nil {
		return nil, err
	}
	return l.flatText(r), nil
}

// FlatFile is Flat of the rubric file at path, whose text is src, loaded
// as LoadFileContext loads it: what it reads is read until ctx ends, at
// most max bytes each, and the tests beside it are checked.
func FlatFile(ctx context.Context, path string, src []byte, max int64) ([]byte, error) {
	l, r, err := loadFile(ctx, path, src, max)
	if err != nil {
		return nil, err
	}
	return l.flatText(r), nil
}

// flatText writes r, which l loaded, as one file (see Flat).
func (l *loader) flatText(r *Rubric) []byte {
	var w strings.Builder
	fmt.Fprintf(&w, "# %s %s, flattened from %s: digest %s\nrubric %q {\n", r.Name, r.Version, l.file, r.Digest, r.Name)
	l.writeBody(&w, l.flat, "  ")
	w.WriteString("}\n")
	return []byte(w.String())
}

// writeBody writes b's members, each as its file has it, at indent.
func (l *loader) writeBody(w *strings.Builder, b *body, indent string) {
	text := func(n hclsyntax.Node) string { return l.rebased(n) }
	for _, a := range b.attrs {
		if o, ok := a.Expr.(*hclsyntax.ObjectConsExpr); ok && a.Name == "weights" {
			fmt.Fprintf(w, "%s%s = {\n", indent, a.Name)
			for _, it := range o.Items {
				fmt.Fprintf(w, "%s  %s = %s\n", indent, text(it.KeyExpr), text(it.ValueExpr))
			}
			fmt.Fprintf(w, "%s}\n", indent)
			continue
		}
		fmt.Fprintf(w, "%s%s\n", indent, text(a))
	}
	for _, bl := range b.blocks {
		w.WriteString("\n")
		if !containers[bl.b.Type] {
			fmt.Fprintf(w, "%s%s\n", indent, text(bl.b))
			continue
		}
		fmt.Fprintf(w, "%s%s", indent, bl.b.Type)
		for _, lb := range bl.b.Labels {
			fmt.Fprintf(w, " %q", lb)
		}
		w.WriteString(" {\n")
		l.writeBody(w, bl.body, indent+"  ")
		fmt.Fprintf(w, "%s}\n", indent)
	}
}

// rebased is the text of n as its file has it, except that a file("p.md")
// of a parent in another directory names its file from the loaded
// rubric's directory, where the flattened rubric reads it: copied as
// written, it would read another p.md, or none.
func (l *loader) rebased(n hclsyntax.Node) string {
	rng := n.Range()
	src := l.srcOf(rng)
	from := l.fileOf(rng)
	if from == l.file || strings.HasPrefix(from, "builtin:") {
		return string(src[rng.Start.Byte:rng.End.Byte])
	}
	type edit struct {
		start, end int
		with       string
	}
	var edits []edit
	hclsyntax.VisitAll(n, func(n hclsyntax.Node) hcl.Diagnostics {
		call, ok := n.(*hclsyntax.FunctionCallExpr)
		if !ok || call.Name != "file" || len(call.Args) != 1 {
			return nil
		}
		v, ds := call.Args[0].Value(nil)
		if ds.HasErrors() || v.IsNull() || !v.IsKnown() || v.Type() != cty.String || filepath.IsAbs(v.AsString()) {
			return nil
		}
		rel, err := filepath.Rel(filepath.Dir(l.file), filepath.Join(filepath.Dir(from), v.AsString()))
		if err != nil {
			return nil
		}
		arg := call.Args[0].Range()
		edits = append(edits, edit{arg.Start.Byte, arg.End.Byte, strconv.Quote(filepath.ToSlash(rel))})
		return nil
	})
	slices.SortFunc(edits, func(a, b edit) int { return a.start - b.start })
	var b strings.Builder
	at := rng.Start.Byte
	for _, e := range edits {
		b.Write(src[at:e.start])
		b.WriteString(e.with)
		at = e.end
	}
	b.Write(src[at:rng.End.Byte])
	return b.String()
}

// override is a weight the loaded file sets over its parent's: where,
// and the parent's number.
type override struct {
	name string
	at   hcl.Range
	was  hcl.Expression
}

// overrides are the weights the loaded file sets over its parent's to
// other numbers, for r's Overrides.
func (l *loader) overridesOf(r *Rubric) []Override {
	var out []Override
	for _, o := range l.overrides {
		v, ok := r.Weight(o.name)
		if !ok {
			continue
		}
		pv, ds := o.was.Value(nil)
		if ds.HasErrors() || pv.IsNull() || !pv.IsKnown() || pv.Type() != cty.Number {
			continue
		}
		was := exactNumber(pv.AsBigFloat())
		if was.Cmp(v) == 0 {
			continue
		}
		out = append(out, Override{Name: o.name, Value: v, Was: was, File: l.fileOf(o.at), Line: o.at.Start.Line, Col: o.at.Start.Column})
	}
	return out
}
