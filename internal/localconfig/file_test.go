package localconfig

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/viper"
)

func TestSearch(t *testing.T) {
	write := func(path string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("rubric: tdqs\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name      string
		files     []string // relative to the test's root: wd/ is the working directory, xdg/ the config home
		wantPath  string
		wantUser  string
		wantLocal bool
	}{
		{name: "none"},
		{name: "the user's", files: []string{"xdg/rubric/rubric.yml"}, wantPath: "xdg/rubric/rubric.yml", wantUser: "xdg/rubric/rubric.yml"},
		{name: "the working directory's first", files: []string{"wd/rubric.yaml", "xdg/rubric/rubric.yaml"}, wantPath: "rubric.yaml", wantUser: "xdg/rubric/rubric.yaml", wantLocal: true},
		{name: ".yaml before .yml", files: []string{"wd/rubric.yml", "wd/rubric.yaml"}, wantPath: "rubric.yaml", wantUser: "xdg/rubric/rubric.yaml", wantLocal: true},
		{name: "a plain rubric is not a config", files: []string{"wd/rubric", "wd/rubric.yaml/x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for _, f := range tc.files {
				write(filepath.Join(root, f))
			}
			if err := os.MkdirAll(filepath.Join(root, "wd"), 0o755); err != nil {
				t.Fatal(err)
			}
			t.Chdir(filepath.Join(root, "wd"))
			t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, "xdg"))
			abs := func(p string) string {
				if p == "" || p == "rubric.yaml" || p == "rubric.yml" {
					return p
				}
				return filepath.Join(root, p)
			}
			path, user, local := Search()
			if path != abs(tc.wantPath) || (path != "" && user != abs(tc.wantUser)) || local != tc.wantLocal {
				t.Errorf("Search() = %q, %q, %v; want %q, %q, %v", path, user, local, abs(tc.wantPath), abs(tc.wantUser), tc.wantLocal)
			}
		})
	}
}

func TestRead(t *testing.T) {
	for _, tc := range []struct {
		name, yaml, err string
	}{
		{name: "flags and config-only keys", yaml: "rubric: tdqs\nheaders:\n  X-A: b\nplugins: {}\n"},
		{name: "a typo", yaml: "rubrc: tdqs\n", err: `config CONFIG: unknown key "rubrc" (did you mean "rubric"?); the keys are the long flags' names, plus headers and plugins`},
		{name: "nothing near", yaml: "zzzzzzzz: 1\n", err: `config CONFIG: unknown key "zzzzzzzz"; the keys are the long flags' names, plus headers and plugins`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "rubric.yaml")
			if err := os.WriteFile(path, []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			v := viper.New()
			v.SetConfigType("yaml")
			err := Read(v, path, []string{"rubric", "judge"})
			want := ""
			if tc.err != "" {
				want = "config " + path + tc.err[len("config CONFIG"):]
			}
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != want {
				t.Errorf("error %q, want %q", got, want)
			}
		})
	}
}
