package scan

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/internal/words"
)

// RecordVersion is the version of a job record's format.
const RecordVersion = 1

// Record is what a job left: OUT/jobs/KEY.json, written last, so that a
// job with a record is done (scored or failed) and a scan run again
// skips it, unless it failed on rubric's side (Failed.Retry).
type Record struct {
	Version int    `json:"record_version"`
	Key     string `json:"key"`
	Name    string `json:"name"`
	// Target is where the server was read, redacted.
	Target string `json:"target"`
	Tools  int    `json:"tools"`
	// Scores are by rubric name; nil when the job failed.
	Scores map[string]Score `json:"scores,omitempty"`
	// Failed says why the job failed; the failure record is at its
	// Record path. A failed job has no scores at all.
	Failed *Failed `json:"failed,omitempty"`
	Calls  Calls   `json:"calls"`
	// Seconds the job took, by the scan's clock.
	Seconds float64 `json:"seconds"`
}

// Score is a server's result under one rubric.
type Score struct {
	Score *json.Number `json:"score"`
	Grade *string      `json:"grade"`
	// Report is the report's path, relative to the scan's directory.
	Report string `json:"report"`
	// Judge answered the rubric's questions; nil when it asks none.
	Judge *report.Judge `json:"judge,omitempty"`
}

// Failed is why a job failed.
type Failed struct {
	Stage  string `json:"stage"`
	Reason string `json:"reason"`
	// Record is the failure record's path (failed.json's shape),
	// relative to the scan's directory.
	Record string `json:"record"`
	// Registry says that the server's package could not be installed
	// because its registry did not answer (RegistryDown): not the
	// server's doing, so a scan run again tries it again.
	Registry bool `json:"registry_down,omitempty"`
}

// Retry says whether a scan run again tries the job again: it failed
// on rubric's side, not the server's, once the server's tools were
// read: starting the judge or scoring (a judge or its network down, an
// expired key, a rate limit past its retries), which the next run, the
// judge back, may pass; or its package's registry did not answer. The
// answers received before are in the cache.
func (f *Failed) Retry() bool {
	return f != nil && (f.Stage == run.StageJudge || f.Stage == run.StageScore || f.Registry)
}

// done says whether the record stored at path is of a job done: a job
// whose failure is to be tried again (Failed.Retry) is not. A record
// that cannot be read is taken as done, as it was before records were
// read here: the leaderboard names it.
func done(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var rec Record
	if json.Unmarshal(data, &rec) != nil {
		return true
	}
	return !rec.Failed.Retry()
}

// Calls are a job's judge calls, and apart from them the requests the
// provider refused for now or never answered (report.Calls).
type Calls struct {
	Model       int     `json:"model"`
	CacheHits   int     `json:"cache_hits"`
	Tokens      int     `json:"tokens"`
	CostUSD     float64 `json:"cost_usd,omitempty"`
	RateLimited int     `json:"rate_limited,omitempty"`
	Unanswered  int     `json:"unanswered,omitempty"`
}

func (c *Calls) add(r report.Calls) {
	c.Model += r.Model
	c.RateLimited += r.RateLimited
	c.Unanswered += r.Unanswered
	c.CacheHits += r.CacheHits
	c.Tokens += r.Tokens
	if r.Cost != nil {
		c.CostUSD += r.Cost.USD
	}
}

// MetaVersion is the version of scan.json's format.
const MetaVersion = 1

// Meta is OUT/scan.json: the rubrics a scan's directory holds reports
// of, the list and shards it was run from, the settings its scores
// depend on, and the time spent running it (summed over runs resumed).
type Meta struct {
	Version int             `json:"scan_version"`
	Rubrics []report.Rubric `json:"rubrics"`
	// List is the list the scan was run from and which of its shards the
	// directory holds; nil in a worker's directory (a worker knows no
	// list) and in a scan.json written before rubric recorded it.
	List *ListRecord `json:"list,omitempty"`
	// Settings are what the scores depend on beside the rubrics (the
	// judge's settings), as the command line names them; nil in a
	// scan.json written before rubric recorded them.
	Settings []Setting `json:"settings,omitempty"`
	Seconds  float64   `json:"seconds"`
}

// ListRecord identifies the whole list of a scan and says which of its
// shards a directory holds: a shard's directory holds one, a whole scan
// or the merge of every shard all of them.
type ListRecord struct {
	// Digest is "sha256:" and the hash of the keys of every job of the
	// whole list (before --shard picks its part), sorted: the same list
	// read with the same settings and rubrics has the same digest.
	Digest string `json:"digest"`
	// Servers is how many jobs the whole list has.
	Servers int `json:"servers"`
	// Shards is the n of --shard i/n: 1 for a scan not split.
	Shards int `json:"shards"`
	// Holds are the shards (1 to Shards) whose jobs the directory holds.
	Holds []int `json:"holds"`
}

// ListOf is the record of a scan of shard (the zero Shard: the whole
// list) of the jobs of a list, keyed.
func ListOf(jobs []Job, shard Shard) *ListRecord {
	keys := make([]string, len(jobs))
	for i, j := range jobs {
		keys[i] = j.Key
	}
	slices.Sort(keys)
	sum := sha256.Sum256([]byte(strings.Join(keys, "\n")))
	l := &ListRecord{Digest: "sha256:" + hex.EncodeToString(sum[:]), Servers: len(jobs), Shards: max(shard.N, 1), Holds: []int{max(shard.I, 1)}}
	if l.Shards == 1 {
		l.Holds = []int{1}
	}
	return l
}

// Missing are the shards the directory does not hold.
func (l *ListRecord) Missing() []int {
	var out []int
	for i := 1; i <= l.Shards; i++ {
		if !slices.Contains(l.Holds, i) {
			out = append(out, i)
		}
	}
	return out
}

// Describe says which shards of which list l holds, for a message:
// "shard 1 of 2 of list sha256:0123456789ab (16 servers)", or "the whole
// list sha256:... (16 servers)".
func (l *ListRecord) Describe() string {
	list := fmt.Sprintf("list %s (%s)", shortDigest(l.Digest), report.Plural(l.Servers, "server"))
	if l.Shards <= 1 || len(l.Holds) == l.Shards {
		return "the whole " + list
	}
	return fmt.Sprintf("%s of %d of %s", shardWords(l.Holds), l.Shards, list)
}

// shardWords is "shard 2" or "shards 2, 3 and 5".
func shardWords(ns []int) string {
	if len(ns) == 1 {
		return fmt.Sprintf("shard %d", ns[0])
	}
	return "shards " + andList(ns)
}

// andList is "2", "2 and 3" or "2, 3 and 5".
func andList(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

func shortDigest(d string) string { return d[:min(len(d), 19)] }

// Setting is one setting the scores depend on beside the rubrics, as a
// flag and its value (a secret's hash, never the secret).
type Setting struct {
	Flag  string `json:"flag"`
	Value string `json:"value"`
}

func metaPath(dir string) string { return filepath.Join(dir, "scan.json") }

// ReadMeta reads dir's scan.json.
func ReadMeta(dir string) (*Meta, error) {
	data, err := os.ReadFile(metaPath(dir))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%s is not a scan's directory (it has no scan.json): give the --out of a rubric scan", dir)
		}
		return nil, err
	}
	var m Meta
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", metaPath(dir), err)
	}
	return &m, nil
}

// WriteMeta writes scan.json. A directory that holds a scan already is
// resumed only when this one's rubrics, settings and shard are its: its
// records would be taken for this scan's, and scores of another judge
// would not compare with them. An older scan.json that records no
// settings or shard is taken to have this scan's, and says so (Say).
func (s *Scanner) WriteMeta() error {
	m := Meta{Version: MetaVersion, List: s.List, Settings: s.Settings}
	for _, r := range s.Rubrics {
		m.Rubrics = append(m.Rubrics, score.RubricOf(r))
	}
	old, err := ReadMeta(s.Out)
	if err != nil {
		if _, statErr := os.Stat(metaPath(s.Out)); statErr == nil {
			return err
		}
		return writeMeta(s.Out, &m)
	}
	afresh := "to resume it, give the first run's rubrics and settings (as flags, RUBRIC_ variables or rubric.yaml, whichever gave them), or choose another --out to start afresh"
	if !sameRubrics(old.Rubrics, m.Rubrics) {
		return fmt.Errorf("%s holds a scan with other rubrics (%s) than this run's (%s): %s", s.Out, rubricNames(old.Rubrics), rubricNames(m.Rubrics), afresh)
	}
	// The same rubrics in another order: the leaderboard keeps the first
	// run's, which ranks by its first rubric.
	m.Rubrics = old.Rubrics
	if err := otherSettings(s.Out, old.Settings, m.Settings); err != nil {
		return err
	}
	if old.Settings == nil && m.Settings != nil {
		s.say(fmt.Sprintf("%s/scan.json records no judge settings (an older rubric wrote it): the servers it holds are taken to be scored with this run's (%s)", s.Out, settingWords(m.Settings)))
	}
	switch {
	case m.List == nil:
		m.List = old.List // a worker's directory
	case old.List == nil:
		if m.List.Shards > 1 {
			s.say(fmt.Sprintf("%s/scan.json records no shard (an older rubric wrote it): it is taken to hold %s, as this run", s.Out, m.List.Describe()))
		}
	case old.List.Shards != m.List.Shards || !slices.Equal(old.List.Holds, m.List.Holds):
		return fmt.Errorf("%s holds %s, and this run is %s: give each shard its own --out", s.Out, shardOf(old.List), shardOf(m.List))
	}
	if m.Settings == nil {
		m.Settings = old.Settings
	}
	m.Seconds = old.Seconds
	return writeMeta(s.Out, &m)
}

// shardOf is "shard 1 of 2" or "the whole list".
func shardOf(l *ListRecord) string {
	if l.Shards <= 1 {
		return "the whole list"
	}
	return fmt.Sprintf("%s of %d", shardWords(l.Holds), l.Shards)
}

// settingsDiff words the settings of old that new has another value of,
// as each has them: "--judge (none) and --model (none)" and "--judge
// openai and --model gpt-4o"; empty when they agree or old records none.
func settingsDiff(old, new []Setting) (was, is string) {
	if old == nil || new == nil {
		return "", ""
	}
	now := map[string]string{}
	for _, st := range new {
		now[st.Flag] = st.Value
	}
	var w, i []string
	for _, st := range old {
		if v, ok := now[st.Flag]; ok && v != st.Value {
			w = append(w, "--"+st.Flag+" "+st.Value)
			i = append(i, "--"+st.Flag+" "+v)
		}
	}
	return strings.Join(w, " and "), strings.Join(i, " and ")
}

// otherSettings refuses to resume the scan in out, first run with the
// settings old, with new: it names each setting that changed with both
// values, says that a resumed scan keeps the first run's, and how to go
// on (those values again, or a new --out for this run's). A changed
// --base-url was taken for a typo ("is base_url right?"), when the user
// meant to judge elsewhere. Nil when they agree or old records none.
func otherSettings(out string, old, new []Setting) error {
	was, is := settingsDiff(old, new)
	if was == "" {
		return nil
	}
	now := map[string]string{}
	for _, st := range new {
		now[st.Flag] = st.Value
	}
	var give, leave []string
	for _, st := range old {
		if v, ok := now[st.Flag]; !ok || v == st.Value {
			continue
		}
		if st.Value == "(none)" {
			leave = append(leave, "--"+st.Flag)
		} else {
			give = append(give, "--"+st.Flag+" "+st.Value)
		}
	}
	var keep []string
	if len(give) > 0 {
		keep = append(keep, "give "+words.List(give, len(give))+" again")
	}
	if len(leave) > 0 {
		keep = append(keep, "leave "+words.List(leave, len(leave))+" out")
	}
	return fmt.Errorf("%s holds a scan first run with %s, and this run has %s: a scan resumed in the same --out keeps its first run's judge settings, since the servers it holds were judged with them and scores under other settings would not compare with theirs; to resume it, %s (as a flag, a RUBRIC_ variable or rubric.yaml, whichever gave the first run's); to score with this run's settings, start a new scan in another --out (the answer cache spares every question asked before with the same judge)",
		out, was, is, strings.Join(keep, " and "))
}

// settingWords is the settings as flags: "--judge heuristic --model (none)".
func settingWords(ss []Setting) string {
	w := make([]string, len(ss))
	for i, st := range ss {
		w[i] = "--" + st.Flag + " " + st.Value
	}
	return strings.Join(w, " ")
}

func writeMeta(dir string, m *Meta) error {
	return atomicWrite(metaPath(dir), func(w io.Writer) error {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(m)
	})
}

// addTime adds d to the time scan.json says the scan took.
func (s *Scanner) addTime(d interface{ Seconds() float64 }) error {
	m, err := ReadMeta(s.Out)
	if err != nil {
		return err
	}
	m.Seconds += d.Seconds()
	return writeMeta(s.Out, m)
}

// sameRubrics says whether two scans have the same rubrics, by name and
// digest, in any order: the job keys hold the digests sorted, so the
// order decides no score (the leaderboard's, which ranks by the first
// rubric, is the first run's).
func sameRubrics(a, b []report.Rubric) bool {
	if len(a) != len(b) {
		return false
	}
	key := func(r report.Rubric) string { return r.Name + "\x00" + r.Digest }
	as, bs := make([]string, len(a)), make([]string, len(b))
	for i := range a {
		as[i], bs[i] = key(a[i]), key(b[i])
	}
	slices.Sort(as)
	slices.Sort(bs)
	return slices.Equal(as, bs)
}

func rubricNames(rs []report.Rubric) string {
	s := ""
	for i, r := range rs {
		if i > 0 {
			s += ", "
		}
		s += r.Name + " " + shortDigest(r.Digest)
	}
	return s
}

// ReportRef is one server's report in a scan's directory.
type ReportRef struct {
	// Name is the server's name in the scan; Path the report's.
	Name, Path string
}

// Reports are the reports a scan's directory holds of one of its
// rubrics, by server name: the current ones (those of its job records,
// not of records set aside in superseded/), with their paths joined to
// dir. The rubric is the scan's of the name given, else the one whose
// name starts that name (a variant such as schema-quality-contested of
// schema-quality), else the scan's only rubric; a scan of several, none
// of which fits, is an error naming them.
func Reports(dir, rubricName string) ([]ReportRef, error) {
	d, err := readDir(dir)
	if err != nil {
		return nil, err
	}
	pick := ""
	for _, r := range d.meta.Rubrics {
		if r.Name == rubricName || strings.HasPrefix(rubricName, r.Name+"-") && len(r.Name) > len(pick) {
			pick = r.Name
			if r.Name == rubricName {
				break
			}
		}
	}
	if pick == "" && len(d.meta.Rubrics) == 1 {
		pick = d.meta.Rubrics[0].Name
	}
	if pick == "" {
		names := make([]string, len(d.meta.Rubrics))
		for i, r := range d.meta.Rubrics {
			names[i] = r.Name
		}
		return nil, fmt.Errorf("%s is a scan of %s, and none is %s: rescore the reports of one, as %s", dir, strings.Join(names, " and "), rubricName,
			filepath.Join(dir, "reports", "*", names[0]+".json"))
	}
	var out []ReportRef
	for _, rec := range d.records {
		if s, ok := rec.Scores[pick]; ok && s.Report != "" {
			out = append(out, ReportRef{Name: rec.Name, Path: filepath.Join(dir, filepath.FromSlash(s.Report))})
		}
	}
	slices.SortFunc(out, func(a, b ReportRef) int { return strings.Compare(a.Name, b.Name) })
	if len(out) == 0 {
		return nil, fmt.Errorf("%s is a scan with no report of %s (no server was scored)", dir, pick)
	}
	return out, nil
}

// IsScanDir says whether dir is a scan's directory (it holds scan.json).
func IsScanDir(dir string) bool {
	_, err := os.Stat(metaPath(dir))
	return err == nil
}

// Lacks says, a sentence each, what a ranking of a scan's reports
// (Reports) cannot hold: the servers that failed, which have no report,
// and, for part of a list (a shard's own directory, a merge with
// --partial), the shards missing. None when every server of the whole
// list was scored.
func Lacks(dir string) ([]string, error) {
	d, err := readDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	var failed []string
	for _, rec := range d.records {
		if rec.Failed != nil {
			failed = append(failed, rec.Name)
		}
	}
	if len(failed) > 0 {
		slices.Sort(failed)
		shown := failed
		more := ""
		if len(shown) > 5 {
			shown, more = shown[:5], fmt.Sprintf(" and %d more", len(failed)-5)
		}
		have, they := "have no report, so they are", "their reasons are"
		if len(failed) == 1 {
			have, they = "has no report, so it is", "its reason is"
		}
		out = append(out, fmt.Sprintf("%d of the %s in %s failed and %s not ranked here: %s%s (%s in %s)",
			len(failed), report.Plural(len(d.records), "server"), dir, have, strings.Join(shown, ", "), more, they, filepath.Join(dir, "leaderboard.md")))
	}
	if l := d.meta.List; l != nil && len(l.Missing()) > 0 {
		missing := l.Missing()
		verb := "is missing, and its servers are"
		if len(missing) > 1 {
			verb = "are missing, and their servers are"
		}
		out = append(out, fmt.Sprintf("%s holds %s of the %d shards of its list of %s; %s %s not ranked here (merge every shard with rubric scan merge, then rescore the merge)",
			dir, shardWords(l.Holds), l.Shards, report.Plural(l.Servers, "server"), shardWords(missing), verb))
	}
	return out, nil
}
