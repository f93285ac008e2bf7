package main

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/buildtest"
	"github.com/rubricmcp/rubric/plugins/host"
	"github.com/rubricmcp/rubric/plugins/protocol"
	"github.com/rubricmcp/rubric/plugins/transports/stdio"
)

// BenchmarkReadExampleServer reads examples/servers/tidy over stdio, in
// process and through the built-in stdio plugin (host start, plugin
// process, handshake, export, shutdown), side by side.
func BenchmarkReadExampleServer(b *testing.B) {
	exe := buildtest.Binary(b, "./examples/servers/tidy", "", "tidy")
	target := transport.Target{Location: exe}
	ctx := context.Background()
	b.Run("direct", func(b *testing.B) {
		for b.Loop() {
			if _, err := (stdio.Transport{}).Export(ctx, target); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("plugin", func(b *testing.B) {
		self, err := os.Executable()
		if err != nil {
			b.Fatal(err)
		}
		p, err := host.Discover(host.Builtins(self, builtins), nil, nil).Find(protocol.KindTransport, "stdio")
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			h := host.New(host.Options{StartTimeout: 10 * time.Second})
			tr, err := h.Transport(ctx, p)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := tr.Export(ctx, target); err != nil {
				b.Fatal(err)
			}
			h.Close()
		}
	})
}
