package gradable

import (
	"fmt"
	"math"
	"strings"

	"github.com/rubricmcp/rubric/judges/heuristic/internal/lex"
)

// ConfusableInput is the structured input of a gradable.confusable
// question. Its tools are read as the other questions read theirs: a
// member of the wrong type (a description that is a number) reads as
// absent.
type ConfusableInput struct {
	Tools []gTool `json:"tools"`
}

// confusablePair is one pair of tools a model could mistake for each
// other.
type confusablePair struct {
	A        string `json:"a"`
	B        string `json:"b"`
	Severity string `json:"severity"`
	Reason   string `json:"reason"`
}

// confusableAnswer is the answer to a gradable.confusable question.
type confusableAnswer struct {
	Pairs []confusablePair `json:"pairs"`
}

// Weights and thresholds of the confusable-pair cue. Similarity is the
// TF-IDF cosine of the two tools' name and description words (name words
// count twice; related words such as get and fetch count as one; the
// server's boilerplate sentences are left out), plus sameVerbBonus when
// the names' verbs mean the same and sameResourceBonus when their
// resources are the same; minus apartPenalty when the verbs differ (and
// otherClassPenalty more when they are different lifecycle operations,
// read and delete), half of it when the resources share only some words,
// twice it when they share none.
const (
	confusableNameWeight = 2
	sameVerbBonus        = 0.10
	sameResourceBonus    = 0.10
	apartPenalty         = 0.15
	otherClassPenalty    = 0.05
	lowSimilarity        = 0.50
	mediumSimilarity     = 0.65
	highSimilarity       = 0.80
)

// cTool is one tool prepared for the pairwise comparison.
type cTool struct {
	name     string
	verb     string // canonical verb of the name, or ""
	baseVerb string // the verb as its base form ("delete"), for its lifecycle class
	resource string // canonical resource words of the name, or ""
	key      string // verb and resource, without version words
	desc     string // description words, normalised, for an exact-copy check
	terms    map[string]int
}

// findConfusable answers a gradable.confusable question.
func findConfusable(in *ConfusableInput) confusableAnswer {
	names := make([]string, len(in.Tools))
	descs := make([]string, len(in.Tools))
	for i, t := range in.Tools {
		names[i] = t.Name
		if t.Description != nil {
			descs[i] = *t.Description
		}
	}
	ns := surfaceNamespace(names)
	shared := boilerplate(descs)
	tools := make([]cTool, 0, len(in.Tools))
	for i, t := range in.Tools {
		c := cTool{name: t.Name, terms: map[string]int{}}
		if v := firstNameVerb(t.Name); v != "" {
			c.verb, c.baseVerb = canon(gstem(v)), v
		}
		var res []string
		for _, w := range resourceWords(t.Name, ns) {
			if lex.VersionWordSet[w] {
				continue
			}
			res = append(res, canon(gstem(w)))
		}
		c.resource = strings.Join(res, " ")
		c.key = strings.TrimSpace(c.verb + " " + c.resource)
		for _, w := range terms(lex.WithoutNamespace(lex.NameWords(t.Name), ns)) {
			c.terms[canon(w)] += confusableNameWeight
		}
		c.desc = strings.Join(lex.Words(descs[i]), " ")
		for _, w := range terms(lex.Words(withoutBoilerplate(descs[i], shared))) {
			c.terms[canon(w)]++
		}
		tools = append(tools, c)
	}
	vectors := idfVectors(tools)
	a := confusableAnswer{Pairs: []confusablePair{}}
	for i := range tools {
		for j := i + 1; j < len(tools); j++ {
			x, y := tools[i], tools[j]
			if x.name == y.name {
				continue
			}
			sim := lex.Cosine(vectors[i], vectors[j])
			severity, reason := pairSeverity(x, y, sim)
			if severity != "" {
				a.Pairs = append(a.Pairs, confusablePair{A: x.name, B: y.name, Severity: severity, Reason: "Heuristic: " + reason})
			}
		}
	}
	return a
}

// idfVectors weighs each tool's words by ln((n+1)/df), so that a word
// every tool uses weighs almost nothing, as unit vectors.
func idfVectors(tools []cTool) []map[string]float64 {
	terms := make([]map[string]int, len(tools))
	for i, t := range tools {
		terms[i] = t.terms
	}
	return lex.UnitVectors(terms, func(tf, df int, n float64) float64 {
		return float64(tf) * math.Log((n+1)/float64(df))
	})
}

// boilerplateTools is how many tools must share a sentence word for word
// for it to be a server's boilerplate rather than a description.
const boilerplateTools = 3

// boilerplate returns the sentences (as their words) that at least
// boilerplateTools of the descriptions share.
func boilerplate(descs []string) map[string]bool {
	count := map[string]int{}
	for _, d := range descs {
		seen := map[string]bool{}
		for _, s := range lex.Sentences(d) {
			k := strings.Join(lex.Words(s), " ")
			if k != "" && !seen[k] {
				seen[k] = true
				count[k]++
			}
		}
	}
	out := map[string]bool{}
	for k, c := range count {
		if c >= boilerplateTools {
			out[k] = true
		}
	}
	return out
}

// withoutBoilerplate returns a description without its shared sentences.
func withoutBoilerplate(d string, shared map[string]bool) string {
	if len(shared) == 0 {
		return d
	}
	var keep []string
	for _, s := range lex.Sentences(d) {
		if !shared[strings.Join(lex.Words(s), " ")] {
			keep = append(keep, s)
		}
	}
	return strings.Join(keep, " ")
}

// resourceRelation compares two names' resources: "same", "nested" (one
// holds the other's words: "merge request" and "merge request note"),
// "apart" (no word in common) or "overlap".
func resourceRelation(a, b string) string {
	if a == "" || b == "" {
		return ""
	}
	if a == b {
		return "same"
	}
	aw, bw := strings.Fields(a), strings.Fields(b)
	common := 0
	for _, x := range aw {
		for _, y := range bw {
			if x == y {
				common++
				break
			}
		}
	}
	switch {
	case common == 0:
		return "apart"
	case common == min(len(aw), len(bw)):
		return "nested"
	}
	return "overlap"
}

// pairSeverity grades one pair: the same description word for word, or
// names that say the same verb on the same resource ("get_user",
// "fetch_user"), are high whatever else; otherwise the adjusted
// similarity decides.
func pairSeverity(x, y cTool, sim float64) (string, string) {
	switch {
	case x.desc != "" && x.desc == y.desc:
		return "high", "the two descriptions are word for word the same"
	case x.resource != "" && x.key == y.key,
		x.resource == "" && y.resource == "" && x.baseVerb != "" && x.baseVerb == y.baseVerb:
		return "high", "the names differ only in spelling, number, a version word or a synonym of the verb, so nothing in them tells the tools apart"
	}
	score := sim
	var notes []string
	if x.verb != "" && x.verb == y.verb {
		score += sameVerbBonus
		// Two verbs folded into one (create_issue, add_issue_comment)
		// are not the same verb, and a maintainer reading the names
		// would say so.
		if x.baseVerb != y.baseVerb {
			notes = append(notes, fmt.Sprintf("synonymous verbs (%s, %s)", x.baseVerb, y.baseVerb))
		} else {
			notes = append(notes, "same verb")
		}
	}
	switch resourceRelation(x.resource, y.resource) {
	case "same":
		score += sameResourceBonus
		notes = append(notes, "same resource")
	case "overlap":
		score -= apartPenalty / 2
		notes = append(notes, "partly different resources")
	case "apart":
		score -= 2 * apartPenalty
		notes = append(notes, "different resources")
	}
	if x.verb != "" && y.verb != "" && x.verb != y.verb {
		score -= apartPenalty
		notes = append(notes, "different verbs")
		if lex.LifecycleOf[x.baseVerb] == "" || lex.LifecycleOf[x.baseVerb] != lex.LifecycleOf[y.baseVerb] {
			score -= otherClassPenalty
			notes[len(notes)-1] = "different operations"
		}
	}
	var severity string
	switch {
	case score >= highSimilarity:
		severity = "high"
	case score >= mediumSimilarity:
		severity = "medium"
	case score >= lowSimilarity:
		severity = "low"
	default:
		return "", ""
	}
	why := fmt.Sprintf("name and description words overlap (TF-IDF cosine %.2f", sim)
	if len(notes) > 0 {
		why += "; " + strings.Join(notes, ", ")
	}
	return severity, fmt.Sprintf("%s; score %.2f).", why, math.Round(score*100)/100)
}
