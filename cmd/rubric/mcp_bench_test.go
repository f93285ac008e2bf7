package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/spf13/viper"
)

// BenchmarkLintTool measures one lint_tool call on one tool definition
// (Schema Quality, then TDQS with the heuristic judge, a plugin process
// started once per call), each call's definition new so that no answer
// comes from the cache. median-ms is the median call; run it with
// -benchtime 100x for the median over 100 calls. inprocess calls the
// server through mcp-go's in-process client; stdio drives the real
// rubric mcp process.
func BenchmarkLintTool(b *testing.B) {
	b.Run("inprocess", func(b *testing.B) {
		b.Setenv("XDG_CACHE_HOME", b.TempDir())
		a := &app{stdout: io.Discard, stderr: io.Discard, v: viper.New()}
		cmd := a.mcpCmd()
		if err := a.v.BindPFlags(cmd.Flags()); err != nil {
			b.Fatal(err)
		}
		srv, done, err := a.flags(cmd).MCPServer(a.host(), defaultRubric)
		if err != nil {
			b.Fatal(err)
		}
		defer done()
		c, err := client.NewInProcessClient(srv.MCP())
		if err != nil {
			b.Fatal(err)
		}
		if err := c.Start(context.Background()); err != nil {
			b.Fatal(err)
		}
		initializeAt(b, c, mcp.LATEST_PROTOCOL_VERSION)
		lintLatency(b, c)
	})
	b.Run("stdio", func(b *testing.B) {
		lintLatency(b, stdioClient(b))
	})
}

func lintLatency(b *testing.B, c *client.Client) {
	var took []time.Duration
	i := 0
	for b.Loop() {
		i++
		req := mcp.CallToolRequest{}
		req.Params.Name = "lint_tool"
		req.Params.Arguments = map[string]any{"tool": map[string]any{
			"name":        "list_files",
			"description": fmt.Sprintf("Lists the files of a directory, call %d. Use it before reading a file.", i),
			"inputSchema": map[string]any{"type": "object", "required": []string{"path"}, "properties": map[string]any{
				"path": map[string]any{"type": "string", "description": "The directory."}}},
		}}
		start := time.Now()
		res, err := c.CallTool(context.Background(), req)
		took = append(took, time.Since(start))
		if err != nil || res.IsError {
			b.Fatalf("lint_tool: %v %v", err, res)
		}
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "median-ms")
}
