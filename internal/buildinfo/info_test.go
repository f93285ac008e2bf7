package buildinfo

import (
	"strings"
	"testing"
)

// TestInfoWrite: rubric version's text puts the rubrics in aligned
// columns; its JSON has the same fields under lower-case names.
func TestInfoWrite(t *testing.T) {
	info := Info{Version: "1.2.0", Commit: "0123abc", Go: "go1.26.0 linux/amd64", Rubrics: []Rubric{
		{Name: "schema-quality", Version: "1.0.0", Digest: "sha256:aa"},
		{Name: "tdqs", Version: "1.3.0", Digest: "sha256:bb"},
	}}
	for _, tc := range []struct {
		asJSON bool
		want   string
	}{
		{false, "rubric 1.2.0\ncommit:  0123abc\ngo:      go1.26.0 linux/amd64\nrubrics:\n  schema-quality  1.0.0  sha256:aa\n  tdqs            1.3.0  sha256:bb\n"},
		{true, `{
  "version": "1.2.0",
  "commit": "0123abc",
  "go": "go1.26.0 linux/amd64",
  "rubrics": [
    {
      "name": "schema-quality",
      "version": "1.0.0",
      "digest": "sha256:aa"
    },
    {
      "name": "tdqs",
      "version": "1.3.0",
      "digest": "sha256:bb"
    }
  ]
}
`},
	} {
		var b strings.Builder
		if err := info.Write(&b, tc.asJSON); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("json=%v:\n%s\nwant\n%s", tc.asJSON, b.String(), tc.want)
		}
	}
}
