package ghaction

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadEvent(t *testing.T) {
	for _, c := range []struct {
		name    string
		payload string
		want    Event
	}{
		{"push", `{"ref":"refs/heads/main","repository":{"full_name":"o/r"}}`, Event{}},
		{"same repository", `{"pull_request":{"number":7,"head":{"repo":{"full_name":"o/r","fork":false}},"base":{"repo":{"full_name":"o/r"}}}}`, Event{PullRequest: 7}},
		{"fork", `{"pull_request":{"number":8,"head":{"repo":{"full_name":"m/r","fork":true}},"base":{"repo":{"full_name":"o/r"}}}}`, Event{PullRequest: 8, Fork: true}},
		{"another repository not marked fork", `{"pull_request":{"number":9,"head":{"repo":{"full_name":"m/r","fork":false}},"base":{"repo":{"full_name":"o/r"}}}}`, Event{PullRequest: 9, Fork: true}},
		{"merge queue", `{"action":"checks_requested","merge_group":{"head_sha":"bbbb","head_ref":"refs/heads/gh-readonly-queue/main/pr-7-aaaa","base_sha":"aaaa","base_ref":"refs/heads/main"}}`, Event{Base: "aaaa"}},
		{"deleted head repository", `{"pull_request":{"number":10,"head":{"repo":null},"base":{"repo":{"full_name":"o/r"}}}}`, Event{PullRequest: 10, Fork: true}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "event.json")
			if err := os.WriteFile(path, []byte(c.payload), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := ReadEvent(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("got %+v, want %+v", got, c.want)
			}
		})
	}
	if _, err := ReadEvent(""); err == nil {
		t.Error("no path: no error")
	}
}

// A payload GitHub would not write is named with the variable, the
// member and what it should hold, not in Go's words.
func TestReadEventErrors(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "event.json")
	if err := os.WriteFile(path, []byte(`{"pull_request":{"number":"7"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ReadEvent(path)
	want := "event payload " + path + `:1:27: "pull_request.number" holds a string, where a whole number is wanted (GITHUB_EVENT_PATH names the payload GitHub Actions writes`
	if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "Go struct") {
		t.Errorf("got %v, want %q", err, want)
	}
	_, err = ReadEvent(filepath.Join(dir, "nosuch.json"))
	if err == nil || !strings.Contains(err.Error(), "GITHUB_EVENT_PATH names the JSON file") {
		t.Errorf("no such file: %v", err)
	}
}
