package heuristic_test

import (
	"crypto/sha256"
	"fmt"
	"strings"
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

// The files added for 1.9, because glama_tdqs_fresh_1_6.json,
// glama_tdqs_fresh_1_7.json and glama_tdqs_fresh_1_8.json had each been
// read by two rules, so no held-out part was left; split the same way,
// with the 1.8 files counted as earlier files, before any record of them
// was transcribed (TestSplitRule).
const (
	tuningFile19 = "glama_tdqs_tuning_1_9.json"
	freshFile19  = "glama_tdqs_fresh_1_9.json"
)

// The files added for 1.10, because glama_tdqs_fresh_1_9.json had been
// read by two rules, like every fresh part before it, so no held-out part
// was left; split the same way, with the 1.9 files counted as earlier
// files, before any record of them was transcribed (TestSplitRule).
const (
	tuningFile110 = "glama_tdqs_tuning_1_10.json"
	freshFile110  = "glama_tdqs_fresh_1_10.json"
)

// The files added for 1.11, so that a held-out part is left once
// glama_tdqs_fresh_1_10.json has been read by two rules, like every fresh
// part before it; split the same way, with the 1.10 files counted as
// earlier files, before any record of them was transcribed
// (TestSplitRule).
const (
	tuningFile111 = "glama_tdqs_tuning_1_11.json"
	freshFile111  = "glama_tdqs_fresh_1_11.json"
)

// The files added for 1.12, so that a held-out part is left once
// glama_tdqs_fresh_1_11.json has been read by two rules, like every fresh
// part before it; split the same way, with the 1.11 files counted as
// earlier files, before any record of them was transcribed
// (TestSplitRule).
const (
	tuningFile112 = "glama_tdqs_tuning_1_12.json"
	freshFile112  = "glama_tdqs_fresh_1_12.json"
)

// TestSplitRule checks the rule that put each record of the 1.3.0 and the
// 1.5 to 1.12 files in the tuning or the held-out part
// (calibration/dev/README.md), fixed before any record was transcribed: a
// server already in an earlier file stays in that file's part; any other
// goes by the parity of the first byte of the SHA-256 of its key, even to
// tuning, odd to held out. The fresh held-out files of 1.5 to 1.12 are
// stricter: each holds only servers in no earlier file, so that no tool
// of it has a sibling anyone has looked at. Glama lists some servers under
// two spellings of one key (with and without a leading "@", or in another
// letter case); those count as one server when deciding whether it is in
// an earlier file (sameServer), while the hash is of the key as the
// address spells it. A record in the wrong file, or a server in both
// parts, fails.
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
	// sameServer is the key two spellings of one server share.
	sameServer := func(k string) string { return strings.ToLower(strings.TrimPrefix(k, "@")) }
	union := func(files ...string) map[string]bool {
		out := map[string]bool{}
		for _, f := range files {
			for k := range servers(f) {
				out[sameServer(k)] = true
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
			id := sameServer(k)
			var held bool
			switch {
			case earlierTuning[id] && earlierHeld[id]:
				// A server the earlier files already split (drhalto/agentmako):
				// no new record of it may be added.
				t.Errorf("%s: %s is in both earlier parts; add none of its tools", c.file, k)
				continue
			case earlierTuning[id]:
				held = false
			case earlierHeld[id]:
				held = true
			default:
				held = heldByHash(k)
			}
			if held != c.held {
				t.Errorf("%s: server %s belongs in the other part by the split rule", c.file, k)
			}
		}
	}

	// The 1.5 to 1.12 files, each pair against every file before it. A
	// new tuning file may hold new tools of a server in an earlier tuning
	// file and none of a server in an earlier held-out file; a fresh file
	// holds only servers in no earlier file.
	tuningBefore := union("glama_tdqs_observed.json", "glama_tdqs_heldout.json", "glama_tdqs_tuning_1_3.json")
	heldBefore := union("glama_tdqs_extra.json", "glama_tdqs_heldout_1_3.json")
	for _, pair := range []struct{ tuning, fresh string }{
		{tuningFile15, freshFile15},
		{tuningFile16, freshFile16},
		{tuningFile17, freshFile17},
		{tuningFile18, freshFile18},
		{tuningFile19, freshFile19},
		{tuningFile110, freshFile110},
		{tuningFile111, freshFile111},
		{tuningFile112, freshFile112},
	} {
		tuning, fresh := servers(pair.tuning), servers(pair.fresh)
		inTuning := map[string]bool{}
		for k := range tuning {
			id := sameServer(k)
			inTuning[id] = true
			switch {
			case heldBefore[id]:
				t.Errorf("%s: %s is in an earlier held-out file; add none of its tools to a later file", pair.tuning, k)
			case tuningBefore[id]:
			case heldByHash(k):
				t.Errorf("%s: server %s belongs in %s by the split rule", pair.tuning, k, pair.fresh)
			}
		}
		for k := range fresh {
			id := sameServer(k)
			switch {
			case tuningBefore[id] || heldBefore[id]:
				t.Errorf("%s: %s is in an earlier file; the fresh part holds only servers never seen", pair.fresh, k)
			case inTuning[id]:
				t.Errorf("%s: %s is also in %s under another spelling; keep it on one side", pair.fresh, k, pair.tuning)
			case !heldByHash(k):
				t.Errorf("%s: server %s belongs in %s by the split rule", pair.fresh, k, pair.tuning)
			}
		}
		for k := range tuning {
			tuningBefore[sameServer(k)] = true
		}
		for k := range fresh {
			heldBefore[sameServer(k)] = true
		}
	}
}

// TestNoCopies checks the 1.11 files, and then the 1.12 files, against
// every file of Glama pages before them (glama_tdqs_rescored.json
// included; the 1.11 files are earlier files for the 1.12 check) and
// against each other: no record may repeat an earlier record's address,
// its server and tool name (with the server's key spelt as sameServer does
// in TestSplitRule), or its Instructions text, whole or in its first 60
// characters, and no server may have more than five tools in one part's
// pair of files. A copy of a page someone has looked at is not held out,
// and a fresh text also in tuning would be read twice.
func TestNoCopies(t *testing.T) {
	earlier := []string{
		"glama_tdqs_observed.json", "glama_tdqs_heldout.json", "glama_tdqs_extra.json",
		"glama_tdqs_tuning_1_3.json", "glama_tdqs_heldout_1_3.json", "glama_tdqs_rescored.json",
		tuningFile15, freshFile15, tuningFile16, freshFile16, tuningFile17, freshFile17,
		tuningFile18, freshFile18, tuningFile19, freshFile19, tuningFile110, freshFile110,
	}
	// The checked parts, in the order they were added: each is checked
	// against every file listed before it, earlier checked parts included.
	parts := []struct{ name, tuning, fresh string }{
		{"1.11", tuningFile111, freshFile111},
		{"1.12", tuningFile112, freshFile112},
	}
	const prefix = 60
	head := func(s string) string {
		if r := []rune(s); len(r) > prefix {
			return string(r[:prefix])
		}
		return s
	}
	sameServer := func(k string) string { return strings.ToLower(strings.TrimPrefix(k, "@")) }
	type seen struct{ url, tool, text, head map[string]string }
	s := seen{map[string]string{}, map[string]string{}, map[string]string{}, map[string]string{}}
	// partOf names the checked part a file belongs to, "" for the earlier files.
	partOf := map[string]string{}
	files := earlier
	for _, p := range parts {
		partOf[p.tuning], partOf[p.fresh] = p.name, p.name
		files = append(files, p.tuning, p.fresh)
	}
	perServer := map[string]map[string]int{}
	for _, file := range files {
		part := partOf[file]
		var obs observedFile
		readJSON(t, file, &obs)
		for i, r := range obs.Tools {
			where := fmt.Sprintf("%s record %d (%s)", file, i+1, r.URL)
			tool := sameServer(sourceKey(r.URL)) + " " + r.Name
			text := strings.TrimSpace(r.Description)
			if strings.HasPrefix(text, "SAME_AS:") {
				text = ""
			}
			if part != "" {
				if prev, ok := s.url[r.URL]; ok {
					t.Errorf("%s: the address is already transcribed in %s; leave the page out", where, prev)
				}
				if prev, ok := s.tool[tool]; ok {
					t.Errorf("%s: tool %s is already in %s; leave it out", where, tool, prev)
				}
				if prev, ok := s.text[text]; ok && text != "" {
					t.Errorf("%s: the Instructions text equals %s's; keep one copy, on the tuning side", where, prev)
				} else if prev, ok := s.head[head(text)]; ok && text != "" {
					t.Errorf("%s: the Instructions text starts as %s's does; keep one copy, on the tuning side", where, prev)
				}
				if perServer[part] == nil {
					perServer[part] = map[string]int{}
				}
				perServer[part][sameServer(sourceKey(r.URL))]++
			}
			// An earlier file may repeat a record on purpose (captures, groups);
			// only the first place a key was seen is kept.
			for m, k := range map[*map[string]string]string{&s.url: r.URL, &s.tool: tool, &s.text: text, &s.head: head(text)} {
				if _, ok := (*m)[k]; !ok && k != "" {
					(*m)[k] = where
				}
			}
		}
	}
	for part, counts := range perServer {
		for k, n := range counts {
			if n > 5 {
				t.Errorf("%s has %d tools in the %s files; keep at most five a server", k, n, part)
			}
		}
	}
}
