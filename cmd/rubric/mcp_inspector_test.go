package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rubricmcp/rubric/internal/heavytest"
)

// inspector is the MCP Inspector's CLI as testdeps/inspector pins it.
const inspector = "../../testdeps/inspector/node_modules/.bin/mcp-inspector"

// TestMCPInspector drives rubric mcp with a client nobody here wrote: the
// MCP Inspector's CLI lists the tools and calls score on a corpus file,
// whose result must equal rubric score's. Skipped when the Inspector is
// not installed, unless RUBRIC_REQUIRE_SERVERS is set (make testdeps
// installs it, and make test sets the variable, so CI never skips).
func TestMCPInspector(t *testing.T) {
	heavytest.Later(t)
	if _, err := os.Stat(inspector); err != nil {
		if os.Getenv("RUBRIC_REQUIRE_SERVERS") != "" {
			t.Fatalf("the MCP Inspector is not installed: run make testdeps (%v)", err)
		}
		t.Skip("the MCP Inspector is not installed: run make testdeps")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node")
	}
	rubricExe, err := exec.LookPath("rubric") // the test binary, as TestMain set it up
	if err != nil {
		t.Fatal(err)
	}
	if err := installCompanions(); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(corpusFile)
	if err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) []byte {
		t.Helper()
		cmd := exec.Command(inspector, append([]string{"--cli", rubricExe, "mcp"}, args...)...)
		cmd.Env = append(os.Environ(), mcpEnv(t)...)
		out, err := cmd.Output()
		if err != nil {
			var stderr []byte
			if ee, ok := err.(*exec.ExitError); ok {
				stderr = ee.Stderr
			}
			t.Fatalf("mcp-inspector %v: %v\n%s\n%s", args, err, out, stderr)
		}
		return out
	}

	var list struct {
		Tools []struct {
			Name         string          `json:"name"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(run("--method", "tools/list"), &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		if len(tool.OutputSchema) == 0 {
			t.Errorf("the Inspector sees no output schema on %s", tool.Name)
		}
	}
	if len(names) != 5 {
		t.Errorf("the Inspector lists %v", names)
	}

	var res struct {
		IsError    bool   `json:"isError"`
		Structured scored `json:"structuredContent"`
	}
	out := run("--method", "tools/call", "--tool-name", "score", "--tool-arg", `target={"file":`+quoteJSON(abs)+`}`)
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	want := cliReport(t, abs, "schema-quality")
	if res.IsError || res.Structured.Score == nil || *res.Structured.Score != want["score"].(float64) || *res.Structured.Grade != want["grade"] || len(res.Structured.Tools) != len(want["tools"].([]any)) {
		t.Errorf("the Inspector's score call gave %s; rubric score says %v %v", out, want["score"], want["grade"])
	}
}

func quoteJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
