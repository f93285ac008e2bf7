package tdqs

import (
	"strings"
	"testing"
)

// TestFifthReadingCoherenceCuesAreTrue (h57rev): lifecycleResources
// (coherence.go) now knows the namespace as a resource, keyed to jira's
// texts. It takes the namespace where it only modifies the noun a
// verb-only name acts on ("Close the browser page": a page is closed,
// and a gap is invented for "browser"), and misses a namespace written
// in the plural ("notes_delete", "Delete notes resources."), whose
// stem the raw namespace never equals.
func TestFifthReadingCoherenceCuesAreTrue(t *testing.T) {
	desc := func(s string) *string { return &s }
	namespaced := func(ns string) []CoherenceTool {
		return []CoherenceTool{
			{ns + "_get", desc("Read any " + ns + " data.")}, {ns + "_post", desc("Create " + ns + " resources.")},
			{ns + "_put", desc("Replace " + ns + " resources.")}, {ns + "_patch", desc("Partially update " + ns + " resources.")},
			{ns + "_delete", desc("Delete " + ns + " resources.")},
		}
	}
	cases := []struct {
		finding string
		name    string
		tools   []CoherenceTool
		score   int
		has     string
		hasNot  string
	}{
		{"lifecycleResources takes a namespace that modifies the noun for the resource",
			"a namespace before the noun a verb acts on is no resource", []CoherenceTool{
				{"browser_close", desc("Close the browser page.")},
				{"browser_navigate", desc("Navigate to a URL.")},
				{"browser_click", desc("Perform click on a web page.")},
				{"browser_snapshot", desc("Capture accessibility snapshot of the current page.")},
				{"browser_tab_new", desc("Open a new tab.")},
				{"browser_tab_close", desc("Close a tab.")},
				{"browser_tab_list", desc("List browser tabs.")},
			}, 4, "", "no tool named for browser"},
		{"lifecycleResources compares the raw namespace with stems: a plural namespace is never found",
			"a plural namespace and a verb act on the namespace's resources", namespaced("notes"),
			5, "has create, read, update and delete", "no tool name creates, updates or deletes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Skip("h57rev: " + c.finding)
			d := scoreCoherence(&CoherenceInput{Tools: c.tools}).Scores.Completeness
			if d.Score != c.score {
				t.Errorf("completeness = %d, want %d (%s)", d.Score, c.score, d.Justification)
			}
			if c.has != "" && !strings.Contains(d.Justification, c.has) {
				t.Errorf("completeness justification %q does not say %q", d.Justification, c.has)
			}
			if c.hasNot != "" && strings.Contains(d.Justification, c.hasNot) {
				t.Errorf("completeness justification %q says %q, which is false of the names", d.Justification, c.hasNot)
			}
		})
	}
}
