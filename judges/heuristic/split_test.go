package heuristic_test

import (
	"crypto/sha256"
	"testing"
)

// The files added to the development set for 1.5 (calibration/dev/README.md),
// split by server before any heuristic answer for them was looked at
// (TestSplitRule).
const (
	tuningFile15 = "glama_tdqs_tuning_1_5.json"
	freshFile15  = "glama_tdqs_fresh_1_5.json"
)

// TestSplitRule checks the rule that put each record of the 1.3.0 and
// the 1.5 files in the tuning or the held-out part
// (calibration/dev/README.md), fixed before any record was transcribed:
// a server already in an earlier file stays in that file's part; any
// other goes by the parity of the first byte of the SHA-256 of its key,
// even to tuning, odd to held out. The fresh held-out file of 1.5 is
// stricter: it holds only servers in no earlier file, so that no tool of
// it has a sibling anyone has looked at. A record in the wrong file, or
// a server in both parts, fails.
func TestSplitRule(t *testing.T) {
	servers := func(file string) map[string]bool {
		var obs observedFile
		readJSON(t, file, &obs)
		out := map[string]bool{}
		for _, r := range obs.Tools {
			out[sourceKey(r.URL)] = true
		}
		return out
	}
	union := func(files ...string) map[string]bool {
		out := map[string]bool{}
		for _, f := range files {
			for k := range servers(f) {
				out[k] = true
			}
		}
		return out
	}
	heldByHash := func(k string) bool { return sha256.Sum256([]byte(k))[0]%2 == 1 }

	// The 1.3.0 files, against the files before them.
	earlierTuning := union("glama_tdqs_observed.json", "glama_tdqs_heldout.json")
	earlierHeld := union("glama_tdqs_extra.json")
	for _, c := range []struct {
		file string
		held bool
	}{{"glama_tdqs_tuning_1_3.json", false}, {"glama_tdqs_heldout_1_3.json", true}} {
		for k := range servers(c.file) {
			var held bool
			switch {
			case earlierTuning[k] && earlierHeld[k]:
				// A server the earlier files already split (drhalto/agentmako):
				// no new record of it may be added.
				t.Errorf("%s: %s is in both earlier parts; add none of its tools", c.file, k)
				continue
			case earlierTuning[k]:
				held = false
			case earlierHeld[k]:
				held = true
			default:
				held = heldByHash(k)
			}
			if held != c.held {
				t.Errorf("%s: server %s belongs in the other part by the split rule", c.file, k)
			}
		}
	}

	// The 1.5 files, against every file before them.
	tuningBefore := union("glama_tdqs_observed.json", "glama_tdqs_heldout.json", "glama_tdqs_tuning_1_3.json")
	heldBefore := union("glama_tdqs_extra.json", "glama_tdqs_heldout_1_3.json")
	for k := range servers(tuningFile15) {
		switch {
		case heldBefore[k]:
			t.Errorf("%s: %s is in an earlier held-out file; its tools go in no 1.5 file", tuningFile15, k)
		case tuningBefore[k]:
		case heldByHash(k):
			t.Errorf("%s: server %s belongs in %s by the split rule", tuningFile15, k, freshFile15)
		}
	}
	for k := range servers(freshFile15) {
		switch {
		case tuningBefore[k] || heldBefore[k]:
			t.Errorf("%s: %s is in an earlier file; the fresh part holds only servers never seen", freshFile15, k)
		case !heldByHash(k):
			t.Errorf("%s: server %s belongs in %s by the split rule", freshFile15, k, tuningFile15)
		}
	}
}
