package tdqs

// Tool answers a tdqs.tool question: the six TDQS dimensions of one
// tool, each with a justification that cites the cue that fired, and
// whether its description contradicts its annotations.
func Tool(in *ToolInput) (any, error) {
	f, err := readFacts(in)
	if err != nil {
		return nil, err
	}
	return scoreTool(f), nil
}

// Coherence answers a tdqs.coherence question: the four coherence
// dimensions of a server's tools.
func Coherence(in *CoherenceInput) any { return scoreCoherence(in) }
