package rubrics

import (
	"testing"
)

// TestSummaries: the summaries read from the index are those of the
// compiled rubrics; an index entry of another text, or no index, gives
// the compiled rubric's summary all the same.
func TestSummaries(t *testing.T) {
	all, err := All()
	if err != nil {
		t.Fatal(err)
	}
	want := make([]Summary, len(all))
	for i, r := range all {
		src, err := Source(r.Name)
		if err != nil {
			t.Fatal(err)
		}
		bs, _ := List()
		want[i] = summaryOf(bs[i], src, r)
	}
	stale := map[string]Summary{}
	for file, s := range generated() {
		s.Digest, s.SHA256 = "sha256:stale", "another text"
		stale[file] = s
	}
	if len(generated()) != len(all) {
		t.Errorf("the index has %d rubrics, want %d: run go generate ./rubrics", len(generated()), len(all))
	}
	for name, index := range map[string]map[string]Summary{"index": generated(), "stale index": stale, "no index": nil} {
		got, err := summariesFrom(index)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d summaries, want %d", name, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: %+v, want %+v", name, got[i], want[i])
			}
		}
	}
}
