package tokens

import (
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dlclark/regexp2"
	tiktoken "github.com/pkoukk/tiktoken-go"
	tiktokenloader "github.com/pkoukk/tiktoken-go-loader"

	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
	"github.com/rubricmcp/rubric/internal/heavytest"
)

// o200kPattern is o200k_base's pre-tokenizing pattern, as the encoding
// defines it and tiktoken-go compiles it with regexp2: the reference
// o200kPiece is held to.
var o200kPattern = regexp2.MustCompile(strings.Join([]string{
	`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
	`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?`,
	`\p{N}{1,3}`,
	` ?[^\s\p{L}\p{N}]+[\r\n/]*`,
	`\s*[\r\n]+`,
	`\s+(?!\S)`,
	`\s+`,
}, "|"), regexp2.None)

// regexp2Pieces are the pieces the pattern cuts text into.
func regexp2Pieces(t testing.TB, text string) []string {
	t.Helper()
	runes := []rune(text)
	var out []string
	m, err := o200kPattern.FindRunesMatch(runes)
	for ; m != nil && err == nil; m, err = o200kPattern.FindNextMatch(m) {
		out = append(out, string(runes[m.Index:m.Index+m.Length]))
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// o200kPieces are the pieces o200kPiece cuts text into.
func o200kPieces(text string) []string {
	var out []string
	for p := 0; p < len(text); {
		e := o200kPiece(text, p)
		out = append(out, text[p:e])
		p = e
	}
	return out
}

// o200kReference is tiktoken-go's own o200k_base tokenizer.
func o200kReference(t testing.TB) *tiktoken.Tiktoken {
	t.Helper()
	loaderOnce.Do(func() { tiktoken.SetBpeLoader(tiktokenloader.NewOfflineLoader()) })
	tk, err := tiktoken.GetEncoding("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	return tk
}

// o200kPalette is what the generated texts are made of: every class the
// pattern tells apart, the contractions in both cases, the spaces and
// line breaks Go and regexp2 count as \s, and characters whose lower
// case is an ASCII letter.
var o200kPalette = []string{
	"a", "z", "A", "Z", "hello", "World", "HTTP", "iPhone", "'s", "'S", "'t", "'re", "'RE", "'ve", "'m", "'ll", "'LL", "'d", "'", "'x",
	"0", "7", "12345", " ", "  ", "\t", "\n", "\r", "\r\n", "\v", "\f", "!", "/", "//", "(", ")", ".", ",", "-", "_", "\"", "#", "$", "\x00", "\x7f",
	"é", "É", "ǅ", "ʰ", "日本", "あ", "\u0301", "\u0903", "٣", "Ⅻ", "½", "\u00a0", "\u2028", "\u0085", "\u3000", "\u2009",
	"ſ", "\u212a", "İ", "😀", "Ｓ", "\u200d", "’", "—", "…", "ß", "ﬁ",
}

// randomO200kText draws a text of up to n pieces of the palette.
func randomO200kText(r *rand.Rand, n int) string {
	var b strings.Builder
	for range r.IntN(n) + 1 {
		b.WriteString(o200kPalette[r.IntN(len(o200kPalette))])
	}
	return b.String()
}

// checkO200k holds o200kPiece's pieces to regexp2's and the count to
// tiktoken-go's for text.
func checkO200k(t *testing.T, tk *tiktoken.Tiktoken, text string) {
	t.Helper()
	if !utf8.ValidString(text) {
		return
	}
	got, want := o200kPieces(text), regexp2Pieces(t, text)
	if strings.Join(got, "\x00|") != strings.Join(want, "\x00|") {
		t.Fatalf("%q: pieces %q, regexp2's %q", text, got, want)
	}
	n, err := o200kCounter.count(text)
	if err != nil {
		t.Fatal(err)
	}
	if ref := len(tk.EncodeOrdinary(text)); n != ref {
		t.Fatalf("%q: %d tokens, tiktoken-go's %d", text, n, ref)
	}
}

// TestO200kAsTiktoken: the hand-written pre-tokenizer cuts the pieces
// the pattern cuts, and the count is tiktoken-go's, for every corpus
// capture whole (descriptions, schemas, names), every built-in rubric's
// file (its prompts), and 5,000 texts drawn from the palette.
func TestO200kAsTiktoken(t *testing.T) {
	heavytest.Later(t)
	tk := o200kReference(t)
	prompts, err := filepath.Glob(filepath.Join("..", "..", "rubrics", "*.hcl"))
	if err != nil || len(prompts) == 0 {
		t.Fatalf("no built-in rubrics found (%v)", err)
	}
	for _, f := range append(surfacetest.CorpusFiles(t), prompts...) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkO200k(t, tk, string(b))
	}
	r := rand.New(rand.NewPCG(200, 0))
	for range 5000 {
		checkO200k(t, tk, randomO200kText(r, 12))
	}
}

// FuzzO200k: whatever the text, the pieces are regexp2's and the count
// tiktoken-go's.
func FuzzO200k(f *testing.F) {
	for _, s := range o200kPalette {
		f.Add(s)
	}
	f.Add("Don't   do THAT'S it\n\n  x")
	tk := o200kReference(f)
	f.Fuzz(func(t *testing.T, s string) { checkO200k(t, tk, s) })
}

// TestLoadRanksAsTheLibrarys: the table read by loadRanks is the map the
// library's own loader reads, entry for entry.
func TestLoadRanksAsTheLibrarys(t *testing.T) {
	want, err := tiktokenloader.NewOfflineLoader().LoadTiktokenBpe(o200kFile)
	if err != nil {
		t.Fatal(err)
	}
	got, err := loadRanks(path.Base(o200kFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || len(got) < 100000 {
		t.Fatalf("%d tokens, the library's loader read %d", len(got), len(want))
	}
	for k, r := range want {
		if g, ok := got[k]; !ok || g != r {
			t.Fatalf("token %q: rank %d (%v), the library's %d", k, g, ok, r)
		}
	}
}

// BenchmarkLoadRanks reads o200k_base's table, as the first count of a
// run does.
//
//	go test ./internal/tokens -run '^$' -bench LoadRanks -benchmem
func BenchmarkLoadRanks(b *testing.B) {
	for b.Loop() {
		if _, err := loadRanks(path.Base(o200kFile)); err != nil {
			b.Fatal(err)
		}
	}
}
