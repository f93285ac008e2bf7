package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
	"github.com/rubricmcp/rubric/internal/fakemcp"
	"github.com/rubricmcp/rubric/plugins/sdk"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script")

func TestMain(m *testing.M) {
	// Started again by itself to serve a built-in plugin (benchmarks and
	// in-process runs re-execute the test binary).
	if sdk.ServeBuiltin(os.Args[1:], builtins) {
		os.Exit(0)
	}
	commands := map[string]func(){
		"rubric": main,
		// Plugins that misbehave, installed into a script's plugin
		// directory by installplugin.
		"rubric-transport-crash": crashTransportMain,
		"rubric-judge-future":    futureJudgeMain,
		"rubric-judge-flaky":     flakyJudgeMain,
		"rubric-judge-panicky":   panicJudgeMain,
		"rubric-judge-plain":     plainJudgeMain,
		"rubric-judge-hung":      hungJudgeMain,
		// MCP servers that misbehave (internal/fakemcp).
		"fakemcp": fakemcp.Main,
		// "go run PKG" that links each distinct source once.
		"gorun": goRunMain,
	}
	if commands[filepath.Base(os.Args[0])] == nil {
		// The test binary itself, not one of the commands above, whose
		// arguments are not go test's flags.
		flag.Parse()
		widenParallel()
		pinGoCache()
	}
	testscript.Main(m, commands)
}

// pinGoCache sets GOCACHE in the test binary's environment to the build
// cache go uses now, so that the programs the tests build (installBuilt,
// gorun) find what is compiled there whichever test builds them first:
// a test that points XDG_CACHE_HOME at a directory of its own (rubric's
// cache, cliReport) would otherwise point go at an empty build cache,
// and the first build after it compiled the standard library and every
// dependency again (TestMCPServe alone: some 70 CPU-s).
func pinGoCache() {
	if out, err := goEnvOut(); err == nil {
		if dir, _, _ := strings.Cut(string(out), "\n"); dir != "" {
			os.Setenv("GOCACHE", dir)
		}
	}
}

// scriptsPerCPU is how many transcripts run at once for each CPU, unless
// go test is given -parallel. A transcript's own goroutine only waits:
// on rubric, its plugins and servers, one process after another, each a
// short start and a shorter piece of work, with handshakes and the
// servers' timeouts in between. Two at a time on two cores (go test's
// default, GOMAXPROCS) left a core idle in those gaps whenever the rest
// of make test did not fill it, which at the end of the run it did not.
const scriptsPerCPU = 4

// widenParallel raises go test's -parallel to scriptsPerCPU transcripts
// for each CPU, when the command line does not set it.
func widenParallel() {
	set := false
	flag.Visit(func(f *flag.Flag) {
		if f.Name == "test.parallel" {
			set = true
		}
	})
	if !set {
		if err := flag.Set("test.parallel", strconv.Itoa(scriptsPerCPU*runtime.GOMAXPROCS(0))); err != nil {
			panic(err)
		}
	}
}

// TestScripts runs the CLI end to end: each testdata/script/*.txtar is a
// transcript of commands and their expected output. The real corpus
// captures, the example rubrics and the example registry capture (with
// its answers) are copied into each script's work directory as corpus/,
// rubrics/ and captures/.
//
// TestScripts and the package's other tests that start processes run in
// parallel with each other, so that the transcripts fill the gaps of the
// minutes-long live tests (an npm install, a go build, a published
// server's start) and the other way round; a top-level test that is not
// parallel runs before all of them, alone.
func TestScripts(t *testing.T) {
	t.Parallel()
	files, err := scripts(os.Getenv(scriptsEnv))
	if err != nil {
		t.Fatal(err)
	}
	if err := warmGoBuild(files); err != nil {
		t.Fatal(err)
	}
	if err := installFakeMCP(); err != nil {
		t.Fatal(err)
	}
	if err := installCompanions(); err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Files:         files,
		UpdateScripts: *update,
		Condition:     envCondition,
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"replace":       replaceCmd,
			"gensurface":    gensurfaceCmd,
			"fifo":          fifoCmd,
			"installplugin": installPluginCmd,
			"sha256":        sha256Cmd,
			"waitfile":      waitFileCmd,
			"cmpboard":      cmpBoardCmd,
			"gone":          goneCmd,
			"fakellm":       fakeLLMCmd,
			"fakebatch":     fakeBatchCmd,
			"untimed":       untimedCmd,
			"tidyrepo":      tidyRepoCmd,
			"sloppyrepo":    sloppyRepoCmd,
			"sarifcheck":    sarifCheckCmd,
			"testdeps":      testdepsCmd,
			"freshdb":       freshDBCmd,
		},
		Setup: func(env *testscript.Env) error {
			env.Setenv("NO_COLOR", "")
			// The Postgres of scripts/pg-test.sh, for scan_postgres's freshdb.
			env.Setenv("RUBRIC_TEST_POSTGRES", os.Getenv("RUBRIC_TEST_POSTGRES"))
			// A race-enabled binary otherwise waits a second before it
			// exits, and every plugin here is one.
			env.Setenv("GORACE", "atexit_sleep_ms=0")
			passGOGC(env)
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(env.WorkDir, ".config"))
			env.Setenv("XDG_CACHE_HOME", filepath.Join(env.WorkDir, ".cache"))
			env.Setenv(goRunCacheEnv, filepath.Join(env.WorkDir, ".gorun"))
			// A plugin here is this test binary, race-built in the race
			// pass, started on a machine that may be busy: its start
			// must not meet the 10 s a user's plugins get. No script is
			// about that timeout (plugins/host tests it).
			env.Setenv("RUBRIC_PLUGIN_START_TIMEOUT", "2m")
			// A server here may be built as it starts (go run, or gorun
			// after a change to its source: a link) inside rubric's wait
			// for its answer to initialize, which on a machine at load 45
			// took more than the default 60 s (gate_tidy failed so). No
			// script is about that wait but servers, which sets
			// --start-timeout itself, and a flag comes before this.
			env.Setenv("RUBRIC_START_TIMEOUT", "10m")
			if err := goEnv(env); err != nil {
				return err
			}
			// The MCP 2026-07-28 test servers (internal/modernmcp).
			modern, err := filepath.Abs("../../testdata/modern")
			if err != nil {
				return err
			}
			env.Setenv("MODERN", modern)
			// The repository, for scripts that build what README.md
			// tells a user to build from it (readme_quickstart).
			repo, err := filepath.Abs("../..")
			if err != nil {
				return err
			}
			env.Setenv("REPO", repo)
			if err := copyGlob("../../engine/score/testdata/corpus/*.json", filepath.Join(env.WorkDir, "corpus")); err != nil {
				return err
			}
			if err := copyGlob("../../rubrics/testdata/tdqs/*", filepath.Join(env.WorkDir, "tdqs")); err != nil {
				return err
			}
			if err := copyGlob("../../rubrics/testdata/tdqs13/partial.*", filepath.Join(env.WorkDir, "tdqs13")); err != nil {
				return err
			}
			if err := copyGlob("../../rubrics/testdata/gradable/*", filepath.Join(env.WorkDir, "gradable")); err != nil {
				return err
			}
			if err := copyGlob("../../examples/captures/tidy.*", filepath.Join(env.WorkDir, "captures")); err != nil {
				return err
			}
			return copyGlob("../../examples/rubrics/*.hcl", filepath.Join(env.WorkDir, "rubrics"))
		},
	})
}

// passGOGC gives the processes a script starts (rubric, its plugins,
// servers, go) the collector's percentage this test binary runs with,
// which testscript, starting each script from an environment of its
// own, would otherwise drop: make test sets GOGC=400 for its passes
// (the Makefile's TEST_GOGC), and the transcripts not run race-built
// took 60 CPU-s with it against 68 at Go's default (RUBRIC_SCRIPTS=rest,
// two alternated runs each).
func passGOGC(env *testscript.Env) {
	if v, ok := os.LookupEnv("GOGC"); ok {
		env.Setenv("GOGC", v)
	}
}

// scriptsEnv chooses which transcripts TestScripts runs: "race" runs
// raceScripts, "rest" every other one, and anything else (unset) all.
// make test's race pass runs the first set and its pass without -race
// the second, so that each transcript runs once.
const scriptsEnv = "RUBRIC_SCRIPTS"

// raceScripts are the transcripts whose subject is concurrency inside
// the rubric process: a signal while reading, servers that hang, flood
// or die while rubric reads them, plugins that crash mid-call, a judge
// asked concurrently with retries and back-off. The others spend their
// time starting race-built processes (every rubric, plugin and server
// in a script is one) to check what is printed and written, which the
// race detector has nothing to say about that these and the engine's
// own race-tested packages do not.
var raceScripts = []string{"interrupt", "servers", "plugins", "llm"}

// scripts lists the transcripts under testdata/script that which selects
// (see scriptsEnv), failing when raceScripts names one that is not there.
func scripts(which string) ([]string, error) {
	all, err := filepath.Glob(filepath.Join("testdata", "script", "*.txtar"))
	if err != nil {
		return nil, err
	}
	var race, rest []string
	for _, f := range all {
		if slices.Contains(raceScripts, strings.TrimSuffix(filepath.Base(f), ".txtar")) {
			race = append(race, f)
		} else {
			rest = append(rest, f)
		}
	}
	if len(race) != len(raceScripts) {
		return nil, fmt.Errorf("raceScripts names %v, but testdata/script holds only %d of them", raceScripts, len(race))
	}
	switch which {
	case "race":
		return race, nil
	case "rest":
		return rest, nil
	}
	return all, nil
}

// replaceCmd is "replace OLD NEW FILE": it rewrites every OLD in FILE,
// failing when there is none, for scripts that tamper with a file.
func replaceCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: replace OLD NEW FILE")
	}
	path := ts.MkAbs(args[2])
	b, err := os.ReadFile(path)
	ts.Check(err)
	if !strings.Contains(string(b), args[0]) {
		ts.Fatalf("%s does not contain %q", args[2], args[0])
	}
	ts.Check(os.WriteFile(path, []byte(strings.ReplaceAll(string(b), args[0], args[1])), 0o644))
}

// gensurfaceCmd is "gensurface N FILE": a capture of N tools made from
// the corpus captures in corpus/.
func gensurfaceCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: gensurface N FILE")
	}
	n, err := strconv.Atoi(args[0])
	ts.Check(err)
	files, err := filepath.Glob(ts.MkAbs("corpus/*.tools.json"))
	ts.Check(err)
	f, err := os.Create(ts.MkAbs(args[1]))
	ts.Check(err)
	ts.Check(surfacetest.Repeat(f, n, files...))
	ts.Check(f.Close())
}

// fifoCmd is "fifo PIPE FILE": it makes the named pipe PIPE and, in the
// background, writes FILE into it but for its last byte once a reader
// opens it, then creates PIPE.open and holds the pipe open until the
// script ends. A script reads PIPE with rubric, waits for PIPE.open and
// so acts while rubric is still reading, whatever the machine's load.
func fifoCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: fifo PIPE FILE")
	}
	pipe := ts.MkAbs(args[0])
	data, err := os.ReadFile(ts.MkAbs(args[1]))
	ts.Check(err)
	if len(data) == 0 {
		ts.Fatalf("%s is empty", args[1])
	}
	ts.Check(syscall.Mkfifo(pipe, 0o644))
	done := make(chan struct{})
	ts.Defer(func() { close(done) })
	go func() {
		f, err := os.OpenFile(pipe, os.O_WRONLY, 0) // waits for a reader
		if err != nil {
			return
		}
		defer f.Close()
		if _, err := f.Write(data[:len(data)-1]); err != nil {
			return // the reader went away
		}
		if m, err := os.Create(pipe + ".open"); err == nil {
			m.Close()
		}
		<-done
	}()
}

func copyGlob(pattern, dir string) error {
	files, err := filepath.Glob(pattern)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// TestScriptSets: the race pass's transcripts and the others are apart
// and together every transcript, so that make test runs each once.
func TestScriptSets(t *testing.T) {
	all, err := scripts("")
	if err != nil {
		t.Fatal(err)
	}
	race, err := scripts("race")
	if err != nil {
		t.Fatal(err)
	}
	rest, err := scripts("rest")
	if err != nil {
		t.Fatal(err)
	}
	if len(race) != len(raceScripts) || len(race)+len(rest) != len(all) {
		t.Fatalf("race %d + rest %d transcripts, want %d + %d = %d", len(race), len(rest), len(raceScripts), len(all)-len(raceScripts), len(all))
	}
	for _, f := range race {
		if slices.Contains(rest, f) {
			t.Errorf("%s is in both sets", f)
		}
	}
	saved := raceScripts
	t.Cleanup(func() { raceScripts = saved })
	raceScripts = append([]string{"no-such-script"}, saved...)
	if _, err := scripts("race"); err == nil || !strings.Contains(err.Error(), "no-such-script") {
		t.Errorf("a misnamed race script: err = %v, want one naming it", err)
	}
}
