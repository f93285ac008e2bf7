// Package tdqs answers the TDQS v1.3 rubric's two question kinds for the
// heuristic judge by word and pattern cues: Tool scores the six
// dimensions of one tool (with the annotation-contradiction flag) and
// Coherence the four coherence dimensions of a server. The cues and
// score rules are tabulated in the heuristic package's documentation;
// every TDQS word list is in cues.go.
package tdqs
