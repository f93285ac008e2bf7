package host

import "testing"

func TestRowProblem(t *testing.T) {
	for _, tc := range []struct {
		name string
		row  Row
		want string
	}{
		{name: "usable", row: Row{Name: "openai", Pin: "pinned"}, want: ""},
		{name: "a pin mismatch", row: Row{Name: "mine", Pin: "MISMATCH", SHA256: "abc"}, want: "its sha256 abc does not match the pin in plugins.mine.sha256"},
		{name: "a mismatch before its error", row: Row{Name: "mine", Pin: "MISMATCH", SHA256: "abc", Error: "not started"}, want: "its sha256 abc does not match the pin in plugins.mine.sha256"},
		{name: "not described", row: Row{Name: "broken", Pin: "unpinned", Error: "exec format error"}, want: "exec format error"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.row.Problem(); got != tc.want {
				t.Errorf("Problem() = %q, want %q", got, tc.want)
			}
		})
	}
}
