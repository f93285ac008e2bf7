package heuristic

import (
	"fmt"
	"math"
	"strings"
)

// confusableInput is the structured input of a gradable.confusable
// question.
type confusableInput struct {
	Tools []struct {
		Name        string  `json:"name"`
		Description *string `json:"description"`
	} `json:"tools"`
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
// count twice; related words such as get and fetch count as one), plus
// sameVerbBonus when the names' verbs mean the same, plus
// sameResourceBonus when the names' resources are the same, minus
// apartPenalty when the names' verbs differ, and otherClassPenalty more
// when they are different lifecycle operations (read and delete).
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
func findConfusable(in *confusableInput) confusableAnswer {
	tools := make([]cTool, 0, len(in.Tools))
	for _, t := range in.Tools {
		c := cTool{name: t.Name, terms: map[string]int{}}
		if v := firstNameVerb(t.Name); v != "" {
			c.verb, c.baseVerb = canon(gstem(v)), v
		}
		var res []string
		for _, w := range resourceWords(t.Name) {
			if versionWordSet[w] {
				continue
			}
			res = append(res, canon(gstem(w)))
		}
		c.resource = strings.Join(res, " ")
		c.key = strings.TrimSpace(c.verb + " " + c.resource)
		for _, w := range terms(nameWords(t.Name)) {
			c.terms[canon(w)] += confusableNameWeight
		}
		if t.Description != nil {
			ws := words(*t.Description)
			c.desc = strings.Join(ws, " ")
			for _, w := range terms(ws) {
				c.terms[canon(w)]++
			}
		}
		tools = append(tools, c)
	}
	vectors := tfidf(asSurfaceTools(tools))
	a := confusableAnswer{Pairs: []confusablePair{}}
	for i := range tools {
		for j := i + 1; j < len(tools); j++ {
			x, y := tools[i], tools[j]
			if x.name == y.name {
				continue
			}
			sim := cosine(vectors[i], vectors[j])
			severity, reason := pairSeverity(x, y, sim)
			if severity != "" {
				a.Pairs = append(a.Pairs, confusablePair{A: x.name, B: y.name, Severity: severity, Reason: "Heuristic: " + reason})
			}
		}
	}
	return a
}

func asSurfaceTools(tools []cTool) []surfaceTool {
	out := make([]surfaceTool, len(tools))
	for i, t := range tools {
		out[i] = surfaceTool{name: t.name, terms: t.terms}
	}
	return out
}

// pairSeverity grades one pair: the same description word for word, or
// names that say the same verb on the same resource ("get_user",
// "fetch_user"), are high whatever else; otherwise the adjusted
// similarity decides.
func pairSeverity(x, y cTool, sim float64) (string, string) {
	switch {
	case x.desc != "" && x.desc == y.desc:
		return "high", "the two descriptions are word for word the same"
	case x.key != "" && x.key == y.key:
		return "high", fmt.Sprintf("the names say the same thing (%q) and nothing in them tells the tools apart", x.key)
	}
	score := sim
	var notes []string
	if x.verb != "" && x.verb == y.verb {
		score += sameVerbBonus
		notes = append(notes, "same verb")
	}
	if x.resource != "" && x.resource == y.resource {
		score += sameResourceBonus
		notes = append(notes, "same resource")
	}
	if x.verb != "" && y.verb != "" && x.verb != y.verb {
		score -= apartPenalty
		notes = append(notes, "different verbs")
		if lifecycleOf[x.baseVerb] == "" || lifecycleOf[x.baseVerb] != lifecycleOf[y.baseVerb] {
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
