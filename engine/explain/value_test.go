package explain

import (
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
)

// TestShortKeepsTheBracket: an operand that is a long list is written
// with fewer items, ending in "… N items in all]", not clipped inside an
// item with its closing bracket lost, as size([{name: 'a', …}, …) read.
func TestShortKeepsTheBracket(t *testing.T) {
	names := []string{"create_or_update_file", "search_repositories", "create_repository", "get_file_contents", "push_files", "create_issue"}
	var tools []any
	for _, n := range names {
		tools = append(tools, map[string]any{"name": n, "score": int64(100)})
	}
	var nums []any
	for i := range 30 {
		nums = append(nums, int64(1000000+i))
	}
	for _, tc := range []struct {
		name  string
		value any
		write func(any) string
		want  string
	}{
		{"records", tools, func(v any) string { return short(lang.Adapter.NativeToValue(v)) },
			"[{name: 'create_or_update_file', …}, {name: 'search_repositories', …}, … 6 items in all]"},
		{"numbers", nums, func(v any) string { return short(lang.Adapter.NativeToValue(v)) },
			"[1000000, 1000001, 1000002, 1000003, 1000004, 1000005, 1000006, 1000007, 1000008, … 30 items in all]"},
		{"a short list", []any{int64(1), int64(2)}, func(v any) string { return short(lang.Adapter.NativeToValue(v)) }, "[1, 2]"},
		{"a result", nums, long,
			"[1000000, 1000001, 1000002, 1000003, 1000004, 1000005, 1000006, 1000007, 1000008, 1000009, 1000010, 1000011, … 30 items in all]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.write(tc.value)
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if !strings.HasSuffix(got, "]") {
				t.Errorf("%s: the list's bracket is lost", got)
			}
		})
	}
}
