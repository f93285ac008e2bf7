// Package clientconfig reads the files in which MCP clients keep their
// servers, so that rubric reads the servers a user has installed, as the
// client would start them: Claude Desktop's claude_desktop_config.json,
// Claude Code's .mcp.json, Cursor's .cursor/mcp.json (or ~/.cursor/mcp.json)
// and VS Code's .vscode/mcp.json.
//
// The four formats differ in three ways, each handled here:
//
//   - the key that holds the servers: "mcpServers" (Claude Desktop, Claude
//     Code, Cursor) or "servers" (VS Code);
//   - the variables written into strings, and where: Claude Code expands
//     ${VAR} and ${VAR:-default}; Cursor and VS Code expand ${env:VAR},
//     ${userHome}, ${workspaceFolder}, ${workspaceFolderBasename},
//     ${pathSeparator} and ${/}, and VS Code also ${input:ID}, which it
//     asks the user for; Claude Desktop expands nothing, so a ${...} in
//     its file, which its server would receive as written, is refused;
//   - comments and trailing commas, which VS Code's file may hold (it is
//     JSON with comments) and the others may not.
//
// A server is a command to spawn (command, args, env, cwd, envFile) or an
// endpoint (url, headers), with the transport taken from "type" when the
// format has one (stdio, http, sse), else from which of command and url
// is given. A server that cannot be used as written (an unset variable, an
// input rubric cannot ask for, neither command nor url) keeps its error
// beside it, so that the other servers of the file are still read.
package clientconfig

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"

	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/nearest"
	"github.com/rubricmcp/rubric/internal/redact"
)

// Format is a client's configuration format.
type Format string

// The formats.
const (
	ClaudeDesktop Format = "claude-desktop" // claude_desktop_config.json
	ClaudeCode    Format = "claude-code"    // .mcp.json
	Cursor        Format = "cursor"         // .cursor/mcp.json
	VSCode        Format = "vscode"         // .vscode/mcp.json
)

// Formats are the formats, as --config-format takes them.
var Formats = []Format{ClaudeDesktop, ClaudeCode, Cursor, VSCode}

// ParseFormat returns the format named s; "" means detect it.
func ParseFormat(s string) (Format, error) {
	if s == "" {
		return "", nil
	}
	for _, f := range Formats {
		if string(f) == s {
			return f, nil
		}
	}
	names := make([]string, len(Formats))
	for i, f := range Formats {
		names[i] = string(f)
	}
	return "", fmt.Errorf("unknown config format %q: use %s", s, strings.Join(names, ", "))
}

// Options say how a file is read.
type Options struct {
	// Format is the file's format; empty means from the file's name
	// (claude_desktop_config.json, .mcp.json, .cursor/mcp.json,
	// .vscode/mcp.json), else from its servers key: "servers" is VS
	// Code's, "mcpServers" is read as Claude Code's.
	Format Format
	// LookupEnv reads an environment variable; nil means os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Home is ${userHome}; empty means os.UserHomeDir.
	Home string
	// Workspace is ${workspaceFolder}, and the directory a relative cwd
	// or envFile is read from; empty means the folder the file belongs
	// to: the parent of .cursor or .vscode, else the file's directory.
	Workspace string
	// Project is the folder whose servers Claude Code's own file,
	// ~/.claude.json, gives beside the user's (its "projects" entry of
	// that path: the servers claude mcp add adds); empty means the
	// current directory, as Claude Code run there would start them.
	Project string
}

// File is a client configuration file, read.
type File struct {
	Path   string
	Format Format
	// Servers are in the order the file lists them; disabled ones
	// ("disabled": true) are left out.
	Servers []Server
	// Disabled are the names of the servers the file marks
	// "disabled": true, in file order: not read, but named, so that a
	// run can say it left them out.
	Disabled []string
}

// Server is one configured server.
type Server struct {
	// Name is the server's key in the file.
	Name string
	// Transport is the transport that reads it: stdio, http or sse.
	Transport string
	// Target is where it is read, with every variable expanded.
	Target transport.Target
	// Secrets are the values of the environment variables expanded in
	// the server's entry (${TOKEN}) that are credentials by the rule of
	// the values rubric gives a server (redact.Credentials: the
	// variable's name says so, or the value looks like one; a path, a
	// region or a mode stays readable), and those its command line gives
	// what its name says is a credential (redact.ArgSecrets: --api-key
	// VALUE written in the clear): the server is given them, on its
	// command line too, but no report or message may show them.
	Secrets []string
	// Err, when set, says why the server cannot be read as written; the
	// other fields are then incomplete.
	Err error
}

// Secrets are the secrets of every server.
func (f *File) Secrets() []string {
	var all []string
	for _, s := range f.Servers {
		all = append(all, s.Secrets...)
	}
	return all
}

// Names are the servers' names, in file order.
func (f *File) Names() []string {
	names := make([]string, len(f.Servers))
	for i, s := range f.Servers {
		names[i] = s.Name
	}
	return names
}

// Pick returns the server named name; an unknown name is an error that
// lists the names the file holds.
func (f *File) Pick(name string) (Server, error) {
	for _, s := range f.Servers {
		if s.Name == name {
			return s, nil
		}
	}
	for _, d := range f.Disabled {
		if d == name {
			return Server{}, fmt.Errorf("%s marks the server %q \"disabled\": true, so its client does not start it and rubric does not read it: set \"disabled\" to false (or remove it) to score it", f.Path, name)
		}
	}
	if near := nearest.Key(name, f.Names()); near != "" {
		return Server{}, fmt.Errorf("%s has no server %q: did you mean %q? Its servers are: %s", f.Path, name, near, strings.Join(f.Names(), ", "))
	}
	return Server{}, fmt.Errorf("%s has no server %q; its servers are: %s", f.Path, name, strings.Join(f.Names(), ", "))
}

// Where says where each client keeps its configuration, for a message
// about a file that is not there.
const Where = "Claude Desktop's ~/Library/Application Support/Claude/claude_desktop_config.json (macOS) or %APPDATA%\\Claude\\claude_desktop_config.json (Windows), Claude Code's .mcp.json at a project's root, Cursor's .cursor/mcp.json in a project or ~/.cursor/mcp.json, VS Code's .vscode/mcp.json in a project"

// Read reads the file at path, within the limit of every file read whole.
func Read(ctx context.Context, path string, o Options) (*File, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		var found []string
		for _, name := range []string{".mcp.json", ".cursor/mcp.json", ".vscode/mcp.json", "mcp.json", "claude_desktop_config.json"} {
			if st, err := os.Stat(filepath.Join(path, name)); err == nil && !st.IsDir() {
				found = append(found, filepath.Join(path, name))
			}
		}
		if len(found) > 0 {
			return nil, fmt.Errorf("%s is a folder: give the configuration file in it, %s", path, strings.Join(found, " or "))
		}
		return nil, fmt.Errorf("%s is a folder, and holds no client's configuration file: give the path of one: %s", path, Where)
	}
	data, err := boundedread.ReadFile(ctx, path, boundedread.Limit())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no such file: give the path of a client's configuration: %s", path, Where)
	}
	if err != nil {
		return nil, fmt.Errorf("read the client configuration: %w", err)
	}
	return Parse(path, data, o)
}

// Parse reads a client configuration from data; path names it in errors
// and, unless Options say otherwise, gives its format and workspace.
func Parse(path string, data []byte, o Options) (*File, error) {
	if o.LookupEnv == nil {
		o.LookupEnv = os.LookupEnv
	}
	if o.Home == "" {
		o.Home, _ = os.UserHomeDir()
	}
	givenWorkspace := o.Workspace != ""
	if o.Workspace == "" {
		o.Workspace = workspaceOf(path)
	}
	format := o.Format
	if format == "" {
		format = formatOf(path)
	}
	text := data
	if format == "" || format == VSCode {
		// JSON with comments: blanked out, so that every position
		// still names the same line and column. VS Code reads a file
		// that starts with a byte order mark as well.
		text = stripJSONC(data)
		if bytes.HasPrefix(text, bom) {
			text = append([]byte("   "), text[len(bom):]...)
		}
	} else if bytes.HasPrefix(data, bom) {
		return nil, fmt.Errorf("%s:1:1: the file starts with a byte order mark (U+FEFF), which JSON does not allow and a %s client's JSON reader refuses: save the file as UTF-8 without a BOM", path, format)
	}
	var top map[string]json.RawMessage
	if err := decodeStrict(text, &top); err != nil {
		return nil, syntaxError(path, data, err)
	}
	if top == nil {
		return nil, fmt.Errorf("%s: want a JSON object holding %q or %q", path, "mcpServers", "servers")
	}
	key := "mcpServers"
	if format == "" {
		format = ClaudeCode
		if _, ok := top["servers"]; ok {
			if _, both := top["mcpServers"]; !both {
				format, key = VSCode, "servers"
			}
		}
	} else if format == VSCode {
		key = "servers"
	}
	if format == ClaudeCode && filepath.Base(path) == claudeUserFile {
		return parseClaudeUser(path, data, text, top, o)
	}
	raw, ok := top[key]
	if !ok {
		other := map[string]string{"servers": "mcpServers", "mcpServers": "servers"}[key]
		if _, has := top[other]; has {
			return nil, fmt.Errorf("%s holds %q, but a %s configuration keeps its servers in %q: give --config-format for the client the file belongs to", path, other, format, key)
		}
		return nil, fmt.Errorf("%s has no %q object: it does not look like a %s configuration", path, key, format)
	}
	// Where each member starts in the file, for the messages that say
	// where a server is written wrong.
	topMembers, err := members(text, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var at int64
	for _, m := range topMembers {
		if m.name == key {
			at = m.start
		}
	}
	servers, err := members(raw, at)
	if err != nil {
		line, col := position(data, at+1)
		return nil, fmt.Errorf("%s:%d:%d: %q: %v", path, line, col, key, err)
	}
	if !givenWorkspace && (format == Cursor || format == VSCode) && !projectFile(path, o.Home) {
		// The user's own file (~/.cursor/mcp.json, VS Code's profile's
		// mcp.json) serves every project: its ${workspaceFolder} is the
		// one open, here the folder rubric runs in.
		if wd, err := os.Getwd(); err == nil {
			o.Workspace = wd
		}
	}
	f, err := readServers(path, data, format, key, servers, o)
	if err != nil {
		return nil, err
	}
	if len(f.Servers) == 0 && len(f.Disabled) > 0 {
		return nil, fmt.Errorf("%s configures no server in %q that is not disabled (\"disabled\": true): %s; enable one, or give another --config-file", path, key, strings.Join(f.Disabled, ", "))
	}
	if len(f.Servers) == 0 {
		return nil, fmt.Errorf("%s configures no server in %q: add one, or give another --config-file", path, key)
	}
	return f, nil
}

// readServers reads the servers of a file's servers object (key names it
// in messages), each member's entry read as its format writes it, from
// its own workspace when it has one.
func readServers(path string, data []byte, format Format, key string, servers []member, o Options) (*File, error) {
	seen := map[string]bool{}
	for _, m := range servers {
		if seen[m.name] {
			line, col := position(data, m.start+1)
			return nil, fmt.Errorf("%s:%d:%d: %q: the server %q is named twice", path, line, col, key, m.name)
		}
		seen[m.name] = true
	}
	f := &File{Path: path, Format: format}
	x := expander{format: format, opt: o}
	project := projectFile(path, o.Home)
	for i, m := range servers {
		name := m.name
		x.opt.Workspace = o.Workspace
		x.project = project
		if m.workspace != "" {
			x.opt.Workspace, x.project = m.workspace, true
		}
		var e entry
		if err := json.Unmarshal(m.value, &e); err != nil {
			f.Servers = append(f.Servers, Server{Name: name, Err: x.entryError(path, data, name, m, err)})
			continue
		}
		if e.Disabled {
			f.Disabled = append(f.Disabled, name)
			continue
		}
		s := Server{Name: name}
		if strings.TrimSpace(name) == "" {
			// Its tools would be named "/tool", and messages would name
			// a server of no name.
			s.Err = fmt.Errorf("server %d of %q has an empty name: give it one, such as the name of the package it runs", i+1, key)
		} else {
			x.seen = map[string]string{}
			s.Transport, s.Target, s.Err = x.server(name, e)
			// A credential written in the clear in the entry's command
			// line (--api-key VALUE), which no ${VAR} marks, is hidden
			// as a variable's value is.
			args := append([]string{s.Target.Location}, s.Target.Args...)
			s.Secrets = redact.LongestFirst(append(redact.Credentials(x.seen, nil), redact.ArgSecrets(args)...))
			if s.Err != nil && e.Command == "" && e.URL == "" {
				s.Err = withUnknownKeys(s.Err, m.value)
			}
		}
		f.Servers = append(f.Servers, s)
	}
	return f, nil
}

// projectFile says whether the file at path is a project's: named as one
// (.mcp.json, .cursor/mcp.json, .vscode/mcp.json), and not in the home
// folder (~/.cursor/mcp.json is the user's own).
func projectFile(path, home string) bool {
	switch formatOf(path) {
	case ClaudeCode, Cursor, VSCode:
	default:
		return false
	}
	if filepath.Base(path) == claudeUserFile {
		return false
	}
	return home == "" || filepath.Clean(workspaceOf(path)) != filepath.Clean(home)
}

// claudeUserFile is the name of Claude Code's own file in the home
// folder, which holds the user's servers and each project's.
const claudeUserFile = ".claude.json"

// parseClaudeUser reads ~/.claude.json as Claude Code run in o.Project
// would start its servers: the user's ("mcpServers") and the project's
// ("projects"[o.Project]["mcpServers"], which claude mcp add writes by
// default), a project's server taking the place of a user's of the same
// name; the project's servers start in the project.
func parseClaudeUser(path string, data, text []byte, top map[string]json.RawMessage, o Options) (*File, error) {
	project := o.Project
	if project == "" {
		project, _ = os.Getwd()
	}
	topMembers, err := members(text, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var user, local []member
	var withServers []string
	for _, m := range topMembers {
		switch m.name {
		case "mcpServers":
			if user, err = members(m.value, m.start); err != nil {
				line, col := position(data, m.start+1)
				return nil, fmt.Errorf("%s:%d:%d: %q: %v", path, line, col, m.name, err)
			}
		case "projects":
			projects, err := members(m.value, m.start)
			if err != nil {
				continue // not Claude Code's shape: no project has servers
			}
			for _, p := range projects {
				fields, err := members(p.value, p.start)
				if err != nil {
					continue
				}
				for _, pf := range fields {
					if pf.name != "mcpServers" {
						continue
					}
					ms, err := members(pf.value, pf.start)
					if err != nil {
						line, col := position(data, pf.start+1)
						return nil, fmt.Errorf("%s:%d:%d: \"projects\".%q.\"mcpServers\": %v", path, line, col, p.name, err)
					}
					if len(ms) > 0 {
						withServers = append(withServers, p.name)
					}
					if filepath.Clean(p.name) == filepath.Clean(project) {
						for _, s := range ms {
							s.workspace = p.name
							local = append(local, s)
						}
					}
				}
			}
		}
	}
	servers := local
	for _, u := range user {
		if !slices.ContainsFunc(local, func(l member) bool { return l.name == u.name }) {
			servers = append(servers, u)
		}
	}
	f, err := readServers(path, data, ClaudeCode, "mcpServers", servers, o)
	if err != nil {
		return nil, err
	}
	if len(f.Servers) == 0 {
		others := ""
		if len(withServers) > 0 {
			others = fmt.Sprintf("; the projects with servers of their own are %s: run rubric in one of them", strings.Join(withServers, ", "))
		}
		return nil, fmt.Errorf("%s configures no server Claude Code starts in %s: none of the user's (\"mcpServers\"), none of that project's (\"projects\".%q.\"mcpServers\")%s", path, project, project, others)
	}
	return f, nil
}

// bom is the UTF-8 byte order mark.
var bom = []byte{0xEF, 0xBB, 0xBF}

// PosError is a server written in a way rubric cannot read, at a place
// in the file.
type PosError struct {
	// Path, Line and Column say where (1-based, the column in
	// characters).
	Path         string
	Line, Column int
	// Err says what is wrong there.
	Err error
}

// Error is the failure prefixed with FILE:LINE:COLUMN.
func (e *PosError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %v", e.Path, e.Line, e.Column, e.Err)
}

// Unwrap returns what is wrong.
func (e *PosError) Unwrap() error { return e.Err }

// fieldWants says what each field of a server holds, for the message of
// a field of another kind.
var fieldWants = map[string]string{
	"type":     `a string: "stdio", "http" or "sse"`,
	"command":  `a string, the program alone, such as "npx" (its arguments go in "args")`,
	"args":     `an array of strings, such as ["-y", "some-mcp-server"]`,
	"env":      `an object of variables, such as {"API_KEY": "..."}`,
	"envFile":  "a string, the path of a file of NAME=VALUE lines",
	"cwd":      "a string, the folder the server starts in",
	"url":      `a string, such as "https://example.com/mcp"`,
	"headers":  `an object of strings, such as {"Authorization": "Bearer ..."}`,
	"disabled": "true or false",
}

// entryError is the error of a server whose entry does not decode: where
// in the file the field (or the entry) is, and what it should hold.
func (x expander) entryError(path string, data []byte, name string, m member, err error) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return fmt.Errorf("server %q: %v", name, err)
	}
	at := m.start
	field, _, _ := strings.Cut(te.Field, ".")
	var what error
	if field == "" {
		what = fmt.Errorf("server %q: want an object such as {\"command\": \"npx\", \"args\": [...]} or {\"url\": \"https://...\"}, found %s", name, article(te.Value))
	} else {
		var value json.RawMessage
		if inner, err := members(m.value, m.start); err == nil {
			for _, f := range inner {
				if f.name == field {
					at, value = f.start, f.value
				}
			}
		}
		want := fieldWants[field]
		if want == "" {
			want = "another kind of value"
		}
		what = fmt.Errorf("server %q, %s: want %s, found %s", name, field, want, article(te.Value))
		if len(value) > 0 && (value[0] == '[' || value[0] == '{') && te.Value != "array" && te.Value != "object" {
			// One element or member is of the wrong kind: point at it.
			what = fmt.Errorf("server %q, %s: want %s, but it holds %s", name, field, want, article(te.Value))
			line, col := position(data, m.start+te.Offset)
			return &PosError{Path: path, Line: line, Column: col, Err: what}
		}
	}
	line, col := position(data, at+1)
	return &PosError{Path: path, Line: line, Column: col, Err: what}
}

// article is a JSON kind as encoding/json names it, with its article.
func article(kind string) string {
	switch kind {
	case "array", "object":
		return "an " + kind
	case "string", "number", "bool":
		if kind == "bool" {
			kind = "boolean"
		}
		return "a " + kind
	}
	return kind
}

// knownKeys are the keys of a server entry that rubric reads, or knows
// that it need not (VS Code's dev mode, sandbox and OAuth settings, the
// tool filters and timeouts some clients keep).
var knownKeys = map[string]bool{
	"type": true, "command": true, "args": true, "env": true, "envFile": true, "cwd": true,
	"url": true, "headers": true, "disabled": true,
}

// otherClients are keys other clients write where these formats write
// "url", and what to write instead.
var otherClients = map[string]string{
	"serverUrl": `"url" (serverUrl is Windsurf's name for it)`,
	"httpUrl":   `"url" with "type": "http" (httpUrl is Gemini CLI's name for it)`,
}

// withUnknownKeys adds to the error of an entry with neither a command
// nor a url the keys it does have that rubric does not read: a
// misspelling, or another client's name for the url.
func withUnknownKeys(err error, raw json.RawMessage) error {
	ms, merr := members(raw, 0)
	if merr != nil {
		return err
	}
	var unknown []string
	for _, m := range ms {
		if hint, ok := otherClients[m.name]; ok {
			return fmt.Errorf("%w: write its %s as %s", err, m.name, hint)
		}
		if !knownKeys[m.name] {
			unknown = append(unknown, m.name)
		}
	}
	if len(unknown) == 0 {
		return err
	}
	return fmt.Errorf("%w (rubric does not read its %s: a server is started from \"command\" or read from \"url\")", err, strings.Join(unknown, ", "))
}

// entry is one server as the file writes it.
type entry struct {
	Type     string            `json:"type"`
	Command  string            `json:"command"`
	Args     []string          `json:"args"`
	Env      map[string]any    `json:"env"`
	EnvFile  string            `json:"envFile"`
	Cwd      string            `json:"cwd"`
	URL      string            `json:"url"`
	Headers  map[string]string `json:"headers"`
	Disabled bool              `json:"disabled"`
}

// formatOf is the format a file's name says, or "".
func formatOf(path string) Format {
	slashed := filepath.ToSlash(path)
	base := filepath.Base(path)
	switch {
	case base == "claude_desktop_config.json":
		return ClaudeDesktop
	case base == ".mcp.json", base == claudeUserFile:
		return ClaudeCode
	case strings.HasSuffix(slashed, ".cursor/mcp.json"):
		return Cursor
	case strings.HasSuffix(slashed, ".vscode/mcp.json"):
		return VSCode
	}
	return ""
}

// workspaceOf is the folder a configuration file belongs to.
func workspaceOf(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	dir := filepath.Dir(abs)
	if b := filepath.Base(dir); b == ".cursor" || b == ".vscode" {
		return filepath.Dir(dir)
	}
	return dir
}

// decodeStrict decodes one JSON value and refuses anything after it.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return &trailingError{offset: dec.InputOffset()}
	}
	return nil
}

// trailingError is text after the file's JSON value.
type trailingError struct{ offset int64 }

func (e *trailingError) Error() string { return "text after the JSON value" }

// syntaxError says where data stops being JSON, as path:line:col.
func syntaxError(path string, data []byte, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	var tr *trailingError
	switch {
	case errors.As(err, &se):
		line, col := position(data, se.Offset)
		return fmt.Errorf("%s:%d:%d: %s (the file is not valid JSON)", path, line, col, se.Error())
	case errors.As(err, &tr):
		line, col := position(data, tr.offset+1)
		return fmt.Errorf("%s:%d:%d: text after the JSON value (the file is not valid JSON)", path, line, col)
	case errors.As(err, &te):
		line, col := position(data, te.Offset)
		return fmt.Errorf("%s:%d:%d: want a JSON object holding %q or %q, found %s", path, line, col, "mcpServers", "servers", te.Value)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		line, col := position(data, int64(len(data)))
		if len(data) > 0 && data[len(data)-1] != '\n' {
			col++ // just past the last character
		}
		return fmt.Errorf("%s:%d:%d: the JSON ends too early (the file is not valid JSON)", path, line, col)
	}
	return fmt.Errorf("%s: %v", path, err)
}

// position turns a byte offset into a 1-based line and column (in
// characters). encoding/json's offset is just past the byte it stopped at.
func position(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off > 0 {
		off-- // the byte that was read last
	}
	before := data[:off]
	line = 1 + bytes.Count(before, []byte{'\n'})
	start := bytes.LastIndexByte(before, '\n') + 1
	col = 1 + len([]rune(string(before[start:])))
	if start == 0 && bytes.HasPrefix(before, bom) {
		col-- // a byte order mark is no column an editor shows
	}
	return line, col
}

// member is one member of a JSON object: its name, its value, and the
// offset in the file of the value's first byte.
type member struct {
	name  string
	value json.RawMessage
	start int64
	// workspace, when set, is the server's own workspace (a project of
	// ~/.claude.json).
	workspace string
}

// members reads a JSON object's members in the order written; base is
// the offset of raw in the file.
func members(raw json.RawMessage, base int64) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("want an object of servers by name, found %s", kindOf(tok))
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		name := tok.(string)
		// The value starts after the colon and any space.
		start := dec.InputOffset()
		for start < int64(len(raw)) && (raw[start] == ':' || raw[start] == ' ' || raw[start] == '\t' || raw[start] == '\n' || raw[start] == '\r') {
			start++
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		out = append(out, member{name: name, value: v, start: base + start})
	}
	return out, nil
}

func kindOf(tok json.Token) string {
	switch tok.(type) {
	case json.Delim:
		return "an array"
	case string:
		return "a string"
	case float64:
		return "a number"
	case bool:
		return "a boolean"
	}
	return "null"
}

// server turns an entry into a transport and a target.
func (x expander) server(name string, e entry) (string, transport.Target, error) {
	var t transport.Target
	kind := e.Type
	switch {
	case kind == "" && e.Command != "" && e.URL != "":
		// Which one a client would start is not written down.
		return "", t, fmt.Errorf("server %q has both a command and a url: keep the one you mean, or say which with \"type\" (stdio, http or sse)", name)
	case kind == "" && e.Command != "":
		kind = "stdio"
	case kind == "" && e.URL != "":
		kind = "http"
	case kind == "streamable-http" || kind == "streamableHttp":
		kind = "http"
	}
	switch kind {
	case "stdio":
		if e.Command == "" {
			return "", t, fmt.Errorf("server %q is of type stdio but has no command", name)
		}
	case "http", "sse":
		if e.URL == "" {
			return "", t, fmt.Errorf("server %q is of type %s but has no url", name, kind)
		}
	case "":
		return "", t, fmt.Errorf("server %q has neither a command nor a url", name)
	default:
		return "", t, fmt.Errorf("server %q has type %q: rubric reads stdio, http and sse servers", name, e.Type)
	}
	var err error
	field := func(what, s string) string {
		if err != nil {
			return ""
		}
		var v string
		v, err = x.expand(s)
		if err != nil {
			err = fmt.Errorf("server %q, %s: %w", name, what, err)
		}
		return v
	}
	if kind == "stdio" {
		t.Location = x.noTilde(name, "command", field("command", e.Command), &err)
		for i, a := range e.Args {
			t.Args = append(t.Args, field(fmt.Sprintf("args[%d]", i), a))
		}
		if e.Cwd != "" {
			t.Dir = x.path(x.noTilde(name, "cwd", field("cwd", e.Cwd), &err))
		}
		if err == nil {
			err = x.commandLine(name, t)
		}
		if t.Dir == "" && strings.ContainsRune(t.Location, '/') && !filepath.IsAbs(t.Location) {
			// A command such as bin/server is found from the workspace,
			// as a relative cwd is, not from wherever rubric was run
			// (with a cwd, it is found from there when it starts).
			t.Location = x.path(t.Location)
		}
		if t.Dir == "" && x.startsInWorkspace() {
			// A project's servers start in the project, as its client
			// starts them: an argument such as dist/index.js is found
			// there wherever rubric runs.
			t.Dir = x.opt.Workspace
		}
		if e.EnvFile != "" {
			file := x.path(x.noTilde(name, "envFile", field("envFile", e.EnvFile), &err))
			if err == nil {
				t.Env, err = readEnvFile(file)
				if err != nil {
					err = fmt.Errorf("server %q, envFile: %w", name, err)
				}
			}
		}
		keys := make([]string, 0, len(e.Env))
		for k := range e.Env {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			var s string
			switch v := e.Env[k].(type) {
			case string:
				s = field("env."+k, v)
			case float64, bool:
				s = fmt.Sprint(v)
			case nil:
				// VS Code: null removes a variable from the environment
				// the server would inherit, not only from the entry.
				t.Unset = append(t.Unset, k)
				continue
			default:
				if err == nil {
					err = fmt.Errorf("server %q, env.%s: want a string", name, k)
				}
			}
			if t.Env == nil {
				t.Env = map[string]string{}
			}
			t.Env[k] = s
		}
	} else {
		t.Location = field("url", e.URL)
		keys := make([]string, 0, len(e.Headers))
		for k := range e.Headers {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if t.Headers == nil {
				t.Headers = map[string]string{}
			}
			t.Headers[k] = field("headers."+k, e.Headers[k])
		}
	}
	if err != nil {
		return kind, t, err
	}
	return kind, t, nil
}

// commandLine refuses a command that holds its arguments too ("npx -y
// some-server"): a client starts "command" as one program, without a
// shell. A program whose path holds a space, and is there, is started.
func (x expander) commandLine(name string, t transport.Target) error {
	exists := func(p string) bool {
		if !filepath.IsAbs(p) {
			dir := t.Dir
			if dir == "" {
				dir = x.opt.Workspace
			}
			p = filepath.Join(dir, p)
		}
		_, err := os.Stat(p)
		return err == nil
	}
	if meant, ok := windowsShell(t.Location, t.Args); ok && runtime.GOOS != "windows" {
		args, _ := json.Marshal(meant[1:])
		return fmt.Errorf("server %q starts %s %s, Windows' command interpreter, which this machine does not have: the entry is written for Windows; here, write \"command\": %q, \"args\": %s", name, t.Location, t.Args[0], meant[0], args)
	}
	words, whole := transport.CommandLine(t.Location, t.Args, exists)
	if !whole {
		return nil
	}
	args, _ := json.Marshal(words[1:])
	return fmt.Errorf("server %q, command: %q holds its arguments too, but a client starts \"command\" as one program, without a shell: write \"command\": %q, \"args\": %s", name, t.Location, words[0], args)
}

// windowsShell reports whether prog and args start a server through
// Windows' command interpreter (cmd /c npx -y x, as configurations written
// on Windows do), and returns the command meant (npx -y x).
func windowsShell(prog string, args []string) ([]string, bool) {
	base := strings.ToLower(prog[strings.LastIndexAny(prog, `/\`)+1:])
	if (base != "cmd" && base != "cmd.exe") || len(args) < 2 || !strings.EqualFold(args[0], "/c") {
		return nil, false
	}
	if len(args) == 2 {
		// cmd /c "npx -y pkg": the whole command in one argument.
		return strings.Fields(args[1]), true
	}
	return args[1:], true
}

// noTilde returns p, or sets *err when p starts with ~: a client starts
// a server without a shell, so nothing expands ~ to the home folder, and
// read from the workspace it would name a folder called ~ there.
// (Arguments are left alone: a server may expand ~ in its own.)
func (x expander) noTilde(name, what, p string, err *error) string {
	if *err != nil || (p != "~" && !strings.HasPrefix(p, "~/")) {
		return p
	}
	rest := strings.TrimPrefix(strings.TrimPrefix(p, "~"), "/")
	var instead string
	switch x.format {
	case ClaudeCode:
		instead = fmt.Sprintf(", or ${HOME}/%s", rest)
	case Cursor, VSCode:
		instead = fmt.Sprintf(", or ${userHome}/%s", rest)
	}
	*err = fmt.Errorf("server %q, %s: %q starts with ~, which only a shell expands, and a client starts its servers without one: write the full path%s", name, what, p, instead)
	return p
}

// startsInWorkspace says whether a server with no cwd starts in the
// workspace: a project's file (.mcp.json, .cursor/mcp.json,
// .vscode/mcp.json) names a project, and its client runs in it. Claude
// Desktop's file, in the application's settings, names none, nor does a
// file of another name (VS Code's profile's mcp.json), and a file in the
// home folder (~/.cursor/mcp.json) is the user's, not a project's: their
// servers start where rubric runs.
func (x expander) startsInWorkspace() bool {
	return x.project && x.opt.Workspace != ""
}

// path resolves a relative path against the workspace.
func (x expander) path(p string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(x.opt.Workspace, p)
}

// readEnvFile reads NAME=VALUE lines; blank lines and lines starting
// with # are skipped, and a value may be quoted.
func readEnvFile(path string) (map[string]string, error) {
	data, err := boundedread.ReadFile(context.Background(), path, boundedread.Limit())
	if err != nil {
		return nil, err
	}
	env := map[string]string{}
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(strings.TrimSuffix(line, "\r"))
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		k, v, ok := strings.Cut(line, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			return nil, fmt.Errorf("%s:%d: want NAME=VALUE", path, i+1)
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		env[k] = v
	}
	return env, nil
}
