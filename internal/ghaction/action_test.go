package ghaction

import (
	"archive/tar"
	"compress/gzip"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/lock"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/buildtest"
	"github.com/rubricmcp/rubric/internal/heavytest"
)

// actionEnv is what every run of TestAction shares: the action's
// checkout, a release of rubric served on 127.0.0.1, the fake REST API
// and a scratch git repository with a base and a head.
type actionEnv struct {
	t           *testing.T
	action      *actionFile
	actionPath  string
	releaseURL  string
	releaseRoot string
	sum         string // the archive's sha256, in hex
	version     string
	api         *fakeAPI
	repo        string
}

// TestAction runs action.yml's steps under a faked GitHub environment:
// the release is downloaded from a server on 127.0.0.1 and its checksum
// checked; rubric scores and gates a file in a scratch git repository;
// the job summary, the outputs and the SARIF upload's input are read
// back; the fake API receives the pull-request comment on the first push
// and its update on the second.
func TestAction(t *testing.T) {
	heavytest.Later(t)
	if testing.Short() {
		t.Skip("builds rubric and runs it several times")
	}
	e := newActionEnv(t)

	t.Run("score with SARIF", func(t *testing.T) {
		r := e.newRun(t, prEvent(7, false), map[string]string{
			"command": "score", "target": "tools.json", "rubric": "schema-quality",
			"sarif": "true", "fail-under": "F",
		})
		if !r.run(e.action) {
			t.Fatalf("the action failed:\n%s", r.Log.String())
		}
		wantOutputs(t, r, map[string]string{"decision": "PASS", "exit-code": "0", "report": ".rubric/score.md", "sarif": ".rubric/score.sarif"})
		if !strings.Contains(r.Summary, "schema-quality") || !strings.Contains(r.Summary, "search_files") {
			t.Errorf("the job summary is not the score report:\n%s", r.Summary)
		}
		up := r.used(t, "github/codeql-action/upload-sarif@")
		if up.With["sarif_file"] != ".rubric/score.sarif" || up.With["category"] != "rubric-score-schema-quality" {
			t.Errorf("upload-sarif got %v", up.With)
		}
		var sarif struct {
			Version string `json:"version"`
			Runs    []struct {
				AutomationDetails struct {
					ID string `json:"id"`
				} `json:"automationDetails"`
			} `json:"runs"`
		}
		readJSON(t, filepath.Join(e.repo, ".rubric/score.sarif"), &sarif)
		if sarif.Version != "2.1.0" || len(sarif.Runs) != 1 {
			t.Fatalf("score.sarif: version %q, %d runs", sarif.Version, len(sarif.Runs))
		}
		// upload-sarif fills its category input only into a run with no
		// automationDetails.id: the SARIF carries the same category.
		if id := sarif.Runs[0].AutomationDetails.ID; id != up.With["category"]+"/" {
			t.Errorf("score.sarif's automationDetails.id %q, so code scanning files it under %q, not upload-sarif's category %q", id, strings.TrimSuffix(id, "/"), up.With["category"])
		}
		cache := r.used(t, "actions/cache@")
		if cache.With["path"] != filepath.Join(r.runner["temp"], "rubric-answers") ||
			!strings.HasPrefix(cache.With["key"], cache.With["restore-keys"]) ||
			!strings.HasSuffix(cache.With["key"], "-41-1") {
			t.Errorf("actions/cache got %v", cache.With)
		}
		if _, calls := e.api.snapshot(); len(calls) != 0 {
			t.Errorf("comment is false, yet the API was called: %v", calls)
		}
	})

	var commentID int64
	var firstBody string
	t.Run("gate posts the comment", func(t *testing.T) {
		r := e.newRun(t, prEvent(7, false), map[string]string{
			"command": "gate", "target": "tools.json", "rubric": "schema-quality", "comment": "true",
		})
		if !r.run(e.action) {
			t.Fatalf("the action failed:\n%s", r.Log.String())
		}
		wantOutputs(t, r, map[string]string{"decision": "PASS", "exit-code": "0", "report": ".rubric/gate.md"})
		cs, _ := e.api.snapshot()
		if len(cs) != 1 || !strings.HasPrefix(cs[0].Body, Marker("gate-schema-quality")+"\n") || !strings.Contains(cs[0].Body, "PASS") {
			t.Fatalf("comments after the first push: %+v\n%s", cs, r.Log.String())
		}
		commentID, firstBody = cs[0].ID, cs[0].Body
		if !strings.Contains(r.Summary, "PASS") {
			t.Errorf("the job summary lacks the decision:\n%s", r.Summary)
		}
		if n := strings.Count(r.Summary, "PASS"); n == 0 || strings.Count(r.Summary, "# ") != strings.Count(readFile(t, filepath.Join(e.repo, ".rubric/gate.md")), "# ") {
			t.Errorf("the job summary is not gate.md once:\n%s", r.Summary)
		}
	})

	t.Run("the next push updates it", func(t *testing.T) {
		// The head drops the description of a parameter: a worse score.
		e.commit(t, strings.Replace(toolsJSON, `"description": "Glob the file names must match."`, `"description": ""`, 1))
		r := e.newRun(t, prEvent(7, false), map[string]string{
			"command": "gate", "target": "tools.json", "rubric": "schema-quality", "comment": "true",
		})
		r.run(e.action)
		cs, calls := e.api.snapshot()
		if len(cs) != 1 || cs[0].ID != commentID {
			t.Fatalf("comments after the second push: %+v, want comment %d alone\n%s", cs, commentID, r.Log.String())
		}
		if last := calls[len(calls)-1]; last != fmt.Sprintf("PATCH /repos/owner/repo/issues/comments/%d", commentID) {
			t.Errorf("last call %q, want the update", last)
		}
		if cs[0].Body == firstBody || !strings.Contains(cs[0].Body, r.Outputs["decision"]) || !strings.Contains(cs[0].Body, "`search_files` | 100.0 | 90.0") {
			t.Errorf("the updated comment does not show the new decision %s and the lower score:\n%s", r.Outputs["decision"], cs[0].Body)
		}
	})

	t.Run("the fail-on-breaking input outranks rubric.yaml", func(t *testing.T) {
		// The head removes read_file, a breaking change, and its own
		// rubric.yaml turns the check off; the workflow's input turns it
		// on, and blocks.
		writeFile(t, filepath.Join(e.repo, "tools.json"), `{"tools": [{"name": "search_files", "description": "Search the files under a directory whose names match a glob, and return their paths.",
   "inputSchema": {"type": "object", "properties": {"path": {"type": "string", "description": "The directory to search."}, "pattern": {"type": "string", "description": "Glob the file names must match."}},
   "required": ["path", "pattern"], "additionalProperties": false}}]}`)
		writeFile(t, filepath.Join(e.repo, "rubric.yaml"), "fail-on-breaking: false\n")
		defer func() {
			os.Remove(filepath.Join(e.repo, "rubric.yaml"))
			e.git(t, "checkout", "--", "tools.json")
		}()
		inputs := map[string]string{"command": "gate", "target": "tools.json", "rubric": "schema-quality", "fail-on-breaking": "true"}
		r := e.newRun(t, prEvent(7, false), inputs)
		if r.run(e.action) {
			t.Fatalf("the action passed:\n%s", r.Log.String())
		}
		wantOutputs(t, r, map[string]string{"decision": "BLOCK", "exit-code": "1"})
		if !strings.Contains(r.Summary, "the gate fails on breaking changes (tool \"read\\_file\" removed)") {
			t.Errorf("the job summary does not block on the removed tool:\n%s", r.Summary)
		}
		inputs["fail-on-breaking"] = "sometimes"
		r = e.newRun(t, prEvent(7, false), inputs)
		if r.run(e.action) || !strings.Contains(r.Log.String(), `the fail-on-breaking input is "true", "false" or empty`) {
			t.Errorf("an input that is not true or false was not refused:\n%s", r.Log.String())
		}
	})

	t.Run("gate's SARIF under a fail-under of rubric.yaml", func(t *testing.T) {
		// The repository's rubric.yaml sets a floor for its score steps;
		// the head's score, made for the SARIF, falls below it and exits
		// 1, having written the SARIF, which is still uploaded.
		writeFile(t, filepath.Join(e.repo, "rubric.yaml"), "fail-under: \"99\"\n")
		defer os.Remove(filepath.Join(e.repo, "rubric.yaml"))
		r := e.newRun(t, prEvent(7, false), map[string]string{
			"command": "gate", "target": "tools.json", "rubric": "schema-quality", "sarif": "true",
		})
		r.run(e.action)
		wantOutputs(t, r, map[string]string{"decision": "BLOCK", "exit-code": "1", "sarif": ".rubric/head.sarif"})
		up := r.used(t, "github/codeql-action/upload-sarif@")
		if up.With["sarif_file"] != ".rubric/head.sarif" {
			t.Errorf("upload-sarif got %v", up.With)
		}
		var head struct {
			Runs []struct {
				AutomationDetails struct {
					ID string `json:"id"`
				} `json:"automationDetails"`
			} `json:"runs"`
		}
		readJSON(t, filepath.Join(e.repo, ".rubric/head.sarif"), &head)
		if len(head.Runs) != 1 || head.Runs[0].AutomationDetails.ID != up.With["category"]+"/" {
			t.Errorf("head.sarif's runs %+v, want the category %q", head.Runs, up.With["category"])
		}
	})

	t.Run("gate in a merge queue", func(t *testing.T) {
		// A merge_group run has no GITHUB_BASE_REF: the base is the
		// commit the group is merged onto, from the event.
		main := e.git(t, "rev-parse", "main")
		r := e.newRun(t, fmt.Sprintf(`{"action": "checks_requested", "merge_group": {"head_sha": "feed", "base_sha": %q, "base_ref": "refs/heads/main"}}`, main),
			map[string]string{"command": "gate", "target": "tools.json", "rubric": "schema-quality", "comment": "true"})
		r.env = append(r.env, "GITHUB_BASE_REF=", "GITHUB_EVENT_NAME=merge_group")
		r.run(e.action)
		wantOutputs(t, r, map[string]string{"decision": "BLOCK", "exit-code": "1", "report": ".rubric/gate.md"})
		if want := "| revision | `" + main + "` | working tree |"; !strings.Contains(r.Summary, want) {
			t.Errorf("the job summary lacks %q:\n%s", want, r.Summary)
		}
		if !strings.Contains(r.Log.String(), "not a pull request: no comment written") {
			t.Errorf("the comment step did not say why it wrote nothing:\n%s", r.Log.String())
		}
	})

	// The rubric input, when set, wins over the repository's rubric.yaml;
	// unset, rubric.yaml's rubric stands, and with neither it is tdqs.
	for _, c := range []struct {
		name, config, input, want, key string
	}{
		{"rubric.yaml's rubric when the input is unset", "rubric: schema-quality\n", "", "## Schema Quality ", "score-schema-quality"},
		{"the rubric input over rubric.yaml's", "rubric: schema-quality\n", "tdqs", "## Tool Definition Quality Score ", "score-tdqs"},
		{"tdqs when neither names a rubric", "", "", "## Tool Definition Quality Score ", "score-tdqs"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.config != "" {
				writeFile(t, filepath.Join(e.repo, "rubric.yaml"), c.config)
				defer os.Remove(filepath.Join(e.repo, "rubric.yaml"))
			}
			inputs := map[string]string{"command": "score", "target": "tools.json", "sarif": "true"}
			if c.input != "" {
				inputs["rubric"] = c.input
			}
			r := e.newRun(t, prEvent(7, false), inputs)
			if !r.run(e.action) {
				t.Fatalf("the action failed:\n%s", r.Log.String())
			}
			if !strings.Contains(r.Summary, c.want) {
				t.Errorf("the job summary is not the report of the rubric wanted (%s):\n%s", c.want, r.Summary)
			}
			if up := r.used(t, "github/codeql-action/upload-sarif@"); up.With["category"] != "rubric-"+c.key {
				t.Errorf("upload-sarif's category %q, want rubric-%s", up.With["category"], c.key)
			}
		})
	}

	t.Run("fork scored with the heuristic judge", func(t *testing.T) {
		_, before := e.api.snapshot()
		r := e.newRun(t, prEvent(8, true), map[string]string{
			"command": "score", "target": "tools.json", "rubric": "tdqs", "judge": "openai", "model": "gpt-x",
			"fork-policy": "heuristic", "comment": "true", "sarif": "true",
		})
		if !r.run(e.action) {
			t.Fatalf("the action failed:\n%s", r.Log.String())
		}
		for _, u := range r.Used {
			if strings.HasPrefix(u.Uses, "github/codeql-action/upload-sarif@") {
				t.Errorf("a fork's run uploaded SARIF with a token that may not: %v", u.With)
			}
		}
		if !strings.Contains(r.Summary, "scored with the offline heuristic judge instead of openai") {
			t.Errorf("the summary does not say which judge scored:\n%s", r.Summary)
		}
		if !strings.Contains(r.Log.String(), "comes from a fork, whose token may not write: no comment written") {
			t.Errorf("the comment step does not say why it wrote nothing:\n%s", r.Log.String())
		}
		if _, after := e.api.snapshot(); len(after) != len(before) {
			t.Errorf("a fork's run called the API: %v", after[len(before):])
		}
	})

	t.Run("fork scored with the heuristic judge in place of rubric.yaml's", func(t *testing.T) {
		// The judge is pinned by the repository's rubric.yaml, not by the
		// judge input: fork-policy heuristic applies all the same.
		writeFile(t, filepath.Join(e.repo, "rubric.yaml"), "judge: openai\nmodel: gpt-x\njudge-option: [temperature=0]\n")
		defer os.Remove(filepath.Join(e.repo, "rubric.yaml"))
		r := e.newRun(t, prEvent(8, true), map[string]string{
			"command": "score", "target": "tools.json", "rubric": "tdqs", "fork-policy": "heuristic",
		})
		if !r.run(e.action) {
			t.Fatalf("the action failed:\n%s", r.Log.String())
		}
		wantOutputs(t, r, map[string]string{"decision": "PASS", "exit-code": "0"})
		if !strings.Contains(r.Summary, "scored with the offline heuristic judge, whatever judge the repository's configuration names") {
			t.Errorf("the summary does not say which judge scored:\n%s", r.Summary)
		}
	})

	t.Run("fork invalid by default", func(t *testing.T) {
		r := e.newRun(t, prEvent(8, true), map[string]string{
			"command": "score", "target": "tools.json", "rubric": "tdqs", "judge": "openai", "model": "gpt-x",
		})
		if r.run(e.action) {
			t.Fatalf("the action passed:\n%s", r.Log.String())
		}
		wantOutputs(t, r, map[string]string{"decision": "INVALID", "exit-code": "2"})
		if !strings.Contains(r.Log.String(), "set OPENAI_API_KEY") {
			t.Errorf("the log does not say why:\n%s", r.Log.String())
		}
	})

	t.Run("a checksum that does not match", func(t *testing.T) {
		sums := filepath.Join(e.releaseDir(t), "checksums.txt")
		good := readFile(t, sums)
		bad := strings.Replace(good, e.sum, strings.Repeat("0", 64), 1)
		writeFile(t, sums, bad)
		defer writeFile(t, sums, good)
		r := e.newRun(t, prEvent(7, false), map[string]string{"command": "score", "target": "tools.json"})
		if r.run(e.action) {
			t.Fatalf("the action passed:\n%s", r.Log.String())
		}
		if !strings.Contains(r.Log.String(), "but checksums.txt lists 0000") || !strings.Contains(r.Log.String(), " Run rubric: skipped") {
			t.Errorf("the install did not stop the action:\n%s", r.Log.String())
		}
	})

	// The lock of a surface that differs from the repository's in every
	// way a lock sees: read_file's description changed, delete_file
	// removed since, search_files added since.
	stale := `[
  {"name": "read_file", "description": "Read a text file and return its contents, all of them."},
  {"name": "delete_file", "description": "Delete a file."}]`

	t.Run("score verifies a lock that holds", func(t *testing.T) {
		e.writeLock(t, "rubric.lock.json", readFile(t, filepath.Join(e.repo, "tools.json")))
		r := e.newRun(t, prEvent(7, false), map[string]string{
			"command": "score", "target": "tools.json", "rubric": "schema-quality", "verify": "rubric.lock.json",
		})
		if !r.run(e.action) {
			t.Fatalf("the action failed:\n%s", r.Log.String())
		}
		wantOutputs(t, r, map[string]string{"decision": "PASS", "exit-code": "0", "verify": "unchanged"})
		if !strings.Contains(r.Summary, "## rubric verify: every tool is as `rubric.lock.json` locked it\n") || !strings.Contains(r.Summary, "search_files") {
			t.Errorf("the job summary lacks the score or the verdict:\n%s", r.Summary)
		}
	})

	t.Run("score fails on tools that differ from the lock", func(t *testing.T) {
		e.writeLock(t, "rubric.lock.json", stale)
		r := e.newRun(t, prEvent(7, false), map[string]string{
			"command": "score", "target": "tools.json", "rubric": "schema-quality", "verify": "rubric.lock.json",
		})
		if r.run(e.action) {
			t.Fatalf("the action passed:\n%s", r.Log.String())
		}
		wantOutputs(t, r, map[string]string{"decision": "FAIL", "exit-code": "1", "verify": "changed", "report": ".rubric/score.md"})
		for _, w := range []string{"## rubric verify: 3 tools differ from `rubric.lock.json`\n",
			"| `delete_file` | removed |  |\n", "| `read_file` | changed | `/description`, `/inputSchema` |\n", "| `search_files` | added |  |\n",
			"    - \"Read a text file and return its contents, all of them.\"\n    + \"Read a text file and return its contents.\"\n"} {
			if !strings.Contains(r.Summary, w) {
				t.Errorf("the job summary lacks %q:\n%s", w, r.Summary)
			}
		}
		if !strings.Contains(r.Log.String(), "rubric: FAIL") {
			t.Errorf("the last step does not give the decision:\n%s", r.Log.String())
		}
	})

	t.Run("gate blocks on tools that differ from the lock", func(t *testing.T) {
		r := e.newRun(t, prEvent(7, false), map[string]string{
			"command": "gate", "target": "tools.json", "rubric": "schema-quality", "verify": "rubric.lock.json",
		})
		if r.run(e.action) {
			t.Fatalf("the action passed:\n%s", r.Log.String())
		}
		wantOutputs(t, r, map[string]string{"decision": "BLOCK", "exit-code": "1", "verify": "", "report": ".rubric/gate.md"})
		for _, w := range []string{"## rubric gate: BLOCK", "differ from the lock rubric.lock.json (delete\\_file removed, read\\_file changed, search\\_files added)",
			"### Lock: 3 tools differ from `rubric.lock.json`\n", "| `delete_file` | removed |  |\n"} {
			if !strings.Contains(r.Summary, w) {
				t.Errorf("the job summary lacks %q:\n%s", w, r.Summary)
			}
		}
	})

	t.Run("a lock file that is not there", func(t *testing.T) {
		r := e.newRun(t, prEvent(7, false), map[string]string{
			"command": "score", "target": "tools.json", "rubric": "schema-quality", "verify": "nosuch.lock.json",
		})
		if r.run(e.action) {
			t.Fatalf("the action passed:\n%s", r.Log.String())
		}
		wantOutputs(t, r, map[string]string{"decision": "INVALID", "exit-code": "2", "verify": "invalid"})
		if !strings.Contains(r.Log.String(), "nosuch.lock.json does not exist: write one with rubric lock") {
			t.Errorf("the log does not say what to do:\n%s", r.Log.String())
		}
	})

	t.Run("rubric stops before a report", func(t *testing.T) {
		// A report of an earlier run in the workspace must not stand in.
		writeFile(t, filepath.Join(e.repo, ".rubric", "score.md"), "## rubric score: stale\n")
		_, before := e.api.snapshot()
		r := e.newRun(t, prEvent(7, false), map[string]string{
			"command": "score", "target": "nosuch.tools.json", "rubric": "schema-quality", "comment": "true",
		})
		if r.run(e.action) {
			t.Fatalf("the action passed:\n%s", r.Log.String())
		}
		wantOutputs(t, r, map[string]string{"decision": "INVALID", "exit-code": "2", "report": ".rubric/score-error.md"})
		for _, w := range []string{"## rubric score: INVALID\n", "rubric stopped before it wrote a report (exit status 2):", "nosuch.tools.json"} {
			if !strings.Contains(r.Summary, w) {
				t.Errorf("the job summary lacks %q:\n%s", w, r.Summary)
			}
		}
		if strings.Contains(r.Summary, "stale") {
			t.Errorf("the job summary shows an earlier run's report:\n%s", r.Summary)
		}
		cs, after := e.api.snapshot()
		if len(after) == len(before) {
			t.Fatalf("the comment was not written:\n%s", r.Log.String())
		}
		found := false
		for _, c := range cs {
			found = found || (strings.HasPrefix(c.Body, Marker("score-schema-quality")+"\n") && strings.Contains(c.Body, "rubric stopped before it wrote a report"))
		}
		if !found {
			t.Errorf("no comment says why: %+v", cs)
		}
	})

	t.Run("a gate refused before it begins writes gate.json", func(t *testing.T) {
		// The repository's rubric.yaml names the head, which the gate
		// refuses to read from a file the change being gated can edit: a
		// usage error, exit 2, before anything runs. gate.json
		// and gate.md say INVALID with that reason, in place of an
		// earlier run's, for the steps that read them.
		if err := os.MkdirAll(filepath.Join(e.repo, ".rubric"), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(e.repo, ".rubric", "gate.json"), `{"gate_version": 1, "decision": "PASS", "exit_code": 0, "reason": "stale"}`+"\n")
		writeFile(t, filepath.Join(e.repo, "rubric.yaml"), "head: main\n")
		defer os.Remove(filepath.Join(e.repo, "rubric.yaml"))
		r := e.newRun(t, prEvent(7, false), map[string]string{"command": "gate", "target": "tools.json", "rubric": "schema-quality"})
		if r.run(e.action) {
			t.Fatalf("the action passed:\n%s", r.Log.String())
		}
		wantOutputs(t, r, map[string]string{"decision": "INVALID", "exit-code": "2", "report": ".rubric/gate.md"})
		var g struct{ Decision, Reason string }
		readJSON(t, filepath.Join(e.repo, ".rubric", "gate.json"), &g)
		if g.Decision != "INVALID" || !strings.HasPrefix(g.Reason, "config rubric.yaml:1: the gate does not read head") {
			t.Errorf("gate.json: %+v", g)
		}
		if !strings.Contains(r.Summary, "the gate does not read head") {
			t.Errorf("the job summary does not say why:\n%s", r.Summary)
		}
	})

	t.Run("an operator in the server input", func(t *testing.T) {
		// eval "set -- a && b" ran a in the step and scored b: here the
		// file marker would be written by the step, and "true" scored.
		marker := filepath.Join(t.TempDir(), "ran-in-the-step")
		r := e.newRun(t, prEvent(7, false), map[string]string{
			"command": "score", "server": "touch " + marker + " && true", "rubric": "schema-quality", "sarif": "true",
		})
		if r.run(e.action) {
			t.Fatalf("the action passed:\n%s", r.Log.String())
		}
		if _, err := os.Stat(marker); err == nil {
			t.Error("the part of the server input before && ran in the step")
		}
		wantOutputs(t, r, map[string]string{"decision": "INVALID", "exit-code": "2", "report": ".rubric/score-error.md", "sarif": ""})
		for _, w := range []string{"the server input is not one command", "give one that runs a shell: server: sh -c 'npm run build && node dist/index.js'"} {
			if !strings.Contains(r.Summary, w) {
				t.Errorf("the job summary lacks %q:\n%s", w, r.Summary)
			}
		}
	})

	t.Run("a server input of two lines", func(t *testing.T) {
		// A block scalar of two commands was read as one command of
		// both (a newline is a space inside the parentheses).
		r := e.newRun(t, prEvent(7, false), map[string]string{
			"command": "score", "server": "true --build\ntrue --serve\n", "rubric": "schema-quality",
		})
		if r.run(e.action) {
			t.Fatalf("the action passed:\n%s", r.Log.String())
		}
		wantOutputs(t, r, map[string]string{"decision": "INVALID", "exit-code": "2", "report": ".rubric/score-error.md"})
		if !strings.Contains(r.Summary, "the server input holds more than one line") {
			t.Errorf("the job summary does not say why:\n%s", r.Summary)
		}
	})

	t.Run("a server that stops before its report uploads no SARIF", func(t *testing.T) {
		r := e.newRun(t, prEvent(7, false), map[string]string{
			"command": "score", "server": `sh -c 'exit 3'`, "rubric": "schema-quality", "sarif": "true",
		})
		if r.run(e.action) {
			t.Fatalf("the action passed:\n%s", r.Log.String())
		}
		wantOutputs(t, r, map[string]string{"decision": "INVALID", "exit-code": "2", "sarif": ""})
		for _, u := range r.Used {
			if strings.HasPrefix(u.Uses, "github/codeql-action/upload-sarif@") {
				t.Errorf("upload-sarif ran on %v, which rubric did not write", u.With)
			}
		}
	})

	t.Run("a rubric.yaml rubric refuses is reported", func(t *testing.T) {
		// Prepare reads which rubric rubric.yaml names; one that is not
		// YAML, or names no rubric there is, stopped the action there,
		// with no summary, no comment and no decision.
		for _, yaml := range []string{"rubric: [oops\n", "rubric: nosuch\n"} {
			writeFile(t, filepath.Join(e.repo, "rubric.yaml"), yaml)
			r := e.newRun(t, prEvent(7, false), map[string]string{"command": "score", "target": "tools.json"})
			ok := r.run(e.action)
			os.Remove(filepath.Join(e.repo, "rubric.yaml"))
			if ok {
				t.Fatalf("%q: the action passed:\n%s", yaml, r.Log.String())
			}
			wantOutputs(t, r, map[string]string{"decision": "INVALID", "exit-code": "2", "report": ".rubric/score-error.md"})
			if !strings.Contains(r.Summary, "rubric.yaml") {
				t.Errorf("%q: the job summary does not say what rubric.yaml holds wrong:\n%s", yaml, r.Summary)
			}
		}
	})

	t.Run("the server command in the command input", func(t *testing.T) {
		r := e.newRun(t, prEvent(7, false), map[string]string{"command": "python -m my_server"})
		if r.run(e.action) {
			t.Fatal("the action passed")
		}
		if !strings.Contains(r.Log.String(), `the command input is "score" or "gate", not "python -m my_server"; the server's command line goes in the server input`) {
			t.Errorf("no message saying what to do:\n%s", r.Log.String())
		}
	})
}

// toolsJSON is the scratch repository's surface: two tools.
const toolsJSON = `{"tools": [
  {"name": "search_files", "description": "Search the files under a directory whose names match a glob, and return their paths.",
   "inputSchema": {"type": "object", "properties": {
     "path": {"type": "string", "description": "The directory to search."},
     "pattern": {"type": "string", "description": "Glob the file names must match."}},
     "required": ["path", "pattern"], "additionalProperties": false}},
  {"name": "read_file", "description": "Read a text file and return its contents.",
   "inputSchema": {"type": "object", "properties": {
     "path": {"type": "string", "description": "The file to read."}},
     "required": ["path"], "additionalProperties": false}}
]}
`

func newActionEnv(t *testing.T) *actionEnv {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	e := &actionEnv{t: t, action: loadAction(t, filepath.Join(root, "action.yml")), actionPath: root, version: "1.2.3"}

	// The release: an archive as .goreleaser.yaml names it, with rubric
	// at its root, and checksums.txt.
	bin := buildtest.Binary(t, "./cmd/rubric", "", "rubric")
	rel := t.TempDir()
	e.releaseURL, e.releaseRoot = serveDir(t, rel), rel
	dir := filepath.Join(rel, "v"+e.version)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	archive := fmt.Sprintf("rubric_%s_linux_%s.tar.gz", e.version, runtime.GOARCH)
	e.sum = fmt.Sprintf("%x", writeTarGz(t, filepath.Join(dir, archive), bin))
	writeFile(t, filepath.Join(dir, "checksums.txt"), fmt.Sprintf("%s  rubric_%s_darwin_arm64.tar.gz\n%s  %s\n", strings.Repeat("a", 64), e.version, e.sum, archive))

	e.api = newFakeAPI(t, "tok")

	// The repository: main holds the base, the work tree the head.
	e.repo = t.TempDir()
	e.git(t, "init", "-q", "-b", "main")
	e.git(t, "config", "user.email", "t@example.invalid")
	e.git(t, "config", "user.name", "t")
	e.commit(t, toolsJSON)
	e.git(t, "update-ref", "refs/remotes/origin/main", "HEAD")
	e.git(t, "checkout", "-q", "-b", "feature")
	writeFile(t, filepath.Join(e.repo, ".gitignore"), ".rubric/\n")
	e.git(t, "add", ".gitignore")
	e.git(t, "commit", "-q", "-m", "ignore reports")
	return e
}

// writeLock writes a lock of tools (a tools/list result's tools, or the
// result) to name in the repository's work tree, as rubric lock would.
func (e *actionEnv) writeLock(t *testing.T, name, tools string) {
	t.Helper()
	if strings.HasPrefix(strings.TrimSpace(tools), "[") {
		tools = `{"tools": ` + tools + `}`
	}
	s, err := surface.Parse(name, []byte(tools))
	if err != nil {
		t.Fatal(err)
	}
	if err := lock.New(s).Write(filepath.Join(e.repo, name)); err != nil {
		t.Fatal(err)
	}
}

func (e *actionEnv) releaseDir(*testing.T) string {
	return filepath.Join(e.releaseRoot, "v"+e.version)
}

func (e *actionEnv) git(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = e.repo
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (e *actionEnv) commit(t *testing.T, tools string) {
	writeFile(t, filepath.Join(e.repo, "tools.json"), tools)
	e.git(t, "add", "tools.json")
	e.git(t, "commit", "-q", "-m", "tools")
}

// newRun is a run of the action with inputs, in a job whose event payload
// is event.
func (e *actionEnv) newRun(t *testing.T, event string, inputs map[string]string) *actionRun {
	tmp := t.TempDir()
	eventPath := filepath.Join(tmp, "event.json")
	writeFile(t, eventPath, event)
	runnerTemp := filepath.Join(tmp, "runner")
	if err := os.MkdirAll(runnerTemp, 0o755); err != nil {
		t.Fatal(err)
	}
	inputs["version"] = e.version
	inputs["release-url"] = e.releaseURL
	arch := map[string]string{"amd64": "X64", "arm64": "ARM64"}[runtime.GOARCH]
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + tmp,
		"XDG_CACHE_HOME=" + filepath.Join(tmp, "cache"),
		"XDG_CONFIG_HOME=" + filepath.Join(tmp, "config"),
		"GIT_CONFIG_GLOBAL=/dev/null",
		"GITHUB_ACTIONS=true",
		"GITHUB_EVENT_PATH=" + eventPath,
		"GITHUB_EVENT_NAME=pull_request",
		"GITHUB_API_URL=" + e.api.srv.URL,
		"GITHUB_REPOSITORY=owner/repo",
		"GITHUB_BASE_REF=main",
		"GITHUB_RUN_ID=41",
		"GITHUB_RUN_ATTEMPT=1",
		"GITHUB_WORKSPACE=" + e.repo,
		"RUNNER_OS=Linux",
		"RUNNER_ARCH=" + arch,
		"RUNNER_TEMP=" + runnerTemp,
	}
	return &actionRun{
		t: t, actionPath: e.actionPath, workspace: e.repo, inputs: inputs, env: env,
		github: map[string]string{"action_path": e.actionPath, "action_ref": "main", "token": "tok"},
		runner: map[string]string{"temp": runnerTemp},
	}
}

func prEvent(n int, fork bool) string {
	head := "owner/repo"
	if fork {
		head = "mallory/repo"
	}
	return fmt.Sprintf(`{"pull_request": {"number": %d, "head": {"repo": {"full_name": %q, "fork": %t}}, "base": {"repo": {"full_name": "owner/repo"}}}}`, n, head, fork)
}

func (r *actionRun) used(t *testing.T, prefix string) usedAction {
	t.Helper()
	for _, u := range r.Used {
		if strings.HasPrefix(u.Uses, prefix) {
			return u
		}
	}
	t.Fatalf("no step used %s; used: %+v", prefix, r.Used)
	return usedAction{}
}

func wantOutputs(t *testing.T, r *actionRun, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if r.Outputs[k] != v {
			t.Errorf("output %s = %q, want %q\n%s", k, r.Outputs[k], v, r.Log.String())
		}
	}
}

// serveDir serves dir on 127.0.0.1 and returns its address.
func serveDir(t *testing.T, dir string) string {
	srv := httptest.NewServer(http.FileServer(http.Dir(dir)))
	t.Cleanup(srv.Close)
	return srv.URL
}

// writeTarGz writes a tar.gz holding bin as "rubric" and returns its
// sha256.
func writeTarGz(t *testing.T, path, bin string) []byte {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	// Stored, not compressed: the archive is made once and each run of
	// the action extracts it (rubric and the companion it may hold, in
	// one pass), and tar's gzip -d spent nearly half of TestAction's CPU
	// inflating rubric's tens of megabytes, for nothing the test checks.
	// A stored archive is still a gzip stream that tar -xzf reads and
	// sha256sum hashes: TestAction under bench/reap, three alternated
	// runs each, load 8, 14.4 CPU-s at gzip.BestSpeed, 12.5 stored.
	gz, err := gzip.NewWriterLevel(io.MultiWriter(f, h), gzip.NoCompression)
	if err != nil {
		t.Fatal(err)
	}
	tw := tar.NewWriter(gz)
	b, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := tw.WriteHeader(&tar.Header{Name: "rubric", Mode: 0o755, Size: int64(len(b))}); err != nil {
		t.Fatal(err)
	}
	if _, err := tw.Write(b); err != nil {
		t.Fatal(err)
	}
	for _, c := range []io.Closer{tw, gz, f} {
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return h.Sum(nil)
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(readFile(t, path)), v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
