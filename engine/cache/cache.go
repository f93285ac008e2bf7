// Package cache keeps judges' answers on disk, addressed by their content:
// the judge's identity, the rubric's digest, the question's digest and the
// hash of the question's input. An answer is written the moment it
// arrives, so a run that is interrupted loses nothing, and the next run
// asks only what is missing.
//
// The cache also keeps prompt templates that rubrics name by URL and
// sha256, fetched once, and the records of batches submitted to a judge's
// batch API and not yet collected (see Batch).
package cache

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/internal/atomicfile"
	"github.com/rubricmcp/rubric/internal/words"
)

// DefaultDir returns the cache directory rubric uses unless told
// otherwise: rubric under the user's cache directory ($XDG_CACHE_HOME or
// ~/.cache on Linux).
func DefaultDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no user cache directory (%v): pass --cache-dir", err)
	}
	return filepath.Join(base, "rubric"), nil
}

// Store is a cache directory, or a map in memory (see Memory). Its
// methods are safe for concurrent use, by goroutines and by processes:
// every file is written whole, then renamed.
type Store struct {
	dir string
	// mem holds the entries and prompts of a cache in memory; nil for a
	// directory.
	mem *memory
	// distrusted holds the answers this Store must not read back (see
	// Distrust); nil when it reads every one.
	distrusted *distrusted
}

// distrusted is what Distrust set aside: paths relative to the cache
// directory, and the keys answered afresh since, which are read again.
type distrusted struct {
	mu    sync.Mutex
	paths map[string]bool
	fresh map[string]bool
}

// memory is what a cache in memory holds.
type memory struct {
	mu      sync.Mutex
	answers map[string]Entry
	prompts map[string][]byte
	batches map[string]Batch
}

// Memory returns a cache that lives in memory for as long as the Store:
// for a run that must not touch the cache on disk (--no-cache) but still
// shares answers between its own questions.
func Memory() *Store {
	return &Store{mem: &memory{answers: map[string]Entry{}, prompts: map[string][]byte{}}}
}

// Open returns the cache at dir, or at DefaultDir when dir is "",
// creating it when missing.
func Open(dir string) (*Store, error) {
	if dir == "" {
		var err error
		if dir, err = DefaultDir(); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	return &Store{dir: dir}, nil
}

// Key addresses an answer: the hex sha256 of the judge's identity, the
// rubric's digest, the question's digest and the input's hash.
func Key(id judge.Identity, rubricDigest, questionDigest, inputHash string) string {
	return SaltedKey(id, rubricDigest, questionDigest, inputHash, "")
}

// SaltedKey is Key with a salt: an empty salt gives Key itself, any other
// salt a key of its own, so that one question can be answered afresh
// beside its cached answer (a gate's confirming pairs do so).
func SaltedKey(id judge.Identity, rubricDigest, questionDigest, inputHash, salt string) string {
	b, err := json.Marshal(struct {
		Judge    judge.Identity `json:"judge"`
		Rubric   string         `json:"rubric"`
		Question string         `json:"question"`
		Input    string         `json:"input"`
		Salt     string         `json:"salt,omitempty"` // absent when empty: Key's bytes are what they always were
	}{id, rubricDigest, questionDigest, inputHash, salt})
	if err != nil {
		panic(err) // an identity's parameters came from JSON: cannot fail
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Entry is one cached answer and where it came from.
type Entry struct {
	Key       string          `json:"key"`
	Judge     judge.Identity  `json:"judge"`
	Rubric    string          `json:"rubric_digest"`
	Question  string          `json:"question_digest"`
	Kind      string          `json:"kind"`
	Subject   string          `json:"subject"`
	InputHash string          `json:"input_hash"`
	Answer    json.RawMessage `json:"answer"`
	Model     string          `json:"model"`
	Tokens    judge.Tokens    `json:"tokens"`
	// PromptBytes is the size of the prompts the answer was given to, so
	// that a cached answer need not be rendered again to know it.
	PromptBytes int `json:"prompt_bytes,omitempty"`
	// Counted is what the prompts and the answer came to in an offline
	// tokenizer when the judge reported no tokens (report.Observation's
	// Counted).
	Counted *judge.CountedTokens `json:"counted_tokens,omitempty"`
	// Salt is the salt of a SaltedKey, empty for Key.
	Salt string `json:"salt,omitempty"`
}

func (s *Store) answerPath(key string) string {
	return filepath.Join(s.dir, filepath.FromSlash(answerRel(key)))
}

// answerRel is where the answer under key lies in a cache directory,
// with slashes: the name Distrust is given.
func answerRel(key string) string {
	return path.Join("answers", key[:2], key+".json")
}

// Dir returns the cache's directory; "" for a cache in memory.
func (s *Store) Dir() string {
	return s.dir
}

// Distrust makes the answers at paths misses for as long as the Store:
// each is asked again, and the answer Put in its place is read from then
// on. A path is relative to the cache directory, with slashes; a folder
// stands for every answer under it, and "." for the whole cache. The
// gate distrusts the answers a pull request adds or edits in a cache
// directory the repository holds: cache keys can be computed by anyone,
// so such a file could hand a worse definition a better answer.
func (s *Store) Distrust(paths []string) {
	if s.mem != nil || len(paths) == 0 {
		return
	}
	if s.distrusted == nil {
		s.distrusted = &distrusted{paths: map[string]bool{}, fresh: map[string]bool{}}
	}
	s.distrusted.mu.Lock()
	defer s.distrusted.mu.Unlock()
	for _, p := range paths {
		s.distrusted.paths[path.Clean(p)] = true
	}
}

// isDistrusted says whether the answer under key lies at a path Distrust
// set aside (or under one) and was not Put since.
func (s *Store) isDistrusted(key string) bool {
	d := s.distrusted
	if d == nil {
		return false
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.fresh[key] {
		return false
	}
	for p := answerRel(key); ; p = path.Dir(p) {
		if d.paths[p] {
			return true
		}
		if p == "." {
			return false
		}
	}
}

// answered notes that key was Put: a distrusted answer is read again once
// answered afresh.
func (s *Store) answered(key string) {
	if d := s.distrusted; d != nil {
		d.mu.Lock()
		d.fresh[key] = true
		d.mu.Unlock()
	}
}

// Get returns the answer cached under key. An entry that cannot be read
// back whole is a miss: it is asked again and overwritten.
func (s *Store) Get(key string) (Entry, bool) {
	if len(key) < 2 {
		return Entry{}, false
	}
	if s.mem != nil {
		s.mem.mu.Lock()
		defer s.mem.mu.Unlock()
		e, ok := s.mem.answers[key]
		return e, ok
	}
	if s.isDistrusted(key) {
		return Entry{}, false
	}
	b, err := os.ReadFile(s.answerPath(key))
	if err != nil {
		return Entry{}, false
	}
	var e Entry
	if json.Unmarshal(b, &e) != nil || e.Key != key || len(e.Answer) == 0 {
		return Entry{}, false
	}
	return e, true
}

// Put writes an entry under its key.
func (s *Store) Put(e Entry) error {
	if len(e.Key) < 2 {
		return fmt.Errorf("cache: entry without a key")
	}
	if s.mem != nil {
		s.mem.mu.Lock()
		s.mem.answers[e.Key] = e
		s.mem.mu.Unlock()
		return nil
	}
	b, err := json.Marshal(e)
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	if err := atomicfile.WriteFile(s.answerPath(e.Key), b); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	s.answered(e.Key)
	return nil
}

func (s *Store) promptPath(sha string) string {
	return filepath.Join(s.dir, "prompts", strings.ToLower(sha)+".txt")
}

// Prompt returns a fetched prompt's text by its sha256, if cached and
// still matching.
func (s *Store) Prompt(sha string) ([]byte, bool) {
	var b []byte
	if s.mem != nil {
		s.mem.mu.Lock()
		b = s.mem.prompts[strings.ToLower(sha)]
		s.mem.mu.Unlock()
	} else {
		var err error
		if b, err = os.ReadFile(s.promptPath(sha)); err != nil {
			return nil, false
		}
	}
	sum := sha256.Sum256(b)
	if hex.EncodeToString(sum[:]) != strings.ToLower(sha) {
		return nil, false
	}
	return b, true
}

// PutPrompt keeps a fetched prompt's text under its sha256.
func (s *Store) PutPrompt(sha string, text []byte) error {
	if s.mem != nil {
		s.mem.mu.Lock()
		s.mem.prompts[strings.ToLower(sha)] = text
		s.mem.mu.Unlock()
		return nil
	}
	return atomicfile.WriteFile(s.promptPath(sha), text)
}

// Stats describes what a cache holds: its entries, and the files under
// its answers and prompts folders that are not entries.
type Stats struct {
	Dir     string `json:"dir"`
	Answers int    `json:"answers"`
	Prompts int    `json:"prompts"`
	// Bytes is the size of the entries, the answers and prompts counted;
	// files that are not entries are not in it.
	Bytes int64 `json:"bytes"`
	// Others are the paths of the files (and folders, ending in a
	// separator) under answers and prompts that are not cache entries by
	// the cache's own layout; Clear leaves them where they are.
	Others []string `json:"others,omitempty"`
	// Batches are the records of the batches a stopped --batch run left
	// running (under batches/): paid for, and collected by the same
	// command run again. Clear keeps them.
	Batches []BatchFile `json:"batches,omitempty"`
	// Calibrations are the calibrations stopped before they were
	// written whose marks beside their --out are still in place: the same
	// command run again takes one up; removing its mark starts it afresh.
	// Clear keeps them, and forgets the notes of marks that are gone.
	Calibrations []Calibration `json:"calibrations,omitempty"`
}

// BatchFile is the record of a batch left running, as stats and clear
// name it: its file, the provider's id (empty for an intent record kept
// before the batch was submitted) and how many questions it holds.
type BatchFile struct {
	Path      string `json:"path"`
	ID        string `json:"id,omitempty"`
	Questions int    `json:"questions"`
}

// batchFiles are the records under batches/, in the order of their
// files; a file that cannot be read is listed with no id.
func (s *Store) batchFiles() ([]BatchFile, error) {
	var out []BatchFile
	err := s.batchRecords(func(path string, b Batch, ok bool) {
		f := BatchFile{Path: path}
		if ok {
			f.ID, f.Questions = b.ID, len(b.Keys)
		}
		out = append(out, f)
	})
	return out, err
}

// batchRecords calls visit with each file under batches/ that may be a
// batch record, in the order of their names, and its record when it
// reads as one (ok).
func (s *Store) batchRecords(visit func(path string, b Batch, ok bool)) error {
	dir := filepath.Join(s.dir, "batches")
	entries, err := os.ReadDir(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cache: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		var b Batch
		data, err := os.ReadFile(path)
		visit(path, b, err == nil && json.Unmarshal(data, &b) == nil)
	}
	return nil
}

// Look returns the cache at dir, or at DefaultDir when dir is "",
// without creating it: for reading what it holds, or clearing it.
func Look(dir string) (*Store, error) {
	if dir == "" {
		var err error
		if dir, err = DefaultDir(); err != nil {
			return nil, err
		}
	}
	return &Store{dir: dir}, nil
}

// isHex64 says whether name is a lowercase hex sha256, as keys and the
// names of prompts are.
func isHex64(name string) bool {
	if len(name) != 64 {
		return false
	}
	for _, c := range name {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// isTemp says whether name is what atomicfile leaves beside a file named
// entry when a write is cut short: "."+entry+".tmp" and digits.
func isTemp(name, entry string) bool {
	digits, ok := strings.CutPrefix(name, "."+entry+".tmp")
	if !ok || digits == "" {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// entryFile says what a file named name is in a folder of the cache:
// an entry (a key or a prompt's sha256 and ext, its name valid by valid),
// a temporary file a cut-short write left, or neither.
func entryFile(name, ext string, valid func(string) bool) (entry, temp bool) {
	if base, ok := strings.CutSuffix(name, ext); ok && valid(base) {
		return true, false
	}
	if strings.HasPrefix(name, ".") {
		if i := strings.Index(name[1:], ext+".tmp"); i > 0 {
			base := name[1 : 1+i]
			return false, valid(base) && isTemp(name, base+ext)
		}
	}
	return false, false
}

// found is one file of the cache's layout that walk met.
type found struct {
	path string
	size int64
	kind int // foundAnswer, foundPrompt or foundTemp
}

const (
	foundAnswer = iota
	foundPrompt
	foundTemp
)

// walk lists what the answers and prompts folders hold by the cache's
// layout: answers/KK/KEY.json, KK the head of the 64-hex KEY, and
// prompts/SHA.txt, SHA a 64-hex sha256, and the temporary files of
// writes cut short beside them. Anything else goes to others, a folder
// without what it holds. The fan-out folders are returned in dirs,
// deepest first, for Clear to remove when it has emptied them.
func (s *Store) walk() (entries []found, others, dirs []string, err error) {
	readDir := func(dir string) ([]fs.DirEntry, bool, error) {
		list, err := os.ReadDir(dir)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, false, nil
		}
		if err != nil {
			return nil, false, fmt.Errorf("cache: %w", err)
		}
		return list, true, nil
	}
	add := func(dir string, d fs.DirEntry, kind int) error {
		info, err := d.Info()
		if err != nil {
			return fmt.Errorf("cache: %w", err)
		}
		entries = append(entries, found{path: filepath.Join(dir, d.Name()), size: info.Size(), kind: kind})
		return nil
	}
	other := func(dir string, d fs.DirEntry) {
		p := filepath.Join(dir, d.Name())
		if d.IsDir() {
			p += string(filepath.Separator)
		}
		others = append(others, p)
	}
	// sortFiles files each of dir's files: an entry of the kind given (its
	// name ext and a base valid says is one), a cut-short write's
	// leftover, or another file.
	sortFiles := func(dir string, files []fs.DirEntry, ext string, valid func(string) bool, kind int) error {
		for _, f := range files {
			entry, temp := entryFile(f.Name(), ext, valid)
			var err error
			switch {
			case f.Type().IsRegular() && entry:
				err = add(dir, f, kind)
			case f.Type().IsRegular() && temp:
				err = add(dir, f, foundTemp)
			default:
				other(dir, f)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	answers := filepath.Join(s.dir, "answers")
	heads, ok, err := readDir(answers)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, h := range heads {
		if !h.IsDir() || len(h.Name()) != 2 || !isHex64(h.Name()+strings.Repeat("0", 62)) {
			other(answers, h)
			continue
		}
		sub := filepath.Join(answers, h.Name())
		files, _, err := readDir(sub)
		if err != nil {
			return nil, nil, nil, err
		}
		valid := func(key string) bool { return isHex64(key) && key[:2] == h.Name() }
		if err := sortFiles(sub, files, ".json", valid, foundAnswer); err != nil {
			return nil, nil, nil, err
		}
		dirs = append(dirs, sub)
	}
	if ok {
		dirs = append(dirs, answers)
	}
	prompts := filepath.Join(s.dir, "prompts")
	files, ok, err := readDir(prompts)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := sortFiles(prompts, files, ".txt", isHex64, foundPrompt); err != nil {
		return nil, nil, nil, err
	}
	if ok {
		dirs = append(dirs, prompts)
	}
	return entries, others, dirs, nil
}

// Stats counts the cached answers and prompts and their size on disk,
// and lists the files beside them that are not cache entries.
func (s *Store) Stats() (Stats, error) {
	st := Stats{Dir: s.dir}
	if s.mem != nil {
		s.mem.mu.Lock()
		defer s.mem.mu.Unlock()
		st.Answers, st.Prompts = len(s.mem.answers), len(s.mem.prompts)
		return st, nil
	}
	entries, others, _, err := s.walk()
	if err != nil {
		return st, err
	}
	st.count(entries)
	st.Others = others
	if st.Batches, err = s.batchFiles(); err != nil {
		return st, err
	}
	st.Calibrations, _, err = s.calibrations()
	return st, err
}

// count adds the answers and prompts among entries to st.
func (st *Stats) count(entries []found) {
	for _, e := range entries {
		switch e.kind {
		case foundAnswer:
			st.Answers++
		case foundPrompt:
			st.Prompts++
		default:
			continue
		}
		st.Bytes += e.size
	}
}

// removeEntry removes one entry's file for Clear: os.Remove, which a
// test replaces to fail where a root user could not be refused.
var removeEntry = os.Remove

// ErrNotACache is wrapped by Clear's error for a directory that holds
// no cache entry but other files under answers or prompts: most likely
// not a cache at all, and nothing in it is removed.
var ErrNotACache = errors.New("does not look like a rubric cache")

// Clear removes every cached answer and prompt, and the fan-out folders
// it leaves empty, and returns what it removed. It removes only files
// that are entries by the cache's layout (and temporary files of writes
// cut short beside them): anything else is left in place and listed in
// the Stats' Others. A directory that holds no entry but other files
// there is refused whole (ErrNotACache).
func (s *Store) Clear() (Stats, error) {
	st := Stats{Dir: s.dir}
	if s.mem != nil {
		s.mem.mu.Lock()
		st.Answers, st.Prompts = len(s.mem.answers), len(s.mem.prompts)
		clear(s.mem.answers)
		clear(s.mem.prompts)
		s.mem.mu.Unlock()
		return st, nil
	}
	entries, others, dirs, err := s.walk()
	if err != nil {
		return st, err
	}
	st.Others = others
	if len(others) > 0 && !slices.ContainsFunc(entries, func(f found) bool { return f.kind != foundTemp }) {
		return st, fmt.Errorf("%s %w: it holds no cache entry, only %s that %s not (%s); nothing was removed. Check --cache-dir (or cache-dir in the config file)",
			s.dir, ErrNotACache, words.Count(len(others), "file"), words.Pick(len(others), "is", "are"), words.List(others, 5))
	}
	// Batch records stay, and are named: a batch still running at the
	// provider is paid for, and its answers are collected by the next run.
	if st.Batches, err = s.batchFiles(); err != nil {
		return st, err
	}
	// So do the notes of stopped calibrations, whose marks a rerun takes
	// up (with the batches they left); a note whose mark is gone goes.
	var stale []string
	if st.Calibrations, stale, err = s.calibrations(); err != nil {
		return st, err
	}
	for _, p := range stale {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return st, fmt.Errorf("cache: %w", err)
		}
	}
	for i, e := range entries {
		if err := removeEntry(e.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			st.count(entries[:i]) // what was removed before the error
			return st, fmt.Errorf("cache: %w: removed %s and %s before it, and stopped there, leaving %s; clear the cache again once the entry can be removed",
				err, words.Count(st.Answers, "answer"), words.Count(st.Prompts, "prompt"), words.Count(len(entries)-i, "file"))
		}
	}
	st.count(entries)
	for _, d := range dirs {
		os.Remove(d) // only when empty: a folder with other files stays
	}
	return st, nil
}

// Batch is a batch of questions submitted to a judge's batch API and not
// yet collected: what a run needs to take it up again after a restart or
// Ctrl-C, instead of submitting (and paying for) the questions twice.
type Batch struct {
	// ID is the provider's id of the batch; empty in an intent record,
	// kept before the batch is submitted, whose Nonce finds the batch at
	// the provider if it was accepted (see judge.BatchFinder).
	ID string `json:"id"`
	// Nonce is the client's label on the batch, chosen before it is
	// submitted and sent with it (in its metadata where the provider keeps
	// one, and at the head of every item's ID when LabeledIDs); empty for
	// a judge that cannot find its batches.
	Nonce string `json:"nonce,omitempty"`
	// Rubric and Scope say which run submitted it: the rubric's digest
	// and what the run scored (see ask.Batching.Scope); empty in records
	// kept before they were.
	Rubric string `json:"rubric,omitempty"`
	Scope  string `json:"scope,omitempty"`
	// Judge is the identity of the judge that submitted it; only a judge
	// of the same identity takes it up.
	Judge judge.Identity `json:"judge"`
	// Keys are the answer keys of its questions; each question's item ID
	// in the batch is its key, or, when LabeledIDs, the nonce and the
	// key's head (judge.LabeledItemID).
	Keys []string `json:"keys"`
	// LabeledIDs says that the items' IDs begin with the nonce; false in
	// records kept before they did.
	LabeledIDs bool `json:"labeled_ids,omitempty"`
	// Since is when the intent record was first kept, before the batch
	// was submitted: a provider that keeps no label on a batch finds it
	// among those created since (see judge.BatchLabel). Zero in records
	// kept before it was.
	Since time.Time `json:"since,omitzero"`
}

// ItemID is the ID in the batch of the question whose answer key is key.
func (b Batch) ItemID(key string) string {
	if b.LabeledIDs {
		return judge.LabeledItemID(b.Nonce, key)
	}
	return key
}

// Key names the record: its nonce when it has one (so that the intent
// and the record of the submitted batch are one file), else its id.
func (b Batch) Key() string {
	if b.Nonce != "" {
		return "nonce:" + b.Nonce
	}
	return b.ID
}

// batchPath is where a batch's record is kept: under the hash of its key
// (see Batch.Key), which the provider or a random nonce chooses.
func (s *Store) batchPath(key string) string {
	sum := sha256.Sum256([]byte(key))
	return filepath.Join(s.dir, "batches", hex.EncodeToString(sum[:])+".json")
}

// PutBatch keeps the record of a batch, or of the intent to submit one,
// until DropBatch; a record of the same key is replaced.
func (s *Store) PutBatch(b Batch) error {
	if b.Key() == "" {
		return fmt.Errorf("cache: a batch without an id or a nonce")
	}
	if s.mem != nil {
		s.mem.mu.Lock()
		if s.mem.batches == nil {
			s.mem.batches = map[string]Batch{}
		}
		s.mem.batches[b.Key()] = b
		s.mem.mu.Unlock()
		return nil
	}
	data, err := json.Marshal(b)
	if err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	if err := atomicfile.WriteFile(s.batchPath(b.Key()), data); err != nil {
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}

// Batches returns the records of the batches submitted by a judge of
// identity id and not yet dropped, in the order of their ids. A record
// that cannot be read is skipped.
func (s *Store) Batches(id judge.Identity) ([]Batch, error) {
	var all []Batch
	if s.mem != nil {
		s.mem.mu.Lock()
		for _, b := range s.mem.batches {
			all = append(all, b)
		}
		s.mem.mu.Unlock()
	} else {
		if err := s.batchRecords(func(_ string, b Batch, ok bool) {
			if ok && b.Key() != "" {
				all = append(all, b)
			}
		}); err != nil {
			return nil, err
		}
	}
	want := Key(id, "", "", "")
	var out []Batch
	for _, b := range all {
		if Key(b.Judge, "", "", "") == want {
			out = append(out, b)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out, nil
}

// DropBatch forgets the record of key (Batch.Key) once its batch's
// answers are in the cache, or it is known never to have been accepted.
func (s *Store) DropBatch(key string) error {
	if s.mem != nil {
		s.mem.mu.Lock()
		delete(s.mem.batches, key)
		s.mem.mu.Unlock()
		return nil
	}
	if err := os.Remove(s.batchPath(key)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cache: %w", err)
	}
	return nil
}
