// Package gradable answers the four Gradable v1 question kinds for the
// heuristic judge: Tasks writes requests a user would make of each tool,
// Selection picks the tool BM25 retrieval ranks first for a task and
// fills its arguments, Defects finds a tool's description defects and
// suggests a description, and Confusable finds pairs of tools alike in
// name and description. Every Gradable word list is in cues.go, apart
// from the TDQS lists, so tuning one rubric never moves the other.
package gradable
