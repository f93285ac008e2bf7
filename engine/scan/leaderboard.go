package scan

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/internal/words"
)

// LeaderboardVersion is the version of leaderboard.json's format.
const LeaderboardVersion = 1

// Leaderboard is OUT/leaderboard.json: every server's scores under each
// rubric, the failures apart with their reasons, the judge
// configurations present and the scan's totals.
type Leaderboard struct {
	Version   int              `json:"leaderboard_version"`
	Generator report.Generator `json:"generator"`
	Rubrics   []report.Rubric  `json:"rubrics"`
	// Servers are ranked by the first rubric's score, best first, then
	// by name; a server with no score under it comes last.
	Servers []Entry  `json:"servers"`
	Failed  []Failen `json:"failed"`
	// Judges are the judge configurations that answered each rubric's
	// questions, with the servers each answered for.
	Judges []JudgeGroup `json:"judges"`
	// Comparable says, by rubric, whether its scores come from one judge
	// configuration (or none): scores from several are not comparable.
	Comparable map[string]bool `json:"comparable"`
	Totals     Totals          `json:"totals"`
	// Partial, when set, says that the leaderboard holds only some
	// shards of its list: a shard's own, or a merge with --partial.
	Partial *Partial `json:"partial,omitempty"`
	// Worker says that the leaderboard is a worker's own (rubric scan
	// worker): the jobs of a queue's scan that the workers writing into
	// its directory did, which may not be the whole scan.
	Worker bool `json:"worker,omitempty"`
}

// WorkerSentence says, in one sentence, what a worker's own leaderboard
// is (workers may share a directory) and how to get the whole scan's.
const WorkerSentence = "Workers' part: this leaderboard holds the servers of a queue's scan that the workers writing into this directory did, which may not be the whole scan; merge every worker's directory (rubric scan merge DIR... --out BOARD) for the scan's leaderboard."

// Partial is what a leaderboard of part of a list lacks.
type Partial struct {
	// Shards is the number of shards the list was split in; Holds those
	// here, Missing the others.
	Shards  int   `json:"shards"`
	Holds   []int `json:"holds"`
	Missing []int `json:"missing"`
	// Listed is how many servers the whole list has.
	Listed int `json:"listed"`
}

// Sentence says what the leaderboard lacks, in one sentence.
func (p *Partial) Sentence() string {
	missing := words.Pick(len(p.Missing), "is missing, and its servers are", "are missing, and their servers are")
	return fmt.Sprintf("Partial: this leaderboard holds %s of the %d shards of its list of %s; %s %s not ranked here.",
		shardWords(p.Holds), p.Shards, report.Plural(p.Listed, "server"), shardWords(p.Missing), missing)
}

// Entry is one server of the leaderboard.
type Entry struct {
	Name   string                `json:"name"`
	Scores map[string]EntryScore `json:"scores"`
}

// EntryScore is a server's score under one rubric.
type EntryScore struct {
	Score  *json.Number `json:"score"`
	Grade  *string      `json:"grade"`
	Report string       `json:"report"`
}

// Failen is a server that could not be scored.
type Failen struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
	// Retry says that it failed on rubric's side (the judge), not the
	// server's, or that its package's registry did not answer: the scan
	// run again tries it again (Failed.Retry).
	Retry bool `json:"retry,omitempty"`
	// Registry says that its package's registry did not answer.
	Registry bool `json:"registry_down,omitempty"`
}

// JudgeGroup is one judge configuration of one rubric.
type JudgeGroup struct {
	Rubric  string        `json:"rubric"`
	Judge   *report.Judge `json:"judge"`
	Servers []string      `json:"servers"`
}

// Totals are the scan's.
type Totals struct {
	Servers int `json:"servers"`
	Scored  int `json:"scored"`
	// NoTools is how many of the servers scored listed no tools: no
	// rubric grades an empty surface, so they have no score.
	NoTools   int     `json:"no_tools,omitempty"`
	Failed    int     `json:"failed"`
	Tools     int     `json:"tools"`
	Calls     int     `json:"calls"`
	CacheHits int     `json:"cache_hits"`
	Tokens    int     `json:"tokens"`
	CostUSD   float64 `json:"cost_usd"`
	// RateLimited and Unanswered are the requests the provider refused
	// for now and the batch items it never answered: no calls.
	RateLimited int `json:"rate_limited,omitempty"`
	Unanswered  int `json:"unanswered,omitempty"`
	// Seconds is the time the scan ran (summed over its runs and
	// shards); ServerSeconds the time its jobs took, summed.
	Seconds       float64 `json:"seconds"`
	ServerSeconds float64 `json:"server_seconds"`
}

// add counts rec's server, tools, calls and time into t (not whether it
// was scored or failed: the callers count that as they need).
func (t *Totals) add(rec *Record) {
	t.Servers++
	t.Tools += rec.Tools
	t.Calls += rec.Calls.Model
	t.RateLimited += rec.Calls.RateLimited
	t.Unanswered += rec.Calls.Unanswered
	t.CacheHits += rec.Calls.CacheHits
	t.Tokens += rec.Calls.Tokens
	t.CostUSD += rec.Calls.CostUSD
	t.ServerSeconds += rec.Seconds
	if rec.Failed == nil && rec.Tools == 0 {
		t.NoTools++
	}
}

// NoToolsWords says, after the count of servers scored, how many of them
// listed no tools and so have no score: "" when none did.
func (t Totals) NoToolsWords() string {
	if t.NoTools == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d with no tools, so no score)", t.NoTools)
}

// TimeFields are the leaderboard's members that depend on the clock,
// which a comparison of two scans of the same servers leaves out.
var TimeFields = []string{"totals.seconds", "totals.server_seconds"}

// scanDir is a scan's directory, read.
type scanDir struct {
	dir     string
	meta    *Meta
	records []*Record
}

func readDir(dir string) (*scanDir, error) {
	m, err := ReadMeta(dir)
	if err != nil {
		return nil, err
	}
	d := &scanDir{dir: dir, meta: m}
	files, err := filepath.Glob(filepath.Join(dir, "jobs", "*.json"))
	if err != nil {
		return nil, err
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var rec Record
		if err := json.Unmarshal(data, &rec); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		d.records = append(d.records, &rec)
	}
	return d, nil
}

// Build reads the scan in dir and writes its leaderboard there, as
// leaderboard.json, leaderboard.md and leaderboard.html. The scan of a
// shard has the leaderboard of its part, which says so.
func Build(dir, version string) (*Leaderboard, error) {
	return Merge([]string{dir}, dir, version, MergeOptions{Partial: true})
}

// MergeOptions say how Merge takes a set of shards.
type MergeOptions struct {
	// Partial merges a set that lacks shards of its list; the
	// leaderboard and scan.json then say which are missing. Without it
	// such a set is refused.
	Partial bool
	// Say, when set, is told what the merge assumes of directories that
	// record no list (workers', or older rubrics'), a line each.
	Say func(string)
}

// Merge combines the scans in dirs (the shards of one scan) into out:
// their records, reports and failure records are copied there, and the
// leaderboard of them all written. The scans must have the same
// rubrics and settings, and those that record their list (see
// ListRecord) the same list and every shard of it, unless o.Partial. A
// job done in two shards is taken once, scored rather than failed.
func Merge(dirs []string, out, version string, o MergeOptions) (*Leaderboard, error) {
	var scans []*scanDir
	for _, d := range dirs {
		s, err := readDir(d)
		if err != nil {
			return nil, err
		}
		if len(scans) > 0 && !sameRubrics(scans[0].meta.Rubrics, s.meta.Rubrics) {
			return nil, fmt.Errorf("%s and %s scanned with other rubrics (%s against %s): merge shards of one scan", scans[0].dir, d, rubricNames(scans[0].meta.Rubrics), rubricNames(s.meta.Rubrics))
		}
		scans = append(scans, s)
	}
	if len(scans) == 0 {
		return nil, fmt.Errorf("no scan to merge: give the directories of the shards")
	}
	meta := Meta{Version: MetaVersion, Rubrics: scans[0].meta.Rubrics}
	settingsFrom := ""
	for _, s := range scans {
		if s.meta.Settings == nil {
			continue
		}
		if meta.Settings == nil {
			meta.Settings, settingsFrom = s.meta.Settings, s.dir
			continue
		}
		if was, is := settingsDiff(meta.Settings, s.meta.Settings); was != "" {
			return nil, fmt.Errorf("%s was run with %s, and %s with %s: their scores would not compare; merge the shards of one scan", settingsFrom, was, s.dir, is)
		}
	}
	list, err := mergeLists(scans, o)
	if err != nil {
		return nil, err
	}
	meta.List = list
	byKey := map[string]*Record{}
	for _, s := range scans {
		meta.Seconds += s.meta.Seconds
		for _, rec := range s.records {
			if old, ok := byKey[rec.Key]; ok && old.Failed == nil {
				continue
			}
			byKey[rec.Key] = rec
			if filepath.Clean(s.dir) != filepath.Clean(out) {
				if err := copyRecord(s.dir, out, rec); err != nil {
					return nil, err
				}
			}
		}
	}
	if err := writeMeta(out, &meta); err != nil {
		return nil, err
	}
	lb := board(meta, slices.Collect(maps.Values(byKey)), version)
	// A worker's directory (no list, its settings recorded) writing its
	// own leaderboard (Build): what it did, not the queue's whole scan.
	lb.Worker = len(scans) == 1 && meta.List == nil && meta.Settings != nil && filepath.Clean(scans[0].dir) == filepath.Clean(out)
	if err := lb.write(out); err != nil {
		return nil, err
	}
	return lb, nil
}

// mergeLists is the list record of the merge of scans: their list, and
// every shard any of them holds. Scans of different lists (or of one
// list in shards of another count) are refused, as is a set that lacks
// a shard unless o.Partial, and a set in which some scans record their
// list and others do not. Scans of which none records its list (workers'
// directories, older rubrics') are merged as they are: nil.
func mergeLists(scans []*scanDir, o MergeOptions) (*ListRecord, error) {
	var with, without, older []string
	var first *scanDir
	holds := map[int]bool{}
	for _, s := range scans {
		l := s.meta.List
		if l == nil {
			without = append(without, s.dir)
			if s.meta.Settings == nil {
				older = append(older, s.dir) // not a worker's, which records its settings
			}
			continue
		}
		with = append(with, s.dir)
		if first == nil {
			first = s
		} else if f := first.meta.List; l.Digest != f.Digest || l.Shards != f.Shards {
			return nil, fmt.Errorf("%s holds %s, and %s %s: these are shards of different scans (another list, or one list read with other settings, or split in another number of shards); merge the shards of one scan", first.dir, f.Describe(), s.dir, l.Describe())
		}
		for _, h := range l.Holds {
			holds[h] = true
		}
	}
	switch {
	case first == nil:
		// Workers' directories hold what a queue handed out: no shards.
		if len(older) > 0 && len(scans) > 1 {
			say(o.Say, fmt.Sprintf("%s: scan.json records no list or shard (an older rubric wrote it): taken as given, without a check that no shard is missing", strings.Join(older, ", ")))
		}
		return nil, nil
	case len(without) > 0:
		return nil, fmt.Errorf("%s record which list and shards they hold, and %s not (a worker's directory, or a scan an older rubric wrote): merge them apart, or run the scan of %s again with its flags (it keeps every job done) so that it records its shard",
			strings.Join(with, ", "), strings.Join(without, ", "), strings.Join(without, ", "))
	}
	l := *first.meta.List
	l.Holds = slices.Sorted(maps.Keys(holds))
	if missing := l.Missing(); len(missing) > 0 && !o.Partial {
		return nil, fmt.Errorf("%s of %d %s missing: pass every shard's folder, or --partial to merge what is there (the leaderboard then says which shards it lacks)", shardWords(missing), l.Shards, words.Pick(len(missing), "is", "are"))
	}
	return &l, nil
}

func say(to func(string), line string) {
	if to != nil {
		to(line)
	}
}

// copyRecord copies a record and the files it names from one scan's
// directory to another's.
func copyRecord(from, to string, rec *Record) error {
	files := []string{filepath.Join("jobs", rec.Key+".json")}
	for _, s := range rec.Scores {
		files = append(files, filepath.FromSlash(s.Report))
	}
	if rec.Failed != nil {
		files = append(files, filepath.FromSlash(rec.Failed.Record))
	}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(from, f))
		if err != nil {
			return err
		}
		if err := atomicWrite(filepath.Join(to, f), func(w io.Writer) error { _, err := w.Write(data); return err }); err != nil {
			return err
		}
	}
	return nil
}

// board builds the leaderboard of the records.
func board(meta Meta, recs []*Record, version string) *Leaderboard {
	lb := &Leaderboard{
		Version: LeaderboardVersion, Generator: report.Generator{Name: "rubric", Version: version},
		Rubrics: meta.Rubrics, Servers: []Entry{}, Failed: []Failen{}, Judges: []JudgeGroup{}, Comparable: map[string]bool{},
	}
	if l := meta.List; l != nil && len(l.Missing()) > 0 {
		lb.Partial = &Partial{Shards: l.Shards, Holds: l.Holds, Missing: l.Missing(), Listed: l.Servers}
	}
	t := &lb.Totals
	t.Seconds = meta.Seconds
	groups := map[string]*JudgeGroup{}
	for _, rec := range recs {
		t.add(rec)
		if rec.Failed != nil {
			t.Failed++
			lb.Failed = append(lb.Failed, Failen{Name: rec.Name, Reason: rec.Failed.Stage + ": " + rec.Failed.Reason, Retry: rec.Failed.Retry(), Registry: rec.Failed.Registry})
			continue
		}
		t.Scored++
		e := Entry{Name: rec.Name, Scores: map[string]EntryScore{}}
		for name, s := range rec.Scores {
			e.Scores[name] = EntryScore{Score: s.Score, Grade: s.Grade, Report: s.Report}
			if s.Judge == nil {
				continue
			}
			id := name + "\x00" + judgeKey(s.Judge)
			g, ok := groups[id]
			if !ok {
				g = &JudgeGroup{Rubric: name, Judge: s.Judge}
				groups[id] = g
			}
			g.Servers = append(g.Servers, rec.Name)
		}
		lb.Servers = append(lb.Servers, e)
	}
	t.CostUSD = float64(int64(t.CostUSD*1e6+0.5)) / 1e6
	first := ""
	if len(meta.Rubrics) > 0 {
		first = meta.Rubrics[0].Name
	}
	slices.SortFunc(lb.Servers, func(a, b Entry) int {
		if c := cmpScore(b.Scores[first].Score, a.Scores[first].Score); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	slices.SortFunc(lb.Failed, func(a, b Failen) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Reason, b.Reason))
	})
	for _, g := range groups {
		slices.Sort(g.Servers)
		lb.Judges = append(lb.Judges, *g)
	}
	slices.SortFunc(lb.Judges, func(a, b JudgeGroup) int {
		return cmp.Or(strings.Compare(a.Rubric, b.Rubric), len(b.Servers)-len(a.Servers), strings.Compare(judgeKey(a.Judge), judgeKey(b.Judge)))
	})
	count := map[string]int{}
	for _, g := range lb.Judges {
		count[g.Rubric]++
	}
	for _, r := range meta.Rubrics {
		lb.Comparable[r.Name] = count[r.Name] <= 1
	}
	return lb
}

// judgeKey is a judge configuration as a string: its block's JSON.
func judgeKey(j *report.Judge) string {
	b, _ := json.Marshal(j)
	return string(b)
}

// cmpScore orders scores, a missing one below any.
func cmpScore(a, b *json.Number) int {
	switch {
	case a == nil && b == nil:
		return 0
	case a == nil:
		return -1
	case b == nil:
		return 1
	}
	x, okx := new(big.Rat).SetString(a.String())
	y, oky := new(big.Rat).SetString(b.String())
	if !okx || !oky {
		return strings.Compare(a.String(), b.String())
	}
	return x.Cmp(y)
}

// write writes leaderboard.json, leaderboard.md and leaderboard.html
// into dir.
func (lb *Leaderboard) write(dir string) error {
	err := atomicWrite(filepath.Join(dir, "leaderboard.json"), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		return enc.Encode(lb)
	})
	if err != nil {
		return err
	}
	if err := atomicWrite(filepath.Join(dir, "leaderboard.md"), lb.WriteMarkdown); err != nil {
		return err
	}
	return atomicWrite(filepath.Join(dir, "leaderboard.html"), func(w io.Writer) error { return lb.WriteHTML(w, dir) })
}

// refused words the requests the provider refused or never answered (no
// calls: it answered none of them), each part after " · " as the
// leaderboards' totals line sets them apart; "" when there are none.
func (t Totals) refused() string {
	r := (report.Calls{RateLimited: t.RateLimited, Unanswered: t.Unanswered}).Refusals()
	return strings.ReplaceAll(strings.TrimPrefix(r, ", "), ", ", " · ")
}
