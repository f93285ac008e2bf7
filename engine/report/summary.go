package report

// Helpers for the writers of summaries (text, Markdown, SARIF): the order
// in which tools and issues are shown, and text made safe to show.

import (
	"fmt"
	"sort"
	"strings"
	"unicode"

	"github.com/rubricmcp/rubric/engine/num"
	"github.com/rubricmcp/rubric/internal/words"
)

// ToolsWorstFirst returns the tools by exact score, lowest first, then by
// name, for summaries that lead with what needs fixing.
func ToolsWorstFirst(ts []Tool) ([]Tool, error) {
	type keyed struct {
		t Tool
		v num.Num
	}
	ks := make([]keyed, len(ts))
	for i, t := range ts {
		v, err := num.Parse(t.Exact)
		if err != nil {
			v, err = num.Parse(t.Score.String())
		}
		if err != nil {
			return nil, fmt.Errorf("tool %q has no readable score (exact %q, score %q); the report is damaged, score the surface again", t.Name, t.Exact, t.Score)
		}
		ks[i] = keyed{t, v}
	}
	sort.SliceStable(ks, func(i, j int) bool {
		if c := ks[i].v.Cmp(ks[j].v); c != 0 {
			return c < 0
		}
		return ks[i].t.Name < ks[j].t.Name
	})
	out := make([]Tool, len(ks))
	for i, k := range ks {
		out[i] = k.t
	}
	return out, nil
}

// SameNumber reports whether two written numbers (decimals or fractions)
// are equal, so that a summary can leave out an exact form that adds
// nothing to the rounded one.
func SameNumber(a, b string) bool {
	x, err1 := num.Parse(a)
	y, err2 := num.Parse(b)
	return err1 == nil && err2 == nil && x.Cmp(y) == 0
}

// SortIssues orders issues by the weight of their check, heaviest first,
// then by check name, for a fix list. Unreadable points count as none.
func SortIssues(is []Issue) {
	points := func(s string) num.Num {
		n, _ := num.Parse(s)
		return n
	}
	sort.SliceStable(is, func(i, j int) bool {
		a, b := points(is[i].Points), points(is[j].Points)
		if c := a.Cmp(b); c != 0 {
			return c > 0
		}
		return is[i].Check < is[j].Check
	})
}

// Unscored says why the report has no overall score: scoring did not
// finish, or the rubric had nothing to score. It is "" when there is one.
func (r *Report) Unscored() string {
	switch {
	case !r.Complete:
		return "scoring did not finish"
	case r.Score != nil:
		return ""
	case r.NoScore != "":
		return strings.TrimSuffix(r.NoScore, ".")
	}
	return "the report gives none"
}

// ShownName is a tool's name as the summaries write it: every control
// and invisible character escaped (EscapeControls), a line break and a
// tab included, and so are the spaces a reader cannot tell from others
// or from none: any space but U+0020 (a no-break space, \u00a0), and a
// U+0020 that begins or ends the name (\u0020). So two names are written
// alike only when they are alike ("a\nb" is not "a b", "rf " is not
// "rf"), and explain --tool finds a name given as it is shown.
func ShownName(name string) string {
	s := EscapeControls(name, false)
	if !strings.ContainsFunc(s, oddSpace) && !strings.HasPrefix(s, " ") && !strings.HasSuffix(s, " ") {
		return s
	}
	var b strings.Builder
	last := len(s) - 1
	for i, r := range s {
		if oddSpace(r) || r == ' ' && (i == 0 || i == last) {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// oddSpace reports whether r is a space other than U+0020 that
// EscapeControls leaves as it is.
func oddSpace(r rune) bool { return r != ' ' && unicode.IsSpace(r) && !Hidden(r) }

// EscapeControls writes the characters of s (text a server or a rubric
// supplied) that a reader cannot see, or that change what the rest looks
// like, as visible escapes: control characters as \xNN or \uNNNN, so that
// s cannot move a cursor or colour a terminal; format characters (the
// bidirectional controls such as U+202E, which would show a tool named
// "\u202eeliforp_etadpu" as "update_profile"; zero-width spaces and
// joiners; the tag characters) and line and paragraph separators as
// \uNNNN or \UNNNNNNNN. With keepLayout, newlines, carriage returns and
// tabs stay as they are; without, they become \n, \r and \t. Every
// human-facing writer shows names and messages through it, so each shows
// a name the same way; the JSON report keeps them as the server sent
// them.
func EscapeControls(s string, keepLayout bool) string {
	if !strings.ContainsFunc(s, Hidden) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case !Hidden(r):
			b.WriteRune(r)
		case keepLayout && (r == '\n' || r == '\r' || r == '\t'):
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// Hidden reports whether EscapeControls writes r as an escape: a control
// character, a format character (Unicode category Cf) or a line or
// paragraph separator.
func Hidden(r rune) bool {
	if r < 0x80 {
		return r < 0x20 || r == 0x7f
	}
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp)
}

// Plural writes a count with its noun: "1 tool", "3 tools".
func Plural(n int, what string) string { return words.Count(n, what) }

// ShortHash keeps the first 12 hex digits of a hash, and its "sha256:"
// prefix when it has one.
func ShortHash(h string) string {
	hex := strings.TrimPrefix(h, "sha256:")
	if len(hex) > 12 {
		return h[:len(h)-len(hex)+12]
	}
	return h
}

// Check returns the tool's check of that name.
func (t Tool) Check(name string) (Check, bool) {
	for _, c := range t.Checks {
		if c.Name == name {
			return c, true
		}
	}
	return Check{}, false
}

// CheckTitle is what a fix list calls the check of is, an issue of t:
// the check block's title, or the title the rubric gave a check of its
// issues formula; "" when there is none but the check's name.
func (t Tool) CheckTitle(is Issue) string {
	title := is.Title
	if c, ok := t.Check(is.Check); ok {
		title = c.Title
	}
	if title == is.Check {
		return ""
	}
	return title
}

// ShownWarnings are the warnings a summary lists: all but the reason for
// no score, which it states on its own.
func (r *Report) ShownWarnings() []string {
	var out []string
	for _, w := range r.Warnings {
		if w != r.NoScore {
			out = append(out, w)
		}
	}
	return out
}

// Summary says what a run's questions cost: "12 questions: 3 calls, 9
// from the cache, 1200 tokens", with the requests the provider did not
// answer after the calls (Refusals), and how many input tokens the provider
// read from its prompt cache when it read any.
func (c Calls) Summary() string {
	s := fmt.Sprintf("%s: %s%s, %d from the cache, %s", Plural(c.Questions, "question"), Plural(c.Model, "call"), c.Refusals(), c.CacheHits, Plural(c.Tokens, "token"))
	if c.CachedInputTokens != nil && *c.CachedInputTokens > 0 {
		s += fmt.Sprintf(" (%d of %d input tokens from the provider's prompt cache)", *c.CachedInputTokens, c.InputTokens)
	}
	if c.Cost != nil {
		s += fmt.Sprintf(", %s at the prices of %s", USD(c.Cost.USD), c.Cost.Prices)
	}
	return s
}

// Refusals says, after a count of calls, which requests the provider did
// not answer and so are no call: ", 3 refused for now by the provider (a
// rate limit or a server error) and asked again, 21 never answered (the
// batch ended first or the provider failed them)"; "" when there were
// none.
func (c Calls) Refusals() string {
	s := ""
	if c.RateLimited > 0 {
		s += fmt.Sprintf(", %d refused for now by the provider (a rate limit or a server error) and asked again", c.RateLimited)
	}
	if c.Unanswered > 0 {
		s += fmt.Sprintf(", %d never answered (the batch ended first or the provider failed %s)", c.Unanswered, words.Pick(c.Unanswered, "it", "them"))
	}
	return s
}
