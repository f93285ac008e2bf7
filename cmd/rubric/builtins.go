package main

import (
	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/buildinfo"
	"github.com/rubricmcp/rubric/judges/anthropic"
	"github.com/rubricmcp/rubric/judges/claudecli"
	"github.com/rubricmcp/rubric/judges/heuristic"
	"github.com/rubricmcp/rubric/judges/openai"
	"github.com/rubricmcp/rubric/judges/replay"
	"github.com/rubricmcp/rubric/plugins/protocol"
	"github.com/rubricmcp/rubric/plugins/sdk"
	"github.com/rubricmcp/rubric/plugins/transports/file"
	"github.com/rubricmcp/rubric/plugins/transports/mcphttp"
	"github.com/rubricmcp/rubric/plugins/transports/registry"
	"github.com/rubricmcp/rubric/plugins/transports/stdio"
)

// builtins are the judges and transports inside the rubric binary, which
// serves each when started again as "rubric __serve-plugin KIND NAME".
// A judge or transport is built in by one line here.
//
// The heuristic judge serves at the collector's default target: at 400
// (its target until issue 22) its heap at 5,000 TDQS tools peaked at 110
// MB against 66 MB, with twice the page faults (18k against 8.5k), each a
// fresh page the kernel clears, for no CPU saved. It starts on one
// processor: at TDQS its cues are a tenth of the host's work, and with a
// processor per core in each of two processes on two cores the idle ones
// spun and woke each other; at Gradable on thousands of tools it is the
// slower end, falls behind and gets its processors back (bench/README.md,
// h46judge), as it does at TDQS on thousands of tools since a run keeps
// 128 of its questions in flight (protocol.BehindAt).
var builtins = []protocol.Builtin{
	{Name: "heuristic", MaxProcs: 1, Judge: func() judge.Judge { return heuristic.New() }},
	{Name: "openai", Judge: func() judge.Judge { return openai.New() }},
	{Name: "anthropic", Judge: func() judge.Judge { return anthropic.New() }},
	{Name: "claude-cli", Judge: func() judge.Judge { return claudecli.New() }},
	{Name: "replay", Judge: func() judge.Judge { return replay.New() }},
	{Name: "file", Leaf: true, Companion: "rubric-transport-file", Transport: func() transport.Transport { return file.Transport{} }},
	{Name: "registry", Leaf: true, Transport: func() transport.Transport { return registry.Transport{} }},
	{Name: "stdio", Transport: func() transport.Transport {
		return stdio.Transport{ClientVersion: buildinfo.Version(), Stderr: sdk.DebugLog("server stderr: ")}
	}},
	{Name: "http", Transport: func() transport.Transport { return mcphttp.Streamable{ClientVersion: buildinfo.Version()} }},
	{Name: "sse", Transport: func() transport.Transport { return mcphttp.SSE{ClientVersion: buildinfo.Version()} }},
}
