package lang

import (
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/cel-go/common/types/ref"

	"github.com/rubricmcp/rubric/internal/heavytest"
)

func TestRuneScriptAndCategory(t *testing.T) {
	tests := []struct {
		r        rune
		script   string
		category string
	}{
		{'a', "Latin", "Ll"},
		{'A', "Latin", "Lu"},
		{'а', "Cyrillic", "Ll"}, // U+0430
		{'ο', "Greek", "Ll"},    // U+03BF
		{'7', "Common", "Nd"},
		{'_', "Common", "Pc"},
		{'\u0301', "Inherited", "Mn"},
		{'\u200b', "Common", "Cf"},
		{'\U000E0041', "Common", "Cf"},
		{'\u202e', "Common", "Cf"},
		{'\u00a0', "Common", "Zs"},
		{'\U0010FFFE', "Unknown", "Cn"},
		{'漢', "Han", "Lo"},
	}
	for _, tt := range tests {
		if got := RuneScript(tt.r); got != tt.script {
			t.Errorf("RuneScript(%U) = %q, want %q", tt.r, got, tt.script)
		}
		if got := RuneCategory(tt.r); got != tt.category {
			t.Errorf("RuneCategory(%U) = %q, want %q", tt.r, got, tt.category)
		}
	}
}

func TestScripts(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{"read_file", "[Latin]"},
		{"reаd_file", "[Latin Cyrillic]"},
		{"аbc", "[Cyrillic Latin]"},
		{"v2.0_", "[Latin]"},
		{"2.0", "[]"},
		{"", "[]"},
		{"e\u0301", "[Latin]"},
		{"поиск", "[Cyrillic]"},
	}
	for _, tt := range tests {
		if got := fmt.Sprint(Scripts(tt.in)); got != tt.want {
			t.Errorf("Scripts(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestSkeleton(t *testing.T) {
	tests := []struct {
		a, b string
		same bool
	}{
		{"read_file", "reаd_file", true}, // Cyrillic а
		{"paypal", "pаypаl", true},
		{"get_weather", "get_weathеr", true}, // Cyrillic е
		{"scope", "ѕсоре", true},             // all Cyrillic
		{"delete", "remove", false},
		{"list", "lists", false},
		{"file", "ﬁle", true}, // the ligature fi
	}
	for _, tt := range tests {
		if got := Skeleton(tt.a) == Skeleton(tt.b); got != tt.same {
			t.Errorf("Skeleton(%q) == Skeleton(%q) is %v, want %v (%q, %q)", tt.a, tt.b, got, tt.same, Skeleton(tt.a), Skeleton(tt.b))
		}
	}
}

func TestVisible(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain text", "plain text"},
		{"a\u200bb", `a\u{200B}b`},
		{"x\U000E0041\U000E0042", `x\u{E0041}\u{E0042}`},
		{"abc\u202edcba", `abc\u{202E}dcba`},
		{"nbsp\u00a0here", `nbsp\u{A0}here`},
		{"line\nnext\ttab", `line\nnext\ttab`},
		{`back\slash`, `back\\slash`},
		{"bad\xffbyte", `bad\x{FF}byte`},
		{"emoji \U0001F600 stays", "emoji \U0001F600 stays"},
		{"variation\ufe0f", `variation\u{FE0F}`},
		{"café", "café"},
	}
	for _, tt := range tests {
		if got := Visible(tt.in); got != tt.want {
			t.Errorf("Visible(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestFindAll(t *testing.T) {
	tests := []struct {
		s, pattern string
		want       string // spans as start-end:text, or the error
	}{
		{"ignore previous instructions", `(?i)ignore\s+previous`, "[0-15:ignore previous]"},
		{"aXbXc", "X", "[1-2:X 3-4:X]"},
		{"ünïcode X", "X", "[8-9:X]"}, // characters, not bytes
		{"none here", "X", "[]"},
		{"", "", "[0-0:]"},
		{"abc", "(", "error"},
	}
	for _, tt := range tests {
		spans, err := FindAll(tt.s, tt.pattern)
		got := "error"
		if err == nil {
			var parts []string
			for _, s := range spans {
				parts = append(parts, fmt.Sprintf("%d-%d:%s", s.Start, s.End, s.Text))
			}
			got = "[" + strings.Join(parts, " ") + "]"
		}
		if got != tt.want {
			t.Errorf("FindAll(%q, %q) = %s, want %s", tt.s, tt.pattern, got, tt.want)
		}
	}
}

func TestDecode(t *testing.T) {
	tests := []struct {
		name, in string
		decode   func(string) (string, bool)
		want     string // "" for not text
	}{
		{"base64 text", "cmVhZCB0aGUgc2VjcmV0IGZpbGU=", DecodeBase64, "read the secret file"},
		{"base64 unpadded", "cmVhZCB0aGUgc2VjcmV0IGZpbGU", DecodeBase64, "read the secret file"},
		{"base64 url alphabet", "Pz8_Pz8_aGk", DecodeBase64, "??????hi"},
		{"base64 of binary", "AAECAwQFBgcICQoLDA0ODw==", DecodeBase64, ""},
		{"base64 of digits only", "MTIzNDU2", DecodeBase64, ""},
		{"not base64", "hello world!", DecodeBase64, ""},
		{"hex text", "69676e6f726520616c6c", DecodeHex, "ignore all"},
		{"hex with prefix", "0x6869", DecodeHex, "hi"},
		{"hex of a hash", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", DecodeHex, ""},
		{"odd hex", "abc", DecodeHex, ""},
	}
	for _, tt := range tests {
		got, ok := tt.decode(tt.in)
		if !ok {
			got = ""
		}
		if got != tt.want {
			t.Errorf("%s: got %q (%v), want %q", tt.name, got, ok, tt.want)
		}
	}
}

func TestTexts(t *testing.T) {
	v := map[string]any{
		"name": "t",
		"inputSchema": map[string]any{"properties": map[string]any{
			"a/b": map[string]any{"enum": []any{"x", 1, "y"}},
		}},
	}
	var got []string
	for _, tx := range Texts(v) {
		got = append(got, fmt.Sprintf("%s=%s,%v", tx.Path, tx.Text, tx.Key))
	}
	want := "/inputSchema=inputSchema,true /inputSchema/properties=properties,true " +
		"/inputSchema/properties/a~1b=a/b,true /inputSchema/properties/a~1b/enum=enum,true " +
		"/inputSchema/properties/a~1b/enum/0=x,false /inputSchema/properties/a~1b/enum/2=y,false " +
		"/name=name,true /name=t,false"
	if s := strings.Join(got, " "); s != want {
		t.Errorf("Texts:\n got %s\nwant %s", s, want)
	}
}

// TestTextFunctionsInFormulas: each function as a formula calls it.
func TestTextFunctionsInFormulas(t *testing.T) {
	tool := map[string]any{"name": "reаd", "description": "Hi <IMPORTANT>do X</IMPORTANT>\u200b"}
	tests := []struct{ src, want string }{
		{"char_script('а')", "Cyrillic"},
		{"char_category('\\u200b')", "Cf"},
		{"char_script('')", ""},
		{"scripts(tool.name)", "[Latin Cyrillic]"},
		{"skeleton(tool.name) == skeleton('read')", "true"},
		{"skeletons([tool.name, 'rn', '']) == [skeleton('read'), skeleton('rn'), '']", "true"},
		{"skeletons(['x', 'y']).size()", "2"},
		{"skeletons([])", "[]"},
		{"visible(tool.description)", `Hi <IMPORTANT>do X</IMPORTANT>\u{200B}`},
		{"find_all(tool.description, '</?IMPORTANT>').map(s, s.start)", "[3 18]"},
		{"find_all(tool.description, 'do X')[0].text", "do X"},
		{"find_runs('ab  cdef  g', 'abcdefg', 2).map(s, [s.start, s.end, s.text])", "[[0 2 ab] [4 8 cdef]]"},
		{"find_all_each(tool.description, ['X', '</?IMPORTANT>', 'none']).map(s, [s.pattern, s.start])", "[[0 17] [1 3] [1 18]]"},
		{"decode_base64('aGVsbG8gd29ybGQ=')", "hello world"},
		{"decode_base64('AAAA') == null", "true"},
		{"decode_hex('6869')", "hi"},
		{"texts(tool).filter(x, !x.key).map(x, x.path)", "[/description /name]"},
		{"texts(tool, false).map(x, x.path)", "[/description /name]"},
		{"texts(tool, true).filter(x, x.key).map(x, x.text)", "[description name]"},
		{"string_values(tool) == texts(tool, false).map(x, x.text)", "true"},
		{"string_values({'b': ['x', {'k': 'y'}], 'a': 'z', 'n': 1})", "[z x y]"},
		{"find_all_in(['a do X', '', 'do X do X'], 'do X').map(s, [s.index, s.start])", "[[0 2] [2 0] [2 5]]"},
		{"find_all_each_in([tool.description, 'X'], ['X', '</?IMPORTANT>']).map(s, [s.index, s.pattern, s.start])", "[[0 0 17] [0 1 3] [0 1 18] [1 0 0]]"},
		{"find_runs_in(['ab  cdef', 'g', 'aa'], 'abcdefg', 2).map(s, [s.index, s.start, s.text])", "[[0 0 ab] [0 4 cdef] [2 0 aa]]"},
		{"find_all_in([], 'x').size()", "0"},
		{"find_all_in(['get_a and b', 'x get_a get_b get_c'], '[a-z_]+', {'get_a': 1, 'get_b': [2]}).map(s, [s.index, s.start, s.text])", "[[0 0 get_a] [1 2 get_a] [1 8 get_b]]"},
		{"find_all_in(['get_a'], '[a-z_]+', {}).size()", "0"},
		{"find_all_in(['get_a get_b, get_c'], '[a-z_]+', {'get_a': 1, 'get_b': 1, 'get_c': 1}, {'get_b': 1}).map(s, s.text)", "[get_a get_c]"},
		{"find_all_in(['naïve get_a'], '[^ ]+', {'get_a': 1}).map(s, [s.start, s.end])", "[[6 11]]"},
		{"fold('\uff29\uff47\uff4e\uff4f\uff52\uff45 it', ['nfkc'])", "Ignore it"},
		{"fold('Ign\u043ere', ['confusable'])", "Ignore"},
		{"fold('\u043e\u043a', ['nfkc', 'confusable'])", "\u043e\u043a"},
		{"find_all_each_in(['x \uff29\uff47\uff4e\uff4f\uff52\uff45 y', 'Ign\u043ere', 'ignore'], ['(?i)ignore', 'y'], ['nfkc', 'confusable']).map(s, [s.index, s.pattern, s.start, s.end, s.text])",
			"[[0 0 2 8 \uff29\uff47\uff4e\uff4f\uff52\uff45] [0 1 9 10 y] [1 0 0 6 Ign\u043ere] [2 0 0 6 ignore]]"},
	}
	for _, tt := range tests {
		got := fmt.Sprint(eval(t, tt.src, map[string]any{"tool": tool}, Var{"tool", Object}))
		if got != tt.want {
			t.Errorf("%s = %s, want %s", tt.src, got, tt.want)
		}
	}
}

// TestTextFunctionsAreCharged: a text function is charged for the length
// it reads, so calling one over and over on a long string stops at the
// cost limit, where a flat charge of one a call would let it run for
// minutes.
func TestTextFunctionsAreCharged(t *testing.T) {
	heavytest.Later(t)
	e, err := NewEnv(Var{"tool", Object})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("ab", 50_000)
	for _, fn := range []string{"visible", "skeleton", "scripts", "decode_base64"} {
		src := fmt.Sprintf("lists.range(5000).map(i, %s(tool.description)).size()", fn)
		p, ds := e.Compile(src, nil)
		if ds != nil {
			t.Fatal(ds)
		}
		_, err := p.EvalSized(Vars{"tool": map[string]any{"description": long}}, uint64(len(long)))
		if err == nil || !strings.Contains(err.Error(), "cost limit") {
			t.Errorf("%s: got %v, want the cost limit", fn, err)
		}
	}
}

// TestListFunctionsAreCharged: a span function over a list of strings
// is charged for every string it reads, as the calls on each would be,
// and so are string_values and texts without keys. (Each has a name of
// its own, not an overload of the one-string function: a call on a dyn
// argument would be dispatched at run time, where the cost tracker does
// not know which overload ran and charges one unit.)
func TestListFunctionsAreCharged(t *testing.T) {
	heavytest.Later(t)
	e, err := NewEnv(Var{"tool", Object})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("ab ", 30_000)
	for _, src := range []string{
		"lists.range(2000).map(i, find_all_in(tool.list, 'x')).size()",
		"lists.range(2000).map(i, find_all_in(tool.list, 'x', {'ab': 1})).size()",
		"lists.range(2000).map(i, find_all_in(tool.list, 'x', tool.names)).size()",
		"lists.range(2000).map(i, find_all_in(tool.list, 'x', tool.names, {'x': 1})).size()",
		"lists.range(2000).map(i, find_all_each_in(tool.list, ['x', 'y'])).size()",
		"lists.range(2000).map(i, find_runs_in(tool.list, 'x', 3)).size()",
		"lists.range(2000).map(i, skeletons(tool.list)).size()",
		"lists.range(2000).map(i, string_values(tool)).size()",
		"lists.range(2000).map(i, texts(tool, false)).size()",
	} {
		p, ds := e.Compile(src, nil)
		if ds != nil {
			t.Fatal(ds)
		}
		list := []any{long, long, long}
		_, err := p.EvalSized(Vars{"tool": map[string]any{"list": list, "names": map[string]any{"ab": true}}}, uint64(len(long)))
		if err == nil || !strings.Contains(err.Error(), "cost limit") {
			t.Errorf("%s: got %v, want the cost limit", src, err)
		}
	}
}

// TestFindAllFilterNeverLosesAMatch: over many random texts made of the
// words, spaces, cases and characters past ASCII that the filter's
// phrases, runs and counts are about, every expression finds with the
// filter what it finds alone.
func TestFindAllFilterNeverLosesAMatch(t *testing.T) {
	heavytest.Later(t)
	patterns := []string{
		`(?i)\b(dear\s+)?(ai|bot)\s*[,:]\s*(you\s+)?(must|will)\b`,
		`(?i)(^|[.;]\s*|\b(and|then)\s+)(pass|put)\s+(it|the\s+(full\s+)?text)\b[^.\n]*\b(as|into)\s+the\b`,
		`(?i)\byou\s+are\s+now\s+(a|an)\b`,
		`(?-i:(^|\n)\s*(SYSTEM|SYSTEM PROMPT)\s*:)`,
		`([ \t\x{00A0}]{6,}|(\r?\n[ \t]*){3,})\S`,
		`[\x{200B}\x{200C}]{2,}`,
		`(?i)ask\s+kelvin`,
		`(?i)x[,;]y`,
		`a\sb|c  d`,
		`[\x{E0000}-\x{E007F}]+`,
		`[\x{202A}-\x{202E}\x{2066}-\x{2069}]+|é`,
		`[\p{Co}\x{E0080}-\x{E00FF}]+`,
		`\x{200D}+|\x{FFFD}`,
	}
	words := []string{"ai", "AI", "bot", "dear", "you", "must", "will", "pass", "PUT", "it", "the", "full", "text", "as", "into",
		"are", "now", "a", "an", "SYSTEM", "System", "PROMPT", "ask", "\u212Aelvin", "a\u017Fk", "x", "y", "b", "c", "d",
		"and", "then", "\u00e9", "\u00c9", "\u200b", "\u200c", "\u200d", "\u00a0", "\U000E0041", "\U000E007F", "\U000E0080",
		"\u202E", "\u2066", "\u2069", "\u2070", "\uE000", "\uF8FF", "\U000F0000", "\U0010FFFD", "\xff", "\xf3\xa0"}
	seps := []string{" ", "  ", "\t", "\n", "\r\n", ",", ":", " : ", ".", ";", "", " \n \n \n", "      ", "\f"}
	r := rand.New(rand.NewPCG(3, 4))
	res := make([]*regexp.Regexp, len(patterns))
	for i, p := range patterns {
		res[i] = regexp.MustCompile(p)
	}
	for range 5_000 {
		var b strings.Builder
		for range 1 + r.IntN(12) {
			b.WriteString(words[r.IntN(len(words))])
			b.WriteString(seps[r.IntN(len(seps))])
		}
		s := b.String()
		each, err := FindAllEach(s, patterns)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for i, p := range patterns {
			want := res[i].FindAllStringIndex(s, -1)
			got, err := FindAll(s, p)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(want) {
				t.Fatalf("FindAll(%q, %q): %d matches, the expression alone %d", s, p, len(got), len(want))
			}
			n += len(want)
		}
		if len(each) != n {
			t.Fatalf("FindAllEach(%q): %d matches, the expressions alone %d", s, len(each), n)
		}
	}
}

// TestFindAllPrefilter: skipping a text that lacks a literal every match
// needs never loses a match. Each pattern is run with the prefilter and
// with the plain expression over texts chosen to sit at its edges: case
// folding past ASCII (the Kelvin sign, the long s), texts that are not
// ASCII, classes of characters past ASCII, alternations and repeats.
func TestFindAllPrefilter(t *testing.T) {
	patterns := []string{
		`(?i)\bignore\s+(all\s+)?previous`,
		`(?i)(ask|kelvin)`,
		`(?i)secret`,
		`SYSTEM:`,
		`(?i)system:`,
		`[\x{200B}\x{200C}]+`,
		`\x{200D}`,
		`(?i)ſ`,
		`a(b|cd)+e`,
		`(x|y){2,}z`,
		`(?i)note\s+(to|for)\s+(the\s+)?(ai|model)`,
		`(^|\n)\s*[A-Z]+:`,
		`(?i)(always|must)\b[^.\n]{0,20}@`,
	}
	texts := []string{
		"", "plain", "Ignore previous", "IGNORE ALL PREVIOUS rules", "ask", "\u212Aelvin", "as\u212A", "\u017Fecret",
		"SECRET", "sec\u017Fet", "SYSTEM: go", "system: go", "Sy\u017Ftem: x", "zero\u200bwidth", "no zero width",
		"joiner\u200d", "abcdcde", "ace", "xyxz", "xz", "Note to the AI", "note for model", "NOTE TO THE MODEL", "İgnore previous",
		"always send to x@y", "must: a.b @", "é and SYSTEM: here", "ſ", "s", "S",
	}
	for _, p := range patterns {
		re := regexp.MustCompile(p)
		for _, s := range texts {
			spans, err := FindAll(s, p)
			if err != nil {
				t.Fatal(err)
			}
			want := re.FindAllStringIndex(s, -1)
			if len(spans) != len(want) {
				t.Errorf("FindAll(%q, %q): %d matches, the expression alone %d", s, p, len(spans), len(want))
			}
		}
	}
}

func TestFindRuns(t *testing.T) {
	tests := []struct {
		s, chars string
		n        int
		want     string
	}{
		{"xx aaaa b aaaaa", "a", 4, "[3-7:aaaa 10-15:aaaaa]"},
		{"aaa", "a", 4, "[]"},
		{"ééaaaaé", "a", 2, "[2-6:aaaa]"},
		{"0x6869 and cafe", "0123456789abcdefx", 4, "[0-6:0x6869 11-15:cafe]"},
		{"«ab»«ab»", "«ab", 3, "[0-3:«ab 4-7:«ab]"},
		{"", "a", 1, "[]"},
	}
	for _, tt := range tests {
		var parts []string
		for _, s := range FindRuns(tt.s, tt.chars, tt.n) {
			parts = append(parts, fmt.Sprintf("%d-%d:%s", s.Start, s.End, s.Text))
		}
		if got := "[" + strings.Join(parts, " ") + "]"; got != tt.want {
			t.Errorf("FindRuns(%q, %q, %d) = %s, want %s", tt.s, tt.chars, tt.n, got, tt.want)
		}
	}
}

// TestPatternListsHeldAsGoValues: a list of patterns held as Go values
// (a signal's value) gives its own set, whichever list came before it.
func TestPatternListsHeldAsGoValues(t *testing.T) {
	a := Adapter.NativeToValue([]any{"x", "y+"})
	b := Adapter.NativeToValue([]any{"x", "z"})
	bad := Adapter.NativeToValue([]any{"x", map[string]any{}})
	for _, tt := range []struct {
		list ref.Val
		want []string
	}{{a, []string{"x", "y+"}}, {a, []string{"x", "y+"}}, {b, []string{"x", "z"}}, {a, []string{"x", "y+"}}, {bad, nil}, {a, []string{"x", "y+"}}} {
		set, err := patternSetOf(tt.list, "find_all_each")
		if tt.want == nil {
			if err == nil {
				t.Error("a list holding a map gave a set")
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(set.patterns, tt.want) {
			t.Errorf("set of %v, want %v", set.patterns, tt.want)
		}
	}
}

// TestInFunctionErrorsNameTheFunction: an error of find_all_in,
// find_all_each_in or find_runs_in names the function the formula
// calls, not the one of a single string it is built on, so that an
// author looks for the call that is there.
func TestInFunctionErrorsNameTheFunction(t *testing.T) {
	vars := map[string]any{"x": map[string]any{"texts": []any{"a", 3}, "bad": "("}}
	for _, tt := range []struct{ src, want string }{
		{"find_all_in(['a'], x.bad)", "find_all_in: "},
		{"find_all_in(x.texts, 'a')", "find_all_in: element 1 of the list is not a string"},
		{"find_all_in(['a'], 'a', x.texts)", "find_all_in: want a map of names, got list"},
		{"find_all_in(['a'], 'a', {'a': 1}, 'b')", "find_all_in: want a map of names, got string"},
		{"find_all_each_in(['a'], x.texts)", "find_all_each_in: a pattern is not a string"},
		{"find_all_each_in(['a'], [x.bad])", "find_all_each_in: "},
		{"find_all_each_in(x.texts, ['a'])", "find_all_each_in: element 1 of the list is not a string"},
		{"find_all_each_in(x.texts, ['a'], ['nfkc'])", "find_all_each_in: element 1 of the list is not a string"},
		{"find_all_each_in(['a'], x.texts, ['nfkc'])", "find_all_each_in: a pattern is not a string"},
		{"find_runs_in(['a'], 'a', 0)", "find_runs_in: a run is at least 1 character long, not 0"},
		{"find_runs_in(x.texts, 'a', 1)", "find_runs_in: element 1 of the list is not a string"},
		// The functions of one string keep their own names.
		{"find_all('a', x.bad)", "find_all: "},
		{"find_all_each('a', x.texts)", "find_all_each: a pattern is not a string"},
		{"find_runs('a', 'a', 0)", "find_runs: a run is at least 1 character long, not 0"},
	} {
		if err := evalErr(t, tt.src, vars); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one starting %q", tt.src, err, tt.want)
		}
	}
}

// evalErr compiles src with x an object and returns the error of
// evaluating it over vars.
func evalErr(t *testing.T, src string, vars map[string]any) error {
	t.Helper()
	e, err := NewEnv(Var{"x", Object})
	if err != nil {
		t.Fatal(err)
	}
	p, ds := e.Compile(src, nil)
	if ds != nil {
		t.Fatalf("%s: %v", src, ds)
	}
	_, err = p.Eval(vars)
	return err
}

// TestFindFirstEachIn: the count of every match find_all_each_in finds,
// and the first n+1 of them in its order, folded or not; n of 0 keeps
// one, enough to tell none from some.
func TestFindFirstEachIn(t *testing.T) {
	vars := map[string]any{"x": map[string]any{"texts": []any{"a", 3}}}
	for _, tt := range []struct{ src, want string }{
		{"find_first_each_in(['a b a', 'b', 'aa'], ['a', 'b'], 2).count", "6"},
		{"find_first_each_in(['a b a', 'b', 'aa'], ['a', 'b'], 2).matches.map(m, [m.index, m.pattern, m.start])", "[[0 0 0] [0 0 4] [0 1 2]]"},
		{"find_first_each_in(['a b a', 'b', 'aa'], ['a', 'b'], 10).matches == find_all_each_in(['a b a', 'b', 'aa'], ['a', 'b'])", "true"},
		{"find_first_each_in(['a b a', 'b', 'aa'], ['a', 'b'], 3).matches == find_all_each_in(['a b a', 'b', 'aa'], ['a', 'b']).slice(0, 4)", "true"},
		{"find_first_each_in(['xyz'], ['a'], 0)", "map[count:0 matches:[]]"},
		{"find_first_each_in(['a a'], ['a'], 0).matches.size()", "1"},
		{"find_first_each_in(['Ign\u043ere', 'ignore ignore'], ['(?i)ignore'], ['nfkc', 'confusable'], 1).count", "3"},
		{"find_first_each_in(['Ign\u043ere', 'ignore ignore'], ['(?i)ignore'], ['nfkc', 'confusable'], 1).matches.map(m, [m.index, m.text])", "[[0 Ign\u043ere] [1 ignore]]"},
	} {
		if got := fmt.Sprint(eval(t, tt.src, vars, Var{"x", Object})); got != tt.want {
			t.Errorf("%s = %s, want %s", tt.src, got, tt.want)
		}
	}
	for _, tt := range []struct{ src, want string }{
		{"find_first_each_in(['a'], ['a'], -1)", "find_first_each_in: n is the number of matches wanted past the first, at least 0, not -1"},
		{"find_first_each_in(x.texts, ['a'], 1)", "find_first_each_in: element 1 of the list is not a string"},
		{"find_first_each_in(['a'], x.texts, 1)", "find_first_each_in: a pattern is not a string"},
		{"find_first_each_in(['a'], ['a'], ['bogus'], 1)", "find_first_each_in: "},
	} {
		if err := evalErr(t, tt.src, vars); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one starting %q", tt.src, err, tt.want)
		}
	}
}

// TestTallyEachIn: every match of find_all_each_in counted by string,
// pattern and the outcome of the pattern's tests, and the first n+1 of
// each such group listed in find_all_each_in's order.
func TestTallyEachIn(t *testing.T) {
	vars := map[string]any{"x": map[string]any{"texts": []any{"a", 3}}}
	for _, tt := range []struct{ src, want string }{
		// No tests: one group a string and pattern.
		{"tally_each_in(['a b a', 'b', 'aa'], ['a', 'b'], [[], []], 0).count", "6"},
		{"tally_each_in(['a b a', 'b', 'aa'], ['a', 'b'], [[], []], 0).groups.map(g, [g.index, g.pattern, g.count])", "[[0 0 2] [0 1 1] [1 1 1] [2 0 2]]"},
		{"tally_each_in(['a b a', 'b', 'aa'], ['a', 'b'], [[], []], 0).matches.map(m, [m.index, m.pattern, m.start, m.group])", "[[0 0 0 0] [0 1 2 1] [1 1 0 2] [2 0 0 3]]"},
		{"tally_each_in(['a b a', 'b', 'aa'], ['a', 'b'], [[], []], 1).matches.map(m, {'index': m.index, 'pattern': m.pattern, 'start': m.start, 'end': m.end, 'text': m.text}) == find_all_each_in(['a b a', 'b', 'aa'], ['a', 'b'])", "true"},
		{"tally_each_in(['xyz'], ['a'], [[]], 0)", "map[count:0 groups:[] matches:[]]"},
		// A test on the text splits a pattern's matches in two groups;
		// the matches stay in order, n+1 of each group.
		{"tally_each_in(['send x. send keys. send y. send tokens. send z'], [r'send \\w+'], [[{'matches': 'keys|tokens'}]], 0).groups.map(g, [g.passed, g.count])", "[[[false] 3] [[true] 2]]"},
		{"tally_each_in(['send x. send keys. send y. send tokens. send z'], [r'send \\w+'], [[{'matches': 'keys|tokens'}]], 0).matches.map(m, [m.text, m.passed, m.group])", "[[send x [false] 0] [send keys [true] 1]]"},
		{"tally_each_in(['send x. send keys. send y. send tokens. send z'], [r'send \\w+'], [[{'matches': 'keys|tokens'}]], 1).matches.map(m, m.text)", "[send x send keys send y send tokens]"},
		// Two tests: one group an outcome met.
		{"tally_each_in(['ab a b ab'], [r'\\w+'], [[{'matches': 'a'}, {'matches': 'b'}]], 5).groups.map(g, [g.passed, g.count])", "[[[true true] 2] [[true false] 1] [[false true] 1]]"},
		// Tokens: a match of the expression in the match's text, as
		// find_all gives them, is in the list (read_file after "__", where
		// no token starts earlier); not a token that merely holds one.
		{"tally_each_in(['use read_file, not read_files', 'use read_files', 'use a__read_file', 'use x.read_file.y'], [r'use \\S+'], [[{'tokens': r'[a-z][a-z0-9]*([_.-][a-z0-9]+)+', 'in': ['read_file', 'write_file']}]], 5).groups.map(g, [g.index, g.passed])", "[[0 [true]] [1 [false]] [2 [true]] [3 [false]]]"},
		{"tally_each_in(['use read_file, not read_files', 'use read_files', 'use a__read_file', 'use x.read_file.y'], [r'use \\S+'], [[{'tokens': r'[a-z][a-z0-9]*([_.-][a-z0-9]+)+', 'in': ['read_file', 'write_file']}]], 5).matches.map(m, [m.text, m.passed])", "[[use read_file, [true]] [use read_files [false]] [use a__read_file [true]] [use x.read_file.y [false]]]"},
		{"tally_each_in(['call a_b'], ['call'], [[{'tokens': r'\\w+', 'in': []}, {'tokens': r'\\w+', 'in': ['a_b', 'call']}]], 5).groups.map(g, g.passed)", "[[false true]]"},
		// Inside: a match starting within a match of another pattern of
		// the same string, not of another string.
		{"tally_each_in(['use read_file instead', 'read_file'], ['read_file', r'use \\w+ instead'], [[{'inside': 1}], []], 5).groups.map(g, [g.index, g.pattern, g.passed, g.count])", "[[0 0 [true] 1] [0 1 [] 1] [1 0 [false] 1]]"},
		{"tally_each_in(['xx read_file', 'read_file xx'], ['read_file', 'xx'], [[{'inside': 1}], []], 5).groups.map(g, g.passed)", "[[false] [] [false] []]"},
		{"tally_each_in(['abc'], ['b', 'abc'], [[{'inside': 1}], []], 5).groups.map(g, g.passed)", "[[true] []]"},
		{"tally_each_in(['abc'], ['c', 'ab'], [[{'inside': 1}], []], 5).groups.map(g, g.passed)", "[[false] []]"},
		// Folded: the matches of the folded copy, spans of the original,
		// the tests on the original text.
		{"tally_each_in(['Ign\u043ere', 'ignore ignore'], ['(?i)ignore'], ['nfkc', 'confusable'], [[{'matches': '^[a-z]+$'}]], 0).groups.map(g, [g.index, g.passed, g.count])", "[[0 [false] 1] [1 [true] 2]]"},
		{"tally_each_in(['Ign\u043ere', 'ignore ignore'], ['(?i)ignore'], ['nfkc', 'confusable'], [[{'matches': '^[a-z]+$'}]], 0).matches.map(m, [m.index, m.text])", "[[0 Ign\u043ere] [1 ignore]]"},
		// decodes: the match's text as hex or base64 is text (holding a
		// match of matches, when given): hex 4142 is AB, 6869 hi, base64
		// QUI= AB; 0001 is no text either way.
		{"tally_each_in(['4142 0001 6869 QUI='], [r'[0-9A-Za-z=]+'], [[{'decodes': 'hex'}, {'decodes': 'base64'}, {'decodes': 'hex', 'matches': 'B'}]], 5).groups.map(g, [g.passed, g.count])", "[[[true false true] 1] [[false false false] 1] [[true false false] 1] [[false true false] 1]]"},
		// matches may list expressions, any of which matches, each with
		// its own flags (B is not case-blind); none never matches.
		{"tally_each_in(['ab Ab aB'], [r'\\w+'], [[{'matches': ['(?i)a', 'B']}, {'matches': []}, {'decodes': 'hex', 'matches': ['x', 'B']}]], 5).groups.map(g, [g.passed, g.count])", "[[[true false false] 3]]"},
		{"tally_each_in(['4142 6869'], [r'\\w+'], [[{'decodes': 'hex', 'matches': ['x', '(?i)h']}]], 5).groups.map(g, [g.passed, g.count])", "[[[false] 1] [[true] 1]]"},
		// before: the characters ahead of the match, counted as
		// characters (é is one), within the string.
		{"tally_each_in(['not x. x. no é x', 'x'], ['x'], [[{'before': r'\\bnot?\\b', 'within': 5}]], 5).groups.map(g, [g.index, g.passed, g.count])", "[[0 [true] 2] [0 [false] 1] [1 [false] 1]]"},
		{"tally_each_in(['not x. x. no é x'], ['x'], [[{'before': r'\\bnot?\\b', 'within': 5}]], 5).matches.map(m, [m.start, m.passed])", "[[4 [true]] [7 [false]] [15 [true]]]"},
		// labels and where: strings whose labels match the same
		// expressions share their groups; each group's index is its
		// first string's, where the outcome for its labels.
		{"tally_each_in(['a', 'a a', 'b a', 'a'], ['a'], [], [[]], 0, ['/p/x', '/q', '/p/y', '#/p'], ['^/p/', '^#']).groups.map(g, [g.index, g.where, g.count])", "[[0 [true false] 2] [1 [false false] 2] [3 [false true] 1]]"},
		{"tally_each_in(['a', 'a a', 'b a', 'a'], ['a'], [], [[]], 1, ['/p/x', '/q', '/p/y', '#/p'], ['^/p/', '^#']).matches.map(m, [m.index, m.start, m.group])", "[[0 0 0] [1 0 1] [1 2 1] [2 2 0] [3 0 2]]"},
		{"tally_each_in(['a', 'a a', 'b a', 'a'], ['a'], [], [[]], 0, ['/p/x', '/q', '/p/y', '#/p'], ['^/p/', '^#']).matches.map(m, [m.index, m.start])", "[[0 0] [1 0] [3 0]]"},
		// Folds empty: matched as it is.
		{"tally_each_in(['Ign\u043ere', 'ignore'], ['(?i)ignore'], [], [[]], 0).groups.map(g, [g.index, g.count])", "[[1 1]]"},
	} {
		if got := fmt.Sprint(eval(t, tt.src, vars, Var{"x", Object})); got != tt.want {
			t.Errorf("%s = %s, want %s", tt.src, got, tt.want)
		}
	}
	for _, tt := range []struct{ src, want string }{
		{"tally_each_in(['a'], ['a'], [[]], -1)", "tally_each_in: n is the number of matches wanted past the first of each group, at least 0, not -1"},
		{"tally_each_in(x.texts, ['a'], [[]], 1)", "tally_each_in: element 1 of the list is not a string"},
		{"tally_each_in(['a'], x.texts, [[]], 1)", "tally_each_in: a pattern is not a string"},
		{"tally_each_in(['a'], ['a'], ['bogus'], [[]], 1)", "tally_each_in: "},
		{"tally_each_in(['a'], ['a', 'b'], [[]], 1)", "tally_each_in: tests holds 1 lists, one a pattern: want 2"},
		{"tally_each_in(['a'], ['a'], [['a']], 1)", "tally_each_in: test 0 of pattern 0 is not {'matches': expression}, {'tokens': expression, 'in': list of strings}, {'inside': place of a pattern}, {'before': expression, 'within': characters} or {'decodes': 'hex' or 'base64'} with or without 'matches' (an expression or a list of them)"},
		{"tally_each_in(['a'], ['a'], [[{'decodes': 'rot13'}]], 1)", "tally_each_in: test 0 of pattern 0 is not"},
		{"tally_each_in(['a'], ['a'], [[{'matches': ['a', 1]}]], 1)", "tally_each_in: test 0 of pattern 0 is not"},
		{"tally_each_in(['a'], ['a'], [[{'matches': ['a', '(']}]], 1)", "tally_each_in: test 0 of pattern 0 does not compile"},
		{"tally_each_in(['a'], ['a'], [[{'decodes': 'hex', 'inside': 0}]], 1)", "tally_each_in: test 0 of pattern 0 is not"},
		{"tally_each_in(['a'], ['a'], [[{'decodes': 'hex', 'matches': '('}]], 1)", "tally_each_in: test 0 of pattern 0 does not compile"},
		{"tally_each_in(['a'], ['a'], [[{'before': 'a'}]], 1)", "tally_each_in: test 0 of pattern 0 is not"},
		{"tally_each_in(['a'], ['a'], [[{'before': '(', 'within': 3}]], 1)", "tally_each_in: test 0 of pattern 0 does not compile"},
		{"tally_each_in(['a'], ['a'], [[{'before': 'a', 'within': 0}]], 1)", "tally_each_in: test 0 of pattern 0 looks within 0 characters before a match: give 1 to 32"},
		{"tally_each_in(['a'], ['a'], [[{'before': 'a', 'within': 33}]], 1)", "tally_each_in: test 0 of pattern 0 looks within 33 characters before a match: give 1 to 32"},
		{"tally_each_in(['a'], ['a'], [], [[]], 1, ['x', 'y'], ['x'])", "tally_each_in: labels holds 2 strings for 1 in ss: give one label a string"},
		{"tally_each_in(['a'], ['a'], [], [[]], 1, ['x'], ['('])", "tally_each_in: expression 0 of where does not compile"},
		{"tally_each_in(['a'], ['a'], [], [[]], 1, ['x'], lists.range(17).map(i, 'a'))", "tally_each_in: where holds 17 expressions; give at most 16"},
		{"tally_each_in(['a'], ['a'], [[{'matches': 'a', 'inside': 0}]], 1)", "tally_each_in: test 0 of pattern 0 is not"},
		{"tally_each_in(['a'], ['a'], [[{'tokens': 'a'}]], 1)", "tally_each_in: test 0 of pattern 0 is not"},
		{"tally_each_in(['a'], ['a'], [[{'tokens': 'a', 'in': 'a'}]], 1)", "tally_each_in: test 0 of pattern 0 is not"},
		{"tally_each_in(['a'], ['a'], [[{'tokens': 'a', 'in': ['a'], 'matches': 'a'}]], 1)", "tally_each_in: test 0 of pattern 0 is not"},
		{"tally_each_in(['a'], ['a'], [[{'in': ['a']}]], 1)", "tally_each_in: test 0 of pattern 0 is not"},
		{"tally_each_in(['a'], ['a'], [[{'tokens': '(', 'in': ['a']}]], 1)", "tally_each_in: test 0 of pattern 0 does not compile"},
		{"tally_each_in(['a'], ['a'], [[{'tokens': 'a', 'in': ['a', 1]}]], 1)", "tally_each_in: test 0 of pattern 0 has an item 1 of in that is not a string"},
		{"tally_each_in(['a'], ['a'], [[{'matches': '('}]], 1)", "tally_each_in: test 0 of pattern 0 does not compile"},
		{"tally_each_in(['a'], ['a'], [[{'inside': 1}]], 1)", "tally_each_in: test 0 of pattern 0 names pattern 1, past the 1 patterns"},
		{"tally_each_in(['a'], ['a'], [[{'inside': -1}]], 1)", "tally_each_in: test 0 of pattern 0 names pattern -1"},
		{"tally_each_in(['a'], ['a'], [lists.range(17).map(i, {'matches': 'a'})], 1)", "tally_each_in: pattern 0 has 17 tests; give it at most 16"},
	} {
		if err := evalErr(t, tt.src, vars); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want one starting %q", tt.src, err, tt.want)
		}
	}
}

// TestTallyTestsOfEachList: tally_each_in reads the tests list its
// caller passes, though it keeps the last one read to spare a surface's
// tools reading the same list again: a list of the same length whose
// items differ, passed next, is read as itself (the cache's shortcut
// takes only the very same list for it).
func TestTallyTestsOfEachList(t *testing.T) {
	const src = "tally_each_in(['call read_file'], [r'call \\w+'], v.tests, 5).groups.map(g, g.passed)"
	lists := []struct {
		in   []any
		want string
	}{
		{[]any{"read_file"}, "[[true]]"},
		{[]any{"write_file"}, "[[false]]"},
		{[]any{"read_file"}, "[[true]]"},
	}
	for i, l := range lists {
		tests := []any{[]any{map[string]any{"tokens": `\w+`, "in": l.in}}}
		got := fmt.Sprint(eval(t, src, map[string]any{"v": map[string]any{"tests": tests}}, Var{"v", Object}))
		if got != l.want {
			t.Errorf("list %d (in %v): got %s, want %s", i, l.in, got, l.want)
		}
	}
}
