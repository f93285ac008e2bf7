package ghaction

import (
	"os"
	"path/filepath"
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
