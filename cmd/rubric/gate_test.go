package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// goEnvOut is go env's answer, asked once for every script.
var goEnvOut = sync.OnceValues(func() ([]byte, error) {
	return exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT").Output()
})

// warmGoBuild compiles, without linking, the example servers that
// transcripts start with "go run" or gorun, when one of files does, so
// that their dependencies are in the build cache, compiled with
// -trimpath as the scripts build (see goEnv), before any script starts
// a server: on a cold cache that compile is minutes of a loaded
// machine, which a server's start within rubric's initialize timeout
// must not include. On a warm cache it costs go's start. It asks go list
// for the packages' export data, which compiles them: go build of two
// main packages links both and throws them away (3.3 CPU-s on a warm
// cache, against 0.5).
func warmGoBuild(files []string) error {
	uses := false
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if bytes.Contains(b, []byte("go run")) || bytes.Contains(b, []byte("gorun")) {
			uses = true
			break
		}
	}
	if !uses {
		return nil
	}
	cmd := exec.Command("go", "list", "-export", "-trimpath", "../../examples/servers/tidy", "../../examples/servers/sloppy")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go list -export (a compile) of the example servers: %v\n%s", err, out)
	}
	return nil
}

// goEnv is what a script needs to build a Go server offline: this
// module's build and module caches, and no network.
func goEnv(env *testscript.Env) error {
	out, err := goEnvOut()
	if err != nil {
		return err
	}
	vals := strings.Split(strings.TrimSpace(string(out)), "\n")
	for i, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH", "GOROOT"} {
		if i < len(vals) {
			env.Setenv(k, vals[i])
		}
	}
	// -trimpath keeps a package's directory out of its build cache key:
	// a script builds its servers in its own $WORK, and the gate in a
	// temporary worktree per side, so without it every build compiled
	// afresh what an earlier script, run or side had already compiled.
	env.Setenv("GOFLAGS", "-mod=mod -buildvcs=false -trimpath")
	env.Setenv("GOPROXY", "off")
	env.Setenv("GOSUMDB", "off")
	env.Setenv("GOTOOLCHAIN", "local")
	env.Setenv("GOENV", "off")
	// Commits made by scripts need an author, and no user's git config.
	gitconfig := filepath.Join(env.WorkDir, ".gitconfig")
	if err := os.WriteFile(gitconfig, nil, 0o644); err != nil {
		return err
	}
	env.Setenv("GIT_CONFIG_GLOBAL", gitconfig)
	env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	for _, k := range []string{"GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"} {
		env.Setenv(k, "rubric test")
	}
	for _, k := range []string{"GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"} {
		env.Setenv(k, "test@example.com")
	}
	return nil
}

// importPath is this module's path to the example servers' internal
// packages, which a copy outside the module must not import.
var importPath = regexp.MustCompile(`"github\.com/rubricmcp/rubric/examples/servers/internal/`)

// tidyRepoCmd is "tidyrepo DIR": DIR becomes a git repository whose one
// commit, on branch main, holds a copy of the example server tidy (with
// the internal packages it imports) as a module of its own, built with
// this module's requirements, so that "go run ." serves tidy's tools
// over stdio. The copy adds defineShort, which defines a tool with a
// short description in place of its long one, for scripts that make a
// description worse with one replace.
func tidyRepoCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: tidyrepo DIR")
	}
	dir := ts.MkAbs(args[0])
	copyExampleServer(ts, dir, "tidy")
	ts.Check(os.WriteFile(filepath.Join(dir, "short.go"), []byte(`package main

import "github.com/mark3labs/mcp-go/mcp"

// defineShort defines a tool with the short description in place of the
// long one.
func defineShort(name, title, short, long string, ann mcp.ToolAnnotation, input, output string) mcp.Tool {
	return define(name, title, short, ann, input, output)
}
`), 0o644))
	ts.Check(os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(".rubric/\n"), 0o644))
	gitCommitAll(ts, dir, "tidy")
}

// copyExampleServer writes into dir the example server NAME
// (examples/servers/NAME, its source without tests, and the example
// servers' internal packages it imports) as a module of its own,
// example.com/NAME, built with this module's requirements, so that
// "go run ." in dir serves NAME's tools over stdio.
func copyExampleServer(ts *testscript.TestScript, dir, name string) {
	root := filepath.Join("..", "..")
	copyGo := func(from, to string) {
		files, err := filepath.Glob(filepath.Join(root, from, "*.go"))
		ts.Check(err)
		ts.Check(os.MkdirAll(filepath.Join(dir, to), 0o755))
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			ts.Check(err)
			b = importPath.ReplaceAll(b, []byte(`"example.com/`+name+`/internal/`))
			ts.Check(os.WriteFile(filepath.Join(dir, to, filepath.Base(f)), b, 0o644))
		}
	}
	copyGo("examples/servers/"+name, ".")
	copyGo("examples/servers/internal/serve", "internal/serve")
	copyGo("examples/servers/internal/store", "internal/store")
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	ts.Check(err)
	mod = regexp.MustCompile(`(?m)^module .*$`).ReplaceAll(mod, []byte("module example.com/"+name))
	ts.Check(os.WriteFile(filepath.Join(dir, "go.mod"), mod, 0o644))
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	ts.Check(err)
	ts.Check(os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644))
}

// gitCommitAll makes dir a git repository on branch main whose one
// commit, with message msg, holds everything in it.
func gitCommitAll(ts *testscript.TestScript, dir, msg string) {
	for _, args := range [][]string{{"init", "-q", "-b", "main"}, {"add", "."}, {"commit", "-q", "-m", msg}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = gitEnv(ts)
		if out, err := cmd.CombinedOutput(); err != nil {
			ts.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// gitEnv is the script's environment, for git run by a command.
func gitEnv(ts *testscript.TestScript) []string {
	var env []string
	for _, k := range []string{"PATH", "HOME", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_NOSYSTEM", "GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME", "GIT_COMMITTER_EMAIL"} {
		env = append(env, k+"="+ts.Getenv(k))
	}
	return env
}
