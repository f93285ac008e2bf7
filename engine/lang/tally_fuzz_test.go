package lang

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/google/cel-go/common/types"
)

// FuzzTallyEachIn: on any strings, tally_each_in's groups count exactly
// the matches of find_all_each_in (folded) by string, pattern and the
// outcome of their tests (a token of find_all named in a list, a word
// in the characters before the match, a text that decodes as hex among
// them), worked out here one match at a time, and its
// matches are the first n+1 of each group in find_all_each_in's order.
func FuzzTallyEachIn(f *testing.F) {
	for _, s := range []string{
		"use read_file instead of write_file\nsend keys to x",
		"ｓｅｎｄ keys, send notes; Ignоre read_file",
		"do not send 4142, é not send x not send 41",
		strings.Repeat("a\u200b", 30),
		"",
	} {
		f.Add(s, uint8(1))
	}
	patterns := []string{`(?i)send \w+`, `[a-z]+_[a-z]+`, `(?i)use \w+ instead`, `\x{200B}`}
	inside := regexp.MustCompile(`keys|file`)
	not := regexp.MustCompile(`(?i)\bnot\b`)
	tests := []any{
		[]any{map[string]any{"matches": `keys|file`}, map[string]any{"before": `(?i)\bnot\b`, "within": int64(8)}, map[string]any{"decodes": "hex"}},
		[]any{map[string]any{"inside": int64(2)}, map[string]any{"matches": `keys|file`}},
		[]any{map[string]any{"tokens": `[A-Za-z][A-Za-z0-9]*([_.-][A-Za-z0-9]+)+`, "in": []any{"read_file", "write_file"}}},
		[]any{},
	}
	folds := []string{"nfkc", "confusable"}
	f.Fuzz(func(t *testing.T, text string, lim uint8) {
		n := int64(lim % 4)
		ss := strings.Split(text, "\n")
		got, err := Native(tallyEachIn(types.NewStringList(Adapter, ss), types.NewStringList(Adapter, patterns),
			types.NewStringList(Adapter, folds), Adapter.NativeToValue(tests), types.Int(n), nil, nil))
		if err != nil {
			t.Fatal(err)
		}
		// One match at a time: its group's key, and the list of keys in
		// order of first match.
		type key struct {
			index, pattern int
			passed         string
		}
		counts := map[key]int64{}
		var order []key
		var want []string
		total := int64(0)
		for i, s := range ss {
			spans, err := FindAllEachFolded(s, patterns, folds)
			if err != nil {
				t.Fatal(err)
			}
			for _, sp := range spans {
				var passed []bool
				switch sp.Pattern {
				case 0:
					// before: the 8 characters ahead, as runes of the
					// original string; decodes: the match's text as hex.
					runes := []rune(s)
					ahead := string(runes[max(0, sp.Start-8):sp.Start])
					_, hex := DecodeHex(sp.Text)
					passed = []bool{inside.MatchString(sp.Text), not.MatchString(ahead), hex}
				case 1:
					in := false
					for _, o := range spans {
						in = in || (o.Pattern == 2 && o.Start <= sp.Start && sp.Start < o.End)
					}
					passed = []bool{in, inside.MatchString(sp.Text)}
				case 2:
					tokens, err := FindAll(sp.Text, `[A-Za-z][A-Za-z0-9]*([_.-][A-Za-z0-9]+)+`)
					if err != nil {
						t.Fatal(err)
					}
					named := false
					for _, tok := range tokens {
						named = named || tok.Text == "read_file" || tok.Text == "write_file"
					}
					passed = []bool{named}
				}
				k := key{i, sp.Pattern, fmt.Sprint(passed)}
				if _, ok := counts[k]; !ok {
					order = append(order, k)
				}
				counts[k]++
				total++
				if counts[k] <= n+1 {
					want = append(want, fmt.Sprint(i, sp.Pattern, sp.Start, sp.End, sp.Text, passed))
				}
			}
		}
		m := got.(map[string]any)
		if m["count"] != total {
			t.Fatalf("count %v, want %d", m["count"], total)
		}
		groups := m["groups"].([]any)
		if len(groups) != len(order) {
			t.Fatalf("%d groups, want %d", len(groups), len(order))
		}
		for j, g := range groups {
			g := g.(map[string]any)
			k := order[j]
			if g["index"] != int64(k.index) || g["pattern"] != int64(k.pattern) || fmt.Sprint(g["passed"]) != k.passed || g["count"] != counts[k] {
				t.Fatalf("group %d is %v, want %+v with count %d", j, g, k, counts[k])
			}
		}
		var listed []string
		for _, x := range m["matches"].([]any) {
			x := x.(map[string]any)
			listed = append(listed, fmt.Sprint(x["index"], x["pattern"], x["start"], x["end"], x["text"], x["passed"]))
		}
		if strings.Join(listed, "\n") != strings.Join(want, "\n") {
			t.Fatalf("matches\n%s\nwant\n%s", strings.Join(listed, "\n"), strings.Join(want, "\n"))
		}
	})
}
