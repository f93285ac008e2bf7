package tdqs

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestFifthReadingCuesAreTrue (h57rev): rows in the manner of
// TestToolCuesAreTrue, each a short definition on which a rule of
// 1.5.3 gives a cue that is false of it. Each row is skipped with the
// finding it shows; a fix unskips it.
func TestFifthReadingCuesAreTrue(t *testing.T) {
	cases := []struct {
		finding string // why the row fails today
		name    string
		tool    string
		dim     string
		has     string // a phrase the justification must hold, or ""
		hasNot  string // a phrase it must not hold, or ""
	}{
		// credentialToken (facts.go) gives a text one sense of "token":
		// a tool that wraps a model needs a provider's token and counts
		// the model's tokens, and the count takes the credential away
		// unless a word of tokenCredentialBefore stands beside it
		// ("GitHub token" and a bare "a token" are credentials too).
		{"credentialToken: a token count elsewhere in the text hides a credential",
			"a GitHub token beside a token count is still auth", `{"name": "summarize", "description": "Summarize a page with the model. Requires a GitHub token. Returns the summary and its token count.", "annotations": {"readOnlyHint": true}}`,
			"behavioral_transparency", `authentication ("token")`, ""},
		{"credentialToken: tokens as a length elsewhere in the text hide a credential",
			"a token to be set beside 4k tokens is still auth", `{"name": "ask_model", "description": "Ask the hosted model a question. Needs a token to be set. Answers are cut at 4k tokens.", "annotations": {"readOnlyHint": true}}`,
			"behavioral_transparency", `authentication ("token")`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Skip("h57rev: " + c.finding)
			var tool map[string]any
			if err := json.Unmarshal([]byte(c.tool), &tool); err != nil {
				t.Fatalf("the row's tool: %v", err)
			}
			got, err := Tool(&ToolInput{Tool: tool})
			if err != nil {
				t.Fatal(err)
			}
			a := got.(toolAnswer)
			d := map[string]dimension{
				"purpose_clarity": a.Scores.PurposeClarity, "behavioral_transparency": a.Scores.BehavioralTransparency,
				"contextual_completeness": a.Scores.ContextualCompleteness,
			}[c.dim]
			if c.has != "" && !strings.Contains(d.Justification, c.has) {
				t.Errorf("%s justification %q does not say %q", c.dim, d.Justification, c.has)
			}
			if c.hasNot != "" && strings.Contains(d.Justification, c.hasNot) {
				t.Errorf("%s justification %q says %q, which is false of the definition", c.dim, d.Justification, c.hasNot)
			}
		})
	}
}

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
