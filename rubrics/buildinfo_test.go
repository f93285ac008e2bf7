package rubrics

import (
	"testing"

	"github.com/rubricmcp/rubric/internal/heavytest"
)

// TestBuildInfo: rubric version lists every built-in rubric with the
// digest it is found with.
func TestBuildInfo(t *testing.T) {
	heavytest.Later(t)
	info, err := BuildInfo()
	if err != nil {
		t.Fatal(err)
	}
	names := Names()
	if len(info.Rubrics) != len(names) {
		t.Fatalf("%d rubrics, want %d (%v)", len(info.Rubrics), len(names), names)
	}
	for _, got := range info.Rubrics {
		r, err := Find(got.Name)
		if err != nil {
			t.Fatal(err)
		}
		if got.Version != r.Version || got.Digest != r.Digest {
			t.Errorf("%s: %s %s, want %s %s", got.Name, got.Version, got.Digest, r.Version, r.Digest)
		}
	}
	if info.Version == "" || info.Commit == "" || info.Go == "" {
		t.Errorf("missing build fields: %+v", info)
	}
}
