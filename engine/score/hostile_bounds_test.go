package score

import (
	"context"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
	"github.com/rubricmcp/rubric/internal/heavytest"
)

// hostile is a description to score and a walk of every pair of a list
// of its words that costs past a tool's cost limit, yet runs to its end
// within a second when nothing tracks it.
type hostile struct {
	desc  string
	pairs func(list string) string
}

// longWords is ten words of 1,400 letters each, walked by a search for
// each word in each other one: that costs the product of their lengths,
// about twice the limit in all, in a hundred steps, so the tracked path
// stops it within a few of them.
var longWords = hostile{
	desc: strings.TrimSpace(strings.Repeat(strings.Repeat("a", 1_400)+" ", 10)),
	pairs: func(list string) string {
		return "size(" + list + ".map(x, " + list + ".filter(y, x.contains(y))))"
	},
}

// manyWords is 700 short words, walked pair by pair: a cost that grows
// with the number of words alone, for a list reached through an
// optional, whose strings' lengths the static estimate does not take
// from the data bound (a search in them is never untracked, however
// short the bound). The tracked path takes far longer to reach the
// limit than for longWords.
var manyWords = hostile{
	desc: strings.TrimSpace(strings.Repeat("ab ", 700)),
	pairs: func(list string) string {
		return "size(" + list + ".map(x, " + list + ".map(y, x)))"
	},
}

// HostileWords is manyWords' description and walk when many is set, else
// longWords', for the tests outside the package (hostile_answers_test.go).
func HostileWords(many bool) (desc string, pairs func(list string) string) {
	h := hostileOf(many)
	return h.desc, h.pairs
}

// hostileOf is manyWords when many is set, else longWords.
func hostileOf(many bool) hostile {
	if many {
		return manyWords
	}
	return longWords
}

// pairsOf is longWords' walk of the list list.
func pairsOf(list string) string { return longWords.pairs(list) }

// wantCostLimit runs r on one tool described by h's description and
// fails unless the run stops at a cost limit.
func wantCostLimit(t *testing.T, h hostile, r *rubric.Rubric) {
	t.Helper()
	_, err := Run(context.Background(), r, surfacetest.OneTool(t, "read", h.desc), Options{})
	if err == nil || !strings.Contains(err.Error(), "cost limit") {
		t.Fatalf("error %v, want the cost limit", err)
	}
}

// TestHostileBoundsSurfaceSignals: a surface signal is computed in a
// scope of its own, which holds the surface but no Surface bound (its
// Size bounds the surface there). The signals before it are bounded
// member by member, and the surface's variables were skipped when a
// formula's own bound was worked out, so a formula over the surface read
// as bounded by nothing: a walk of every pair of a long description's
// words ran untracked, far past its cost limit, where it must stop at it.
func TestHostileBoundsSurfaceSignals(t *testing.T) {
	pairs := pairsOf("surface.tools[0].description.split(' ')")
	for _, tt := range []struct {
		name    string
		signals string
	}{
		{"the only signal", `pairs = "` + pairs + `"`},
		{"the surface read after a signal", `first = "1"
      pairs = "` + pairs + `"`},
		{"the surface and a signal before it", `first = "1"
      pairs = "surface_signals.first + ` + pairs + `"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantCostLimit(t, longWords, loadRubric(t, `rubric "hostile" {
  version = "1"
  tool { score = "1" }
  surface {
    signals {
      `+tt.signals+`
    }
    score = "min(tools.map(t, t.score))"
  }
  grades = { A = 0 }
}`))
		})
	}
}

// TestHostileBoundsSignalValues: a signal is bounded on its own by the
// length of its value as kept (eval.ValueSize), and a formula that reads
// only that signal by that length. A value kept in a form ValueSize did
// not look into (what an optional wraps: a list of strings, a list of
// lists, a map the formula built) was sized 0 or by its map's length
// alone, so a walk of every pair of a long description's words, reached
// through such a signal, ran untracked far past its cost limit, where
// it must stop at it.
func TestHostileBoundsSignalValues(t *testing.T) {
	const split = "tool.description.split(' ')"
	for _, tt := range []struct {
		name   string
		signal string // the signal w, computed from the words
		list   string // the words, read from signals.w
	}{
		{"the words", split, "signals.w"},
		{"an optional of the words", "optional.of(" + split + ")", "signals.w"},
		{"an optional of a map of the words", "optional.of({'l': " + split + "})", "signals.w.l"},
		{"an optional of a list of the words", "optional.of([" + split + "])", "signals.w[0]"},
		{"a map of an optional of the words", "{'l': optional.of(" + split + ")}", "signals.w.l"},
		{"a list of an optional of the words", "[optional.of(" + split + ")]", "signals.w[0]"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantCostLimit(t, longWords, toolRubric(t, `    signals {
      w = "`+tt.signal+`"
    }
    metric "walk" { value = "`+pairsOf(tt.list)+`" }
    score = "1"`))
		})
	}
}

// TestHostileBoundsReadForms: every way a formula can reach a long
// signal or metric (the words of a long description) beside a short one
// bounds it by the long one, so that a walk of every pair of the words
// stops at the cost limit. Each form read as reading only the short
// member, or nothing of the group, would put the walk on the untracked
// path, where it runs to its end: an optional selection, an index
// computed, the group read whole (passed to dyn, bound by cel.bind,
// sized, ranged over), a macro's variable named like the group, has()
// and in beside the read, and a metric read through the group of
// metrics.
func TestHostileBoundsReadForms(t *testing.T) {
	heavytest.Later(t)
	for _, tt := range []struct {
		name string
		list string // the words, as the formula reaches them
		many bool   // manyWords, not longWords
	}{
		{"selected", "signals.words", false},
		{"an optional selection", "signals.?words.orValue(signals.names)", true},
		{"an optional index", "signals[?'words'].orValue(signals.names)", true},
		{"an index by a literal", "signals['words']", false},
		{"an index computed", "signals[signals.names[0] == 'a' ? 'words' : 'names']", false},
		{"the group through dyn", "dyn(signals).words", false},
		{"the group bound", "cel.bind(s, signals, s.words)", false},
		{"the group ranged over", "signals.filter(k, k == 'words').map(k, signals[k])[0]", false},
		{"the group sized", "(size(signals) > 0 ? signals.words : signals.names)", false},
		{"tested with has", "(has(signals.words) ? signals.words : signals.names)", false},
		{"tested with in", "('words' in signals ? signals.words : signals.names)", false},
		{"a macro's variable named like the group", "[signals.words].map(signals, signals)[0]", false},
		{"a metric", "metrics.words", false},
		{"a metric, the group ranged over", "metrics.filter(k, k == 'words').map(k, metrics[k])[0]", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := hostileOf(tt.many)
			wantCostLimit(t, h, toolRubric(t, `    signals {
      names = "['a', 'b']"
      words = "tool.description.split(' ')"
    }
    metric "names" { value = "['a', 'b']" }
    metric "words" { value = "signals.words" }
    metric "walk" { value = "`+h.pairs(tt.list)+` + size(signals.names) + size(metrics.names)" }
    score = "1"`))
		})
	}
}

// TestHostileBoundsLets: a let is data for the formula that reads it,
// bounded by its own value's length once computed, whatever the
// formula reads of the scope's variables beside it. A let of the long
// description's words, computed by an earlier signal or metric and read
// by a formula that reads only a short signal beside it, keeps that
// formula's walk of every pair of the words on the tracked path. Each
// row fails when the let's length is left out of the formula's bound.
func TestHostileBoundsLets(t *testing.T) {
	for _, tt := range []struct {
		name, signal, metric string
	}{
		{"computed by a signal", "size(words)", "1"},
		{"computed by a metric", "1", "size(words)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantCostLimit(t, longWords, toolRubric(t, `    let { words = "tool.description.split(' ')" }
    signals {
      names = "['a', 'b']"
      first = "`+tt.signal+`"
    }
    metric "first" { value = "`+tt.metric+`" }
    metric "walk" { value = "`+pairsOf("words")+` + size(signals.names)" }
    score = "1"`))
		})
	}
}
