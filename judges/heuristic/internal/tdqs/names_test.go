package tdqs

import (
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/judges/heuristic/internal/lex"
)

// TestNamesFindWhatALookupFinds: the names index finds, in any
// description, the siblings that looking each one up finds (the answer
// tdqs.tool gave when every question carried its siblings), including
// names with hyphens, dots, spaces, capitals, repeats, non-ASCII letters,
// and names that begin or end with a mark.
func TestNamesFindWhatALookupFinds(t *testing.T) {
	names := []string{
		"get_user", "get_user_v2", "API-post-search", "API-post-page", "api-post", "search", "Search",
		"notion.fetch", "-dash", "trail-", "two words", "café_list", "x", "get_user", "DELETE_USER", "",
		"a-b-c-d-e", "list", "list_items",
	}
	descs := []string{
		"",
		"Use get_user instead.",
		"Use get_user_v2, not get_user.",
		"Call api-post-search or API-POST-PAGE first; see api-post.",
		"Like `search` but SEARCH the web (notion.fetch.x is not a tool).",
		"prefix-get_user is one identifier; get_users is another; xget_user neither.",
		"a -dash here, trail- there, two words too, and café_list.",
		"x marks; a-b-c-d-e; a-b-c-d; list_items and list.",
		"delete_user! 123get_user get_user123 get_user",
		"notion.fetch",
	}
	for _, own := range append(slices.Clone(names), "absent") {
		for _, d := range descs {
			var want []string
			var sib []string
			for _, s := range names {
				if s != "" && s != own {
					sib = append(sib, s)
				}
			}
			sort.Strings(sib)
			ls := strings.ToLower(d)
			for _, s := range sib {
				if lex.ToolNameIn(ls, s) {
					want = append(want, s)
				}
			}
			got := NewNames(names).mentioned(ls, own)
			if !slices.Equal(got, want) {
				t.Errorf("own %q, description %q: got %q, want %q", own, d, got, want)
			}
		}
	}
}

// TestNamesHaveOthers: a tool has siblings when some name other than its
// own is listed.
func TestNamesHaveOthers(t *testing.T) {
	for _, tt := range []struct {
		names []string
		own   string
		want  bool
	}{
		{[]string{"a"}, "a", false},
		{[]string{"a", "a"}, "a", false},
		{[]string{"a", ""}, "a", false},
		{[]string{"a", "A"}, "a", true},
		{[]string{"a", "b"}, "a", true},
		{nil, "a", false},
	} {
		if got := NewNames(tt.names).others(tt.own); got != tt.want {
			t.Errorf("%q, own %q: %v, want %v", tt.names, tt.own, got, tt.want)
		}
	}
}

// TestNamesFindWhatALookupFindsInTheCorpus: over every corpus tool's
// description, with every corpus name as a sibling, the index finds what
// looking each name up finds.
func TestNamesFindWhatALookupFindsInTheCorpus(t *testing.T) {
	tools := corpusTools(t)
	var names []string
	for _, ct := range tools {
		names = append(names, ct.Name)
	}
	idx := NewNames(names)
	found := 0
	for _, ct := range tools {
		if ct.Description == nil {
			continue
		}
		ls := strings.ToLower(*ct.Description)
		var want []string
		for _, s := range names {
			if s != ct.Name && lex.ToolNameIn(ls, s) {
				want = append(want, s)
			}
		}
		sort.Strings(want)
		got := idx.mentioned(ls, ct.Name)
		if !slices.Equal(got, want) {
			t.Errorf("%s: got %q, want %q", ct.Name, got, want)
		}
		found += len(got)
	}
	if found == 0 {
		t.Error("no corpus description names another corpus tool")
	}
}
