package cache

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
)

func TestKey(t *testing.T) {
	id := judge.Identity{Plugin: "p", Version: "1", Model: "m", Params: map[string]any{"temperature": 0.0, "seed": 7.0}}
	base := Key(id, "sha256:r", "sha256:q", "sha256:i")
	same := Key(judge.Identity{Plugin: "p", Version: "1", Model: "m", Params: map[string]any{"seed": 7.0, "temperature": 0.0}}, "sha256:r", "sha256:q", "sha256:i")
	if base != same || len(base) != 64 {
		t.Fatalf("the same inputs gave %s and %s", base, same)
	}
	for name, k := range map[string]string{
		"judge version": Key(judge.Identity{Plugin: "p", Version: "2", Model: "m", Params: id.Params}, "sha256:r", "sha256:q", "sha256:i"),
		"model":         Key(judge.Identity{Plugin: "p", Version: "1", Model: "m2", Params: id.Params}, "sha256:r", "sha256:q", "sha256:i"),
		"a parameter":   Key(judge.Identity{Plugin: "p", Version: "1", Model: "m", Params: map[string]any{"temperature": 1.0, "seed": 7.0}}, "sha256:r", "sha256:q", "sha256:i"),
		"rubric":        Key(id, "sha256:r2", "sha256:q", "sha256:i"),
		"question":      Key(id, "sha256:r", "sha256:q2", "sha256:i"),
		"input":         Key(id, "sha256:r", "sha256:q", "sha256:i2"),
	} {
		if k == base {
			t.Errorf("a different %s gave the same key", name)
		}
	}
}

func TestPutGetStatsClear(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	e := Entry{Key: Key(judge.Identity{Plugin: "p"}, "r", "q", "i"), Kind: "k", Subject: "tool", Answer: json.RawMessage(`{"n":1}`), Model: "m", Tokens: judge.Tokens{Input: 3, Output: 4}}
	if _, ok := s.Get(e.Key); ok {
		t.Fatal("an empty cache had an answer")
	}
	if err := s.Put(e); err != nil {
		t.Fatal(err)
	}
	got, ok := s.Get(e.Key)
	if !ok || string(got.Answer) != `{"n":1}` || got.Model != "m" || got.Tokens.Output != 4 {
		t.Fatalf("got %+v, %v", got, ok)
	}
	if err := s.PutPrompt("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", nil); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Prompt("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"); !ok {
		t.Error("the empty prompt, which hashes to its name, was not found")
	}
	st, err := s.Stats()
	if err != nil || st.Answers != 1 || st.Prompts != 1 || st.Bytes == 0 {
		t.Fatalf("stats %+v, %v", st, err)
	}
	// A damaged entry is a miss, not an error: it is asked again.
	if err := os.WriteFile(s.answerPath(e.Key), []byte(`{"key": "`+e.Key+`", "answer": `), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Get(e.Key); ok {
		t.Error("a damaged entry was read")
	}
	// An entry filed under another key is not this one.
	other := e
	other.Key = Key(judge.Identity{Plugin: "other"}, "r", "q", "i")
	b, _ := json.Marshal(other)
	if err := os.WriteFile(s.answerPath(e.Key), b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Get(e.Key); ok {
		t.Error("an entry with another key was read")
	}
	cleared, err := s.Clear()
	if err != nil || cleared.Answers != 1 {
		t.Fatalf("clear: %+v, %v", cleared, err)
	}
	if st, _ := s.Stats(); st.Answers != 0 || st.Prompts != 0 {
		t.Errorf("after clear: %+v", st)
	}
}

// TestSaltedKey: no salt is the plain key, byte for byte, so keys cached
// before salts existed still match; each salt is a key of its own.
func TestSaltedKey(t *testing.T) {
	id := judge.Identity{Plugin: "p", Version: "1", Model: "m"}
	plain := Key(id, "sha256:r", "sha256:q", "sha256:i")
	// The plain key of these inputs, as computed before salts existed.
	const pinned = "6f7681a73e5c2963357d69f7b188bb6429a7efd80a784c6e0da2a008bd652f8f"
	if plain != pinned {
		t.Fatalf("the plain key moved: %s", plain)
	}
	if SaltedKey(id, "sha256:r", "sha256:q", "sha256:i", "") != plain {
		t.Fatal("an empty salt moved the key")
	}
	a := SaltedKey(id, "sha256:r", "sha256:q", "sha256:i", "pair 2")
	b := SaltedKey(id, "sha256:r", "sha256:q", "sha256:i", "pair 3")
	if a == plain || b == plain || a == b || len(a) != 64 {
		t.Fatalf("salted keys %s %s against %s", a, b, plain)
	}
}

// TestMemory: a cache in memory answers as one on disk does and touches
// no directory.
func TestMemory(t *testing.T) {
	s := Memory()
	e := Entry{Key: Key(judge.Identity{Plugin: "p"}, "r", "q", "i"), Answer: json.RawMessage(`{"n":1}`), Model: "m"}
	if _, ok := s.Get(e.Key); ok {
		t.Fatal("an empty cache had an answer")
	}
	if err := s.Put(e); err != nil {
		t.Fatal(err)
	}
	if got, ok := s.Get(e.Key); !ok || string(got.Answer) != `{"n":1}` {
		t.Fatalf("got %+v, %v", got, ok)
	}
	const empty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	if err := s.PutPrompt(empty, []byte{}); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Prompt(empty); !ok {
		t.Error("the prompt was not kept")
	}
	if st, err := s.Stats(); err != nil || st.Answers != 1 || st.Prompts != 1 || st.Dir != "" {
		t.Fatalf("stats %+v, %v", st, err)
	}
	if _, err := s.Clear(); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Get(e.Key); ok {
		t.Error("an answer survived Clear")
	}
}

// TestBatchRecords: a batch's record is kept on disk for a judge of the
// same identity only, read back by a new Store (another run), and gone
// once dropped; Clear keeps it, since the batch is paid for.
func TestBatchRecords(t *testing.T) {
	dir := t.TempDir()
	a := judge.Identity{Plugin: "openai", Version: "1.0.0", Model: "m"}
	b := judge.Identity{Plugin: "openai", Version: "1.0.0", Model: "other"}
	for _, tc := range []struct {
		name  string
		store func() *Store
	}{
		{"disk", func() *Store {
			s, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}},
		{"memory", Memory},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.store()
			for _, rec := range []Batch{{ID: "batch_2", Judge: a, Keys: []string{"k2"}}, {ID: "batch_1", Judge: a, Keys: []string{"k1", "k3"}}, {ID: "batch_3", Judge: b, Keys: []string{"k1"}}} {
				if err := s.PutBatch(rec); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := s.Clear(); err != nil {
				t.Fatal(err)
			}
			if tc.name == "disk" {
				s = tc.store() // another run
			}
			got, err := s.Batches(a)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 2 || got[0].ID != "batch_1" || got[1].ID != "batch_2" || len(got[0].Keys) != 2 {
				t.Fatalf("batches of a = %+v, want batch_1 (2 keys) and batch_2", got)
			}
			if err := s.DropBatch("batch_1"); err != nil {
				t.Fatal(err)
			}
			if err := s.DropBatch("batch_1"); err != nil {
				t.Fatalf("dropping again: %v", err)
			}
			if got, _ := s.Batches(a); len(got) != 1 || got[0].ID != "batch_2" {
				t.Fatalf("after the drop: %+v, want batch_2 alone", got)
			}
			if got, _ := s.Batches(b); len(got) != 1 || got[0].ID != "batch_3" {
				t.Fatalf("batches of b = %+v, want batch_3", got)
			}
		})
	}
}

// TestClearOnlyEntries: Clear removes the files that are cache entries by
// the cache's layout, and the temporary files of cut-short writes beside
// them, and nothing else; Stats counts only entries; a directory with no
// entry and other files is refused whole.
func TestClearOnlyEntries(t *testing.T) {
	key := Key(judge.Identity{Plugin: "p"}, "r", "q", "i")
	const sha = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	entryFiles := []string{
		"answers/" + key[:2] + "/" + key + ".json",
		"answers/" + key[:2] + "/." + key + ".json.tmp123",
		"prompts/" + sha + ".txt",
		"prompts/." + sha + ".txt.tmp9",
	}
	userFiles := []string{
		"prompts/system.md",
		"answers/key.txt",
		"answers/" + key[:2] + "/notes.json",
		"answers/ab/" + key + ".json", // a key filed under another head
		"answers/zz/" + strings.Repeat("z", 64) + ".json",
		"prompts/" + strings.ToUpper(sha) + ".txt",
		"prompts/." + sha + ".txt.tmpx",
		"batches/whatever.json",
		"top.txt",
	}
	write := func(t *testing.T, dir string, files []string) {
		for _, f := range files {
			p := filepath.Join(dir, filepath.FromSlash(f))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte("0123456789"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name            string
		files           []string
		wantErr         bool
		answers, others int
		gone, kept      []string
	}{
		{name: "entries and others", files: append(append([]string{}, entryFiles...), userFiles...), answers: 1, others: 7, gone: entryFiles, kept: userFiles},
		{name: "no entry, only others", files: userFiles, wantErr: true, kept: userFiles},
		{name: "only entries", files: entryFiles, answers: 1, gone: append(append([]string{}, entryFiles...), "answers", "prompts")},
		{name: "nothing", answers: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, tc.files)
			s, err := Look(dir)
			if err != nil {
				t.Fatal(err)
			}
			st, err := s.Stats()
			if err != nil || st.Answers != tc.answers || len(st.Others) != tc.others && !tc.wantErr {
				t.Fatalf("stats %+v, %v", st, err)
			}
			if st.Bytes != int64(10*(st.Answers+st.Prompts)) {
				t.Errorf("stats counted %d bytes, not the entries' own", st.Bytes)
			}
			cleared, err := s.Clear()
			if tc.wantErr {
				if !errors.Is(err, ErrNotACache) {
					t.Fatalf("clear of a folder with no entry: %v", err)
				}
			} else if err != nil || cleared.Answers != tc.answers || len(cleared.Others) != tc.others {
				t.Fatalf("clear: %+v, %v", cleared, err)
			}
			for _, f := range tc.gone {
				if _, err := os.Lstat(filepath.Join(dir, f)); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("%s survived Clear", f)
				}
			}
			for _, f := range tc.kept {
				if _, err := os.Lstat(filepath.Join(dir, f)); err != nil {
					t.Errorf("%s was removed: %v", f, err)
				}
			}
		})
	}
	// Look creates nothing.
	missing := filepath.Join(t.TempDir(), "missing")
	s, _ := Look(missing)
	if st, err := s.Stats(); err != nil || st.Answers != 0 {
		t.Fatalf("stats of a missing cache: %+v, %v", st, err)
	}
	if _, err := s.Clear(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Error("Look, Stats or Clear made the directory")
	}
}

// TestDistrust: an answer at a distrusted path, or under a distrusted
// folder, is a miss until it is answered afresh; the others are read.
func TestDistrust(t *testing.T) {
	key := func(i string) string { return Key(judge.Identity{Plugin: "p"}, "r", "q", i) }
	a, b := key("a"), key("b")
	for _, tc := range []struct {
		name   string
		paths  []string
		missA  bool
		missB  bool
		others bool
	}{
		{name: "nothing", paths: nil},
		{name: "one file", paths: []string{"answers/" + a[:2] + "/" + a + ".json"}, missA: true},
		{name: "its folder", paths: []string{"answers/" + a[:2] + "/"}, missA: true, missB: a[:2] == b[:2]},
		{name: "every answer", paths: []string{"answers"}, missA: true, missB: true},
		{name: "the whole cache", paths: []string{"."}, missA: true, missB: true},
		{name: "a prompt", paths: []string{"prompts/x.txt"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{a, b} {
				if err := s.Put(Entry{Key: k, Answer: json.RawMessage(`{"n":1}`)}); err != nil {
					t.Fatal(err)
				}
			}
			s.Distrust(tc.paths)
			if _, ok := s.Get(a); ok == tc.missA {
				t.Errorf("a: read %v, want a miss %v", ok, tc.missA)
			}
			if _, ok := s.Get(b); ok == tc.missB {
				t.Errorf("b: read %v, want a miss %v", ok, tc.missB)
			}
			// Answered afresh, it is read again.
			if err := s.Put(Entry{Key: a, Answer: json.RawMessage(`{"n":2}`)}); err != nil {
				t.Fatal(err)
			}
			if e, ok := s.Get(a); !ok || string(e.Answer) != `{"n":2}` {
				t.Errorf("a answered afresh: got %s, %v", e.Answer, ok)
			}
		})
	}
}

// TestClearStoppedSaysWhatItRemoved: an entry Clear cannot remove stops
// it, and the error says how much went before it and how much is left,
// where it said only the file's error and the command printed nothing
// of what was removed.
func TestClearStoppedSaysWhatItRemoved(t *testing.T) {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	id := judge.Identity{Plugin: "p"}
	for _, in := range []string{"a", "b", "c"} {
		if err := s.Put(Entry{Key: Key(id, "r", "q", in), Kind: "k", Subject: "tool", Answer: json.RawMessage(`{"ok": true}`)}); err != nil {
			t.Fatal(err)
		}
	}
	removed := 0
	removeEntry = func(path string) error {
		if removed == 2 {
			return &fs.PathError{Op: "remove", Path: path, Err: errors.New("operation not permitted")}
		}
		removed++
		return os.Remove(path)
	}
	t.Cleanup(func() { removeEntry = os.Remove })
	st, err := s.Clear()
	want := ": operation not permitted: removed 2 answers and 0 prompts before it, and stopped there, leaving 1 file; clear the cache again once the entry can be removed"
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Fatalf("got %v, want it to end %q", err, want)
	}
	if st.Answers != 2 {
		t.Errorf("the stats count %d answers removed, want 2", st.Answers)
	}
}
