package buildinfo

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"
)

// Info is what rubric version prints: enough to say which binary
// produced a report and which built-in rubrics it carries, so that a
// score is compared only with scores of the same rubric digest.
type Info struct {
	Version string   `json:"version"`
	Commit  string   `json:"commit"`
	Go      string   `json:"go"`
	Rubrics []Rubric `json:"rubrics"`
}

// Rubric is one built-in rubric as Info lists it.
type Rubric struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Digest  string `json:"digest"`
}

// Current is this binary's Info, with the built-in rubrics given.
func Current(rubrics []Rubric) Info {
	return Info{Version: Version(), Commit: Commit(), Go: GoVersion(), Rubrics: rubrics}
}

// Write writes i as indented JSON, or as lines of text with the rubrics
// in columns.
func (i Info) Write(w io.Writer, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(i)
	}
	fmt.Fprintf(w, "rubric %s\ncommit:  %s\ngo:      %s\nrubrics:\n", i.Version, i.Commit, i.Go)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, r := range i.Rubrics {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", r.Name, r.Version, r.Digest)
	}
	return tw.Flush()
}
