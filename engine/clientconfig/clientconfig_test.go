package clientconfig

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/transport"
)

// env is a fixed environment for the fixtures.
func env(vars map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
}

// TestFixtures reads one file of each client's format, with its variables
// expanded, and checks every server against what the client would start.
func TestFixtures(t *testing.T) {
	vars := env(map[string]string{
		"HOME": "/home/me", "API_KEY": "k1", "ROOT": "", "NOTES_TOKEN": "n1", "REMOTE_KEY": "r1", "GITHUB_TOKEN": "gh",
	})
	ws := func(p string) string { return workspaceOf(p) }
	tests := []struct {
		path   string
		format Format
		want   []Server
		errs   map[string]string // server name -> its error
	}{{
		path:   "testdata/desktop/claude_desktop_config.json",
		format: ClaudeDesktop,
		want: []Server{
			{Name: "filesystem", Transport: "stdio", Target: transport.Target{Location: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"}}},
			// Claude Desktop expands nothing: it would start the server
			// with the text ${GITHUB_TOKEN} as its token, which rubric
			// refuses, naming the variable.
			{Name: "github", Transport: "stdio"},
		},
		errs: map[string]string{"github": `server "github", env.GITHUB_PERSONAL_ACCESS_TOKEN: Claude Desktop does not expand ${GITHUB_TOKEN}: it starts the server with the text ${GITHUB_TOKEN} itself, not a value: write the value in the file, or read the file with --config-format claude-code, which expands ${NAME} (and ${NAME:-default}) from the environment rubric runs in`},
	}, {
		path:   "testdata/code/.mcp.json",
		format: ClaudeCode,
		want: []Server{
			{Name: "api", Transport: "http", Target: transport.Target{Location: "https://api.example.com/mcp", Headers: map[string]string{"Authorization": "Bearer k1"}}},
			// ${ROOT:-/srv} with ROOT set but empty takes the default, as a shell does.
			// A project's server starts in the project.
			{Name: "local", Transport: "stdio", Target: transport.Target{Location: "/home/me/bin/server", Args: []string{"--root", "/srv"}, Dir: ws("testdata/code/.mcp.json"), Env: map[string]string{"LOG_LEVEL": "info"}}},
			{Name: "events", Transport: "sse", Target: transport.Target{Location: "https://events.example.com/sse"}},
			{Name: "broken", Transport: "stdio"},
		},
		errs: map[string]string{"broken": `server "broken", env.TOKEN: the environment variable MISSING_TOKEN is not set: set it where rubric runs, or write a default as ${MISSING_TOKEN:-value}`},
	}, {
		path:   "testdata/cursor/.cursor/mcp.json",
		format: Cursor,
		want: []Server{
			{Name: "notes", Transport: "stdio", Target: transport.Target{Location: "node", Args: []string{
				filepath.Join(ws("testdata/cursor/.cursor/mcp.json"), "tools", "notes.js"), "--home", "/home/me", "--name", "cursor",
			}, Dir: ws("testdata/cursor/.cursor/mcp.json"), Env: map[string]string{"NOTES_TOKEN": "n1"}}},
			{Name: "remote", Transport: "http", Target: transport.Target{Location: "https://mcp.example.com/mcp", Headers: map[string]string{"X-Key": "r1"}}},
			// "off" is disabled, so left out.
		},
	}, {
		path:   "testdata/vscode/.vscode/mcp.json",
		format: VSCode,
		want: []Server{
			{Name: "memory", Transport: "stdio", Target: transport.Target{Location: "npx", Args: []string{"-y", "@modelcontextprotocol/server-memory"},
				Dir: ws("testdata/vscode/.vscode/mcp.json") + "/sub", Env: map[string]string{"MEMORY_FILE_PATH": ws("testdata/vscode/.vscode/mcp.json") + "/memory.jsonl"},
				// "DEBUG": null unsets it, as VS Code does: the server does
				// not inherit rubric's DEBUG.
				Unset: []string{"DEBUG"}}},
			{Name: "docs", Transport: "http", Target: transport.Target{Location: "https://docs.example.com/mcp"}},
			{Name: "rel", Transport: "stdio", Target: transport.Target{Location: "./run.sh", Dir: filepath.Join(ws("testdata/vscode/.vscode/mcp.json"), "tools")}},
		},
		errs: map[string]string{"docs": `server "docs", headers.Authorization: ${input:api-key} is asked of the user by VS Code, and rubric cannot ask: write ${env:NAME} instead and set NAME`},
	}}
	for _, tt := range tests {
		t.Run(string(tt.format), func(t *testing.T) {
			f, err := Read(t.Context(), tt.path, Options{LookupEnv: vars, Home: "/home/me"})
			if err != nil {
				t.Fatal(err)
			}
			if f.Format != tt.format {
				t.Errorf("format %s, want %s", f.Format, tt.format)
			}
			if len(f.Servers) != len(tt.want) {
				t.Fatalf("servers %v, want %d", f.Names(), len(tt.want))
			}
			for i, got := range f.Servers {
				want := tt.want[i]
				msg := ""
				if got.Err != nil {
					msg = got.Err.Error()
				}
				if msg != tt.errs[want.Name] {
					t.Errorf("%s: error %q, want %q", want.Name, msg, tt.errs[want.Name])
				}
				if msg != "" {
					continue
				}
				if got.Name != want.Name || got.Transport != want.Transport || !reflect.DeepEqual(got.Target, want.Target) {
					t.Errorf("server %d:\n got %+v\nwant %+v", i, got, want)
				}
			}
		})
	}
}

// TestFaults: a file that is not JSON says where, an unknown server lists
// the names, an unset variable is named, and a file of the wrong shape
// says what it lacks.
func TestFaults(t *testing.T) {
	tests := []struct {
		name, path, data, pick, wantErr string
	}{
		{name: "missing comma", path: "x/.mcp.json", data: "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"a\"}\n    \"b\": {}\n  }\n}\n",
			wantErr: `x/.mcp.json:4:5: invalid character '"' after object key:value pair (the file is not valid JSON)`},
		{name: "cut short", path: "x/.mcp.json", data: "{\"mcpServers\": {\"a\": {\"command\": \"a\"}",
			wantErr: `x/.mcp.json:1:38: the JSON ends too early (the file is not valid JSON)`},
		{name: "comment in strict JSON", path: "c/claude_desktop_config.json", data: "{\n // no\n \"mcpServers\": {}}",
			wantErr: `c/claude_desktop_config.json:2:2: invalid character '/' looking for beginning of object key string (the file is not valid JSON)`},
		{name: "trailing text", path: "x/.mcp.json", data: "{\"mcpServers\": {\"a\": {\"command\": \"a\"}}}\n}",
			wantErr: `x/.mcp.json:2:1: text after the JSON value (the file is not valid JSON)`},
		{name: "array", path: "x/.mcp.json", data: "[1]",
			wantErr: `x/.mcp.json:1:1: want a JSON object holding "mcpServers" or "servers", found array`},
		{name: "no servers key", path: "x/.mcp.json", data: `{"other": {}}`,
			wantErr: `x/.mcp.json has no "mcpServers" object: it does not look like a claude-code configuration`},
		{name: "VS Code key in a Cursor file", path: "p/.cursor/mcp.json", data: `{"servers": {"a": {"command": "a"}}}`,
			wantErr: `p/.cursor/mcp.json holds "servers", but a cursor configuration keeps its servers in "mcpServers": give --config-format for the client the file belongs to`},
		{name: "no server", path: "x/.mcp.json", data: `{"mcpServers": {}}`,
			wantErr: `x/.mcp.json configures no server in "mcpServers": add one, or give another --config-file`},
		{name: "named twice", path: "x/.mcp.json", data: `{"mcpServers": {"a": {"command": "a"}, "a": {"command": "b"}}}`,
			wantErr: `x/.mcp.json:1:45: "mcpServers": the server "a" is named twice`},
		{name: "unknown server", path: "x/.mcp.json", data: `{"mcpServers": {"github": {"command": "a"}, "notion": {"url": "https://n"}}}`, pick: "gitlab",
			wantErr: `x/.mcp.json has no server "gitlab": did you mean "github"? Its servers are: github, notion`},
		{name: "unknown server, nothing near", path: "x/.mcp.json", data: `{"mcpServers": {"github": {"command": "a"}, "notion": {"url": "https://n"}}}`, pick: "slack",
			wantErr: `x/.mcp.json has no server "slack"; its servers are: github, notion`},
		{name: "only disabled", path: "x/.mcp.json", data: `{"mcpServers": {"a": {"command": "a", "disabled": true}, "b": {"command": "b", "disabled": true}}}`,
			wantErr: `x/.mcp.json configures no server in "mcpServers" that is not disabled ("disabled": true): a, b; enable one, or give another --config-file`},
		{name: "empty name", path: "x/.mcp.json", data: `{"mcpServers": {"a": {"command": "a"}, "": {"command": "b"}}}`, pick: "",
			wantErr: `server 2 of "mcpServers" has an empty name: give it one, such as the name of the package it runs`},
		{name: "command and url", path: "x/.mcp.json", data: `{"mcpServers": {"a": {"command": "a", "url": "http://h/mcp"}}}`, pick: "a",
			wantErr: `server "a" has both a command and a url: keep the one you mean, or say which with "type" (stdio, http or sse)`},
		{name: "unset variable", path: "x/.mcp.json", data: `{"mcpServers": {"a": {"command": "srv", "args": ["--token=${TOKEN_X}"]}}}`, pick: "a",
			wantErr: `server "a", args[0]: the environment variable TOKEN_X is not set: set it where rubric runs, or write a default as ${TOKEN_X:-value}`},
		{name: "unset env: variable", path: "p/.cursor/mcp.json", data: `{"mcpServers": {"a": {"url": "https://h/${env:HOST_Y}"}}}`, pick: "a",
			wantErr: `server "a", url: the environment variable HOST_Y is not set: set it where rubric runs (a cursor configuration has no default for ${env:HOST_Y})`},
		{name: "unknown variable", path: "p/.vscode/mcp.json", data: `{"servers": {"a": {"command": "${command:pick}"}}}`, pick: "a",
			wantErr: `server "a", command: rubric cannot resolve ${command:pick} in a vscode configuration (it resolves ${env:NAME}, ${userHome}, ${workspaceFolder}, ${workspaceFolderBasename}, ${pathSeparator} and ${/})`},
		{name: "neither", path: "x/.mcp.json", data: `{"mcpServers": {"a": {"args": []}}}`, pick: "a",
			wantErr: `server "a" has neither a command nor a url`},
		{name: "other type", path: "x/.mcp.json", data: `{"mcpServers": {"a": {"type": "ws", "url": "ws://h"}}}`, pick: "a",
			wantErr: `server "a" has type "ws": rubric reads stdio, http and sse servers`},
		{name: "args not strings", path: "x/.mcp.json", data: `{"mcpServers": {"a": {"command": "a", "args": ["x", 1]}}}`, pick: "a",
			wantErr: `x/.mcp.json:1:53: server "a", args: want an array of strings, such as ["-y", "some-mcp-server"], but it holds a number`},
		// A field of the wrong kind names its place in the file and what
		// it should hold, as a file that is not JSON does.
		{name: "args a string", path: "x/.mcp.json", data: "{\n  \"mcpServers\": {\n    \"a\": {\"command\": \"a\", \"args\": \"--stdio\"}\n  }\n}\n", pick: "a",
			wantErr: `x/.mcp.json:3:35: server "a", args: want an array of strings, such as ["-y", "some-mcp-server"], found a string`},
		{name: "command an array", path: "x/.mcp.json", data: "{\"mcpServers\": {\n \"a\": {\"command\": [\"npx\", \"srv\"]}}}", pick: "a",
			wantErr: `x/.mcp.json:2:19: server "a", command: want a string, the program alone, such as "npx" (its arguments go in "args"), found an array`},
		{name: "entry a string", path: "x/.mcp.json", data: `{"mcpServers": {"a": "npx srv"}}`, pick: "a",
			wantErr: `x/.mcp.json:1:22: server "a": want an object such as {"command": "npx", "args": [...]} or {"url": "https://..."}, found a string`},
		{name: "disabled a string", path: "x/.mcp.json", data: `{"mcpServers": {"a": {"command": "a", "disabled": "yes"}}}`, pick: "a",
			wantErr: `x/.mcp.json:1:51: server "a", disabled: want true or false, found a string`},
		// A server marked disabled is named as such, not as one the file
		// does not hold.
		{name: "pick a disabled server", path: "x/.mcp.json", data: `{"mcpServers": {"a": {"command": "a"}, "off": {"command": "b", "disabled": true}}}`, pick: "off",
			wantErr: `x/.mcp.json marks the server "off" "disabled": true, so its client does not start it and rubric does not read it: set "disabled" to false (or remove it) to score it`},
		// Another client's key for the url, or a misspelt key, is named.
		{name: "Windsurf's serverUrl", path: "x/.mcp.json", data: `{"mcpServers": {"w": {"serverUrl": "https://h/mcp"}}}`, pick: "w",
			wantErr: `server "w" has neither a command nor a url: write its serverUrl as "url" (serverUrl is Windsurf's name for it)`},
		{name: "Gemini's httpUrl", path: "x/.mcp.json", data: `{"mcpServers": {"g": {"httpUrl": "https://h/mcp", "timeout": 5000}}}`, pick: "g",
			wantErr: `server "g" has neither a command nor a url: write its httpUrl as "url" with "type": "http" (httpUrl is Gemini CLI's name for it)`},
		{name: "misspelt command", path: "x/.mcp.json", data: `{"mcpServers": {"m": {"comand": "npx", "args": ["srv"]}}}`, pick: "m",
			wantErr: `server "m" has neither a command nor a url (rubric does not read its comand: a server is started from "command" or read from "url")`},
		// A byte order mark: VS Code reads past it, the strict formats say
		// what it is instead of quoting a character no editor shows.
		{name: "BOM in a strict file", path: "c/claude_desktop_config.json", data: "\uFEFF{\"mcpServers\": {\"a\": {\"command\": \"a\"}}}",
			wantErr: `c/claude_desktop_config.json:1:1: the file starts with a byte order mark (U+FEFF), which JSON does not allow and a claude-desktop client's JSON reader refuses: save the file as UTF-8 without a BOM`},
		{name: "BOM in VS Code's file, then an error", path: "p/.vscode/mcp.json", data: "\uFEFF{\"servers\": {\"a\": {\"command\": 1}}}", pick: "a",
			wantErr: `p/.vscode/mcp.json:1:31: server "a", command: want a string, the program alone, such as "npx" (its arguments go in "args"), found a number`},
		// ~ is no variable: no client expands it in a command, a cwd or an
		// envFile, and read from the workspace it would name a folder ~.
		{name: "tilde command", path: "x/.mcp.json", data: `{"mcpServers": {"t": {"command": "~/bin/server"}}}`, pick: "t",
			wantErr: `server "t", command: "~/bin/server" starts with ~, which only a shell expands, and a client starts its servers without one: write the full path, or ${HOME}/bin/server`},
		{name: "tilde cwd", path: "p/.vscode/mcp.json", data: `{"servers": {"t": {"command": "node", "cwd": "~/srv"}}}`, pick: "t",
			wantErr: `server "t", cwd: "~/srv" starts with ~, which only a shell expands, and a client starts its servers without one: write the full path, or ${userHome}/srv`},
		{name: "tilde envFile", path: "c/claude_desktop_config.json", data: `{"mcpServers": {"t": {"command": "node", "envFile": "~/.env"}}}`, pick: "t",
			wantErr: `server "t", envFile: "~/.env" starts with ~, which only a shell expands, and a client starts its servers without one: write the full path`},
		// A Cursor or VS Code variable in a Claude Code file is named as
		// such, not as an environment variable that is not set.
		{name: "workspaceFolder in .mcp.json", path: "x/.mcp.json", data: `{"mcpServers": {"a": {"command": "node", "args": ["${workspaceFolder}/dist/index.js"]}}}`, pick: "a",
			wantErr: `server "a", args[0]: ${workspaceFolder} is a variable of Cursor's and VS Code's files; Claude Code expands only environment variables (${NAME}, ${NAME:-default}): write the path itself, or ${NAME} of a variable you set`},
		{name: "env: in .mcp.json", path: "x/.mcp.json", data: `{"mcpServers": {"a": {"url": "https://h/mcp", "headers": {"X-Key": "${env:KEY}"}}}}`, pick: "a",
			wantErr: `server "a", headers.X-Key: ${env:KEY} is a variable of Cursor's and VS Code's files; Claude Code expands only environment variables (${NAME}, ${NAME:-default}): write ${KEY} instead`},
		// A command line in "command" is refused with how to split it.
		{name: "command line", path: "x/.mcp.json", data: `{"mcpServers": {"m": {"command": "npx -y @modelcontextprotocol/server-memory", "args": ["--x"]}}}`, pick: "m",
			wantErr: `server "m", command: "npx -y @modelcontextprotocol/server-memory" holds its arguments too, but a client starts "command" as one program, without a shell: write "command": "npx", "args": ["-y","@modelcontextprotocol/server-memory","--x"]`},
		// An entry written on Windows, through cmd /c, says what to write
		// here; a Windows path with a space is not split as if it held
		// arguments.
		{name: "cmd /c", path: "c/claude_desktop_config.json", data: `{"mcpServers": {"w": {"command": "cmd", "args": ["/c", "npx", "-y", "@modelcontextprotocol/server-memory"]}}}`, pick: "w",
			wantErr: `server "w" starts cmd /c, Windows' command interpreter, which this machine does not have: the entry is written for Windows; here, write "command": "npx", "args": ["-y","@modelcontextprotocol/server-memory"]`},
		{name: "cmd /c with the command in one argument", path: "c/claude_desktop_config.json", data: `{"mcpServers": {"w": {"command": "cmd", "args": ["/c", "npx -y some-server"]}}}`, pick: "w",
			wantErr: `server "w" starts cmd /c, Windows' command interpreter, which this machine does not have: the entry is written for Windows; here, write "command": "npx", "args": ["-y","some-server"]`},
		{name: "servers an array", path: "x/.mcp.json", data: "{\n  \"mcpServers\": [\n  ]\n}",
			wantErr: `x/.mcp.json:2:17: "mcpServers": want an object of servers by name, found an array`},
		{name: "VS Code servers an array", path: "p/.vscode/mcp.json", data: "{\n  // mine\n  \"servers\": [{\"command\": \"a\"}]\n}",
			wantErr: `p/.vscode/mcp.json:3:14: "servers": want an object of servers by name, found an array`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse(tt.path, []byte(tt.data), Options{LookupEnv: env(nil), Home: "/h"})
			if err == nil && tt.pick != "" {
				var s Server
				s, err = f.Pick(tt.pick)
				if err == nil {
					err = s.Err
				}
			} else if err == nil {
				// No server picked: the first server's error.
				for _, s := range f.Servers {
					if s.Err != nil {
						err = s.Err
						break
					}
				}
			}
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("got %v\nwant %s", err, tt.wantErr)
			}
		})
	}
}

func TestUnsetErrorNamesTheVariable(t *testing.T) {
	f, err := Parse(".mcp.json", []byte(`{"mcpServers": {"a": {"command": "${NOPE}"}}}`), Options{LookupEnv: env(nil)})
	if err != nil {
		t.Fatal(err)
	}
	var u *UnsetError
	if !errors.As(f.Servers[0].Err, &u) || u.Name != "NOPE" {
		t.Errorf("error %v does not name NOPE as an UnsetError", f.Servers[0].Err)
	}
}

// TestDetect: a file named like no client's is read by its key.
func TestDetect(t *testing.T) {
	for _, tt := range []struct {
		data string
		want Format
	}{
		{`{"servers": {"a": {"command": "a"}}}`, VSCode},
		{`{"mcpServers": {"a": {"command": "a"}}}`, ClaudeCode},
		{"{\"servers\": {\"a\": {\"command\": \"a\",},}, // comment\n}", VSCode},
		{"\uFEFF{\"servers\": {\"a\": {\"command\": \"a\"}}}", VSCode},
	} {
		f, err := Parse("mine.json", []byte(tt.data), Options{LookupEnv: env(nil)})
		if err != nil {
			t.Errorf("%s: %v", tt.data, err)
			continue
		}
		if f.Format != tt.want {
			t.Errorf("%s: format %s, want %s", tt.data, f.Format, tt.want)
		}
	}
}

func TestStripJSONC(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"a": 1,}`, `{"a": 1 }`},
		{`[1, 2 , ]`, `[1, 2   ]`},
		{"{\"a\": \"//not\", // yes\n\"b\": 2}", "{\"a\": \"//not\",       \n\"b\": 2}"},
		{"{/* x\ny */\"a\": \"/*\\\"*/\"}", "{    \n    \"a\": \"/*\\\"*/\"}"},
		{`{"a": ",}"}`, `{"a": ",}"}`},
	} {
		if got := string(stripJSONC([]byte(tt.in))); got != tt.want {
			t.Errorf("stripJSONC(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestParseFormat(t *testing.T) {
	if f, err := ParseFormat("cursor"); err != nil || f != Cursor {
		t.Errorf("cursor: %v %v", f, err)
	}
	_, err := ParseFormat("zed")
	if err == nil || !strings.Contains(err.Error(), "claude-desktop, claude-code, cursor, vscode") {
		t.Errorf("zed: %v", err)
	}
}

// TestEnvFile: a server's envFile is read from the workspace, and its env
// is laid over it.
func TestEnvFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".vscode"), 0o755); err != nil {
		t.Fatal(err)
	}
	env := "# secrets\nexport TOKEN=\"t1\"\nLEVEL='debug'\n\nHOST=h\n"
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte(env), 0o600); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, ".vscode", "mcp.json")
	data := `{"servers": {"a": {"command": "srv", "envFile": "${workspaceFolder}/.env", "env": {"HOST": "h2"}}, "b": {"command": "srv", "envFile": "missing.env"}}}`
	f, err := Parse(path, []byte(data), Options{LookupEnv: func(string) (string, bool) { return "", false }})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"TOKEN": "t1", "LEVEL": "debug", "HOST": "h2"}
	if a := f.Servers[0]; a.Err != nil || !reflect.DeepEqual(a.Target.Env, want) {
		t.Errorf("a: env %v, error %v; want %v", a.Target.Env, a.Err, want)
	}
	if b := f.Servers[1]; b.Err == nil || !strings.Contains(b.Err.Error(), `server "b", envFile:`) || !strings.Contains(b.Err.Error(), "missing.env") {
		t.Errorf("b: error %v, want one naming the missing envFile", b.Err)
	}
}

// TestRelativeCommand: a command such as bin/server is found from the
// workspace, as a relative cwd is, not from wherever rubric runs; with a
// cwd it stays as written, for the start to find it from there; a bare
// name is looked up on PATH. With no cwd, a project's server starts in
// the workspace, so that its relative arguments (node dist/index.js)
// name the project's files.
func TestRelativeCommand(t *testing.T) {
	for _, c := range []struct{ server, want, dir string }{
		{`{"command": "bin/tidy"}`, "/ws/bin/tidy", "/ws"},
		{`{"command": "./run.sh", "cwd": "tools"}`, "./run.sh", "/ws/tools"},
		{`{"command": "npx"}`, "npx", "/ws"},
		{`{"command": "/opt/tidy"}`, "/opt/tidy", "/ws"},
		{`{"command": "node", "args": ["dist/index.js"]}`, "node", "/ws"},
		// An argument's ~ is the server's to expand.
		{`{"command": "npx", "args": ["-y", "fs-server", "~/Documents"]}`, "npx", "/ws"},
	} {
		f, err := Parse("p/.vscode/mcp.json", []byte(`{"servers": {"a": `+c.server+`}}`), Options{LookupEnv: env(nil), Home: "/h", Workspace: "/ws"})
		if err != nil {
			t.Fatal(err)
		}
		s := f.Servers[0]
		if s.Err != nil || s.Target.Location != c.want || s.Target.Dir != c.dir {
			t.Errorf("%s: command %q in %q (%v), want %q in %q", c.server, s.Target.Location, s.Target.Dir, s.Err, c.want, c.dir)
		}
	}
}

// TestStartsIn: a project's servers start in the project wherever rubric
// runs; Claude Desktop's, and those of a file in the home folder
// (~/.cursor/mcp.json, the user's own), start where rubric runs, so that
// a sandbox does not show them the home folder or the application's
// settings.
func TestStartsIn(t *testing.T) {
	for _, c := range []struct{ path, data, home, dir string }{
		{"/p/.mcp.json", `{"mcpServers": {"a": {"command": "node", "args": ["s.js"]}}}`, "/h", "/p"},
		{"/p/.vscode/mcp.json", `{"servers": {"a": {"command": "node", "args": ["s.js"]}}}`, "/h", "/p"},
		{"/p/.cursor/mcp.json", `{"mcpServers": {"a": {"command": "node", "args": ["s.js"]}}}`, "/h", "/p"},
		{"/h/.cursor/mcp.json", `{"mcpServers": {"a": {"command": "node", "args": ["s.js"]}}}`, "/h", ""},
		{"/h/.config/Claude/claude_desktop_config.json", `{"mcpServers": {"a": {"command": "node", "args": ["s.js"]}}}`, "/h", ""},
		{"/p/.mcp.json", `{"mcpServers": {"a": {"url": "https://h/mcp"}}}`, "/h", ""},
		// VS Code's profile's file is no project's.
		{"/h/.config/Code/User/mcp.json", `{"servers": {"a": {"command": "node", "args": ["s.js"]}}}`, "/h", ""},
	} {
		f, err := Parse(c.path, []byte(c.data), Options{LookupEnv: env(nil), Home: c.home})
		if err != nil {
			t.Fatal(err)
		}
		if s := f.Servers[0]; s.Err != nil || s.Target.Dir != c.dir {
			t.Errorf("%s: starts in %q (%v), want %q", c.path, s.Target.Dir, s.Err, c.dir)
		}
	}
}

// TestMissing: a file that is not there says where clients keep theirs.
func TestMissing(t *testing.T) {
	_, err := Read(t.Context(), filepath.Join(t.TempDir(), ".mcp.json"), Options{})
	if err == nil || !strings.Contains(err.Error(), ".mcp.json: no such file: give the path of a client's configuration: Claude Desktop's ~/Library/Application Support/Claude/claude_desktop_config.json (macOS)") {
		t.Errorf("got %v", err)
	}
}

// TestSecrets: of the values a server's entry takes from the
// environment, wherever they are written (a token in args or in the
// url), its secrets are the credentials, by the rule of the values
// rubric gives a server (redact.Credentials): the variable's name says
// it holds one, or the value looks like one. A path, a region, a mode
// or a port stays readable in reports and messages ("[redacted]/notes
// is not a directory" said nothing), as do the session's own variables
// (HOME) and defaults written in the file. So are the values its command
// line gives in the clear what its name says is a credential (--api-key
// VALUE, a header argument), not a count (--max-tokens 4096).
func TestSecrets(t *testing.T) {
	vars := env(map[string]string{"GH_TOKEN": "ghp-0123456789", "HOME": "/home/me", "PORT": "8080", "REGION": "eu-west-1",
		"NOTES_DIR": "/home/me/notes", "MCP_MODE": "verbose", "API_KEY": "k3y", "UPSTREAM": "ghp_Ab12Cd34Ef56Gh78",
		"DB_URL": "postgres://app:hunter2@db/notes", "WORKSPACE": "/srv/work/project-2024"})
	for _, c := range []struct {
		name, entry string
		want        []string
	}{
		{"a token by its name, not HOME, a short port or a default", `{"command": "${HOME}/bin/gh", "args": ["--token=${GH_TOKEN}", "--port", "${PORT}", "--level", "${LEVEL:-verbose}"]}`, []string{"ghp-0123456789"}},
		{"a region in a url", `{"url": "https://h/mcp?region=${REGION}"}`, nil},
		{"a directory", `{"command": "notes-mcp", "args": ["--root", "${NOTES_DIR}"]}`, nil},
		{"a directory in env", `{"command": "srv", "env": {"ROOT": "${WORKSPACE}"}}`, nil},
		{"a mode", `{"command": "srv", "args": ["--mode", "${MCP_MODE}"]}`, nil},
		{"a short key by its name", `{"command": "srv", "env": {"KEY": "${API_KEY}"}}`, []string{"k3y"}},
		{"a token by its look", `{"command": "srv", "args": ["--upstream", "${UPSTREAM}"]}`, []string{"ghp_Ab12Cd34Ef56Gh78"}},
		{"a url with a password", `{"command": "srv", "args": ["--db", "${DB_URL}"]}`, []string{"postgres://app:hunter2@db/notes"}},
		{"no variable", `{"command": "srv"}`, nil},
		{"a header argument, not a count", `{"command": "npx", "args": ["mcp-remote", "https://h/mcp", "--header", "Authorization: Bearer tok-literal-77", "--max-tokens", "4096"]}`, []string{"Bearer tok-literal-77", "tok-literal-77"}},
		{"a key in the clear", `{"command": "srv", "args": ["--api-key", "sk-literal-123"]}`, []string{"sk-literal-123"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, err := Parse("p/.mcp.json", []byte(`{"mcpServers": {"s": `+c.entry+`}}`), Options{LookupEnv: vars, Home: "/home/me"})
			if err != nil {
				t.Fatal(err)
			}
			if s := f.Servers[0]; s.Err != nil || !reflect.DeepEqual(s.Secrets, c.want) {
				t.Errorf("%s: secrets %q (%v), want %q", c.entry, s.Secrets, s.Err, c.want)
			}
			if got := f.Secrets(); !reflect.DeepEqual(got, c.want) {
				t.Errorf("File.Secrets() = %q, want %q", got, c.want)
			}
		})
	}
}

// TestClaudeUserFile: ~/.claude.json, where claude mcp add writes, gives
// the servers Claude Code starts in a project: that project's (which
// start in it, and take the place of a user's server of the same name)
// and the user's; a project with none says which projects have some.
func TestClaudeUserFile(t *testing.T) {
	data := `{
  "numStartups": 3,
  "mcpServers": {"memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}, "docs": {"type": "http", "url": "https://docs.example/mcp"}},
  "projects": {
    "/work/app": {"allowedTools": [], "mcpServers": {"local": {"type": "stdio", "command": "node", "args": ["dist/index.js"], "env": {}}, "docs": {"command": "docs-server"}}},
    "/work/empty": {"allowedTools": [], "mcpServers": {}},
    "/work/other": {"mcpServers": {"x": {"command": "x"}}}
  }
}`
	f, err := Parse("/home/me/.claude.json", []byte(data), Options{LookupEnv: env(nil), Home: "/home/me", Project: "/work/app"})
	if err != nil {
		t.Fatal(err)
	}
	want := []Server{
		{Name: "local", Transport: "stdio", Target: transport.Target{Location: "node", Args: []string{"dist/index.js"}, Dir: "/work/app"}},
		{Name: "docs", Transport: "stdio", Target: transport.Target{Location: "docs-server", Dir: "/work/app"}},
		{Name: "memory", Transport: "stdio", Target: transport.Target{Location: "npx", Args: []string{"-y", "@modelcontextprotocol/server-memory"}}},
	}
	if f.Format != ClaudeCode || !reflect.DeepEqual(f.Servers, want) {
		t.Errorf("format %s, servers\n got %+v\nwant %+v", f.Format, f.Servers, want)
	}
	_, err = Parse("/home/me/.claude.json", []byte(`{"mcpServers": {}, "projects": {"/work/other": {"mcpServers": {"x": {"command": "x"}}}}}`), Options{LookupEnv: env(nil), Home: "/home/me", Project: "/work/empty"})
	if err == nil || err.Error() != `/home/me/.claude.json configures no server Claude Code starts in /work/empty: none of the user's ("mcpServers"), none of that project's ("projects"."/work/empty"."mcpServers"); the projects with servers of their own are /work/other: run rubric in one of them` {
		t.Errorf("got %v", err)
	}
	// A project's server written wrong is placed in the file.
	f, err = Parse("/home/me/.claude.json", []byte("{\"projects\": {\"/work/app\": {\"mcpServers\": {\"a\": {\"command\": [\"x\"]}}}}}"), Options{LookupEnv: env(nil), Home: "/home/me", Project: "/work/app"})
	if err != nil {
		t.Fatal(err)
	}
	if e := f.Servers[0].Err; e == nil || !strings.HasPrefix(e.Error(), `/home/me/.claude.json:1:61: server "a", command: want a string`) {
		t.Errorf("got %v", e)
	}
}

// TestCommandWithSpace: a program whose path holds a space is started when
// it is there.
func TestCommandWithSpace(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "My Apps")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(dir, "my server")
	if err := os.WriteFile(prog, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"a": map[string]any{"command": prog}}})
	f, err := Parse("x/.mcp.json", data, Options{LookupEnv: env(nil), Home: "/h"})
	if err != nil {
		t.Fatal(err)
	}
	if s := f.Servers[0]; s.Err != nil || s.Target.Location != prog {
		t.Errorf("got %q, %v", s.Target.Location, s.Err)
	}
}

// TestFolder: a folder given for the file names the configuration files
// it holds, or says where clients keep theirs.
func TestFolder(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".cursor"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".cursor", "mcp.json"), []byte(`{"mcpServers": {}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{dir, dir + " is a folder: give the configuration file in it, " + filepath.Join(dir, ".cursor", "mcp.json")},
		{filepath.Join(dir, ".cursor"), filepath.Join(dir, ".cursor") + " is a folder: give the configuration file in it, " + filepath.Join(dir, ".cursor", "mcp.json")},
	} {
		_, err := Read(t.Context(), c.path, Options{})
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v\nwant %s", err, c.want)
		}
	}
	empty := t.TempDir()
	if _, err := Read(t.Context(), empty, Options{}); err == nil || !strings.HasPrefix(err.Error(), empty+" is a folder, and holds no client's configuration file: give the path of one: Claude Desktop's") {
		t.Errorf("got %v", err)
	}
}

// TestUserFileWorkspace: the user's own Cursor or VS Code file serves
// every project, so its ${workspaceFolder} is the folder rubric runs in,
// as the project open in the editor; a project's file keeps its own.
func TestUserFileWorkspace(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, data, want string }{
		{"/h/.cursor/mcp.json", `{"mcpServers": {"fs": {"command": "fs", "args": ["${workspaceFolder}"]}}}`, wd},
		{"/h/.config/Code/User/mcp.json", `{"servers": {"fs": {"command": "fs", "args": ["${workspaceFolder}"]}}}`, wd},
		{"/p/.cursor/mcp.json", `{"mcpServers": {"fs": {"command": "fs", "args": ["${workspaceFolder}"]}}}`, "/p"},
	} {
		f, err := Parse(c.path, []byte(c.data), Options{LookupEnv: env(nil), Home: "/h"})
		if err != nil {
			t.Fatal(err)
		}
		if s := f.Servers[0]; s.Err != nil || len(s.Target.Args) != 1 || s.Target.Args[0] != c.want {
			t.Errorf("%s: args %q (%v), want [%q]", c.path, s.Target.Args, s.Err, c.want)
		}
	}
}

// TestClientEntries: entries as each client writes them, read as the
// client would start them: VS Code's "type": "sse" and "http" (whose
// fallback to SSE the http transport makes), its "env" null that unsets
// a variable, and a ${VAR} in any field of Claude Desktop's file, which
// Claude Desktop would hand the server as written and rubric refuses,
// naming the variable; Claude Code's file expands the same entry.
func TestClientEntries(t *testing.T) {
	vars := env(map[string]string{"TOKEN": "t1", "DEBUG": "1"})
	tests := []struct {
		name, path, data string
		transport        string
		target           transport.Target
		wantErr          string
	}{
		{name: "vscode sse", path: "p/.vscode/mcp.json", data: `{"servers": {"s": {"type": "sse", "url": "https://h.example/sse"}}}`,
			transport: "sse", target: transport.Target{Location: "https://h.example/sse"}},
		{name: "vscode http", path: "p/.vscode/mcp.json", data: `{"servers": {"s": {"type": "http", "url": "https://h.example/mcp", "headers": {"X-Key": "${env:TOKEN}"}}}}`,
			transport: "http", target: transport.Target{Location: "https://h.example/mcp", Headers: map[string]string{"X-Key": "t1"}}},
		{name: "vscode url alone", path: "p/.vscode/mcp.json", data: `{"servers": {"s": {"url": "https://h.example/mcp"}}}`,
			transport: "http", target: transport.Target{Location: "https://h.example/mcp"}},
		{name: "vscode env null", path: "/w/.vscode/mcp.json", data: `{"servers": {"s": {"type": "stdio", "command": "/bin/srv", "env": {"DEBUG": null, "A": "1", "NODE_OPTIONS": null}}}}`,
			transport: "stdio", target: transport.Target{Location: "/bin/srv", Dir: "/w", Env: map[string]string{"A": "1"}, Unset: []string{"DEBUG", "NODE_OPTIONS"}}},
		{name: "desktop variable in env", path: "c/claude_desktop_config.json", data: `{"mcpServers": {"s": {"command": "/bin/srv", "env": {"API_KEY": "${TOKEN}"}}}}`,
			wantErr: `server "s", env.API_KEY: Claude Desktop does not expand ${TOKEN}: it starts the server with the text ${TOKEN} itself, not a value: write the value in the file, or read the file with --config-format claude-code`},
		{name: "desktop variable in args", path: "c/claude_desktop_config.json", data: `{"mcpServers": {"s": {"command": "/bin/srv", "args": ["--root", "${HOME}/notes"]}}}`,
			wantErr: `server "s", args[1]: Claude Desktop does not expand ${HOME}:`},
		{name: "desktop variable in a url", path: "c/claude_desktop_config.json", data: `{"mcpServers": {"s": {"url": "https://h.example/mcp?key=${TOKEN}"}}}`,
			wantErr: `server "s", url: Claude Desktop does not expand ${TOKEN}:`},
		{name: "desktop dollar without brace", path: "c/claude_desktop_config.json", data: `{"mcpServers": {"s": {"command": "/bin/srv", "args": ["$HOME", "cost: $5"]}}}`,
			transport: "stdio", target: transport.Target{Location: "/bin/srv", Args: []string{"$HOME", "cost: $5"}}},
		{name: "the same entry read as Claude Code's", path: "c/.mcp.json", data: `{"mcpServers": {"s": {"command": "/bin/srv", "env": {"API_KEY": "${TOKEN}"}}}}`,
			transport: "stdio", target: transport.Target{Location: "/bin/srv", Dir: workspaceOf("c/.mcp.json"), Env: map[string]string{"API_KEY": "t1"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, err := Parse(tt.path, []byte(tt.data), Options{LookupEnv: vars, Home: "/home/me"})
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Servers) != 1 {
				t.Fatalf("servers %v", f.Names())
			}
			s := f.Servers[0]
			if tt.wantErr != "" {
				if s.Err == nil || !strings.HasPrefix(s.Err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want it to begin %q", s.Err, tt.wantErr)
				}
				return
			}
			if s.Err != nil {
				t.Fatal(s.Err)
			}
			if s.Transport != tt.transport || !reflect.DeepEqual(s.Target, tt.target) {
				t.Errorf("got %s %+v\nwant %s %+v", s.Transport, s.Target, tt.transport, tt.target)
			}
		})
	}
}
