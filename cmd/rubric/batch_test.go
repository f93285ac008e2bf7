package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"regexp"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/rubricmcp/rubric/internal/fakebatch"
)

// fakeBatchCmd is "fakebatch [-garbage N] [-hold-from N]": it serves, in the background
// of the script, the OpenAI and Anthropic APIs with their batch endpoints
// (internal/fakebatch), answering TDQS questions as fakellm does, and
// sets BATCH to its OpenAI base URL and BATCH_HOST to its Anthropic one.
// Every batch stays in progress while a file named hold exists (with
// -hold-from N, once N batches were created; a look at a batch held so
// touches the file holding). The stages it reached are signalled by
// files: created once a batch was created (created-N once N were),
// polled once a created batch was looked at (polled-N once N batches
// each were); counts holds what it was sent (batches created, looks at
// a batch, results files read, one-call calls, questions submitted and
// those submitted more than once), rewritten after each request.
func fakeBatchCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("usage: fakebatch [-garbage N] [-hold-from N] [-expire]")
	}
	fs := flag.NewFlagSet("fakebatch", flag.ContinueOnError)
	garbage := fs.Int("garbage", 0, "batch answers, the first ones, that are not JSON")
	holdFrom := fs.Int("hold-from", 0, "batches created before the hold applies")
	expire := fs.Bool("expire", false, "every batch expires before answering any item")
	if err := fs.Parse(args); err != nil {
		ts.Fatalf("fakebatch: %v", err)
	}
	hold := ts.MkAbs("hold")
	s := fakebatch.Start(func(body []byte) string {
		if strings.Contains(string(body), "You grade the tools of one MCP server") {
			return coherenceAnswer
		}
		return toolAnswer
	})
	s.Garbage = *garbage
	if *expire {
		s.Outcome = func(string) string { return "expired" }
	}
	s.Hold = func() bool {
		_, err := os.Stat(hold)
		return err == nil && s.Counts().Creates >= *holdFrom
	}
	touch := func(name string) {
		if f, err := os.OpenFile(ts.MkAbs(name), os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			f.Close()
		}
	}
	var mu sync.Mutex
	s.OnEvent = func(event string, _ fakebatch.Counts) {
		mu.Lock()
		defer mu.Unlock()
		// The counts are read again under the lock, so that the file
		// written last holds the latest counts however the events of
		// calls answered at once interleave.
		c := s.Counts()
		// The counts are written before the stage is signalled, so that a
		// script that saw the signal reads counts at least that far.
		body := fmt.Sprintf("creates %d\nretrieves %d\nresults %d\ncalls %d\nsubmitted %d\ntwice %d\n", c.Creates, c.Retrieves, c.Results, c.Calls, len(c.Submitted), len(c.Twice()))
		_ = os.WriteFile(ts.MkAbs("counts.tmp"), []byte(body), 0o644)
		_ = os.Rename(ts.MkAbs("counts.tmp"), ts.MkAbs("counts"))
		switch {
		case event == "create":
			touch("created")
			touch(fmt.Sprintf("created-%d", c.Creates))
		case event == "retrieve" && c.Creates > 0:
			touch("polled")
			touch(fmt.Sprintf("polled-%d", len(c.Looked)))
			if *holdFrom > 0 && s.Hold() {
				touch("holding")
			}
		}
	}
	ts.Defer(s.Close)
	ts.Setenv("BATCH", s.URL+"/v1")
	ts.Setenv("BATCH_HOST", s.URL)
}

// untimedCmd is "untimed FILE": it sets the timings of a JSON report
// (read_ms, score_ms: how long the run took, the one part of a report
// that is not a function of the rubric and the observations) to 0, so
// that two runs' reports can be compared byte for byte.
func untimedCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: untimed FILE")
	}
	path := ts.MkAbs(args[0])
	b, err := os.ReadFile(path)
	ts.Check(err)
	out := timing.ReplaceAll(b, []byte(`"$1": 0`))
	if bytes.Equal(out, b) && !timing.Match(b) {
		ts.Fatalf("%s holds no timings", args[0])
	}
	ts.Check(os.WriteFile(path, out, 0o644))
}

var timing = regexp.MustCompile(`"(read_ms|score_ms)": [0-9.e+-]+`)
