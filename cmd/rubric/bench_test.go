package main

import (
	"io"
	"path/filepath"
	"testing"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/internal/buildtest"
)

// BenchmarkScoreExampleServer runs `rubric score -- tidy` in process
// against the example stdio server (built once), with the stdio transport
// a plugin process as always. ns/op is the whole command; read-ms is the
// report's own timing from the start of reading (plugin host and plugin
// start, server spawn, initialize, tools/list) to the surface being parsed.
func BenchmarkScoreExampleServer(b *testing.B) {
	dir := b.TempDir()
	exe := buildtest.Binary(b, "./examples/servers/tidy", dir, "tidy")
	out := filepath.Join(dir, "report.json")
	var readMS float64
	for b.Loop() {
		if code := execute([]string{"score", "--format", "json", "--out", out, "--", exe}, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
		rep, err := report.Read(out)
		if err != nil {
			b.Fatal(err)
		}
		readMS += rep.Timings.ReadMS
	}
	b.ReportMetric(readMS/float64(b.N), "read-ms/op")
}
