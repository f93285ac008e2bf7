package lang

import (
	"fmt"
	"math/rand/v2"
	"regexp/syntax"
	"strings"
	"testing"
)

// TestLiteralSetHolds holds the automaton to strings.Contains: the
// literals overlap, nest and share prefixes and suffixes; each literal
// found is listed once.
func TestLiteralSetHolds(t *testing.T) {
	lits := []string{"he", "she", "his", "hers", "user", "use", "must", "st", "\x80", "a"}
	m := newLiteralSet(lits)
	texts := []string{"", "ushers", "the user must", "hishe", "a", "xyz", "ｕse\x80", "sshhee", "must not use it"}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := "ehirstu a\x80"
	for range 2000 {
		b := make([]byte, r.IntN(20))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		found := make([]bool, len(lits))
		touched := m.holds([]byte(s), found, nil)
		listed := make([]int, len(lits))
		for _, k := range touched {
			listed[k]++
		}
		for k, l := range lits {
			if want := strings.Contains(s, l); found[k] != want {
				t.Fatalf("%q holds %q: %v, want %v", s, l, found[k], want)
			}
			if want := map[bool]int{true: 1}[found[k]]; listed[k] != want {
				t.Fatalf("%q holds %q: listed %d times, want %d", s, l, listed[k], want)
			}
		}
	}
}

// TestFindAllEachIsFindAllOfEach: searching a list of expressions at
// once finds what searching each one finds, and what the expression
// finds with no literal filter before it, past ASCII too.
func TestFindAllEachIsFindAllOfEach(t *testing.T) {
	patterns := []string{
		`(?i)\b(must|should)\s+(not\s+)?(tell|show)\b`,
		`(?i)\buser(s)?\b|\bhuman\b`,
		`[\x{200B}-\x{200D}]`,
		`(?i)ignore|disregard`,
		`é+|\bfoo\b`,
		`x*`,
		`(?i)\b(always|must)\b[^.\n]*\b(send|copy)\b[^.\n]*(\b\w+@\w+|https?://\S+)|\b(always|must)\b[^.\n]*@\w+[^.\n]*\bbcc\b`,
	}
	texts := []string{
		"", "You MUST not tell the user.", "a human, and users", "zero\u200bwidth", "IGNORE this", "café and foo",
		"caf\u00e9\u00e9", "ſhould show", "always send a copy to x@example.com", "must put y@z in bcc", "always send it home", "\u212Aelvin must show", "nothing here", "xx y xxx",
	}
	for _, s := range texts {
		got, err := FindAllEach(s, patterns)
		if err != nil {
			t.Fatal(err)
		}
		var want []PatternSpan
		for i, p := range patterns {
			spans, err := FindAll(s, p)
			if err != nil {
				t.Fatal(err)
			}
			c, _ := compileCached(p)
			if plain := c.spans(s); len(plain) != len(spans) {
				t.Fatalf("%q, %q: %v, with no filter %v", s, p, spans, plain)
			}
			for _, sp := range spans {
				want = append(want, PatternSpan{Pattern: i, Span: sp})
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%q: %v, want %v", s, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%q: %v, want %v", s, got, want)
			}
		}
	}
	if _, err := FindAllEach("x", []string{"("}); err == nil {
		t.Error("a pattern that does not compile is no error")
	}
}

// TestNeedOf: what every match of an expression holds keeps each
// branch of an alternation whole, so that a cue of common words and an
// address is passed over by texts with no address; small classes count,
// white space and folded letters past ASCII do not; and no match is
// shorter than minBytes.
func TestNeedOf(t *testing.T) {
	cases := []struct {
		re   string
		want string
		min  int
	}{
		{`abc`, `"abc"`, 3},
		{`(?i)(all|must)\s+(send|cc)`, `any("all send" "all cc" "must send" "must cc")`, 6},
		{`(?i)\b(dear\s+)?(ai|bot)\s*:\s*(you\s+)?must\b`, `any("ai:you must" "ai:must" "ai: you must" "ai: must" "ai :you must" "ai :must" "ai : you must" "ai : must" "bot:you must" "bot:must" "bot: you must" "bot: must" "bot :you must" "bot :must" "bot : you must" "bot : must")`, 7},
		{`(?i)(^|[.;]\s*|\b(and|then)\s+)(pass|put)\s+(it|them)\b[^.\n]*\b(as|into)\s+the\b`, `all(any("pass it" "pass them" "put it" "put them") any("as the" "into the"))`, 12},
		{`(?i)you\s+are\s+now\s+(a|an)\b`, `"you are now a"`, 13},
		{`a\s*\s*b|\n`, `-`, 1},
		{`(?i)(all|must).*(@|http)|(all|must).*@.*bcc`, `any(all(any("all" "must") any("@" "http")) all(any("all" "must") "@" "bcc"))`, 4},
		{`foo|x*`, `-`, 0},
		{`é|foo`, `any(all("\x80" count(['é' 'é'], 1)) "foo")`, 1},
		{`[\x{E0000}-\x{E007F}]+`, `all("\x80" count(['\U000e0000' '\U000e007f'], 1))`, 1},
		{`(?i)ſ|foo`, `any("s" "foo")`, 1},
		{`(?i)(ai|model)\s*[,:]\s*must`, `any("ai,must" "ai, must" "ai:must" "ai: must" "ai ,must" "ai , must" "ai :must" "ai : must" "model,must" "model, must" "model:must" "model: must" "model ,must" "model , must" "model :must" "model : must")`, 7},
		{`(?i)a[bc]`, `any("ab" "ac")`, 2},
		{`x[ \t]y`, `"x y"`, 3},
		{`(?i)x[^a]y`, `all("x" "y")`, 3},
		{`(?i)[k]`, `-`, 1},
		{`[a-z]+`, `-`, 1},
		{`[\x{200B}-\x{200D}]{2,}`, `all("\x80" count(['\u200b' '\u200d'], 1) run(['\u200b' '\u200d'] in [], 2))`, 2},
		{`([ \t]{80,}|(\r?\n[ \t]*){8,})\S`, `any(run(['\t' '\t' ' ' ' '] in [], 80) run(['\n' '\n'] in ['\t' '\n' '\r' '\r' ' ' ' '], 8))`, 9},
		{`(x[ab]y){3}`, `all(any("xay" "xby") run(['x' 'x'] in ['a' 'b' 'x' 'y'], 3))`, 9},
		{`^$|\b`, `-`, 0},
		// Control characters are counted in the text (a class with a
		// printable character or a line break is not).
		{`[\x00-\x08\x0B\x0C\x0E-\x1F\x7F\x{80}-\x{9F}]+`, `count(['\x00' '\b' '\v' '\f' '\x0e' '\x1f' '\x7f' '\u009f'], 1)`, 1},
		{`(?s)\A.*?(?:[\x01-\x08]+)`, `count(['\x01' '\b'], 1)`, 1},
		{`[\x00-\x0A]`, `-`, 1},
	}
	var show func(n *need) string
	show = func(n *need) string {
		if n == nil {
			return "-"
		}
		switch n.op {
		case needLit:
			return fmt.Sprintf("%q", n.lit)
		case needRun:
			return fmt.Sprintf("run(%q in %q, %d)", n.chars, n.within, n.n)
		case needCount:
			return fmt.Sprintf("count(%q, %d)", n.chars, n.n)
		}
		var subs []string
		for _, s := range n.subs {
			subs = append(subs, show(s))
		}
		op := "all"
		if n.op == needAny {
			op = "any"
		}
		return op + "(" + strings.Join(subs, " ") + ")"
	}
	for _, c := range cases {
		tree, err := syntax.Parse(c.re, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		if got := show(needOf(tree)); got != c.want {
			t.Errorf("%s: needs %s, want %s", c.re, got, c.want)
		}
		if got := minBytes(tree); got != c.min {
			t.Errorf("%s: at least %d bytes, want %d", c.re, got, c.min)
		}
	}
}

// TestAnyOfChars: the need of one character of a class, read byte by
// byte, finds what a walk over the text's characters finds: ASCII
// controls, C1 controls, characters past ASCII, and a byte that is not
// UTF-8 (read as U+FFFD, as the expressions read it).
func TestAnyOfChars(t *testing.T) {
	classes := [][]rune{
		{0x00, 0x08, 0x0B, 0x0C, 0x0E, 0x1F, 0x7F, 0x9F},
		{0x200B, 0x200D},
		{0xFFFD, 0xFFFD},
		{0x1B, 0x1B, 0xE0000, 0xE007F},
	}
	texts := []string{"", "plain text", "tab\there", "bell\a", "del\x7f", "c1\u0085", "zw\u200b", "bad\xff", "tag\U000E0041", "esc\x1b[8m", "é and ü"}
	for _, ranges := range classes {
		n := anyOfChars(ranges)
		for _, s := range texts {
			want := false
			for _, r := range s {
				want = want || inRanges(ranges, r)
			}
			if got := n.countIn(s); got != want {
				t.Errorf("%q in %q: %v, want %v", ranges, s, got, want)
			}
		}
	}
}
