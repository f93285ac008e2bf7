package scan_test

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/scan"
	"github.com/rubricmcp/rubric/engine/transport"
)

// TestReadList reads each shape of scan list into jobs.
func TestReadList(t *testing.T) {
	type want struct {
		name, transport, location string
		args                      []string
		env                       map[string]string
		pkg                       *scan.Package
		err                       string
	}
	box := transport.Sandbox{Kind: transport.SandboxBwrap}
	tests := []struct {
		name, file, text string
		opt              scan.ReadOptions
		want             []want
		sandboxed        []bool
		fail             string
	}{
		{name: "entries", file: "list.json", text: `[
			{"name": "tidy", "target": "tidy.json"},
			{"name": "remote", "target": "https://example.com/mcp"},
			{"name": "local", "command": ["node", "server.js", "--stdio"], "env": {"TOKEN": "x"}},
			{"name": "both", "target": "a.json", "command": ["b"]}
		]`, want: []want{
			{name: "tidy", transport: "file", location: "tidy.json"},
			{name: "remote", transport: "http", location: "https://example.com/mcp"},
			{name: "local", transport: "stdio", location: "node", args: []string{"server.js", "--stdio"}, env: map[string]string{"TOKEN": "x"}},
			{name: "both", transport: "stdio", location: "b", err: "the entry has both a target and a command: give it one of them"},
		}},
		{name: "tsv", file: "list.tsv", text: "name\ttarget\tcommand\tenv\n# a comment\ntidy\ttidy.json\t\t\nlocal\t\tnode server.js\tA=1 B=2\n", want: []want{
			{name: "tidy", transport: "file", location: "tidy.json"},
			{name: "local", transport: "stdio", location: "node", args: []string{"server.js"}, env: map[string]string{"A": "1", "B": "2"}},
		}},
		{name: "tsv without header", file: "list.tsv", text: "tidy\ttidy.json\n", fail: "the first line names the columns"},
		{name: "tsv of a column no scan reads", file: "list.tsv", text: "name\ttarget\tauth\nremote\thttps://a.example/mcp\tBearer x\n", fail: `list.tsv:1: column "auth" is not one a scan reads: the first line names the columns`},
		{name: "tsv of a column twice", file: "list.tsv", text: "name\ttarget\ttarget\n", fail: "list.tsv:1: the column target is named twice"},
		{name: "tsv header not a header", file: "list.tsv", text: "name\ttarget\theader\nremote\thttps://a.example/mcp\tBearer sk-1\n", fail: "list.tsv:2: the header in column 3 is not Name: value (its text is not shown: it may hold a secret)"},
		{name: "tsv header to a file", file: "list.tsv", text: "name\ttarget\theader\ntidy\ttidy.json\tX-A: 1\n", want: []want{
			{name: "tidy", transport: "file", location: "tidy.json", err: "headers are sent to a target URL (http:// or https://), and this target is not one: give the server's URL as its target, or leave the headers out"},
		}},
		{name: "server.json npm", file: "server.json", text: `{
			"$schema": "https://static.modelcontextprotocol.io/schemas/2025-09-29/server.schema.json",
			"name": "io.github.example/weather", "version": "1.2.0",
			"packages": [{"registryType": "oci", "identifier": "example/weather"},
				{"registryType": "npm", "identifier": "@example/weather", "version": "1.2.0", "runtimeHint": "npx",
				"transport": {"type": "stdio"},
				"runtimeArguments": [{"type": "named", "name": "-y"}],
				"packageArguments": [{"type": "named", "name": "--units", "value": "{units}", "variables": {"units": {"default": "metric"}}},
					{"type": "positional", "valueHint": "data_dir", "isRequired": true}],
				"environmentVariables": [{"name": "WEATHER_KEY", "isRequired": true, "isSecret": true},
					{"name": "REGION", "default": "eu"}, {"name": "OPTIONAL"}]}]}`,
			opt: scan.ReadOptions{PackageSandbox: box},
			want: []want{{name: "io.github.example/weather", transport: "stdio", location: "@example/weather@1.2.0",
				env: map[string]string{"WEATHER_KEY": scan.Placeholder, "REGION": "eu"},
				pkg: &scan.Package{Registry: "npm", Identifier: "@example/weather", Version: "1.2.0", Runtime: "npx",
					RuntimeArgs: []string{"-y"}, PackageArgs: []string{"--units", "metric", "data_dir"}}}},
			sandboxed: []bool{true}},
		{name: "registry page", file: "page.json", text: `{"servers": [
			{"server": {"name": "a/pypi", "packages": [{"registryType": "pypi", "identifier": "mcp-server-time", "version": "0.6.2", "runtimeHint": "uvx"}]},
			 "_meta": {"io.modelcontextprotocol.registry/official": {"isLatest": true}}},
			{"server": {"name": "b/remote", "remotes": [{"type": "streamable-http", "url": "https://{host}/mcp", "variables": {}}]}},
			{"server": {"name": "c/sse", "remotes": [{"type": "sse", "url": "https://c.example/sse", "headers": [{"name": "X-Key", "value": "k"}]}]}},
			{"server": {"name": "d/docker", "packages": [{"registryType": "oci", "identifier": "d/d"}]}}
		], "metadata": {"count": 4}}`,
			opt: scan.ReadOptions{PackageSandbox: box},
			want: []want{
				{name: "a/pypi", transport: "stdio", location: "mcp-server-time==0.6.2", pkg: &scan.Package{Registry: "pypi", Identifier: "mcp-server-time", Version: "0.6.2", Runtime: "uvx"}},
				{name: "b/remote", transport: "http", location: "https://{host}/mcp", err: "remote https://{host}/mcp: its URL's variable host has no value and no default in the remote's variables: a scan cannot choose one; give the URL in a JSON list entry ({\"name\", \"target\"}) instead"},
				{name: "c/sse", transport: "sse", location: "https://c.example/sse"},
				{name: "d/docker", err: "no npm or pypi package over stdio and no remote (it has: oci), which is all a scan can start: start the server yourself and list its command or URL in a JSON list entry ({\"name\", \"command\"} or {\"name\", \"target\"}), or list a capture of its tools"},
			},
			sandboxed: []bool{true, false, false, false}},
		// A remote's URL template is filled from its variables: a value,
		// else a default; a variable with neither is refused by name,
		// never filled with a placeholder.
		{name: "remote variables", file: "servers.json", text: `[
			{"name": "x/default", "remotes": [{"type": "streamable-http", "url": "http://127.0.0.1:38111/{path}", "variables": {"path": {"default": "mcp"}}}]},
			{"name": "x/value", "remotes": [{"type": "sse", "url": "https://{tenant}.example/{path}", "variables": {"tenant": {"value": "acme", "default": "www"}, "path": {"default": "sse"}}}]},
			{"name": "x/required", "remotes": [{"type": "streamable-http", "url": "https://{tenant}.example/mcp", "variables": {"tenant": {"isRequired": true, "description": "your tenant"}}}]}
		]`,
			want: []want{
				{name: "x/default", transport: "http", location: "http://127.0.0.1:38111/mcp"},
				{name: "x/value", transport: "sse", location: "https://acme.example/sse"},
				{name: "x/required", transport: "http", location: "https://{tenant}.example/mcp", err: "remote https://{tenant}.example/mcp: its URL's variable tenant has no value and no default in the remote's variables: a scan cannot choose one; give the URL in a JSON list entry ({\"name\", \"target\"}) instead"},
			}},
		{name: "client config", file: ".mcp.json", text: `{"mcpServers": {
			"one": {"command": "npx", "args": ["-y", "one-mcp"]},
			"two": {"type": "http", "url": "https://two.example/mcp"}}}`,
			opt:       scan.ReadOptions{Sandbox: box, Env: map[string]string{"HOME": "/tmp"}},
			want:      []want{{name: "one", transport: "stdio", location: "npx", args: []string{"-y", "one-mcp"}, env: map[string]string{"HOME": "/tmp"}}, {name: "two", transport: "http", location: "https://two.example/mcp"}},
			sandboxed: []bool{true, false}},
		{name: "duplicates", file: "list.json", text: `[{"name": "a", "target": "https://x.example/mcp"}, {"name": "b", "target": "https://x.example/mcp"}]`,
			want: []want{{name: "a", transport: "http", location: "https://x.example/mcp"}}},
		{name: "unknown member", file: "list.json", text: `[{"name": "a", "url": "https://x.example/mcp"}]`, fail: `unknown field "url"`},
		// A command written as a client configuration writes it is said
		// in a list's words, with the array that was meant.
		{name: "command as a string", file: "list.json", text: `[{"name": "b", "command": "node server.js --stdio"}]`,
			fail: `list.json: entry 1: the entry gives "command" as the string "node server.js --stdio": in a list it is the program and its arguments in one array: ["node","server.js","--stdio"]`},
		{name: "command and args", file: "list.json", text: `[{"name": "b", "command": "npx", "args": ["-y", "one-mcp"]}]`,
			fail: `list.json: entry 1: the entry gives "command" as a string and its arguments in "args", as a client configuration does: in a list, "command" is the program and its arguments in one array: ["npx","-y","one-mcp"] (or scan the client configuration itself)`},
		{name: "empty", file: "list.json", text: `[]`, fail: "lists no server"},
		// One server's capture given as the list: named for what it is,
		// where the decoder said its server had an unknown field.
		{name: "one server's tools", file: "git.tools.json", text: `{"server": {"name": "git", "version": "1.0"}, "tools": []}`,
			fail: `git.tools.json holds one server's tools, not a list of servers: score it with rubric score `},
		{name: "a tools/list result", file: "tools.json", text: `{"tools": [{"name": "a", "inputSchema": {"type": "object"}}]}`,
			fail: `tools.json holds one server's tools, not a list of servers`},
		// Shapes that are no list are refused, not read as one nameless
		// server.
		{name: "empty object", file: "servers.json", text: `{}`, fail: "servers.json is not a list of servers (it holds one object with no name, {}): give a JSON array of entries"},
		{name: "null", file: "servers.json", text: `null`, fail: "servers.json is not a list of servers (it holds null)"},
		{name: "string", file: "servers.json", text: `"fs.json"`, fail: `servers.json is not a list of servers (it holds "fs.json")`},
		{name: "null entry", file: "list.json", text: `[null]`, fail: "list.json: entry 1: null is not an object"},
		{name: "no name", file: "list.json", text: `[{"name": "a", "target": "a.json"}, {"target": "tidy.json"}]`, fail: "list.json: entry 2 has no name: give each server a name"},
		{name: "no name tsv", file: "list.tsv", text: "name\ttarget\n\ttidy.json\n", fail: "list.tsv: line 2 has no name"},
		{name: "no name server.json", file: "page.json", text: `{"servers": [{"server": {"packages": [{"registryType": "npm", "identifier": "x"}]}}]}`, fail: "page.json: servers[0] has no name"},
		{name: "same name", file: "servers.json", text: `[{"name": "a", "target": "a.json"}, {"name": "b", "target": "https://b.example/mcp"}, {"name": "github", "target": "https://x.example/mcp"},
			{"name": "c", "target": "https://c.example/mcp"}, {"name": "d", "target": "https://d.example/mcp"}, {"name": "e", "target": "https://e.example/mcp"}, {"name": "github", "target": "https://github.example/mcp"}]`,
			fail: `servers.json: entries 3 and 7 are both named "github", for two different servers; give each its own name`},
		{name: "same name tsv", file: "list.tsv", text: "name\ttarget\na\ta.json\na\thttps://a.example/mcp\n", fail: `list.tsv: lines 2 and 3 are both named "a"`},
		{name: "same name versions", file: "page.json", text: `{"servers": [{"server": {"name": "x/y", "version": "1.0.0", "remotes": [{"type": "sse", "url": "https://a.example/sse"}]}},
			{"server": {"name": "x/y", "version": "1.1.0", "remotes": [{"type": "sse", "url": "https://b.example/sse"}]}}]}`,
			fail: `page.json: servers[0] and servers[1] are both named "x/y", for two different servers; they are versions 1.0.0 and 1.1.0: keep one version of each server`},
		// One server listed twice under one name is one job.
		{name: "same server twice", file: "list.json", text: `[{"name": "a", "target": "a.json"}, {"name": "a", "target": "a.json"}]`,
			want: []want{{name: "a", transport: "file", location: "a.json"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, tc.file)
			if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{"tidy.json", "a.json"} {
				if err := os.WriteFile(filepath.Join(dir, f), []byte(`[]`), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			jobs, err := scan.ReadList(context.Background(), path, tc.opt)
			if tc.fail != "" {
				if err == nil || !strings.Contains(err.Error(), tc.fail) {
					t.Fatalf("err = %v, want %q", err, tc.fail)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(jobs) != len(tc.want) {
				t.Fatalf("%d jobs, want %d: %+v", len(jobs), len(tc.want), jobs)
			}
			for i, w := range tc.want {
				j := jobs[i]
				loc := j.Target.Location
				if j.Transport == "file" {
					loc, _ = filepath.Rel(dir, loc)
				}
				if j.Name != w.name || j.Transport != w.transport || loc != w.location || !slices.Equal(j.Target.Args, w.args) || !maps.Equal(j.Target.Env, w.env) || j.Err != w.err {
					t.Errorf("job %d = %+v (error %q), want %+v", i, j, j.Err, w)
				}
				if w.pkg != nil && (j.Package == nil || j.Package.Spec() != w.pkg.Spec() || !slices.Equal(j.Package.RuntimeArgs, w.pkg.RuntimeArgs) || !slices.Equal(j.Package.PackageArgs, w.pkg.PackageArgs) || j.Package.Runtime != w.pkg.Runtime) {
					t.Errorf("job %d package = %+v, want %+v", i, j.Package, w.pkg)
				}
				if tc.sandboxed != nil && j.Target.Sandbox.Enabled() != tc.sandboxed[i] {
					t.Errorf("job %d sandboxed = %v, want %v", i, j.Target.Sandbox.Enabled(), tc.sandboxed[i])
				}
				if strings.Contains(j.Identity, "\"x\"") || strings.Contains(j.Identity, scan.Placeholder) {
					t.Errorf("job %d identity holds a value in the clear: %s", i, j.Identity)
				}
			}
		})
	}
}

// TestCaptureIdentity: a capture's job is keyed by its content, so a
// capture that changes is scanned again, and one moved is not.
func TestCaptureIdentity(t *testing.T) {
	rs := builtins(t, "schema-quality")
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	keys := func() map[string]string {
		jobs, err := scan.ReadList(context.Background(), dir, scan.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		scan.Key(jobs, rs)
		out := map[string]string{}
		for _, j := range jobs {
			out[j.Name] = j.Key
		}
		return out
	}
	write("a.tools.json", `[{"name": "x"}]`)
	first := keys()["a"]
	if err := os.Rename(filepath.Join(dir, "a.tools.json"), filepath.Join(dir, "b.tools.json")); err != nil {
		t.Fatal(err)
	}
	if moved := keys()["b"]; moved != first {
		t.Errorf("moved capture: key %s, was %s", moved, first)
	}
	write("b.tools.json", `[{"name": "y"}]`)
	if changed := keys()["b"]; changed == first {
		t.Errorf("changed capture kept its key %s", first)
	}
	if other := func() string {
		jobs := []scan.Job{{Identity: "i"}}
		scan.Key(jobs, builtins(t, "tdqs"))
		return jobs[0].Key
	}(); other == func() string { jobs := []scan.Job{{Identity: "i"}}; scan.Key(jobs, rs); return jobs[0].Key }() {
		t.Error("a job scored with another rubric has the same key")
	}
}

// TestParseShard reads i/n and refuses the rest.
func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want scan.Shard
		ok   bool
	}{
		{"1/1", scan.Shard{I: 1, N: 1}, true},
		{"3/20", scan.Shard{I: 3, N: 20}, true},
		{"0/3", scan.Shard{}, false},
		{"4/3", scan.Shard{}, false},
		{"3", scan.Shard{}, false},
		{"a/b", scan.Shard{}, false},
	} {
		got, err := scan.ParseShard(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseShard(%q) = %v, %v", tc.in, got, err)
		}
	}
}

// TestReadTSVHeaders: a TSV list's header columns, one header a column
// in either form, are a URL target's headers, as a JSON entry's
// "headers" are: the same job, the same identity.
func TestReadTSVHeaders(t *testing.T) {
	dir := t.TempDir()
	tsv := filepath.Join(dir, "list.tsv")
	if err := os.WriteFile(tsv, []byte("name\ttarget\theader\tHeader\t\nremote\thttps://a.example/mcp\tAuthorization: Bearer sk-1\tX-Team=7 : 8\t\nplain\thttps://b.example/mcp\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	js := filepath.Join(dir, "list.json")
	if err := os.WriteFile(js, []byte(`[{"name": "remote", "target": "https://a.example/mcp", "headers": {"Authorization": "Bearer sk-1", "X-Team": "7 : 8"}},
		{"name": "plain", "target": "https://b.example/mcp"}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	fromTSV, err := scan.ReadList(context.Background(), tsv, scan.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fromJSON, err := scan.ReadList(context.Background(), js, scan.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"Authorization": "Bearer sk-1", "X-Team": "7 : 8"}
	if got := fromTSV[0].Target.Headers; !maps.Equal(got, want) {
		t.Errorf("headers %v, want %v", got, want)
	}
	for i := range fromJSON {
		if fromTSV[i].Identity != fromJSON[i].Identity || fromTSV[i].Err != "" {
			t.Errorf("%s: from TSV %s (%s), from JSON %s", fromJSON[i].Name, fromTSV[i].Identity, fromTSV[i].Err, fromJSON[i].Identity)
		}
	}
}

// TestReadListMissing: a list that is not there says so and what to
// give, not stat's words.
func TestReadListMissing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "servers.json")
	_, err := scan.ReadList(t.Context(), path, scan.ReadOptions{})
	want := "the scan list " + path + " does not exist: give the path of a list of servers"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want it to begin %q", err, want)
	}
}

// TestReadListEnv: --env reaches the servers a scan starts only, and a
// list's other servers were passed over without a word. Given on the
// command line (EnvFlag), it is refused for a list that starts none,
// and the servers it does not reach are named; a standing setting (a
// config file's env) goes to the servers that use it, as for one target.
func TestReadListEnv(t *testing.T) {
	const (
		mixed = `[
			{"name": "tidy", "target": "tidy.json"},
			{"name": "remote", "target": "https://example.com/mcp"},
			{"name": "local", "command": ["node", "server.js"]}
		]`
		started = `[{"name": "local", "command": ["node", "server.js"]}, {"name": "other", "command": ["other"]}]`
		none    = `[{"name": "tidy", "target": "tidy.json"}, {"name": "remote", "target": "https://example.com/mcp"}]`
	)
	env := map[string]string{"TOKEN": "dummy"}
	tests := []readListCase{
		{name: "some servers started", text: mixed, opt: scan.ReadOptions{Env: env, EnvFlag: true},
			said: []string{"--env applies to the servers a scan starts (a list entry's command, or a package it installs, run by the stdio transport): it is set for 1 of the 3 servers in %s, and not for the 2 read by a transport that starts none (tidy: file, remote: http)"}},
		{name: "every server started", text: started, opt: scan.ReadOptions{Env: env, EnvFlag: true}},
		{name: "no server started", text: none, opt: scan.ReadOptions{Env: env, EnvFlag: true},
			err: "--env applies to the servers a scan starts (a list entry's command, or a package it installs, run by the stdio transport), and %s starts none: its 2 servers are read by a transport that starts none (tidy: file, remote: http): leave --env out, or list the commands that start the servers"},
		{name: "a standing setting, some servers started", text: mixed, opt: scan.ReadOptions{Env: env}},
		{name: "a standing setting, no server started", text: none, opt: scan.ReadOptions{Env: env}},
		{name: "no environment", text: none, opt: scan.ReadOptions{EnvFlag: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			jobs := readListSaying(t, tt.text, tt.opt, tt.said, tt.err)
			for _, j := range jobs {
				if got := j.Target.Env["TOKEN"]; (got != "") != (j.Transport == "stdio" && len(tt.opt.Env) > 0) {
					t.Errorf("%s (%s): TOKEN = %q", j.Name, j.Transport, got)
				}
			}
		})
	}
}

// readListCase is a list's text read with opt, and what the reading
// says (said) or the error it returns (err), each with %s for the
// list's path.
type readListCase struct {
	name string
	text string
	opt  scan.ReadOptions
	said []string
	err  string
}

// readListSaying reads a list of text with opt and checks what it said
// (said) or the error it returned (err), each with %s for the list's
// path; it returns the jobs, none when it failed as err says.
func readListSaying(t *testing.T, text string, opt scan.ReadOptions, said []string, wantErr string) []scan.Job {
	t.Helper()
	path := filepath.Join(t.TempDir(), "list.json")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	var got []string
	opt.Say = func(s string) { got = append(got, s) }
	jobs, err := scan.ReadList(t.Context(), path, opt)
	if wantErr != "" {
		if want := strings.ReplaceAll(wantErr, "%s", path); err == nil || err.Error() != want {
			t.Fatalf("error %v,\nwant %s", err, want)
		}
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, s := range said {
		want = append(want, strings.ReplaceAll(s, "%s", path))
	}
	if !slices.Equal(got, want) {
		t.Errorf("said %q,\nwant %q", got, want)
	}
	return jobs
}

// TestReadListSandbox: --sandbox confines the commands a list names
// only (a package's server is confined by --package-sandbox), and was
// passed over without a word for a list's servers read at a URL or from
// a capture. Given on the command line (SandboxFlag), it is refused for
// a list it reaches no server of, and the servers it does not reach are
// named; a standing setting confines those it reaches without a word.
func TestReadListSandbox(t *testing.T) {
	const (
		mixed = `[
			{"name": "tidy", "target": "tidy.json"},
			{"name": "remote", "target": "https://example.com/mcp"},
			{"name": "local", "command": ["node", "server.js"]}
		]`
		started = `[{"name": "local", "command": ["node", "server.js"]}, {"name": "other", "command": ["other"]}]`
		none    = `[{"name": "tidy", "target": "tidy.json"}, {"name": "remote", "target": "https://example.com/mcp"}]`
		// A registry page: one npm package, one remote.
		page = `{"servers": [
			{"server": {"name": "a/npm", "packages": [{"registryType": "npm", "identifier": "@a/mcp", "version": "1.0.0", "transport": {"type": "stdio"}}]}},
			{"server": {"name": "b/remote", "remotes": [{"type": "streamable-http", "url": "https://b.example.com/mcp"}]}}
		]}`
		pkgs = `{"servers": [{"server": {"name": "a/npm", "packages": [{"registryType": "npm", "identifier": "@a/mcp", "version": "1.0.0", "transport": {"type": "stdio"}}]}}]}`
	)
	box := transport.Sandbox{Kind: transport.SandboxBwrap}
	tests := []readListCase{
		{name: "some servers started", text: mixed, opt: scan.ReadOptions{Sandbox: box, SandboxFlag: true},
			said: []string{"--sandbox confines the servers a scan starts from a list entry's command (--package-sandbox those of the packages it installs): it is set for 1 of the 3 servers in %s, and not for the 2 read by a transport that starts none (tidy: file, remote: http)"}},
		{name: "every server started", text: started, opt: scan.ReadOptions{Sandbox: box, SandboxFlag: true}},
		{name: "no server started", text: none, opt: scan.ReadOptions{Sandbox: box, SandboxFlag: true},
			err: "--sandbox confines the servers a scan starts from a list entry's command (--package-sandbox those of the packages it installs), and %s starts none: its 2 servers are read by a transport that starts none (tidy: file, remote: http): leave --sandbox out, or list the commands that start the servers"},
		{name: "a package and a remote", text: page, opt: scan.ReadOptions{Sandbox: box, SandboxFlag: true, PackageSandbox: box},
			err: "--sandbox confines the servers a scan starts from a list entry's command (--package-sandbox those of the packages it installs), and %s names no such command: of its 2 servers, it would be set for none, not for the 1 read by a transport that starts none (b/remote: http), nor for the 1 installed from a package, which --package-sandbox confines (a/npm: npm): leave --sandbox out, or list the commands that start the servers"},
		{name: "packages only", text: pkgs, opt: scan.ReadOptions{Sandbox: box, SandboxFlag: true},
			err: "--sandbox confines the servers a scan starts from a list entry's command (--package-sandbox those of the packages it installs), and %s names no such command: of its 1 server, it would be set for none, not for the 1 installed from a package, which --package-sandbox confines (a/npm: npm): leave --sandbox out, or list the commands that start the servers"},
		{name: "packages only, --env", text: pkgs, opt: scan.ReadOptions{Env: map[string]string{"TOKEN": "dummy"}, EnvFlag: true}},
		{name: "a standing setting, some servers started", text: mixed, opt: scan.ReadOptions{Sandbox: box}},
		{name: "a standing setting, no server started", text: none, opt: scan.ReadOptions{Sandbox: box}},
		{name: "no sandbox", text: none, opt: scan.ReadOptions{SandboxFlag: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			jobs := readListSaying(t, tt.text, tt.opt, tt.said, tt.err)
			for _, j := range jobs {
				if got := j.Target.Sandbox.Enabled(); got != (j.Transport == "stdio" && tt.opt.Sandbox.Enabled()) {
					t.Errorf("%s (%s): sandboxed = %v", j.Name, j.Transport, got)
				}
			}
		})
	}
}
