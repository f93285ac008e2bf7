// Package html writes a report as one self-contained HTML page for people:
// the header (what was scored, with which rubric and judge, the grade),
// a sortable and filterable table of the tools worst first, the fix list
// grouped by cause (report.GroupFixes), and a card per tool with its
// definition (the members its issues are about highlighted), its checks
// as bars and, when the report carries it, the arithmetic of its score.
//
// The page holds everything it shows: its CSS and JavaScript are inline,
// its charts are SVG or CSS, it loads no font and makes no request. It
// follows the reader's light or dark scheme, prints without its controls,
// works from the keyboard (the table's sort buttons, the filter, native
// <details> for what is shown on demand) and reflows on a phone.
//
// Every number the page shows carries, in data-ref, the JSON pointer of
// the value of the JSON report it is (data-sum for a total of several),
// so that a test can hold the page to the report.
//
// Names and texts come from the server scored, or from a report anyone
// could have edited: everything goes through html/template's contextual
// escaping, and the definitions through an escaping printer.
package html

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/jsonpointer"
)

var (
	//go:embed assets/page.tmpl
	pageSource string
	//go:embed assets/calibration.tmpl
	calibrationSource string
	//go:embed assets/gate.tmpl
	gateSource string
	//go:embed assets/style.css
	style string
	//go:embed assets/app.js
	script string
)

// page parses the templates on first use, not at start-up: most runs of
// rubric, and every plugin process, write no HTML.
var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Funcs(template.FuncMap{
		"lower":     strings.ToLower,
		"gradesOf":  gradesOf,
		"breakable": breakable,
	}).Parse(pageSource + calibrationSource + gateSource))
})

// cmpBool orders false before true.
func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// breakable escapes a member's name and lets a narrow column break it
// between its words: before a capital that follows a small letter or a
// digit (toolCount<wbr>Appropriateness) and after _, -, . or /. A table of
// members and values on a phone was wider than the page, which then
// scrolled sideways, because such a name could only stand whole beside a
// long number.
func breakable(name string) template.HTML {
	var b strings.Builder
	prev := rune(0)
	for _, r := range name {
		if unicode.IsUpper(r) && (unicode.IsLower(prev) || unicode.IsDigit(prev)) {
			b.WriteString("<wbr>")
		}
		b.WriteString(template.HTMLEscapeString(string(r)))
		if strings.ContainsRune("_-./", r) {
			b.WriteString("<wbr>")
		}
		prev = r
	}
	return template.HTML(b.String())
}

// maxExplainWork bounds the arithmetic the page carries: each explanation
// scores the whole surface again, so a report of n tools explains its
// worst maxExplainWork/n tools (every tool of a report of up to 100), and
// the others name the command that explains them.
const maxExplainWork = 10000

// lazyCardsAbove is the number of tools above which the page draws a
// tool's card body (its findings, checks, fields and definition) only
// when the reader comes to it. A 1,000-tool page written whole holds
// 87,000 elements in 4.9 MB, which keeps Chromium's main thread busy for
// seconds; the same bodies as text inside the page cost about as much to
// parse per byte, so they go gzip-compressed (the cards of one server
// repeat themselves: a tenth of the size) and base64-encoded, and the
// page unpacks them with the browser's DecompressionStream. The card's
// heading (name, grade, score) stays in the page, so that links and the
// browser's find reach every tool. A variable, so that the benchmark can
// draw the same report both ways.
var lazyCardsAbove = 100

// Write writes r to w as an HTML page.
func Write(w io.Writer, r *report.Report) error {
	if r == nil {
		return fmt.Errorf("write HTML: no report to write")
	}
	v, err := build(r)
	if err != nil {
		return fmt.Errorf("write HTML: %w", err)
	}
	var buf bytes.Buffer
	if err := page().Execute(&buf, v); err != nil {
		return fmt.Errorf("write HTML: %w", err)
	}
	_, err = io.WriteString(w, shown(buf.String()))
	return err
}

// shown is a page (or a part of one) with every control, format and
// separator character written out as an escape (report.EscapeControls:
// U+202E as \u202e), as every writer of a report shows them: a tool named
// "\u202eeliforp_etadpu" must not read "update_profile". The page's own
// text holds none, so this reaches only what came from the report: in
// text and attributes the escape is what the reader sees; inside the
// page's JSON it is the same string, which app.js prints the same way.
// Names are isolated (<bdi>) besides, so that right-to-left text in one
// cannot reorder what is around it.
func shown(page string) string { return report.EscapeControls(page, true) }

// view is what the template reads.
type view struct {
	Title, Version string
	Style          template.CSS
	Script         template.JS
	R              *report.Report
	Unscored       string
	Score, Exact   string
	Grade          string
	Server         string
	Judge          string
	Heuristic      bool
	Facts          []fact
	Metrics        []metric
	Sections       []section
	Tools          []toolView
	Groups         []groupView
	FixOrder       string
	HasMoves       bool
	MovesOf        string // what the fixes' second figure moves
	Issues         int
	// Definitions are the tools' definitions by card, as JSON; when
	// LazyCards, with the body of each card, gzip-compressed and in base64.
	Definitions template.JS
	// LazyCards says that the cards' bodies are in Definitions, for the
	// page's script to draw when each card comes into view.
	LazyCards bool
}

type fact struct {
	Name, Value string
	Code        bool
}

type metric struct {
	Name, Value, Ref string
}

type toolView struct {
	Index              int // in the report's tools, for JSON pointers
	Anchor             string
	Name               string
	Score, Exact       string
	Grade              string
	Sort               float64 // the exact score as a float, for sorting
	Issues             []issueView
	Checks             []checkView
	Metrics            []metric
	Fields             []section
	HasDefinition      bool
	Explain            string
	ExplainErr         string
	ExplainCmd         string
	HasExplain, Broken bool
}

type issueView struct {
	Ref, Check, Message, Gain, Moves string
	Severity                         string
	// Title is the check's title, or "" when it has none but its name.
	Title string
}

type checkView struct {
	Ref, Name, Title, Points, Credit string
	Percent                          string // the bar's width
	Detail                           string
	Skipped                          bool
	Error                            string
}

type groupView struct {
	Gain, Moves   string
	GainSum       string // the pointers of the gains it adds up
	MovesSum      string
	Cause, Check  string
	Count         int
	Tools         []groupTool
	Single        bool
	SingleMessage string
}

type groupTool struct {
	Anchor, Name, Params string
	Times                string // " ×3" for a tool with the cause three times
}

func build(r *report.Report) (*view, error) {
	v := &view{
		Title:    r.Rubric.Title,
		Version:  r.Rubric.Version,
		Style:    template.CSS(style),
		Script:   template.JS(script),
		R:        r,
		Unscored: r.Unscored(),
	}
	if v.Title == "" {
		v.Title = r.Rubric.Name
	}
	if v.Unscored == "" {
		v.Score = r.Score.String()
		if r.Exact != nil {
			v.Exact = report.ShortExact(v.Score, *r.Exact)
		}
		if r.Grade != nil {
			v.Grade = *r.Grade
		}
	}
	v.Server = serverName(r)
	if r.Target != "" {
		v.Facts = append(v.Facts, fact{"Target", r.Target, true})
	}
	v.Facts = append(v.Facts,
		fact{"Surface", report.ShortHash(r.Surface.Hash), true},
		fact{"Tools", strconv.Itoa(r.Surface.ToolCount), false},
		fact{"Rubric", r.Rubric.Name + " " + r.Rubric.Version, true},
		fact{"Rubric digest", r.Rubric.Digest, true},
	)
	if j := r.Judge; j != nil {
		who := j.Plugin + " " + j.Version
		if noun, names := j.Answered(); noun != "" {
			who += ", " + noun + " " + names
		}
		if j.CLI != "" {
			who += ", via " + j.CLI + " " + j.CLIVersion
		}
		v.Judge, v.Heuristic = who, j.Heuristic
		v.Facts = append(v.Facts, fact{"Questions", r.Calls.Summary(), false})
	}
	v.Facts = append(v.Facts, fact{"Written by", r.Generator.Name + " " + r.Generator.Version, false})
	for i, m := range r.Metrics {
		if s, ok := scalar(m.Value); ok {
			v.Metrics = append(v.Metrics, metric{m.Name, s, fmt.Sprintf("/metrics/%d/value", i)})
		}
	}
	toolNames := make(map[string]bool, len(r.Tools))
	for _, t := range r.Tools {
		toolNames[t.Name] = true
	}
	for _, f := range r.Sections {
		max := bounds{}
		if r.Rubric.Maxima != nil {
			max.ByName = r.Rubric.Maxima.Surface[f.Name]
		}
		if s, ok := sectionOf(f, "/"+jsonpointer.Escape(f.Name), toolNames, max); ok {
			v.Sections = append(v.Sections, s)
		}
	}

	worst, err := report.ToolsWorstFirst(r.Tools)
	if err != nil {
		return nil, err
	}
	index := make(map[string]int, len(r.Tools))
	for i, t := range r.Tools {
		index[t.Name] = i
	}
	s, _ := r.ScoredSurface() // a report without its surface shows no definitions
	explainable := len(r.Tools)
	if len(r.Tools) > 0 && maxExplainWork/len(r.Tools) < explainable {
		explainable = maxExplainWork / len(r.Tools)
	}
	// A card writes its issues' gains at the digits that show every
	// issue's gain exactly, as the fix list does its totals (it wrote
	// +10.00 under a fix list's +10.0 whatever the gains were).
	var all []report.Fix
	for _, t := range r.Tools {
		for _, is := range t.Issues {
			if g, err := num.Parse(is.Gain); err == nil {
				all = append(all, report.Fix{Gain: g})
			}
		}
	}
	issueDigits := report.GainDigits(all, r.Rubric.Round)
	defs := map[string]defData{}
	for rank, t := range worst {
		i := index[t.Name]
		tv := toolView{Index: i, Anchor: "tool-" + strconv.Itoa(i), Name: t.Name, Score: t.Score.String(), Exact: report.ShortExact(t.Score.String(), t.Exact), Grade: t.Grade}
		if n, err := num.Parse(t.Exact); err == nil {
			tv.Sort, _ = strconv.ParseFloat(n.Decimal(6), 64)
		}
		for k, c := range t.Checks {
			tv.Checks = append(tv.Checks, checkOf(c, fmt.Sprintf("/tools/%d/checks/%d", i, k)))
		}
		// The largest gain first, as in the fix list; an issue without a
		// gain last. The report holds them in the rubric's check order.
		gains := make([]*num.Num, len(t.Issues))
		for k, is := range t.Issues {
			iv := issueView{Ref: fmt.Sprintf("/tools/%d/issues/%d", i, k), Check: is.Check, Title: t.CheckTitle(is), Message: is.Message, Severity: is.Severity}
			if is.Gain != "" {
				if g, err := num.Parse(is.Gain); err == nil {
					iv.Gain, gains[k] = report.Signed(g, issueDigits), &g
				}
			}
			tv.Issues = append(tv.Issues, iv)
		}
		order := make([]int, len(tv.Issues))
		for k := range order {
			order[k] = k
		}
		slices.SortStableFunc(order, func(a, b int) int {
			switch ga, gb := gains[a], gains[b]; {
			case ga == nil || gb == nil:
				return cmpBool(ga == nil, gb == nil)
			default:
				return gb.Cmp(*ga)
			}
		})
		sorted := make([]issueView, len(order))
		for k, o := range order {
			sorted[k] = tv.Issues[o]
		}
		tv.Issues = sorted
		for k, m := range t.Metrics {
			if s, ok := scalar(m.Value); ok {
				tv.Metrics = append(tv.Metrics, metric{m.Name, s, fmt.Sprintf("/tools/%d/metrics/%d/value", i, k)})
			}
		}
		for _, f := range t.Fields {
			if s, ok := sectionOf(f, fmt.Sprintf("/tools/%d/%s", i, jsonpointer.Escape(f.Name)), nil, bounds{All: r.Rubric.ToolMax(f.Name)}); ok {
				tv.Fields = append(tv.Fields, s)
			}
		}
		if s != nil {
			if st, ok := s.Tool(t.Name); ok {
				defs[tv.Anchor] = definitionOf(st, t.Issues)
				tv.HasDefinition = true
			}
		}
		tv.ExplainCmd = "rubric explain --tool " + shellQuote(t.Name) + " REPORT.json"
		if r.Explain != nil && rank < explainable {
			tv.HasExplain = true
			tv.Explain, err = r.Explain(t.Name)
			if err != nil {
				tv.ExplainErr = err.Error()
			}
		}
		v.Tools = append(v.Tools, tv)
		v.Issues += len(t.Issues)
	}

	if len(v.Tools) > lazyCardsAbove {
		v.LazyCards = true
		var b strings.Builder
		for _, tv := range v.Tools {
			b.Reset()
			if err := page().ExecuteTemplate(&b, "cardbody", tv); err != nil {
				return nil, err
			}
			d := defs[tv.Anchor]
			d.Body = shown(b.String())
			defs[tv.Anchor] = d
		}
	}
	if v.LazyCards {
		v.Definitions, err = packedJSON(defs)
	} else {
		v.Definitions, err = scriptJSON(defs)
	}
	if err != nil {
		return nil, err
	}
	fixes, err := r.FixList()
	if err != nil {
		return nil, err
	}
	groups := report.GroupFixes(fixes)
	if order := r.GroupOrder(groups); order != "" {
		v.FixOrder = strings.ToUpper(order[:1]) + order[1:]
	}
	v.HasMoves = r.Fixes != nil && r.Fixes.Overall != "" && report.GroupsHaveMoves(groups)
	if r.Fixes != nil {
		v.MovesOf = r.Fixes.Overall
	}
	totals := report.Totals(groups)
	gd, md := report.GainDigits(totals, r.Rubric.Round), report.MovesDigits(r.Rubric.Round)
	for k, g := range groups {
		tools := g.ByTool()
		gv := groupView{Gain: report.Signed(totals[k].Gain, gd), Cause: g.Cause, Check: g.Check, Count: len(tools), Single: len(tools) == 1}
		if g.HasMoves {
			gv.Moves = report.Signed(g.Moves, md)
		}
		var gains, moves []string
		for _, f := range g.Fixes {
			i := index[f.Tool]
			ik := issueIndex(r.Tools[i], f.Issue)
			gains = append(gains, fmt.Sprintf("/tools/%d/issues/%d/gain", i, ik))
			moves = append(moves, fmt.Sprintf("/tools/%d/issues/%d/moves", i, ik))
		}
		for _, t := range tools {
			f := t.First
			gv.Tools = append(gv.Tools, groupTool{Anchor: "tool-" + strconv.Itoa(index[f.Tool]), Name: f.Tool, Params: strings.Join(f.Issue.Params, ", "), Times: t.Times()})
		}
		gv.GainSum, gv.MovesSum = strings.Join(gains, " "), strings.Join(moves, " ")
		if gv.Single {
			gv.SingleMessage = g.Fixes[0].Issue.Message + tools[0].Alike()
		}
		v.Groups = append(v.Groups, gv)
	}
	return v, nil
}

// issueIndex finds is among t's issues, for its JSON pointer.
func issueIndex(t report.Tool, is report.Issue) int {
	for k, x := range t.Issues {
		if x.Check == is.Check && x.Message == is.Message {
			return k
		}
	}
	return 0
}

func checkOf(c report.Check, ref string) checkView {
	cv := checkView{Ref: ref, Name: c.Name, Title: c.Title, Points: c.Points, Credit: c.Credit, Skipped: c.Skipped, Error: c.Error}
	if cv.Title == "" {
		cv.Title = c.Name
	}
	pct := "0"
	if n, err := num.Parse(c.Credit); err == nil {
		pct = n.Mul(num.Int(100)).Decimal(1)
	}
	cv.Percent = pct
	if c.Items {
		cv.Detail = fmt.Sprintf("%d of %d", c.Passed, c.Total)
		if len(c.Failed) > 0 {
			cv.Detail += "; failed: " + strings.Join(c.Failed, ", ")
		}
	}
	return cv
}

// serverName is the scored server's name and version, from what the
// transport recorded.
func serverName(r *report.Report) string {
	srv := r.Surface.Server
	name, _ := srv["name"].(string)
	if info, ok := srv["serverInfo"].(map[string]any); ok && name == "" {
		name, _ = info["name"].(string)
		if ver, ok := info["version"].(string); ok && ver != "" {
			name += " " + ver
		}
		return name
	}
	if ver, ok := srv["version"].(string); ok && ver != "" && name != "" {
		name += " " + ver
	}
	if name == "" {
		name = r.Target
	}
	return name
}

// scalar writes a number, string or boolean as the report holds it.
func scalar(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case bool:
		return strconv.FormatBool(x), true
	case json.Number:
		return x.String(), true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case int:
		return strconv.Itoa(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case num.Num:
		return x.String(), true
	case json.RawMessage:
		if len(x) > 0 && x[0] != '{' && x[0] != '[' && string(x) != "null" {
			var s string
			if x[0] == '"' && json.Unmarshal(x, &s) == nil {
				return s, true
			}
			return string(x), true
		}
	}
	return "", false
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// definitionOf is a tool's definition and the members its issues are
// about, for the page's script to print when its card's definition is
// opened: the parameters an issue names (inputSchema.properties.NAME),
// and a top-level member whose name an issue's message says ("inputSchema
// has no required list"). Printing on demand keeps a page of a thousand
// tools small enough to open at once.
func definitionOf(t surface.Tool, issues []report.Issue) defData {
	d := defData{Def: json.RawMessage(t.Canonical)}
	seen := map[string]bool{}
	add := func(path []string, msg string) {
		k := strings.Join(path, "\x00")
		if !seen[k] {
			seen[k] = true
			d.Marks = append(d.Marks, mark{Path: path, Message: msg})
		}
	}
	var members []string // the definition's top-level members, read once
	for _, is := range issues {
		for _, p := range is.Params {
			add([]string{"inputSchema", "properties", p}, is.Message)
		}
		if len(is.Params) == 0 {
			if members == nil {
				members = slices.Sorted(maps.Keys(t.Definition()))
			}
			for _, k := range members {
				if k != "name" && containsWord(is.Message, k) {
					add([]string{k}, is.Message)
				}
			}
		}
	}
	return d
}

// defData is what the page's script reads to print one definition.
type defData struct {
	Def   json.RawMessage `json:"d,omitempty"`
	Marks []mark          `json:"m,omitempty"`
	Body  string          `json:"h,omitempty"` // the card's body, as html/template wrote it
}

type mark struct {
	Path    []string `json:"p"`
	Message string   `json:"t"`
}

// containsWord reports whether msg holds word on its own (not inside a
// longer word).
func containsWord(msg, word string) bool {
	for i := 0; ; {
		k := strings.Index(msg[i:], word)
		if k < 0 {
			return false
		}
		start, end := i+k, i+k+len(word)
		if (start == 0 || !isWordByte(msg[start-1])) && (end == len(msg) || !isWordByte(msg[end])) {
			return true
		}
		i = end
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// scriptJSON encodes v for a <script type="application/json"> element:
// encoding/json escapes <, > and & (and U+2028, U+2029), so that nothing
// in it can end the element.
// packedJSON is v as JSON, gzip-compressed, in base64's URL alphabet
// without padding: text that cannot end a script element, that
// html/template leaves as it is (it would escape the standard alphabet's
// plus sign) and that the browser scans quickly.
func packedJSON(v any) (template.JS, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	var z bytes.Buffer
	w, err := gzip.NewWriterLevel(&z, gzip.BestCompression)
	if err != nil {
		return "", err
	}
	if _, err := w.Write(b); err != nil {
		return "", err
	}
	if err := w.Close(); err != nil {
		return "", err
	}
	return template.JS(base64.RawURLEncoding.EncodeToString(z.Bytes())), nil
}

func scriptJSON(v any) (template.JS, error) {
	b, err := json.Marshal(v)
	return template.JS(escapeHidden(b)), err
}

// escapeHidden writes each character report.Hidden names (DEL, bidi and
// tag characters, which encoding/json leaves as they are) as a JSON
// \u escape, a surrogate pair above U+FFFF. The page is escaped whole
// for a reader (shown), and its escapes (\x7f, \U000e0041) are no JSON:
// the definitions the page's script parses must have none left to take.
func escapeHidden(b []byte) []byte {
	if !bytes.ContainsFunc(b, report.Hidden) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for _, r := range string(b) {
		if !report.Hidden(r) {
			out = utf8.AppendRune(out, r)
			continue
		}
		if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
			out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
		} else {
			out = fmt.Appendf(out, `\u%04x`, r)
		}
	}
	return out
}

// gradesOf lists the grades the tools have, in order, for the filter.
func gradesOf(ts []toolView) []string {
	var out []string
	for _, t := range ts {
		if t.Grade != "" && !slices.Contains(out, t.Grade) {
			out = append(out, t.Grade)
		}
	}
	slices.Sort(out)
	return out
}
