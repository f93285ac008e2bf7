package sarif

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/gitrev"
	"github.com/rubricmcp/rubric/internal/jsonpos"
)

// maxRelated bounds a result's related locations: the SARIF validator's
// GitHub rules (GH1004) allow ten locations a result by default.
const maxRelated = 10

// gitTimeout bounds each of the locator's reads of git: finding the
// top of a work tree (and the superprojects above it), or one git grep.
const gitTimeout = 30 * time.Second

// manifests are the files a result falls back on, in this order, when
// nothing closer names the tool: the server's package manifest.
var manifests = []string{"server.json", "package.json", "pyproject.toml"}

// pseudoPath is the path of a result that no file holds.
const pseudoPath = "mcp-server.tools"

// place is one physical location: a file relative to the root, and a
// line and column there (0 when the whole file is meant).
type place struct {
	uri          string
	line, column int
}

// located is where a tool's finding points: the place and other places
// that name the tool, and a sentence for the message when the place is
// a stand-in (a manifest or a pseudo-path).
type located struct {
	at      place
	related []place
	note    string
}

// locator finds the places of a report's findings.
type locator struct {
	// root is the directory URIs are relative to, and rootIs says which
	// directory that is, for a note about a file outside it.
	root, rootIs string
	// file is the index of a file target, fileURI its URI, and tools the
	// pointer of each tool's definition in it.
	file    *jsonpos.Index
	fileURI string
	tools   map[string]string
	// source holds, for a command's target inside a git work tree, the
	// places in tracked files where each tool's name is quoted.
	source map[string][]place
	// fallback is where a finding goes when nothing names its tool.
	fallback located
}

// newLocator looks at where r's target was read, from opt.Dir (the
// directory rubric ran in; "" for the working directory).
func newLocator(r *report.Report, opt Options) *locator {
	dir := opt.Dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	dir = absolute(dir)
	l := &locator{root: dir, rootIs: "the folder rubric ran in, since no git work tree holds the file (in one, paths are from the top of the work tree, or of its superproject when the work tree is a submodule)"}
	gitTop := gitTop
	if opt.Root != "" {
		root := absolute(opt.Root)
		l.root, l.rootIs = root, "the root the SARIF writer was given"
		gitTop = func(string) (string, *gitrev.Repo) { return root, &gitrev.Repo{Root: root} }
	}
	o := r.Origin
	switch {
	case o != nil && o.Kind == report.OriginFile && o.Path != "":
		path := o.Path
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		if top, tree := gitTop(filepath.Dir(path)); top != "" {
			l.root = top
			switch {
			case opt.Root != "":
			case top != tree.Root:
				l.rootIs = "the top of the superproject that holds " + filepath.ToSlash(tree.Root) + ", the git work tree of the file, as a submodule, since code scanning resolves paths in the superproject's checkout"
			default:
				l.rootIs = "the top of the git work tree that holds the file"
			}
		}
		l.readFile(path)
	case o != nil && o.Kind == report.OriginCommand:
		cdir := o.Dir
		if cdir == "" {
			cdir = dir
		} else if !filepath.IsAbs(cdir) {
			cdir = filepath.Join(dir, cdir)
		}
		if top, tree := gitTop(cdir); top != "" {
			l.root = top
			l.grep(r, serverDirs(cdir, o.Paths), tree)
		}
		l.manifest(cdir)
	default:
		// An endpoint or standard input: the manifest beside rubric, at
		// its path from the top of the work tree rubric ran in, which is
		// what %SRCROOT% stands for (from a subfolder, package.json was
		// sent as the root's).
		if top, _ := gitTop(dir); top != "" {
			l.root = top
		}
		l.manifest(dir)
	}
	if l.fallback.at.uri == "" {
		l.fallback = located{at: place{uri: pseudoPath, line: 1}, note: "no file holds this tool's definition, so the result is reported at the pseudo-path " + pseudoPath + ", line 1"}
	}
	return l
}

// readFile indexes a file target; a file that cannot be read or parsed
// (moved since, or not JSON) leaves the locator to fall back.
func (l *locator) readFile(path string) {
	data, err := boundedread.ReadFile(context.Background(), path, boundedread.Limit())
	if err != nil {
		l.manifest(filepath.Dir(path))
		return
	}
	uri, inside := l.rel(path)
	if !inside {
		// Code scanning shows a result only at a path of the repository:
		// an absolute path, or one climbing out of it, is dropped or
		// refused. The pseudo-path stands in, and the message says why.
		l.fallback = located{at: place{uri: pseudoPath, line: 1}, note: "the file that holds this tool's definition, " + filepath.ToSlash(path) + ", lies outside " + filepath.ToSlash(l.root) + ", the folder paths are relative to (" + l.rootIs + "), so the result is reported at the pseudo-path " + pseudoPath + ", line 1: score a copy of the file inside the repository to have results at its lines"}
		return
	}
	ix, err := jsonpos.Parse(data)
	if err != nil {
		l.fallback = located{at: place{uri: uri, line: 1}, note: "the file could not be read for positions, so the result is reported at its line 1"}
		return
	}
	l.file, l.fileURI, l.tools = ix, uri, toolPointers(ix)
	l.fallback = located{at: place{uri: uri, line: 1}, note: "the file no longer holds this tool, so the result is reported at its line 1"}
}

// manifest makes the first manifest in dir the fallback.
func (l *locator) manifest(dir string) {
	for _, m := range manifests {
		p := filepath.Join(dir, m)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			uri, inside := l.rel(p)
			if !inside {
				// Not a path code scanning can show: the pseudo-path
				// stands in (see newLocator).
				return
			}
			l.fallback = located{at: place{uri: uri, line: 1}, note: "no tracked source quotes this tool's name, so the result is reported at the server's manifest " + uri + ", line 1"}
			return
		}
	}
}

// rel is path as a URI relative to the root, and whether it lies inside
// the root; a path outside it is returned as it is, which no result may
// point at (code scanning resolves every path from the repository's root,
// %SRCROOT%).
func (l *locator) rel(path string) (string, bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.ToSlash(path), false
	}
	root, rerr := filepath.EvalSymlinks(l.root)
	real, perr := filepath.EvalSymlinks(abs)
	if rerr == nil && perr == nil {
		if r, err := filepath.Rel(root, real); err == nil && !climbs(r) {
			return filepath.ToSlash(r), true
		}
	}
	if r, err := filepath.Rel(l.root, abs); err == nil && !climbs(r) {
		return filepath.ToSlash(r), true
	}
	return filepath.ToSlash(path), false
}

// absolute is path made absolute, or as it is when it cannot be.
func absolute(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// climbs reports whether a relative path leaves the folder it is
// relative to: it is "..", or starts with "../".
func climbs(rel string) bool {
	return rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// toolPointers finds each tool's definition in a file: an object with a
// string "name" member beside a description or schema, or a registry
// entry whose "definition" holds them. The first definition of a name
// counts.
func toolPointers(ix *jsonpos.Index) map[string]string {
	type found struct {
		pointer string
		offset  int
	}
	byName := map[string]found{}
	for _, p := range ix.Pointers() {
		parent, ok := strings.CutSuffix(p, "/name")
		if !ok {
			continue
		}
		name, ok := ix.String(p)
		if !ok {
			continue
		}
		base := parent
		if _, ok := ix.Lookup(parent + "/definition"); ok {
			base = parent + "/definition"
		}
		tool := false
		for _, m := range []string{"/inputSchema", "/description", "/input_schema", "/outputSchema", "/annotations"} {
			if _, ok := ix.Lookup(base + m); ok {
				tool = true
				break
			}
		}
		if !tool {
			continue
		}
		s, _ := ix.Lookup(p)
		if f, seen := byName[name]; !seen || s.At.Offset < f.offset {
			byName[name] = found{parent, s.At.Offset}
		}
	}
	out := make(map[string]string, len(byName))
	for n, f := range byName {
		out[n] = f.pointer
	}
	return out
}

// locate returns where issue is of the tool named tool.
func (l *locator) locate(tool string, is report.Issue, title string) located {
	if l.file != nil {
		if p, ok := l.tools[tool]; ok {
			return located{at: l.member(p, is, title)}
		}
	}
	if places := l.source[tool]; len(places) > 0 {
		loc := located{at: places[0]}
		loc.related = places[1:min(len(places), 1+maxRelated)]
		return loc
	}
	return l.fallback
}

// messagePointer is the JSON pointer into the definition that a message
// names before the text it quotes, as Tool Safety's findings do ("... at
// /inputSchema/properties/q/description: \"...\"", or "at the name
// /..." for a property name): the member that holds the finding, a closer
// place than any its check's words suggest.
func messagePointer(msg string) (string, bool) {
	head, _, ok := strings.Cut(msg, `: "`)
	if !ok {
		return "", false
	}
	i := strings.LastIndex(head, " at ")
	if i < 0 {
		return "", false
	}
	at := strings.TrimPrefix(head[i+len(" at "):], "the name ")
	if !strings.HasPrefix(at, "/") {
		return "", false
	}
	return at, true
}

// member is the place of the member an issue is about, within the tool
// whose definition is at pointer: the member its message points at, the
// schema of its first parameter, the
// member its check's name or title names (description, output
// schema, annotations, title; the input schema for a check of schemas,
// parameters, properties, required fields, arguments or input), else the
// tool's name.
func (l *locator) member(pointer string, is report.Issue, title string) place {
	base := pointer
	if _, ok := l.file.Lookup(pointer + "/definition"); ok {
		base = pointer + "/definition"
	}
	var candidates []string
	if at, ok := messagePointer(is.Message); ok {
		candidates = append(candidates, base+at)
	}
	for _, p := range is.Params {
		props := base + "/inputSchema"
		for _, part := range strings.Split(p, ".") {
			props = jsonpos.Join(props+"/properties", part)
		}
		candidates = append(candidates, jsonpos.Join(base+"/inputSchema/properties", p), props)
	}
	// An output schema is not the input schema that "schema" names.
	what := outputWords.Replace(strings.ToLower(is.Check + " " + title))
	for _, m := range []struct{ word, member string }{
		{"description", "/description"},
		{"output", "/outputSchema"},
		{"annotation", "/annotations"},
		{"title", "/title"},
		{"schema", "/inputSchema"},
		{"param", "/inputSchema"},
		{"propert", "/inputSchema"},
		{"required", "/inputSchema"},
		{"argument", "/inputSchema"},
		{"input", "/inputSchema"},
	} {
		if strings.Contains(what, m.word) {
			candidates = append(candidates, base+m.member)
		}
	}
	if len(is.Params) > 0 {
		candidates = append(candidates, base+"/inputSchema")
	}
	candidates = append(candidates, pointer+"/name")
	for _, c := range candidates {
		if s, ok := l.file.Lookup(c); ok {
			return place{uri: l.fileURI, line: s.At.Line, column: s.At.Column}
		}
	}
	return place{uri: l.fileURI, line: 1}
}

var outputWords = strings.NewReplacer("output_schema", "output", "outputschema", "output", "output schema", "output")

// gitTop is the git work tree that holds dir (tree), and top, the root
// URIs are relative to: tree's top itself, or, when tree is a
// submodule's, the top of the outermost superproject, since code
// scanning resolves paths from the checkout of the repository that
// holds the submodule. top is "" (and tree nil) outside a work tree, or
// when git cannot tell; past a superproject git cannot tell, top is the
// last one it could.
func gitTop(dir string) (top string, tree *gitrev.Repo) {
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	repo, err := gitrev.Open(ctx, dir)
	if err != nil {
		return "", nil
	}
	top, _ = repo.Superproject(ctx)
	return top, repo
}

// serverDirs are the folders a command's server likely has its source
// in: each folder its paths name, and the folder of each file they name
// (go run ./servers/notes, node build/index.js), or, when they name
// none, the folder the command started in (cdir) itself.
func serverDirs(cdir string, paths []string) []string {
	var dirs []string
	for _, p := range paths {
		full := filepath.Join(cdir, p)
		if st, err := os.Stat(full); err == nil && !st.IsDir() {
			full = filepath.Dir(full)
		}
		if !slices.Contains(dirs, full) {
			dirs = append(dirs, full)
		}
	}
	if len(dirs) == 0 {
		dirs = []string{cdir}
	}
	return dirs
}

// grep finds, in the tracked files of tree, the work tree that holds
// dirs, every line that quotes a tool's name ("name", 'name' or `name`),
// with one git grep for all the tools; a place's path is from the root
// (a submodule's lines carry the submodule's path). A line in one of
// dirs, where the server's source likely is, ranks first.
func (l *locator) grep(r *report.Report, dirs []string, tree *gitrev.Repo) {
	var patterns bytes.Buffer
	names := map[string]bool{}
	// A tool left unscored is placed too (Findings).
	all := make([]string, 0, len(r.Tools)+len(r.UnscoredTools))
	for _, t := range r.Tools {
		all = append(all, t.Name)
	}
	for _, t := range r.UnscoredTools {
		all = append(all, t.Name)
	}
	for _, name := range all {
		if name == "" || strings.ContainsAny(name, "\n\r") || names[name] {
			continue
		}
		names[name] = true
		for _, q := range []string{`"`, `'`, "`"} {
			patterns.WriteString(q + name + q + "\n")
		}
	}
	if len(names) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), gitTimeout)
	defer cancel()
	out, err := tree.GrepFixed(ctx, &patterns)
	if err != nil {
		return
	}
	rels := make([]string, 0, len(dirs))
	for _, d := range dirs {
		if rel, err := filepath.Rel(l.root, d); err == nil {
			rels = append(rels, filepath.ToSlash(rel))
		}
	}
	prefix := ""
	if p, err := filepath.Rel(l.root, tree.Root); err == nil && p != "." && !climbs(p) {
		prefix = filepath.ToSlash(p) + "/"
	}
	found := map[string][]ranked{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		file, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		num, text, ok := strings.Cut(rest, ":")
		if !ok {
			continue
		}
		line, err := strconv.Atoi(num)
		if err != nil {
			continue
		}
		file = prefix + file
		for name := range names {
			for _, q := range []string{`"`, `'`, "`"} {
				i := strings.Index(text, q+name+q)
				if i < 0 {
					continue
				}
				col := utf8.RuneCountInString(text[:i]) + 1
				found[name] = append(found[name], ranked{place{uri: file, line: line, column: col}, rank(file, text, i, rels)})
				break
			}
		}
	}
	l.source = make(map[string][]place, len(found))
	for name, rs := range found {
		slices.SortStableFunc(rs, func(a, b ranked) int {
			if a.score != b.score {
				return b.score - a.score
			}
			if c := strings.Compare(a.uri, b.uri); c != 0 {
				return c
			}
			return a.line - b.line
		})
		ps := make([]place, len(rs))
		for i, r := range rs {
			ps[i] = r.place
		}
		l.source[name] = ps
	}
}

type ranked struct {
	place
	score int
}

// rank orders the lines that quote a tool's name: source under one of
// the server's folders (dirs, from the root; "." or "" for all) before
// elsewhere, code before tests, fixtures and documents (JSON, JSON
// Lines, Markdown, text), and a line that looks like a tool's
// definition (what comes before the name, at, says tool or name) before
// one that only mentions it, and code before a comment.
func rank(file, text string, at int, dirs []string) int {
	score := 0
	for _, dir := range dirs {
		if dir == "." || dir == "" || strings.HasPrefix(file, dir+"/") {
			score += 8
			break
		}
	}
	lower := strings.ToLower(file)
	switch {
	case strings.Contains(lower, "test"), strings.Contains(lower, "fixture"), strings.Contains(lower, "testdata"):
	case strings.HasSuffix(lower, ".md"), strings.HasSuffix(lower, ".txt"), strings.HasSuffix(lower, ".json"),
		strings.HasSuffix(lower, ".jsonl"), strings.HasSuffix(lower, ".ndjson"):
		score += 1
	default:
		score += 4
	}
	before := strings.ToLower(text[:at])
	if strings.Contains(before, "tool") || strings.Contains(before, "name") {
		score += 2
	}
	t := strings.TrimSpace(before)
	for _, c := range []string{"//", "#", "*", "/*", "<!--", "--"} {
		if strings.HasPrefix(t, c) {
			score -= 3 // a comment that mentions the tool
			break
		}
	}
	return score
}
