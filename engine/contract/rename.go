package contract

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/rubricmcp/rubric/engine/surface"
)

// The rename rule. A removed tool and an added one are a rename when
// Similarity(base, head) >= RenameThreshold and their definitions alone
// are at least DefinitionFloor alike: a name close to another is not a
// rename unless the tool still takes and says much the same, and two
// tools with the same parameters and words are one tool renamed even
// when the names share little ("get_note" to "notes_read").
const (
	// RenameThreshold is the least similarity of a rename.
	RenameThreshold = 0.55
	// DefinitionFloor is the least similarity of the definitions alone.
	DefinitionFloor = 0.5
	// NameWeight is the name's part of the similarity; the definition
	// has the rest.
	NameWeight = 0.4
	// maxPairs bounds the pairs compared: beyond it (a surface whose
	// every tool was renamed at once, by the thousand) no rename is
	// looked for and the tools are removed and added.
	maxPairs = 1 << 20
	// maxNameRunes bounds the part of a name the edit distance reads.
	maxNameRunes = 128
)

// Similarity says how alike two tool definitions are, from 0 to 1, and
// how alike the definitions alone are:
//
//	names = the mean of 1 - edit distance / longer length (of the names
//	        in lower case with "-", ".", "/" and " " read as "_") and
//	        the Jaccard index of the names' words (split at separators
//	        and case changes, a plural "s" dropped)
//	params = Jaccard index of the input parameter names and the output
//	         field names (0 when neither has any: nothing to go on)
//	words = Jaccard index of the descriptions' words (0 when neither
//	        has any)
//	definition = (2*params + words) / 3
//	similarity = NameWeight*names + (1-NameWeight)*definition
func Similarity(base, head surface.Tool) (similarity, definition float64) {
	names := nameSimilarity(base.Name, head.Name)
	params := jaccard(fields(base.Def), fields(head.Def))
	words := jaccard(wordSet(base.Def["description"]), wordSet(head.Def["description"]))
	definition = (2*params + words) / 3
	return NameWeight*names + (1-NameWeight)*definition, definition
}

type pair struct {
	base, head surface.Tool
	score      float64
}

// renames pairs removed tools with added ones, the most similar first,
// and returns the pairs and the tools left over on each side.
func renames(removed, added []surface.Tool) ([]pair, []surface.Tool, []surface.Tool) {
	if len(removed) == 0 || len(added) == 0 || len(removed)*len(added) > maxPairs {
		return nil, removed, added
	}
	var cands []pair
	for _, b := range removed {
		for _, h := range added {
			s, def := Similarity(b, h)
			if s >= RenameThreshold && def >= DefinitionFloor {
				cands = append(cands, pair{b, h, s})
			}
		}
	}
	slices.SortStableFunc(cands, func(x, y pair) int {
		return cmp.Or(cmp.Compare(y.score, x.score), cmp.Compare(x.base.Name, y.base.Name), cmp.Compare(x.head.Name, y.head.Name))
	})
	usedB, usedH := map[string]bool{}, map[string]bool{}
	var out []pair
	for _, c := range cands {
		if usedB[c.base.Name] || usedH[c.head.Name] {
			continue
		}
		usedB[c.base.Name], usedH[c.head.Name] = true, true
		out = append(out, c)
	}
	keep := func(ts []surface.Tool, used map[string]bool) []surface.Tool {
		var left []surface.Tool
		for _, t := range ts {
			if !used[t.Name] {
				left = append(left, t)
			}
		}
		return left
	}
	return out, keep(removed, usedB), keep(added, usedH)
}

// nameSimilarity is the mean of the names' edit similarity and of the
// Jaccard index of their words.
func nameSimilarity(a, b string) float64 {
	ra, rb := []rune(normalName(a)), []rune(normalName(b))
	ra, rb = ra[:min(len(ra), maxNameRunes)], rb[:min(len(rb), maxNameRunes)]
	edit := 1.0
	if longer := max(len(ra), len(rb)); longer > 0 {
		edit = 1 - float64(distance(ra, rb))/float64(longer)
	}
	return (edit + jaccard(nameWords(a), nameWords(b))) / 2
}

func normalName(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '-', '.', '/', ' ':
			return '_'
		}
		return unicode.ToLower(r)
	}, s)
}

// nameWords are the words of a name split at separators and at
// lower-to-upper case changes, in lower case and without a plural "s".
func nameWords(s string) map[string]bool {
	out := map[string]bool{}
	var w []rune
	flush := func() {
		if len(w) > 0 {
			word := strings.TrimSuffix(string(w), "s")
			out[cmp.Or(word, string(w))] = true
			w = w[:0]
		}
	}
	prevLower := false
	for i, r := range s {
		if i >= 4*maxNameRunes {
			break
		}
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			flush()
		}
		prevLower = unicode.IsLower(r)
		w = append(w, unicode.ToLower(r))
	}
	flush()
	return out
}

// distance is the Levenshtein distance of a and b.
func distance(a, b []rune) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// fields are a definition's input parameter names and output field
// names, told apart.
func fields(def map[string]any) map[string]bool {
	out := map[string]bool{}
	for _, side := range []string{"inputSchema", "outputSchema"} {
		s, _ := def[side].(map[string]any)
		props, _ := s["properties"].(map[string]any)
		for k := range props {
			out[side+" "+k] = true
		}
	}
	return out
}

func wordSet(v any) map[string]bool {
	s, _ := v.(string)
	out := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		out[w] = true
	}
	return out
}

// jaccard is |a ∩ b| / |a ∪ b|, and 0 for two empty sets.
func jaccard(a, b map[string]bool) float64 {
	if len(a)+len(b) == 0 {
		return 0
	}
	both := 0
	for k := range a {
		if b[k] {
			both++
		}
	}
	return float64(both) / float64(len(a)+len(b)-both)
}

func percent(f float64) string { return strconv.Itoa(int(f*100+0.5)) + "%" }
