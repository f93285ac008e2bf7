package host

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/internal/cputime"
	"github.com/rubricmcp/rubric/plugins/protocol"
)

var benchQuestion = judge.Question{
	Rubric: "bench", RubricDigest: "sha256:00", Kind: "echo",
	System: "You rate tool definitions.", User: "Rate this tool.",
	AnswerSchema: []byte(`{"type":"object"}`),
	Input:        []byte(`{"tool":{"name":"search","description":"Search the notes by words in their text."}}`),
}

// BenchmarkAsk sets one judge round trip through the plugin protocol (a
// real plugin process, gRPC over a Unix socket) beside the same call made
// in process.
func BenchmarkAsk(b *testing.B) {
	b.Run("direct", func(b *testing.B) {
		j := testJudge{}
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := j.Ask(ctx, benchQuestion); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("plugin", func(b *testing.B) {
		h := New(Options{StartTimeout: 10 * time.Second})
		defer h.Close()
		j, err := h.Judge(context.Background(), self(b, protocol.KindJudge, "judge"), judge.Config{})
		if err != nil {
			b.Fatal(err)
		}
		ctx := context.Background()
		b.ReportAllocs()
		cpu, _ := cputime.Process()
		for b.Loop() {
			if _, err := j.Ask(ctx, benchQuestion); err != nil {
				b.Fatal(err)
			}
		}
		// The host's own CPU time, apart from the plugin's.
		end, _ := cputime.Process()
		b.ReportMetric(float64((end-cpu).Nanoseconds())/float64(b.N), "host-cpu-ns/op")
	})
}

// BenchmarkStartTwoPlugins measures a host starting a judge and a
// transport plugin (two processes, two handshakes, describe and
// configure) and ending both.
func BenchmarkStartTwoPlugins(b *testing.B) {
	jp := self(b, protocol.KindJudge, "judge")
	tp := self(b, protocol.KindTransport, "transport")
	ctx := context.Background()
	for b.Loop() {
		h := New(Options{StartTimeout: 10 * time.Second})
		os.Setenv("RUBRIC_TEST_PLUGIN", "judge")
		if _, err := h.Judge(ctx, jp, judge.Config{}); err != nil {
			b.Fatal(err)
		}
		os.Setenv("RUBRIC_TEST_PLUGIN", "transport")
		if _, err := h.Transport(ctx, tp); err != nil {
			b.Fatal(err)
		}
		h.Close()
	}
}
