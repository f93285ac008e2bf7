package tokens

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math"
	"path"
	"slices"
	"strconv"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/pkoukk/tiktoken-go-loader/assets"
)

// o200k counts the tokens of o200k_base (the encoding the engine counts
// prompts and answers in) without tiktoken-go's pre-tokenizer, a
// backtracking regular expression (dlclark/regexp2) that was most of a
// Gradable run's CPU: o200kPiece finds the same pieces by hand, and each
// piece is merged as tiktoken-go merges it, with the same table. Text
// that is not UTF-8 (which tiktoken-go reads with U+FFFD for each bad
// byte) is left to tiktoken-go. TestO200kAsTiktoken and FuzzO200k hold
// both steps to regexp2's and tiktoken-go's.
type o200k struct {
	once  sync.Once
	ranks map[string]int
	err   error
}

// o200kCounter is the one o200k table of the process, loaded when first
// counted with.
var o200kCounter o200k

// loadRanks reads an embedded table of ranks, a line "TOKEN RANK" for
// each token, TOKEN in standard base64, into a map made at its size, the
// tokens' bytes decoded into one buffer that every key shares: the
// library's loader (strings split, three allocations a line, a map grown
// as it fills) took 90 ms of every run that counts tokens, and this about
// a third of that. TestLoadRanksAsTheLibrarys holds the two maps equal.
func loadRanks(name string) (map[string]int, error) {
	contents, err := assets.Assets.ReadFile(name)
	if err != nil {
		return nil, err
	}
	lines := bytes.Count(contents, []byte{'\n'}) + 1
	ranks := make(map[string]int, lines)
	arena := make([]byte, 0, base64.StdEncoding.DecodedLen(len(contents)))
	type span struct{ start, end, rank int }
	spans := make([]span, 0, lines)
	for len(contents) > 0 {
		line := contents
		if i := bytes.IndexByte(contents, '\n'); i >= 0 {
			line, contents = contents[:i], contents[i+1:]
		} else {
			contents = nil
		}
		if len(line) == 0 {
			continue
		}
		sp := bytes.IndexByte(line, ' ')
		if sp < 0 {
			return nil, fmt.Errorf("token table %s: a line without a rank: %q", name, line)
		}
		start, need := len(arena), base64.StdEncoding.DecodedLen(sp)
		arena = slices.Grow(arena, need)[:start+need]
		n, err := base64.StdEncoding.Decode(arena[start:], line[:sp])
		if err != nil {
			return nil, fmt.Errorf("token table %s: %w", name, err)
		}
		arena = arena[:start+n]
		rank, err := strconv.Atoi(string(line[sp+1:]))
		if err != nil {
			return nil, fmt.Errorf("token table %s: %w", name, err)
		}
		spans = append(spans, span{start, start + n, rank})
	}
	keys := string(arena) // one copy that every key is a part of
	for _, s := range spans {
		ranks[keys[s.start:s.end]] = s.rank
	}
	return ranks, nil
}

// o200kFile names o200k_base's table among the embedded ones.
const o200kFile = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"

// count returns the number of tokens of text, a valid UTF-8 string.
func (c *o200k) count(text string) (int, error) {
	c.once.Do(func() { c.ranks, c.err = loadRanks(path.Base(o200kFile)) })
	if c.err != nil {
		return 0, c.err
	}
	n := 0
	for p := 0; p < len(text); {
		e := o200kPiece(text, p)
		n += mergedCount(text[p:e], c.ranks)
		p = e
	}
	return n, nil
}

// mergedCount is how many tokens byte-pair merging makes of piece: one
// when the table holds the piece whole, else the parts left once the
// lowest-ranked adjacent pair has been merged until no pair is in the
// table (the leftmost pair first on a tie), as tiktoken-go merges.
func mergedCount(piece string, ranks map[string]int) int {
	if len(piece) <= 1 {
		return len(piece)
	}
	if _, ok := ranks[piece]; ok {
		return 1
	}
	// starts[i] is where part i begins; rank[i] the rank of parts i and
	// i+1 merged, MaxInt when the table has no such token.
	var small, smallRanks [64]int
	starts, rank := small[:0], smallRanks[:0]
	if len(piece) >= len(small) {
		starts, rank = make([]int, 0, len(piece)+1), make([]int, 0, len(piece))
	}
	for i := range len(piece) + 1 {
		starts = append(starts, i)
	}
	pair := func(i int) int { // the rank of parts i and i+1 merged
		if i+2 >= len(starts) {
			return math.MaxInt
		}
		if r, ok := ranks[piece[starts[i]:starts[i+2]]]; ok {
			return r
		}
		return math.MaxInt
	}
	for i := range len(starts) - 1 {
		rank = append(rank, pair(i))
	}
	for len(starts) > 2 {
		best, at := math.MaxInt, -1
		for i, r := range rank[:len(starts)-2] {
			if r < best {
				best, at = r, i
			}
		}
		if at < 0 {
			break
		}
		starts = append(starts[:at+1], starts[at+2:]...)
		rank = append(rank[:at+1], rank[at+2:]...)
		rank[at] = pair(at)
		if at > 0 {
			rank[at-1] = pair(at - 1)
		}
	}
	return len(starts) - 1
}

// o200kPiece returns where the piece of text that starts at p ends: the
// match o200k_base's pre-tokenizing pattern finds at p, its alternatives
// tried in order and each backtracked as regexp2 backtracks it:
//
//	A1 [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	A2 [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//	A3 \p{N}{1,3}
//	A4  ?[^\s\p{L}\p{N}]+[\r\n/]*
//	A5 \s*[\r\n]+
//	A6 \s+(?!\S)
//	A7 \s+
//
// Every character starts a match of one of them (a letter or a mark
// A1 or A2, a number A3, a space A7, anything else A4), so no text is
// skipped between pieces.
func o200kPiece(text string, p int) int {
	r, size := utf8.DecodeRuneInString(text[p:])
	if e, ok := o200kWord(text, p, r, size); ok {
		return e
	}
	switch {
	case unicode.IsNumber(r): // A3
		e := p + size
		for range 2 {
			r, n := utf8.DecodeRuneInString(text[e:])
			if n == 0 || !unicode.IsNumber(r) {
				break
			}
			e += n
		}
		return e
	case r == ' ' && p+1 < len(text) && o200kSymbol(runeAt(text, p+1)): // A4 with its space
		return o200kSymbols(text, p+1)
	case o200kSymbol(r): // A4
		return o200kSymbols(text, p)
	}
	// A5, A6 and A7: a run of spaces, with the last line break in it and
	// the start of its last character.
	e, last, lastBreak := p, p, -1
	for e < len(text) {
		r, n := utf8.DecodeRuneInString(text[e:])
		if !unicode.IsSpace(r) {
			break
		}
		if r == '\r' || r == '\n' {
			lastBreak = e
		}
		last = e
		e += n
	}
	switch {
	case e == p:
		// Every character starts a match (above), so this is never
		// reached; a character nothing matched is a piece of its own
		// rather than a loop that never ends.
		return p + size
	case lastBreak >= 0: // A5: up to and with the last line break
		return lastBreak + 1
	case e == len(text) || last == p: // A6 at the end of the text, or A7
		return e
	default: // A6: all but the last space, which goes with what follows
		return last
	}
}

// o200kWord tries A1 and A2 at p, where r (size bytes) starts: each with
// a leading character of [^\r\n\p{L}\p{N}] first, when there is one, and
// then without.
func o200kWord(text string, p int, r rune, size int) (int, bool) {
	prefixed := r != '\r' && r != '\n' && !unicode.IsLetter(r) && !unicode.IsNumber(r)
	for _, upperFirst := range []bool{false, true} {
		if prefixed {
			if e, ok := o200kCased(text, p+size, upperFirst); ok {
				return e, true
			}
		}
		if e, ok := o200kCased(text, p, upperFirst); ok {
			return e, true
		}
	}
	return 0, false
}

// o200kCased matches the part of A1 (upperFirst false) or A2 after the
// leading character, at q.
func o200kCased(text string, q int, upperFirst bool) (int, bool) {
	// The run of [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}] at q, and the start of
	// its last character in [\p{Ll}\p{Lm}\p{Lo}\p{M}].
	after, lastLower := q, -1
	for after < len(text) {
		r, n := utf8.DecodeRuneInString(text[after:])
		if !o200kUpper(r) {
			break
		}
		if o200kLower(r) {
			lastLower = after
		}
		after += n
	}
	end := -1
	switch {
	case upperFirst: // A2: the run (at least one), then lower-case greedily
		if after > q {
			end = o200kLowers(text, after)
		}
	case after < len(text) && o200kLower(runeAt(text, after)):
		// A1 with the whole run: lower-case greedily after it.
		end = o200kLowers(text, after)
	case lastLower >= 0:
		// A1 with the run given back to its last lower-case character,
		// which is followed by no lower-case one.
		_, n := utf8.DecodeRuneInString(text[lastLower:])
		end = lastLower + n
	}
	if end < 0 {
		return 0, false
	}
	return end + o200kContraction(text[end:]), true
}

// o200kContraction is the length of (?i:'s|'t|'re|'ve|'m|'ll|'d) at the
// start of s, 0 when there is none.
func o200kContraction(s string) int {
	if len(s) < 2 || s[0] != '\'' {
		return 0
	}
	r1, n1 := utf8.DecodeRuneInString(s[1:])
	switch unicode.ToLower(r1) {
	case 's', 't', 'm', 'd':
		return 1 + n1
	case 'r', 'v', 'l':
		want := 'e'
		if unicode.ToLower(r1) == 'l' {
			want = 'l'
		}
		if 1+n1 < len(s) {
			r2, n2 := utf8.DecodeRuneInString(s[1+n1:])
			if unicode.ToLower(r2) == want {
				return 1 + n1 + n2
			}
		}
	}
	return 0
}

// runEnd is where the run of characters in class that starts at i ends.
func runEnd(text string, i int, class func(rune) bool) int {
	for i < len(text) {
		r, n := utf8.DecodeRuneInString(text[i:])
		if !class(r) {
			break
		}
		i += n
	}
	return i
}

// o200kLowers is where the run of [\p{Ll}\p{Lm}\p{Lo}\p{M}] at i ends.
func o200kLowers(text string, i int) int { return runEnd(text, i, o200kLower) }

// o200kSymbols is where A4's [^\s\p{L}\p{N}]+[\r\n/]* ends when it starts
// at i, on a character of the first class.
func o200kSymbols(text string, i int) int {
	i = runEnd(text, i, o200kSymbol)
	for i < len(text) && (text[i] == '\r' || text[i] == '\n' || text[i] == '/') {
		i++
	}
	return i
}

func runeAt(text string, i int) rune {
	r, _ := utf8.DecodeRuneInString(text[i:])
	return r
}

// o200kUpper is [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}].
func o200kUpper(r rune) bool {
	if r < utf8.RuneSelf {
		return 'A' <= r && r <= 'Z'
	}
	return unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M)
}

// o200kLower is [\p{Ll}\p{Lm}\p{Lo}\p{M}].
func o200kLower(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z'
	}
	return unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M)
}

// o200kSymbol is [^\s\p{L}\p{N}].
func o200kSymbol(r rune) bool {
	return !unicode.IsSpace(r) && !unicode.IsLetter(r) && !unicode.IsNumber(r)
}
