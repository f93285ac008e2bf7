// Command fakemcp plays one of internal/fakemcp's misbehaving MCP servers,
// named by its first argument. cmd/rubric's transcripts start it many
// times: as a program of its own it starts in a fraction of the time the
// test binary, which links the whole of rubric, takes to start.
package main

import "github.com/rubricmcp/rubric/internal/fakemcp"

func main() { fakemcp.Main() }
