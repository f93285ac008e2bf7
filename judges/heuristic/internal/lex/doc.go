// Package lex holds the text utilities the heuristic judge's TDQS cues
// and Gradable harness share: a description prepared once (words,
// sentences, a normalised form for phrase matching, negation-aware
// phrase lookup), stemming and verb forms, the words of a tool name and
// its namespace, unit TF-IDF vectors and their cosine, and the shared
// word lists (action and vague verbs, stop words, version words,
// negations, lifecycle classes).
//
// Text is matched as lower-case whole words (hyphens and underscores
// split words, apostrophes are dropped); Chinese and Japanese characters
// count one word each.
package lex
