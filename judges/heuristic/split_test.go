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

// The files added for 1.6, because glama_tdqs_fresh_1_5.json had been
// read by two rules and was no longer held out; split the same way
// before any record of them was transcribed (TestSplitRule).
const (
	tuningFile16 = "glama_tdqs_tuning_1_6.json"
	freshFile16  = "glama_tdqs_fresh_1_6.json"
)

// The files added for 1.7, because glama_tdqs_fresh_1_6.json had been
// read by two rules and was no longer held out; split the same way, with
// the 1.6 files counted as earlier files, before any record of them was
// transcribed (TestSplitRule).
const (
	tuningFile17 = "glama_tdqs_tuning_1_7.json"
	freshFile17  = "glama_tdqs_fresh_1_7.json"
)

// The files added for 1.8, because glama_tdqs_fresh_1_7.json had been
// read by two rules and was no longer held out; split the same way, with
// the 1.7 files counted as earlier files, before any record of them was
// transcribed (TestSplitRule).
const (
	tuningFile18 = "glama_tdqs_tuning_1_8.json"
	freshFile18  = "glama_tdqs_fresh_1_8.json"
)

// TestSplitRule checks the rule that put each record of the 1.3.0, the
// 1.5, the 1.6, the 1.7 and the 1.8 files in the tuning or the held-out part
// (calibration/dev/README.md), fixed before any record was transcribed:
// a server already in an earlier file stays in that file's part; any
// other goes by the parity of the first byte of the SHA-256 of its key,
// even to tuning, odd to held out. The fresh held-out files of 1.5, 1.6,
// 1.7 and 1.8 are stricter: each holds only servers in no earlier file, so that
// no tool of it has a sibling anyone has looked at. A record in the wrong file, or
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

	// The 1.5, 1.6, 1.7 and 1.8 files, each pair against every file before it.
	// A new tuning file may hold new tools of a server in an earlier
	// tuning file and none of a server in an earlier held-out file; a
	// fresh file holds only servers in no earlier file.
	tuningBefore := union("glama_tdqs_observed.json", "glama_tdqs_heldout.json", "glama_tdqs_tuning_1_3.json")
	heldBefore := union("glama_tdqs_extra.json", "glama_tdqs_heldout_1_3.json")
	for _, pair := range []struct{ tuning, fresh string }{
		{tuningFile15, freshFile15},
		{tuningFile16, freshFile16},
		{tuningFile17, freshFile17},
		{tuningFile18, freshFile18},
	} {
		tuning, fresh := servers(pair.tuning), servers(pair.fresh)
		for k := range tuning {
			switch {
			case heldBefore[k]:
				t.Errorf("%s: %s is in an earlier held-out file; add none of its tools to a later file", pair.tuning, k)
			case tuningBefore[k]:
			case heldByHash(k):
				t.Errorf("%s: server %s belongs in %s by the split rule", pair.tuning, k, pair.fresh)
			}
		}
		for k := range fresh {
			switch {
			case tuningBefore[k] || heldBefore[k]:
				t.Errorf("%s: %s is in an earlier file; the fresh part holds only servers never seen", pair.fresh, k)
			case !heldByHash(k):
				t.Errorf("%s: server %s belongs in %s by the split rule", pair.fresh, k, pair.tuning)
			}
		}
		for k := range tuning {
			tuningBefore[k] = true
		}
		for k := range fresh {
			heldBefore[k] = true
		}
	}
}
