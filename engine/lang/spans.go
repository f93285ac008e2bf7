package lang

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/rubricmcp/rubric/internal/jsonpointer"
)

// The text functions of the language over spans of strings: every match
// of a regular expression with where it is, decoding base64 and hex into
// text, and every string of a JSON value with its path. They take and
// return plain Go values; text.go declares them to CEL.

// Span is one match of a regular expression: Start and End are offsets in
// characters (Unicode code points, as CEL's size and substring count
// them), End exclusive, and Text the matched text.
type Span struct {
	Start, End int
	Text       string
}

// regexps caches compiled expressions by source: a formula's pattern is
// almost always a literal, compiled once and matched against every tool.
// It holds at most maxCachedRegexps; past that a pattern is compiled
// each time.
var regexps sync.Map

// compiledRegexp is an expression with what every match must hold: a
// condition on the literals (lower case) a text holds, and the fewest
// bytes a match takes. A text that fails either cannot match, and
// looking for literals is much faster than running the expression.
type compiledRegexp struct {
	re     *regexp.Regexp
	need   *need // nil: no literal is known to be needed
	minLen int   // no match is shorter, in bytes
	// needsLiterals is whether need names a literal (else its runs and
	// counts are read from the text itself, not its folded form).
	needsLiterals bool
}

// mayMatch reports whether s, whose folded form (see fold) is lower, can
// hold a match: false only when it is shorter than any match or misses
// the literals every match holds. The literal standing for a character
// past ASCII is met by any text that has one.
func (c *compiledRegexp) mayMatch(s, lower string, ascii bool) bool {
	if len(s) < c.minLen {
		return false
	}
	return c.need.holds(s, func(l string) bool {
		if l == nonASCII {
			return !ascii
		}
		return strings.Contains(lower, l)
	})
}

// need is a condition on the literals a text holds, met by every text
// an expression matches in: a literal, all of several conditions, or
// any of them. The nil need is met by every text.
type need struct {
	op    needOp
	lit   string  // needLit: in lower case, or nonASCII
	subs  []*need // needAll, needAny
	chars []rune  // needRun, needCount: ranges of characters, lo and hi in turn
	n     int     // needRun, needCount: how many
	// within, for needRun, are the ranges of the characters the run is
	// made of, when they are more than chars (nil: chars alone).
	within []rune
	// ascii, for a needCount of one made by anyOfChars, has bit b set
	// when the byte b < 0x80 is one of chars: such a need reads a text
	// byte by byte and decodes only what lies past ASCII.
	ascii *[2]uint64
}

// anyOfChars is the need of one character of ranges (lo and hi in turn),
// anywhere in the text.
func anyOfChars(ranges []rune) *need {
	n := &need{op: needCount, chars: ranges, n: 1, ascii: new([2]uint64)}
	for i := 0; i < len(ranges); i += 2 {
		for r := ranges[i]; r <= ranges[i+1] && r < utf8.RuneSelf; r++ {
			n.ascii[r>>6] |= 1 << (r & 63)
		}
	}
	return n
}

type needOp uint8

const (
	needLit needOp = iota
	needAll
	needAny
	needRun   // n characters of chars in one run of within (or of chars), in the text as it is
	needCount // n characters of chars, anywhere
)

// holds evaluates the condition on s, with has telling whether s holds
// a literal.
func (n *need) holds(s string, has func(string) bool) bool {
	if n == nil {
		return true
	}
	switch n.op {
	case needLit:
		return has(n.lit)
	case needRun, needCount:
		return n.countIn(s)
	case needAll:
		for _, sub := range n.subs {
			if !sub.holds(s, has) {
				return false
			}
		}
		return true
	default:
		for _, sub := range n.subs {
			if sub.holds(s, has) {
				return true
			}
		}
		return false
	}
}

// countIn reports whether s holds n.n characters of n.chars, in one run
// of n.within's (or n.chars's) for needRun.
func (n *need) countIn(s string) bool {
	if len(s) < n.n {
		return false
	}
	if n.ascii != nil {
		for i := 0; i < len(s); {
			if b := s[i]; b < utf8.RuneSelf {
				if n.ascii[b>>6]&(1<<(b&63)) != 0 {
					return true
				}
				i++
				continue
			}
			r, size := utf8.DecodeRuneInString(s[i:])
			if inRanges(n.chars, r) {
				return true
			}
			i += size
		}
		return false
	}
	count := 0
	for _, r := range s {
		switch {
		case inRanges(n.chars, r):
			if count++; count >= n.n {
				return true
			}
		case n.op == needRun && (n.within == nil || !inRanges(n.within, r)):
			count = 0
		}
	}
	return false
}

// inRanges reports whether r is in one of the ranges (lo and hi in
// turn, in order).
func inRanges(ranges []rune, r rune) bool {
	for i := 0; i < len(ranges); i += 2 {
		if r < ranges[i] {
			return false
		}
		if r <= ranges[i+1] {
			return true
		}
	}
	return false
}

// repeatNeed is what n repeats of re need besides what one needs: n
// characters of a class in a row when re is one character; n of one
// character that every match of re holds, all in one run of the
// characters re is made of when it is made of few (a line break and the
// blanks around it) or anywhere.
func repeatNeed(re *syntax.Regexp, n int) *need {
	if one := oneChar(re); one != nil {
		return &need{op: needRun, chars: one, n: n}
	}
	inner := re
	for inner.Op == syntax.OpCapture {
		inner = inner.Sub[0]
	}
	if inner.Op == syntax.OpConcat {
		for _, sub := range inner.Sub {
			if one := oneChar(sub); one != nil {
				if within, ok := alphabet(re, nil); ok {
					return &need{op: needRun, chars: one, within: mergeRanges(within), n: n}
				}
				return &need{op: needCount, chars: one, n: n}
			}
		}
	}
	return nil
}

// alphabet appends to out the ranges of every character a match of re
// can hold, when re is made of literals matched as they are and classes
// only; false otherwise.
func alphabet(re *syntax.Regexp, out []rune) ([]rune, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		if re.Flags&syntax.FoldCase != 0 {
			return nil, false
		}
		for _, r := range re.Rune {
			out = append(out, r, r)
		}
		return out, true
	case syntax.OpCharClass:
		return append(out, re.Rune...), true
	case syntax.OpCapture, syntax.OpQuest, syntax.OpStar, syntax.OpPlus, syntax.OpRepeat, syntax.OpConcat, syntax.OpAlternate:
		for _, sub := range re.Sub {
			var ok bool
			if out, ok = alphabet(sub, out); !ok {
				return nil, false
			}
		}
		return out, true
	case syntax.OpEmptyMatch:
		return out, true
	}
	return nil, false
}

// mergeRanges sorts ranges (lo and hi in turn) and joins those that
// touch.
func mergeRanges(ranges []rune) []rune {
	pairs := make([][2]rune, 0, len(ranges)/2)
	for i := 0; i < len(ranges); i += 2 {
		pairs = append(pairs, [2]rune{ranges[i], ranges[i+1]})
	}
	slices.SortFunc(pairs, func(a, b [2]rune) int { return int(a[0] - b[0]) })
	var out []rune
	for _, p := range pairs {
		if k := len(out); k > 0 && p[0] <= out[k-1]+1 {
			out[k-1] = max(out[k-1], p[1])
			continue
		}
		out = append(out, p[0], p[1])
	}
	return out
}

// oneChar is the ranges of characters re matches when it matches one
// character of a class, or one character of a literal matched as it is;
// nil otherwise.
func oneChar(re *syntax.Regexp) []rune {
	for re.Op == syntax.OpCapture {
		re = re.Sub[0]
	}
	switch {
	case re.Op == syntax.OpCharClass && len(re.Rune) > 0:
		return re.Rune
	case re.Op == syntax.OpLiteral && len(re.Rune) == 1 && re.Flags&syntax.FoldCase == 0:
		return []rune{re.Rune[0], re.Rune[0]}
	}
	return nil
}

// literals appends the literals of the condition to out.
func (n *need) literals(out []string) []string {
	if n == nil {
		return out
	}
	if n.op == needLit {
		return append(out, n.lit)
	}
	for _, s := range n.subs {
		out = s.literals(out)
	}
	return out
}

// joined is the condition of several, all of them (op needAll) or any
// (needAny), nested conditions of the same kind flattened. All of none is
// nil (met by every text); any of them is nil when one of them is.
func joined(op needOp, subs []*need) *need {
	var flat []*need
	for _, s := range subs {
		switch {
		case s == nil && op == needAll:
			continue
		case s == nil:
			return nil
		case s.op == op:
			flat = append(flat, s.subs...)
		default:
			flat = append(flat, s)
		}
	}
	// The same literal twice says no more than once.
	flat = slices.CompactFunc(flat, func(a, b *need) bool {
		return a.op == needLit && b.op == needLit && a.lit == b.lit
	})
	switch len(flat) {
	case 0:
		return nil
	case 1:
		return flat[0]
	}
	return &need{op: op, subs: flat}
}

// maxClassLiterals bounds the characters of a class taken as literals:
// a text holds one of [,:] or of [@＠] rarely enough to tell.
const maxClassLiterals = 4

// needOf is what every match of re holds, in literals. Case-insensitive
// literals qualify only when they are ASCII (Unicode's case folding
// reaches past lower-casing for a few letters, such as the long s); a
// class of characters all past ASCII needs a character past ASCII; a
// small class of ASCII characters other than white space needs one of
// them.
func needOf(re *syntax.Regexp) *need {
	switch re.Op {
	case syntax.OpLiteral:
		lit := string(re.Rune)
		for _, r := range lit {
			if r >= utf8.RuneSelf {
				if re.Flags&syntax.FoldCase != 0 {
					return nil // (?i)ſ matches s
				}
				return pastASCII([]rune{r, r})
			}
		}
		p, _ := phrases(re)
		return anyPhrase(p)
	case syntax.OpCharClass:
		return classNeed(re.Rune)
	case syntax.OpCapture, syntax.OpPlus:
		return needOf(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 2 {
			return joined(needAll, []*need{needOf(re.Sub[0]), repeatNeed(re.Sub[0], re.Min)})
		}
		if re.Min >= 1 {
			return needOf(re.Sub[0])
		}
	case syntax.OpConcat:
		return concatNeed(re.Sub)
	case syntax.OpAlternate:
		subs := make([]*need, len(re.Sub))
		for i, sub := range re.Sub {
			subs[i] = needOf(sub)
		}
		return joined(needAny, subs)
	}
	return nil
}

// classNeed is what a match of the character class (ranges, lo and hi
// in turn) needs: see needOf.
func classNeed(ranges []rune) *need {
	if len(ranges) == 0 {
		return nil
	}
	ascii := false
	for i := 0; i < len(ranges); i += 2 {
		if ranges[i] < utf8.RuneSelf {
			ascii = true
		}
	}
	if !ascii {
		return pastASCII(ranges)
	}
	if !printable(ranges) {
		// Control characters (with or without some past ASCII): few
		// texts hold one, and one pass counts them where an expression
		// that starts with the class would run on every text.
		return anyOfChars(ranges)
	}
	var chars []string
	for i := 0; i < len(ranges); i += 2 {
		if ranges[i+1] >= utf8.RuneSelf || ranges[i+1]-ranges[i] >= maxClassLiterals*2 {
			return nil
		}
		for r := ranges[i]; r <= ranges[i+1]; r++ {
			if unicode.IsSpace(r) {
				return nil // every text holds one
			}
			if l := string(unicode.ToLower(r)); !slices.Contains(chars, l) {
				chars = append(chars, l)
			}
		}
	}
	if len(chars) > maxClassLiterals {
		return nil
	}
	subs := make([]*need, len(chars))
	for i, c := range chars {
		subs[i] = &need{op: needLit, lit: c}
	}
	return joined(needAny, subs)
}

// printable reports whether the ranges (lo and hi in turn) hold a
// character that ordinary text is made of: a printable ASCII character,
// a tab, a line feed or a carriage return.
func printable(ranges []rune) bool {
	for i := 0; i < len(ranges); i += 2 {
		lo, hi := ranges[i], ranges[i+1]
		if lo <= '\t' && '\t' <= hi || lo <= '\n' && '\n' <= hi || lo <= '\r' && '\r' <= hi || lo <= 0x7E && 0x20 <= hi {
			return true
		}
	}
	return false
}

// pastASCII is what a text needs to hold a character of ranges, all
// past ASCII: a character past ASCII (the automaton's literal, met by
// any text that has one) and then one of those characters, counted in
// the text itself. Only the texts past ASCII are counted in, and few
// of them hold such a character (a tag character, a bidirectional
// control), where a regular expression would have run on every one.
func pastASCII(ranges []rune) *need {
	return &need{op: needAll, subs: []*need{
		{op: needLit, lit: nonASCII},
		anyOfChars(ranges),
	}}
}

// minBytes is the fewest bytes a match of re takes: a character at
// least one (a byte that is not UTF-8 matches as U+FFFD, and a folded
// letter may be shorter than the literal's: ſ and s).
func minBytes(re *syntax.Regexp) int {
	const most = 1 << 30
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune)
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return 0
		}
		return 1
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return minBytes(re.Sub[0])
	case syntax.OpRepeat:
		return min(most, re.Min*minBytes(re.Sub[0]))
	case syntax.OpConcat:
		n := 0
		for _, sub := range re.Sub {
			n = min(most, n+minBytes(sub))
		}
		return n
	case syntax.OpAlternate:
		n := most
		for _, sub := range re.Sub {
			n = min(n, minBytes(sub))
		}
		return n
	}
	return 0
}

// nonASCII stands for "a character past ASCII" among needed literals:
// no ASCII text holds the byte 0x80, and any other text meets it.
const nonASCII = "\x80"

// fold is s in lower case, each run of white space (as RE2's \s knows
// it) one space, and the two letters past ASCII whose case folding
// reaches an ASCII letter (the long s, U+017F, and the Kelvin sign,
// U+212A) written as that letter, so that a case-insensitive match of
// an ASCII phrase in s is a plain substring of fold(s) (see phrases);
// and whether s is ASCII.
func fold(s string) (string, bool) {
	b, ascii := foldInto(make([]byte, 0, len(s)), s)
	return string(b), ascii
}

// foldInto is fold writing into dst[:0].
func foldInto(dst []byte, s string) ([]byte, bool) {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	b := dst[:0]
	space := false
	if ascii {
		for i := 0; i < len(s); i++ {
			c := foldByte(s[i])
			if c == ' ' && space {
				continue
			}
			space = c == ' '
			b = append(b, c)
		}
		return b, true
	}
	for _, r := range s {
		switch {
		case isFoldSpace(r):
			if space {
				continue
			}
			r = ' '
		case r == '\u017F':
			r = 's'
		case r == '\u212A':
			r = 'k'
		default:
			r = unicode.ToLower(r)
		}
		space = r == ' '
		b = utf8.AppendRune(b, r)
	}
	return b, false
}

const maxCachedRegexps = 1024

var regexpsCached struct {
	sync.Mutex
	n int
}

func compileCached(pattern string) (*compiledRegexp, error) {
	if c, ok := regexps.Load(pattern); ok {
		return c.(*compiledRegexp), nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, err
	}
	c := &compiledRegexp{re: re}
	if tree, err := syntax.Parse(pattern, syntax.Perl); err == nil {
		c.need, c.minLen = needOf(tree), minBytes(tree)
		c.needsLiterals = len(c.need.literals(nil)) > 0
	}
	regexpsCached.Lock()
	if regexpsCached.n < maxCachedRegexps {
		if _, loaded := regexps.LoadOrStore(pattern, c); !loaded {
			regexpsCached.n++
		}
	}
	regexpsCached.Unlock()
	return c, nil
}

// FindAll is every non-overlapping match of the RE2 expression pattern in
// s, leftmost first, with its span in characters. The work is linear in
// the length of s (RE2 never backtracks), and there are at most
// len(s)+1 matches.
func FindAll(s, pattern string) ([]Span, error) {
	c, err := compileCached(pattern)
	if err != nil {
		return nil, err
	}
	return c.find(s), nil
}

// PatternSpan is a match of one of several expressions: Pattern is its
// index.
type PatternSpan struct {
	Pattern int
	Span
}

// FindAllEach is FindAll of each pattern in s, in the order of the
// patterns, each pattern's matches leftmost first. The patterns' needed
// literals are looked for together, in one pass over s.
func FindAllEach(s string, patterns []string) ([]PatternSpan, error) {
	ps, err := patternSetFor(patterns)
	if err != nil {
		return nil, err
	}
	return ps.find(s, ps.scratch(), nil), nil
}

// find is FindAll of c in s.
func (c *compiledRegexp) find(s string) []Span {
	if len(s) < c.minLen {
		return nil
	}
	if c.need == nil {
		return c.spans(s)
	}
	if !c.needsLiterals {
		// Runs and counts are looked for in s as it is.
		if !c.need.holds(s, nil) {
			return nil
		}
		return c.spans(s)
	}
	lower, ascii := fold(s)
	return c.findAll(s, lower, ascii)
}

func (c *compiledRegexp) findAll(s, lower string, ascii bool) []Span {
	if !c.mayMatch(s, lower, ascii) {
		return nil
	}
	return c.spans(s)
}

// spans is every match of c in s, with its span in characters.
func (c *compiledRegexp) spans(s string) []Span {
	locs := c.re.FindAllStringIndex(s, -1)
	out := make([]Span, 0, len(locs))
	// Byte offsets to character offsets in one pass over s.
	chars, at := 0, 0
	toChars := func(b int) int {
		chars += utf8.RuneCountInString(s[at:b])
		at = b
		return chars
	}
	for _, l := range locs {
		start := toChars(l[0])
		end := toChars(l[1])
		out = append(out, Span{Start: start, End: end, Text: s[l[0]:l[1]]})
	}
	return out
}

// printableText reports whether b is UTF-8 text a person could read:
// every character printable (letters, marks, numbers, punctuation,
// symbols, the ASCII space) or a tab, line feed or carriage return, and
// at least one letter.
func printableText(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	letter := false
	for _, r := range string(b) {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
		case unicode.IsLetter(r):
			letter = true
		case !unicode.IsPrint(r):
			return false
		}
	}
	return letter
}

// DecodeBase64 decodes s as base64 (the standard or the URL alphabet,
// padded or not; white space is ignored) and returns the text and true
// only when the bytes are printable UTF-8 text (see printableText);
// anything else, including random bytes, is false.
func DecodeBase64(s string) (string, bool) {
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
	trimmed := strings.TrimRight(s, "=")
	for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(trimmed); err == nil && printableText(b) {
			return string(b), true
		}
	}
	return "", false
}

// DecodeHex decodes s as hexadecimal digits (either case; white space is
// ignored; an optional 0x prefix) and returns the text and true only when
// the bytes are printable UTF-8 text.
func DecodeHex(s string) (string, bool) {
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "0x"), "0X")
	b, err := hex.DecodeString(s)
	if err != nil || !printableText(b) {
		return "", false
	}
	return string(b), true
}

// Text is one string of a JSON value: Path is its JSON pointer (RFC
// 6901), Text the string, and Key true when the string is an object's
// key (its path is then the member's).
type Text struct {
	Path string
	Text string
	Key  bool
}

// maxTextsDepth bounds the nesting Texts descends into; deeper values
// are not visited.
const maxTextsDepth = 64

// Texts is every string of v, keys and values, depth first with an
// object's keys in sorted order and a list's elements in order, so the
// same value yields the same list every time.
func Texts(v any) []Text { return TextsOf(v, true) }

// TextsOf is Texts, with the objects' keys only when keys is true.
func TextsOf(v any, withKeys bool) []Text {
	var out []Text
	var walk func(v any, path string, depth int)
	walk = func(v any, path string, depth int) {
		if depth > maxTextsDepth {
			return
		}
		switch x := v.(type) {
		case string:
			out = append(out, Text{Path: path, Text: x})
		case map[string]any:
			keys := make([]string, 0, len(x))
			for k := range x {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				p := path + "/" + jsonpointer.Escape(k)
				if withKeys {
					out = append(out, Text{Path: p, Text: k, Key: true})
				}
				walk(x[k], p, depth+1)
			}
		case []any:
			for i, e := range x {
				walk(e, fmt.Sprintf("%s/%d", path, i), depth+1)
			}
		}
	}
	walk(v, "", 0)
	return out
}

// StringValues is the text of every string of v that is not an object's
// key, in the order of Texts.
func StringValues(v any) []string {
	w := stringWalk{out: make([]string, 0, 16)}
	w.walk(v, 0)
	return w.out
}

// stringWalk is StringValues's walk: the keys of the maps being
// visited share one slice, each map's sorted in its own part of it,
// where a slice a map cost most of the time of a definition's walk.
type stringWalk struct {
	out  []string
	keys []string
}

func (w *stringWalk) walk(v any, depth int) {
	if depth > maxTextsDepth {
		return
	}
	switch x := v.(type) {
	case string:
		w.out = append(w.out, x)
	case map[string]any:
		from := len(w.keys)
		for k := range x {
			w.keys = append(w.keys, k)
		}
		slices.Sort(w.keys[from:])
		for i := from; i < from+len(x); i++ {
			w.walk(x[w.keys[i]], depth+1)
		}
		w.keys = w.keys[:from]
	case []any:
		for _, e := range x {
			w.walk(e, depth+1)
		}
	}
}

// FindRuns is every maximal run of at least n consecutive characters of s
// that are all among chars, with its span in characters: base64 or hex
// payloads are runs of their alphabets. Linear in the length of s, where
// an expression such as [A-Za-z0-9]{40,} costs forty steps a character.
func FindRuns(s, chars string, n int) []Span {
	in := func(r rune) bool { return strings.ContainsRune(chars, r) }
	if len(chars) > 0 && len(chars) < 256 {
		var ascii [128]bool
		simple := true
		for _, r := range chars {
			if r >= utf8.RuneSelf {
				simple = false
				break
			}
			ascii[r] = true
		}
		if simple {
			in = func(r rune) bool { return r < utf8.RuneSelf && ascii[r] }
		}
	}
	var out []Span
	pos, start, startByte := 0, -1, 0
	flush := func(endByte int) {
		if start >= 0 && pos-start >= n {
			out = append(out, Span{Start: start, End: pos, Text: s[startByte:endByte]})
		}
		start = -1
	}
	for i, r := range s {
		if in(r) {
			if start < 0 {
				start, startByte = pos, i
			}
		} else {
			flush(i)
		}
		pos++
	}
	flush(len(s))
	return out
}
