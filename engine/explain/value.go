package explain

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/internal/termtext"
)

// How much of a value an explanation writes: operands are written short,
// so that a computation's line stays readable; results and reads whole,
// up to maxValue characters.
const (
	decimals     = 6  // digits after the point of a number with no short decimal
	shortFrac    = 11 // the longest fraction shown beside its decimal
	shortItems   = 10 // list items or map entries written in an operand
	shortLen     = 100
	stringLength = 40
	// maxValue is the most characters of a result or a read written:
	// a longer value (a read of every tool's records, a description of
	// pages) is cut there, saying how many characters were left out.
	maxValue = 2000
)

// whole, as write's items, writes every item of a list or map and every
// string whole.
const whole = -1

// short writes a value in place of an operand.
func short(v ref.Val) string { return fitted(v, shortItems, false, shortLen) }

// fitted writes v with at most items items of each list or map, fewer
// when that is too long for n characters, so that a list cut short
// still ends in "… 26 items in all]" rather than being clipped inside
// an item, its closing bracket lost; what one item cannot fit is
// clipped.
func fitted(v ref.Val, items int, exact bool, n int) string {
	s := write(v, items, exact)
	for k := items - 1; k >= 1 && utf8.RuneCountInString(s) > n; k-- {
		s = write(v, k, exact)
	}
	return clip(s, n)
}

// long writes a value as a result or a read: whole, every item of a
// list or map and every string (a list of records names each by its
// name), a number also as its fraction when that is short; over
// maxValue characters, cut there (see bounded).
func long(v any) string {
	rv, ok := v.(ref.Val)
	if !ok {
		rv = lang.Adapter.NativeToValue(v)
	}
	return bounded(write(rv, whole, true), maxValue)
}

// bounded is s when it has at most n characters, else its first n and
// how many were left out.
func bounded(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return fmt.Sprintf("%s… (%d more characters left out)", string(r[:n]), len(r)-n)
}

// write writes v with at most items items of each list or map (whole:
// all of them, and strings whole).
func write(v ref.Val, items int, exact bool) string {
	text := func(s string) string {
		if items == whole {
			return s
		}
		return clip(s, stringLength)
	}
	switch x := v.(type) {
	case nil:
		return "null"
	case types.Null:
		return "null"
	case types.Bool:
		return fmt.Sprint(bool(x))
	case types.String:
		return "'" + text(escapeQuotes(oneLine(string(x)))) + "'"
	case *types.Err:
		return "error: " + text(oneLine(x.Error()))
	}
	if n, err := lang.ToNum(v); err == nil {
		if exact {
			return numLong(n)
		}
		return decimal(n)
	}
	if m, ok := v.(traits.Mapper); ok && v.Type() == types.MapType {
		type entry struct{ k, v string }
		var es []entry
		for it := m.Iterator(); it.HasNext() == types.True; {
			k := it.Next()
			ks := write(k, items, false)
			if s, ok := k.(types.String); ok {
				ks = printable(string(s))
			}
			es = append(es, entry{ks, write(m.Get(k), items, false)})
		}
		sort.Slice(es, func(i, j int) bool { return es[i].k < es[j].k })
		parts := []string{}
		for i, e := range es {
			if i == items { // never, whole
				parts = append(parts, fmt.Sprintf("… %d more", len(es)-items))
				break
			}
			parts = append(parts, e.k+": "+e.v)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	if l, ok := v.(traits.Lister); ok {
		n, _ := l.Size().(types.Int)
		parts := []string{}
		if n > 0 && items != whole {
			if _, isMap := l.Get(types.Int(0)).(traits.Mapper); isMap {
				items = min(items, 3) // records: a few show what the list is
			}
		}
		for i := 0; i < int(n); i++ {
			if i == items {
				parts = append(parts, fmt.Sprintf("… %d items in all", n))
				break
			}
			e := l.Get(types.Int(i))
			if _, isMap := e.(traits.Mapper); isMap {
				if name, ok := nameOf(e); ok {
					parts = append(parts, "{name: '"+text(escapeQuotes(oneLine(name)))+"', …}")
					continue
				}
			}
			parts = append(parts, write(e, items, false))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	if n, ok := v.Value().(json.Number); ok {
		return printable(n.String())
	}
	return text(printable(fmt.Sprint(v.Value())))
}

// decimal writes an exact number as its shortest decimal, or rounded to
// a few digits with "…" when it has none that short.
func decimal(n num.Num) string {
	if n.Round(decimals).Cmp(n) == 0 {
		return n.String()
	}
	return n.Decimal(decimals) + "…"
}

// numLong is decimal, with the exact fraction beside it when the decimal
// is not exact and the fraction is short.
func numLong(n num.Num) string {
	d := decimal(n)
	if e := n.Exact(); strings.HasSuffix(d, "…") && len(e) <= shortFrac {
		return d + " (exactly " + e + ")"
	}
	return d
}

// nameOf is a record's name member, when it has one that is a string.
func nameOf(v ref.Val) (string, bool) {
	m, ok := v.(traits.Mapper)
	if !ok {
		return "", false
	}
	n, ok := m.Find(types.String("name"))
	if !ok {
		return "", false
	}
	s, ok := n.(types.String)
	return printable(string(s)), ok
}

// escapeQuotes is s with its single quotes escaped, as a CEL string
// between single quotes writes them.
func escapeQuotes(s string) string { return strings.ReplaceAll(s, "'", `\'`) }

func unquote(s string) (string, bool) {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return s[1 : len(s)-1], true
	}
	return "", false
}

// printable is text from a report made safe for a terminal.
func printable(s string) string { return termtext.Printable(s) }

// oneLine is printable text on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(termtext.Printable(s)), " ")
}

// clip cuts s to at most n characters, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
