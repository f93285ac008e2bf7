package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestClosedStdout: a reader that closed rubric's stdout before the run
// (`rubric score … --json r.json | true`) does not cost the files the
// flags name, nor the exit status: the summary is dropped, the files are
// written and rubric exits as the score says (1 below --fail-under),
// neither killed by SIGPIPE (141) nor with 2. A stdout that fails
// otherwise (> /dev/full) exits 2, saying where the report is, and the
// files stay.
func TestClosedStdout(t *testing.T) {
	t.Parallel()
	self, corpus := selfAsRubric(t)
	for _, tc := range []struct {
		name string
		args []string
		code int
		full bool   // stdout is /dev/full instead of a closed pipe
		msg  string // in stderr
	}{
		{"passes", nil, 0, false, ""},
		{"below", []string{"--fail-under", "100"}, 1, false, ""},
		// A summary that cannot be written is an error, but the files
		// are whole and stay.
		{"full", nil, 2, true, "no space left on device; the report is in "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			r.Close() // the reader is gone before rubric writes a byte
			if tc.full {
				w.Close()
				if w, err = os.OpenFile("/dev/full", os.O_WRONLY, 0); err != nil {
					t.Skip(err)
				}
			}
			out := t.TempDir()
			args := append([]string{"score", "--rubric", "schema-quality", corpus,
				"--json", filepath.Join(out, "r.json"), "--sarif", filepath.Join(out, "r.sarif")}, tc.args...)
			cmd := exec.Command(self, args...)
			// Its transport plugin is this binary, started on a machine
			// that may be busy: as in the scripts, its start must not meet
			// the 10 s a user's plugins get (plugins/host tests that).
			cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir(), "RUBRIC_PLUGIN_START_TIMEOUT=2m")
			cmd.Dir = out
			cmd.Stdout = w
			stderr, err := os.CreateTemp(t.TempDir(), "stderr")
			if err != nil {
				t.Fatal(err)
			}
			cmd.Stderr = stderr
			err = cmd.Run()
			w.Close()
			msg, _ := os.ReadFile(stderr.Name())
			code := 0
			if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
				code = ee.ExitCode() // -1 when killed by a signal
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tc.code {
				t.Errorf("exit status %d (%v), want %d; stderr:\n%s", code, err, tc.code, msg)
			}
			if !strings.Contains(string(msg), tc.msg) {
				t.Errorf("stderr %q, want it to hold %q", msg, tc.msg)
			}
			for _, f := range []string{"r.json", "r.sarif"} {
				if _, err := os.Stat(filepath.Join(out, f)); err != nil {
					t.Errorf("%s not written: %v", f, err)
				}
			}
		})
	}
}

// TestFullStdout: every command that writes its result to stdout exits
// 2 when stdout cannot take it (> /dev/full), with the write's error as
// its one line on stderr, not 0 with the result lost. explain, rubrics
// show, diff and digest and plugins list wrote theirs without looking at
// the errors (fmt.Fprintf, a tabwriter's Flush); the others returned
// them already. (testscript's exec cannot send stdout to /dev/full.)
func TestFullStdout(t *testing.T) {
	t.Parallel()
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer full.Close()
	self, corpus := selfAsRubric(t)
	env := append(os.Environ(), "XDG_CACHE_HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir(), "RUBRIC_PLUGIN_START_TIMEOUT=2m")
	run := func(stdout *os.File, args ...string) (int, string) {
		t.Helper()
		cmd := exec.Command(self, args...)
		cmd.Env = env
		cmd.Dir = filepath.Dir(self)
		cmd.Stdout = stdout // nil: /dev/null
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			return ee.ExitCode(), stderr.String()
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, stderr.String()
	}
	// The report explain and rescore read.
	if code, msg := run(nil, "score", "--rubric", "schema-quality", "--format", "json", "--out", "r.json", corpus); code != 0 {
		t.Fatalf("score: exit status %d; stderr:\n%s", code, msg)
	}
	const want = "rubric: write /dev/stdout: no space left on device\n"
	for _, args := range [][]string{
		{"explain", "r.json"},
		{"explain", "r.json", "--tool", "read_file"},
		{"rubrics", "show", "schema-quality"},
		{"rubrics", "diff", "schema-quality", "tdqs"},
		{"rubrics", "digest", "schema-quality"},
		{"plugins", "list"},
		{"plugins", "list", "--json"},
		// Those that returned the error already.
		{"rescore", "r.json", "--rubric", "schema-quality"},
		{"rubrics", "show", "--source", "schema-quality"},
		{"rubrics", "functions"},
		{"rubrics", "list"},
		{"cache", "stats"},
		{"version"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, msg := run(full, args...)
			if code != exitInvalid || msg != want {
				t.Errorf("exit status %d, stderr %q; want %d, %q", code, msg, exitInvalid, want)
			}
		})
	}
}

// selfAsRubric is this test binary linked as "rubric" in a folder of its
// own (testscript.Main runs main when the program is named rubric), and
// the absolute path of the corpus capture the tests score.
func selfAsRubric(t *testing.T) (self, corpus string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	self = filepath.Join(t.TempDir(), "rubric")
	if err := os.Symlink(exe, self); err != nil {
		t.Fatal(err)
	}
	if corpus, err = filepath.Abs(corpusFile); err != nil {
		t.Fatal(err)
	}
	return self, corpus
}
