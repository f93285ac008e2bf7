package lock

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/surface"
)

func surf(t *testing.T, tools string) *surface.Surface {
	t.Helper()
	s, err := surface.Parse("t.json", []byte(`{"tools":`+tools+`}`))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestDiff(t *testing.T) {
	base := `[{"name":"a","description":"one\ntwo\nthree","inputSchema":{"type":"object","properties":{"p":{"type":"string","enum":["x","y"]}}}},{"name":"b","description":"B."}]`
	tests := []struct {
		name, now string
		want      string // WriteText's output
	}{
		{"unchanged, listed in another order", `[{"name":"b","description":"B."},{"name":"a","description":"one\ntwo\nthree","inputSchema":{"type":"object","properties":{"p":{"type":"string","enum":["x","y"]}}}}]`,
			"verified: every tool is as locked\n"},
		{"a line of the description changed", `[{"name":"a","description":"one\nTWO\nthree","inputSchema":{"type":"object","properties":{"p":{"type":"string","enum":["x","y"]}}}},{"name":"b","description":"B."}]`,
			"changed: a\n  /description:\n      one\n    - two\n    + TWO\n      three\n"},
		{"an enum changed, a member added, a tool removed", `[{"name":"a","title":"A","description":"one\ntwo\nthree","inputSchema":{"type":"object","properties":{"p":{"type":"string","enum":["x","z"]}}}}]`,
			"changed: a\n  /inputSchema/properties/p/enum:\n    - [\"x\",\"y\"]\n    + [\"x\",\"z\"]\n  /title added: \"A\"\nremoved: b\n"},
		{"a tool added, a member removed", `[{"name":"a","description":"one\ntwo\nthree"},{"name":"b","description":"B."},{"name":"c"}]`,
			"changed: a\n  /inputSchema removed (was {\"properties\":{\"p\":{\"enum\":[\"x\",\"y\"],\"type\":\"string\"}},\"type\":\"object\"})\nadded: c\n"},
		{"a one-line description changed", `[{"name":"a","description":"one\ntwo\nthree","inputSchema":{"type":"object","properties":{"p":{"type":"string","enum":["x","y"]}}}},{"name":"b","description":"B <IMPORTANT>"}]`,
			"changed: b\n  /description:\n    - \"B.\"\n    + \"B <IMPORTANT>\"\n"},
		// A rug-pull's hidden text is written out: a terminal escape
		// cannot clear the reviewer's screen, a bidi override cannot turn
		// the line around, and a zero-width character in a new tool's name
		// is seen.
		{"hidden characters in a line diff and a name", `[{"name":"a","description":"one\ntwo \u001b[2J\u202eevil\nthree","inputSchema":{"type":"object","properties":{"p":{"type":"string","enum":["x","y"]}}}},{"name":"b","description":"B."},{"name":"send\u200bmail"}]`,
			"changed: a\n  /description:\n      one\n    - two\n    + two \\x1b[2J\\u202eevil\n      three\nadded: send\\u200bmail\n"},
		// A line that changed only in its trailing space, or in a space
		// that is not U+0020, does not print as the line it replaced.
		{"a space changed", `[{"name":"a","description":"one\ntwo \nthree","inputSchema":{"type":"object","properties":{"p":{"type":"string","enum":["x","y"]}}}},{"name":"b","description":"B\u00a0."}]`,
			"changed: a\n  /description:\n      one\n    - two\n    + two\\x20\n      three\nchanged: b\n  /description:\n    - \"B.\"\n    + \"B\\u00a0.\"\n"},
	}
	locked := New(surf(t, base))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changes, err := Diff(locked, surf(t, tt.now))
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := WriteText(&b, changes); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
		})
	}
}

func TestWriteRead(t *testing.T) {
	dir := t.TempDir()
	s := surf(t, `[{"name":"z"},{"name":"a","description":"A"}]`)
	path := filepath.Join(dir, DefaultFile)
	if err := New(s).Write(path); err != nil {
		t.Fatal(err)
	}
	f, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Hash != s.Hash() || len(f.Tools) != 2 || f.Tools[0].Name != "a" {
		t.Errorf("read back %+v", f)
	}
	if changes, err := Diff(f, s); err != nil || len(changes) != 0 {
		t.Errorf("a surface differs from its own lock: %v %v", changes, err)
	}
	bad := []struct{ name, src, want string }{
		{"not json", "{", "not json:1:2: not a lock file: the file is truncated: its JSON stops after 1 byte, before the document is complete (a lock file is the JSON rubric lock writes, each tool's definition as approved; write it again with rubric lock)"},
		{"empty", "", "empty: not a lock file: the file is empty (a lock file is the JSON rubric lock writes, each tool's definition as approved; write it again with rubric lock)"},
		{"unknown member", `{"lock_version":1,"hash":"","tools":[],"extra":1}`, `unknown member: not a lock file: unknown field "extra" (a lock file is the JSON rubric lock writes, each tool's definition as approved; write it again with rubric lock)`},
		{"a field of the wrong type", "{\n \"lock_version\": \"1\"}", `a field of the wrong type:2:18: not a lock file: "lock_version" holds a string, where a whole number is wanted (a lock file is the JSON rubric lock writes, each tool's definition as approved; write it again with rubric lock)`},
		{"an array", "[1]", "an array:1:1: not a lock file: the file holds an array, where an object is wanted (a lock file is the JSON rubric lock writes, each tool's definition as approved; write it again with rubric lock)"},
		{"another version", `{"lock_version":9,"hash":"","tools":[]}`, "lock_version 9"},
	}
	for _, b := range bad {
		p := filepath.Join(dir, b.name)
		if err := os.WriteFile(p, []byte(b.src), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(p); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: got %v, want %q", b.name, err, b.want)
		}
	}
	if _, err := Read(filepath.Join(dir, "nosuch")); err == nil || !strings.HasSuffix(err.Error(), "nosuch does not exist: write one with rubric lock") {
		t.Errorf("a missing file: %v", err)
	}
}

func TestLineDiff(t *testing.T) {
	tests := []struct{ a, b, want string }{
		{"x", "x", "  x"},
		{"a\nb\nc", "a\nc", "  a|- b|  c"},
		{"a\nc", "a\nb\nc", "  a|+ b|  c"},
		{"a", "b", "- a|+ b"},
	}
	for _, tt := range tests {
		got := strings.Join(lineDiff(strings.Split(tt.a, "\n"), strings.Split(tt.b, "\n")), "|")
		if got != tt.want {
			t.Errorf("lineDiff(%q, %q) = %q, want %q", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestWriteMarkdown checks the Markdown of a verification: a table of the
// tools that differ and the diff in a fence that a server's backticks
// cannot close, or a sentence when nothing changed.
func TestWriteMarkdown(t *testing.T) {
	locked := New(surf(t, `[{"name":"a","description":"one\ntwo"},{"name":"b","description":"B."}]`))
	tests := []struct {
		name, now string
		want      string
	}{
		{"unchanged", `[{"name":"a","description":"one\ntwo"},{"name":"b","description":"B."}]`,
			"Every tool is as locked.\n"},
		{"changed and added", `[{"name":"a","description":"one\nthree"},{"name":"b","description":"B."},{"name":"c|d"}]`,
			"| tool | change | fields |\n|---|---|---|\n| `a` | changed | `/description` |\n| `c\\|d` | added |  |\n\n" +
				"```\nchanged: a\n  /description:\n      one\n    - two\n    + three\nadded: c|d\n```\n"},
		{"backticks and a control character", `[{"name":"a","description":"one\ntwo` + "````" + `\u001b[2J"},{"name":"b","description":"B."}]`,
			"| tool | change | fields |\n|---|---|---|\n| `a` | changed | `/description` |\n\n" +
				"`````\nchanged: a\n  /description:\n      one\n    - two\n    + two````\\x1b[2J\n`````\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			changes, err := Diff(locked, surf(t, tt.now))
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			if err := WriteMarkdown(&b, changes); err != nil {
				t.Fatal(err)
			}
			if b.String() != tt.want {
				t.Errorf("got\n%s\nwant\n%s", b.String(), tt.want)
			}
		})
	}
}

func TestSummary(t *testing.T) {
	changes := []Change{{Tool: "a", Kind: "changed"}, {Tool: "b", Kind: "added"}, {Tool: "c", Kind: "removed"}}
	tests := []struct {
		limit int
		want  string
	}{
		{3, "a changed, b added, c removed"},
		{2, "a changed, b added and 1 more"},
		{1, "a changed and 2 more"},
	}
	for _, tt := range tests {
		if got := Summary(changes, tt.limit); got != tt.want {
			t.Errorf("Summary(limit %d) = %q, want %q", tt.limit, got, tt.want)
		}
	}
	for n, want := range map[int]string{1: "1 tool differs", 2: "2 tools differ"} {
		if got := Differ(n); got != want {
			t.Errorf("Differ(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestReadRefusesEdited: a lock whose stored definitions do not give its
// hashes was edited by hand (or by a pull request); verify would compare
// the server with hashes a reviewer never read, so Read refuses it, naming
// the tool or the file.
func TestReadRefusesEdited(t *testing.T) {
	dir := t.TempDir()
	one := New(surf(t, `[{"name":"a","description":"A.","inputSchema":{"type":"object","properties":{"n":{"type":"number","default":1.5}}}},{"name":"b","description":"B."}]`))
	set := NewSet("cfg.json", []surface.Member{{Name: "s", Surface: surf(t, `[{"name":"x","description":"X."}]`)}})
	edits := []struct {
		name string
		lock *File
		edit func(f *File)
		want string // "" for a lock Read accepts
	}{
		{"untouched", one, func(*File) {}, ""},
		{"a definition re-indented, keys reordered", one, func(f *File) {
			f.Tools[1].Definition = []byte(`{ "description" : "B.", "name": "b" }`)
		}, ""},
		{"a definition's text edited", one, func(f *File) {
			f.Tools[0].Definition = []byte(`{"description":"EDITED","name":"a"}`)
		}, `tool "a"'s definition does not hash to the hash beside it`},
		{"a tool's hash edited with its definition", one, func(f *File) {
			f.Tools[0].Definition = []byte(`{"description":"EDITED","name":"a"}`)
			f.Tools[0].Hash = surface.HashBytes([]byte(`{"description":"EDITED","name":"a"}`))
		}, "its hash is not the hash of its tools' definitions"},
		{"the file's hash edited", one, func(f *File) {
			f.Hash = "sha256:" + strings.Repeat("0", 64)
		}, "its hash is not the hash of its tools' definitions"},
		{"a tool renamed", one, func(f *File) { f.Tools[1].Name = "c" }, `tool "c"'s definition is named "b"`},
		{"a definition not an object", one, func(f *File) { f.Tools[1].Definition = []byte(`"b"`) }, `tool "b"'s definition is not a JSON object`},
		{"a set untouched", set, func(*File) {}, ""},
		{"a set's server's definition edited", set, func(f *File) {
			f.Servers[0].Tools[0].Definition = []byte(`{"description":"Y.","name":"x"}`)
		}, `server "s": tool "x"'s definition does not hash to the hash beside it`},
		{"a set's server's hash edited", set, func(f *File) {
			f.Servers[0].Hash = "sha256:1"
		}, `server "s": its hash is not the hash of its tools' definitions`},
	}
	for _, tt := range edits {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.lock)
			if err != nil {
				t.Fatal(err)
			}
			var f File
			if err := json.Unmarshal(b, &f); err != nil {
				t.Fatal(err)
			}
			tt.edit(&f)
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_")+".json")
			if err := f.Write(path); err != nil {
				t.Fatal(err)
			}
			_, err = Read(path)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tt.want != "" && err == nil:
				t.Errorf("accepted, want %q", tt.want)
			case tt.want != "" && !strings.Contains(err.Error(), path+" was edited or damaged: "+tt.want+"; a lock is trusted only as rubric lock wrote it: run rubric lock again and review the diff"):
				t.Errorf("got %v\nwant %q", err, tt.want)
			}
		})
	}
}

// TestApprove: the command that approves a change writes the file that
// is checked: rubric lock alone writes rubric.lock.json, so any other
// file is named with --lock-file, quoted for a shell when it must be.
func TestApprove(t *testing.T) {
	for file, want := range map[string]string{
		"rubric.lock.json":        "rubric lock",
		"./rubric.lock.json":      "rubric lock",
		"ci/rubric.lock.json":     "rubric lock --lock-file ci/rubric.lock.json",
		"locks/tools.lock.json":   "rubric lock --lock-file locks/tools.lock.json",
		"my locks/it's.lock.json": `rubric lock --lock-file 'my locks/it'\''s.lock.json'`,
	} {
		if got := Approve(file); got != want {
			t.Errorf("%q: %q, want %q", file, got, want)
		}
	}
}
