package explain

import (
	"fmt"
	"strconv"
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
	var numStrings []string
	for i := range 30 {
		nums = append(nums, int64(1000000+i))
		numStrings = append(numStrings, strconv.Itoa(1000000+i))
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
		{"a result, whole", nums, long, "[" + strings.Join(numStrings, ", ") + "]"},
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

// TestLongWhole: a result or a read is written whole, every item and
// every string, where an operand is cut short; past maxValue characters
// it is cut, saying how many characters were left out.
func TestLongWhole(t *testing.T) {
	desc := strings.Repeat("Reads one note by its id. ", 12) // 312 characters
	var names []any
	var named []string
	for i := range 20 {
		n := fmt.Sprintf("tool_with_a_rather_long_name_%02d", i)
		names = append(names, map[string]any{"name": n, "score": int64(i)})
		named = append(named, "{name: '"+n+"', …}")
	}
	entries := map[string]any{}
	var written []string
	for i := range 15 {
		k := fmt.Sprintf("metric%02d", i)
		entries[k] = int64(i)
		written = append(written, fmt.Sprintf("%s: %d", k, i))
	}
	big := strings.Repeat("x", maxValue+123)
	for _, tc := range []struct {
		name  string
		value any
		want  string
	}{
		{"a long string", desc, "'" + strings.TrimSpace(desc) + "'"},
		{"a string with a quote", "it's", `'it\'s'`},
		{"every record by its name", names, "[" + strings.Join(named, ", ") + "]"},
		{"every entry of a map", entries, "{" + strings.Join(written, ", ") + "}"},
		{"a number", int64(7), "7"},
		{"over the bound", big, "'" + strings.Repeat("x", maxValue-1) + "… (125 more characters left out)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := long(tc.value); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}
