// Package scan scores many servers in one run: it reads a scan list (a
// list of targets, the official MCP registry's server.json entries, a
// directory of captures or a client configuration) into jobs, installs
// what must be installed, reads and scores each server with every
// rubric through a run.Session, and stores each job's reports or its
// failure record under one output directory, from which the leaderboard
// is built. A job is keyed by its target's identity and the rubrics'
// digests, so a scan run again does only what is not done, and a scan
// split in shards merges into the leaderboard of the whole.
package scan

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rubricmcp/rubric/engine/clientconfig"
	"github.com/rubricmcp/rubric/engine/run"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/boundedread"
	"github.com/rubricmcp/rubric/internal/redact"
	"github.com/rubricmcp/rubric/internal/words"
)

// Job is one target of a scan: one server, read once and scored with
// every rubric of the scan.
type Job struct {
	// Name is the server's name in the leaderboard.
	Name string `json:"name"`
	// Key identifies the job (see Key): its target's identity and the
	// scan's rubrics.
	Key string `json:"key"`
	// Transport reads Target (stdio, http, sse, file); for a package, once
	// it is installed.
	Transport string           `json:"transport"`
	Target    transport.Target `json:"target"`
	// Package, when set, is installed before the server starts; its
	// command then completes Target.
	Package *Package `json:"package,omitempty"`
	// Identity is what the job's key is made of beside the rubrics: the
	// target as it is started (a file's content hash for a file), never a
	// secret in the clear.
	Identity string `json:"identity"`
	// Err is why the entry cannot be scanned as written (a missing
	// command, a variable with no value): the job fails at the config
	// stage without starting anything.
	Err string `json:"error,omitempty"`
	// Secrets are values a client configuration's entry put on the
	// server's command line or in its URL from the environment
	// (${TOKEN}): the worker's session hides them from every record, and
	// the identity holds only their hashes.
	Secrets []string `json:"secrets,omitempty"`
	// Rubrics are the rubrics the key was made with, each its name and
	// the start of its digest: for the message of a worker run with
	// others. Empty in a job an older rubric enqueued.
	Rubrics []string `json:"rubrics,omitempty"`

	// where is the entry's place in its list ("entry 3", "line 4",
	// "servers[2]", a capture's file), and version its server.json's
	// version: for the messages that refuse a list.
	where, version string
}

// Package is a registry package a job installs before it starts it.
type Package struct {
	// Registry is npm or pypi.
	Registry string `json:"registry"`
	// Identifier and Version name the package.
	Identifier string `json:"identifier"`
	Version    string `json:"version,omitempty"`
	// Runtime is the entry's runtime hint (npx, node, uvx).
	Runtime string `json:"runtime,omitempty"`
	// RuntimeArgs are passed to the runtime when rubric starts the
	// server through it (uvx, node); PackageArgs to the server.
	RuntimeArgs []string `json:"runtime_args,omitempty"`
	PackageArgs []string `json:"package_args,omitempty"`
}

// Spec names the package as its registry's installer takes it.
func (p *Package) Spec() string {
	switch {
	case p.Version == "":
		return p.Identifier
	case p.Registry == "pypi":
		return p.Identifier + "==" + p.Version
	}
	return p.Identifier + "@" + p.Version
}

// ReadOptions say how a scan list is read.
type ReadOptions struct {
	// Limits and StrictStdout apply to every target.
	Limits       transport.Limits
	StrictStdout bool
	// Sandbox confines the commands the list names; PackageSandbox the
	// packages a scan installs (by default bubblewrap: see the CLI).
	Sandbox, PackageSandbox transport.Sandbox
	// Env is added to every server rubric starts (dummy credentials for
	// servers that only check that one is set), over what the list says.
	Env map[string]string
	// EnvFlag says that Env was given on this command line (--env):
	// ReadList then names the list's servers it does not reach (to
	// Say), and refuses a list that starts no server at all. A standing
	// setting (a config file's env) goes to the servers that use it
	// without a word, as it does for one target.
	EnvFlag bool
	// SandboxFlag says that Sandbox was given on this command line
	// (--sandbox): ReadList then names the list's servers it does not
	// confine, and refuses a list it confines none of, as for EnvFlag.
	SandboxFlag bool
	// ConfigFormat is the client configuration format, when the list is
	// one; empty means from its name or servers key.
	ConfigFormat clientconfig.Format
	// Say, when set, is told in a line what the list's reading assumes:
	// the entries of one server under other names, scored once.
	Say func(string)
}

// ReadList reads the scan list at path: a directory of captures, a TSV
// file (.tsv), or JSON: an array of list entries ({"name", "target"} or
// {"name", "command", "env"}) or of server.json entries, one server.json,
// a registry API page ({"servers": [{"server": {...}}]}) or a client
// configuration ({"mcpServers": ...} or {"servers": {...}}). Jobs with
// the same identity are one job, under the first name.
func ReadList(ctx context.Context, path string, o ReadOptions) ([]Job, error) {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("the scan list %s does not exist: give the path of a list of servers (a JSON or TSV list, a registry's server.json, a client configuration, or a directory of captures)", path)
	}
	if err != nil {
		return nil, fmt.Errorf("read the scan list: %w", err)
	}
	var jobs []Job
	switch {
	case st.IsDir():
		jobs, err = readCaptures(ctx, path)
	case strings.EqualFold(filepath.Ext(path), ".tsv"):
		var data []byte
		if data, err = boundedread.ReadFile(ctx, path, boundedread.Limit()); err == nil {
			jobs, err = parseTSV(path, data)
		}
	default:
		var data []byte
		if data, err = boundedread.ReadFile(ctx, path, boundedread.Limit()); err == nil {
			jobs, err = parseJSON(ctx, path, data, o)
		}
	}
	if err != nil {
		return nil, err
	}
	if len(jobs) == 0 {
		return nil, fmt.Errorf("%s lists no server: give a list of targets, server.json entries, captures or a client configuration", path)
	}
	for i := range jobs {
		if jobs[i].Name == "" {
			return nil, fmt.Errorf("%s: %s has no name: give each server a name, which its results in the leaderboard and under --out go by", path, jobs[i].where)
		}
		apply(&jobs[i], o)
		hideArgs(&jobs[i])
		if err := identify(&jobs[i]); err != nil {
			return nil, err
		}
	}
	jobs = dedupe(jobs, o.Say)
	if err := uniqueNames(path, jobs); err != nil {
		return nil, err
	}
	if err := flagsReach(path, jobs, o); err != nil {
		return nil, err
	}
	return jobs, nil
}

// A cmdFlag is a flag of the command line set on the servers a scan
// starts only (see apply), which reach checks against a list.
type cmdFlag struct {
	name      string // "--env"
	appliesTo string // what it reaches, after its name
	given     bool   // given on this command line, and not empty
	// packages says whether it reaches the servers of the packages a
	// scan installs (--sandbox does not: --package-sandbox does).
	packages bool
}

// reach says which of jobs flag (given on the command line) does not
// reach: an error when it reaches none, which the user cannot have
// meant, else a line to say naming the others, so that a user who meant
// it for a URL's server (whose credentials go in headers) or a capture
// learns it was not used there.
func reach(path string, jobs []Job, flag cmdFlag, say func(string)) error {
	if !flag.given {
		return nil
	}
	var read, pkgs []string
	for _, j := range jobs {
		switch {
		case j.Transport != "stdio":
			read = append(read, j.Name+": "+j.Transport)
		case j.Package != nil && !flag.packages:
			pkgs = append(pkgs, j.Name+": "+j.Package.Registry)
		}
	}
	readBy := fmt.Sprintf("read by a transport that starts none (%s)", words.List(read, 5))
	installed := fmt.Sprintf("installed from a package, which --package-sandbox confines (%s)", words.List(pkgs, 5))
	var not []string // of the servers it does not reach, "the N ..."
	for _, g := range []struct {
		names []string
		how   string
	}{{read, readBy}, {pkgs, installed}} {
		if len(g.names) > 0 {
			not = append(not, fmt.Sprintf("the %d %s", len(g.names), g.how))
		}
	}
	reached := len(jobs) - len(read) - len(pkgs)
	switch {
	case reached == len(jobs):
		return nil
	case len(read) == len(jobs):
		return fmt.Errorf("%s%s, and %s starts none: its %s %s %s: leave %s out, or list the commands that start the servers",
			flag.name, flag.appliesTo, path, words.Count(len(jobs), "server"), words.Pick(len(jobs), "is", "are"), readBy, flag.name)
	case reached == 0:
		return fmt.Errorf("%s%s, and %s names no such command: of its %s, it would be set for none, not for %s: leave %s out, or list the commands that start the servers",
			flag.name, flag.appliesTo, path, words.Count(len(jobs), "server"), strings.Join(not, ", nor for "), flag.name)
	}
	if say != nil {
		say(fmt.Sprintf("%s%s: it is set for %d of the %s in %s, and not for %s",
			flag.name, flag.appliesTo, reached, words.Count(len(jobs), "server"), path, strings.Join(not, ", nor for ")))
	}
	return nil
}

// flagsReach checks --env and --sandbox, when given on the command line,
// against the list (see reach).
func flagsReach(path string, jobs []Job, o ReadOptions) error {
	for _, f := range []cmdFlag{
		{name: "--env", appliesTo: " applies to the servers a scan starts (a list entry's command, or a package it installs, run by the stdio transport)",
			given: o.EnvFlag && len(o.Env) > 0, packages: true},
		{name: "--sandbox", appliesTo: " confines the servers a scan starts from a list entry's command (--package-sandbox those of the packages it installs)",
			given: o.SandboxFlag && o.Sandbox.Enabled()},
	} {
		if err := reach(path, jobs, f, o.Say); err != nil {
			return err
		}
	}
	return nil
}

// hideArgs adds to j's secrets the values its command line gives what
// its name says is a credential (--token VALUE, API_KEY=VALUE; see
// redact.ArgSecrets): written in the clear in a list, they are hidden
// from records, messages and the log as a client configuration's
// ${VAR} values are, and the identity holds only their hashes.
func hideArgs(j *Job) {
	args := append([]string{j.Target.Location}, j.Target.Args...)
	if p := j.Package; p != nil {
		args = append(append(args, p.RuntimeArgs...), p.PackageArgs...)
	}
	if found := redact.ArgSecrets(args); len(found) > 0 {
		j.Secrets = redact.LongestFirst(append(slices.Clone(j.Secrets), found...))
	}
}

// uniqueNames refuses two servers of one name: the leaderboard tells
// results apart by name. (Two entries of one server, the same identity,
// are one job already, under the first name.)
func uniqueNames(path string, jobs []Job) error {
	first := map[string]*Job{}
	for i := range jobs {
		j := &jobs[i]
		a, ok := first[j.Name]
		if !ok {
			first[j.Name] = j
			continue
		}
		both := bothPlaces(a.where, j.where)
		hint := "give each its own name"
		if a.version != "" || j.version != "" {
			hint = fmt.Sprintf("they are versions %s and %s: keep one version of each server (the registry API gives only the latest with ?version=latest)", orNone(a.version), orNone(j.version))
		}
		return fmt.Errorf("%s: %s are both named %q, for two different servers; %s", path, both, j.Name, hint)
	}
	return nil
}

// bothPlaces words two places of a list: "entries 3 and 7", "lines 2 and
// 5", or both as they are.
func bothPlaces(a, b string) string {
	for _, kind := range [][2]string{{"entry ", "entries "}, {"line ", "lines "}} {
		if strings.HasPrefix(a, kind[0]) && strings.HasPrefix(b, kind[0]) {
			return kind[1] + strings.TrimPrefix(a, kind[0]) + " and " + strings.TrimPrefix(b, kind[0])
		}
	}
	return a + " and " + b
}

func orNone(version string) string {
	if version == "" {
		return "(none)"
	}
	return version
}

// apply sets the scan's limits, sandbox and environment on j.
func apply(j *Job, o ReadOptions) {
	j.Target.Limits, j.Target.StrictStdout = o.Limits, o.StrictStdout
	box := o.Sandbox
	if j.Package != nil {
		box = o.PackageSandbox
		if j.Package.Registry == "pypi" && box.Enabled() {
			box.Net = true // uvx fetches the package as the server starts
		}
	}
	if j.Transport == "stdio" && box.Enabled() {
		j.Target.Sandbox = box
	}
	if j.Transport == "stdio" && len(o.Env) > 0 {
		if j.Target.Env == nil {
			j.Target.Env = map[string]string{}
		}
		for k, v := range o.Env {
			j.Target.Env[k] = v
		}
	}
}

// dedupe keeps the first job of each identity, and tells say (when set)
// of each entry of a server kept under another name: the leaderboard
// has no row of that name.
func dedupe(jobs []Job, say func(string)) []Job {
	seen := map[string]string{} // identity → the name kept
	out := jobs[:0]
	var same []string
	for _, j := range jobs {
		if first, ok := seen[j.Identity]; ok {
			if first != j.Name {
				same = append(same, fmt.Sprintf("%s is the same server as %s", j.Name, first))
			}
			continue
		}
		seen[j.Identity] = j.Name
		out = append(out, j)
	}
	if len(same) > 0 && say != nil {
		say(fmt.Sprintf("%s (the same target, command and environment): each is scored once, under its first name in the list, and the leaderboard has no row of the other", words.List(same, 5)))
	}
	return out
}

// identify sets j's identity: how the server is started or where it is
// read, a file by the hash of its content, an environment or a header
// by the hash of its value.
func identify(j *Job) error {
	id := struct {
		Transport string            `json:"transport"`
		Location  string            `json:"location"`
		Args      []string          `json:"args,omitempty"`
		Dir       string            `json:"dir,omitempty"`
		Env       map[string]string `json:"env,omitempty"`
		Unset     []string          `json:"unset,omitempty"`
		Headers   map[string]string `json:"headers,omitempty"`
		Package   *Package          `json:"package,omitempty"`
		Sandbox   transport.Sandbox `json:"sandbox"`
		Err       string            `json:"error,omitempty"`
	}{Transport: j.Transport, Location: j.Target.Location, Args: j.Target.Args, Dir: j.Target.Dir, Unset: j.Target.Unset, Package: j.Package, Sandbox: j.Target.Sandbox, Err: j.Err}
	id.Env, id.Headers = hashed(j.Target.Env), hashed(j.Target.Headers)
	if len(j.Secrets) > 0 {
		// A token on the command line or in the URL, by its hash.
		id.Args = slices.Clone(id.Args)
		for _, v := range j.Secrets {
			sum := sha256.Sum256([]byte(v))
			h := "sha256:" + hex.EncodeToString(sum[:8])
			id.Location = strings.ReplaceAll(id.Location, v, h)
			for i := range id.Args {
				id.Args[i] = strings.ReplaceAll(id.Args[i], v, h)
			}
		}
	}
	if j.Transport == "file" || j.Transport == "registry" {
		// A file that cannot be read is a job that fails, saying why.
		if data, err := os.ReadFile(j.Target.Location); err == nil {
			sum := sha256.Sum256(data)
			id.Location = "sha256:" + hex.EncodeToString(sum[:])
		}
	}
	b, err := json.Marshal(id)
	if err != nil {
		return err
	}
	j.Identity = string(b)
	return nil
}

// hashed replaces each value by its sha256, so an identity holds no
// secret.
func hashed(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		sum := sha256.Sum256([]byte(v))
		out[k] = hex.EncodeToString(sum[:8])
	}
	return out
}

// readCaptures lists the captures of a directory: every *.json file, a
// job each, named by the file's name without .tools.json or .json.
func readCaptures(_ context.Context, dir string) ([]Job, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	slices.Sort(files)
	var jobs []Job
	for _, f := range files {
		name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(f), ".json"), ".tools")
		jobs = append(jobs, Job{Name: name, Transport: "file", Target: transport.Target{Location: f}, where: filepath.Base(f)})
	}
	return jobs, nil
}

// entry is one item of a JSON scan list.
type entry struct {
	Name    string            `json:"name"`
	Target  string            `json:"target"`
	Command []string          `json:"command"`
	Env     map[string]string `json:"env"`
	Cwd     string            `json:"cwd"`
	// Headers are sent with every request to a target URL (credentials,
	// say): hashed in the job's identity, never written in the clear.
	Headers map[string]string `json:"headers"`
}

// job is the entry as a job; base resolves a relative target or cwd.
func (e entry) job(base string) Job {
	j := Job{Name: e.Name}
	switch {
	case e.Target == "" && len(e.Command) == 0:
		j.Err = "the entry has neither a target nor a command: give it a target (a capture file or a URL) or a command"
	case e.Target != "" && len(e.Command) > 0:
		j.Err = "the entry has both a target and a command: give it one of them"
	}
	if len(e.Command) > 0 {
		j.Transport = "stdio"
		j.Target = transport.Target{Location: e.Command[0], Args: e.Command[1:], Env: e.Env, Dir: e.Cwd}
		if j.Target.Dir != "" && !filepath.IsAbs(j.Target.Dir) {
			j.Target.Dir = filepath.Join(base, j.Target.Dir)
		}
		return j
	}
	j.Transport = run.TransportOf(e.Target)
	j.Target.Location = e.Target
	if len(e.Headers) > 0 {
		if j.Transport != "http" && j.Transport != "sse" {
			j.Err = "headers are sent to a target URL (http:// or https://), and this target is not one: give the server's URL as its target, or leave the headers out"
		}
		j.Target.Headers = e.Headers
	}
	if j.Transport == "file" && e.Target != "" && !filepath.IsAbs(e.Target) {
		j.Target.Location = filepath.Join(base, e.Target)
	}
	return j
}

// parseJSON reads a JSON scan list in any of its shapes.
func parseJSON(ctx context.Context, path string, data []byte, o ReadOptions) ([]Job, error) {
	base := filepath.Dir(path)
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var items []json.RawMessage
		if err := json.Unmarshal(trimmed, &items); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		var jobs []Job
		for i, raw := range items {
			j, err := parseItem(raw, base)
			if err != nil {
				return nil, fmt.Errorf("%s: entry %d: %w", path, i+1, err)
			}
			j.where = fmt.Sprintf("entry %d", i+1)
			jobs = append(jobs, j)
		}
		return jobs, nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(trimmed, &top); err != nil || top == nil {
		// A client configuration may carry comments (VS Code's).
		if o.ConfigFormat != "" || strings.HasSuffix(path, "mcp.json") {
			return readConfig(ctx, path, data, o)
		}
		if err == nil || json.Valid(trimmed) {
			return nil, notAList(path, "it holds "+clip(trimmed))
		}
		return nil, fmt.Errorf("%s is not JSON (%v): give a JSON list, a server.json, a .tsv file, a directory of captures or a client configuration", path, err)
	}
	if raw, ok := top["servers"]; ok && bytes.HasPrefix(bytes.TrimSpace(raw), []byte("[")) {
		// A page of the registry's API: {"servers": [{"server": {...}}]}.
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return nil, fmt.Errorf("%s: servers: %w", path, err)
		}
		var jobs []Job
		for i, it := range items {
			j, err := parseItem(it, base)
			if err != nil {
				return nil, fmt.Errorf("%s: servers[%d]: %w", path, i, err)
			}
			j.where = fmt.Sprintf("servers[%d]", i)
			jobs = append(jobs, j)
		}
		return jobs, nil
	}
	if _, ok := top["mcpServers"]; ok || top["servers"] != nil || o.ConfigFormat != "" {
		return readConfig(ctx, path, data, o)
	}
	if _, ok := top["tools"]; ok {
		// One server's tools (a capture, a tools/list result): what
		// rubric score reads, or what a list's entry names.
		name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".json"), ".tools")
		entry, _ := json.Marshal([]map[string]string{{"name": name, "target": path}})
		return nil, fmt.Errorf("%s holds one server's tools, not a list of servers: score it with rubric score %s, or name it in a list's entry, such as %s", path, path, entry)
	}
	j, err := parseItem(trimmed, base)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if j.Name == "" {
		// {} or an object of no known shape, which the decoder took for
		// an entry with nothing in it: not one nameless server.
		return nil, notAList(path, "it holds one object with no name, "+clip(trimmed))
	}
	j.where = "its one server"
	return []Job{j}, nil
}

// notAList is the error of a list file of another shape than a list's,
// which why describes.
func notAList(path, why string) error {
	return fmt.Errorf("%s is not a list of servers (%s): give a JSON array of entries such as [{\"name\": \"fs\", \"target\": \"fs.json\"}] or [{\"name\": \"local\", \"command\": [\"node\", \"server.js\"]}], a server.json, a registry API page ({\"servers\": [...]}), a .tsv file, a directory of captures or a client configuration (see docs/scan.md)", path, why)
}

// clip is JSON text for a message: its first 40 bytes.
func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "..."
	}
	return string(b)
}

// parseItem reads one item: a list entry, a server.json or a registry
// API item wrapping one.
func parseItem(raw json.RawMessage, base string) (Job, error) {
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil || keys == nil {
		return Job{}, fmt.Errorf("%s is not an object: an entry is one, such as {\"name\": \"fs\", \"target\": \"fs.json\"}", clip(bytes.TrimSpace(raw)))
	}
	if inner, ok := keys["server"]; ok {
		return parseItem(inner, base)
	}
	_, pk := keys["packages"]
	_, rm := keys["remotes"]
	if pk || rm {
		var s ServerJSON
		if err := json.Unmarshal(raw, &s); err != nil {
			return Job{}, err
		}
		j := s.Job()
		j.version = s.Version
		return j, nil
	}
	// What a client configuration writes (a command as one string, its
	// arguments apart in args) is said in a list's words.
	if c, ok := keys["command"]; ok {
		var line string
		if json.Unmarshal(c, &line) == nil {
			argv := strings.Fields(line)
			var args []string
			if a, ok := keys["args"]; ok && json.Unmarshal(a, &args) == nil {
				argv = append(argv, args...)
				words, _ := json.Marshal(argv)
				return Job{}, fmt.Errorf("the entry gives \"command\" as a string and its arguments in \"args\", as a client configuration does: in a list, \"command\" is the program and its arguments in one array: %s (or scan the client configuration itself)", words)
			}
			words, _ := json.Marshal(argv)
			return Job{}, fmt.Errorf("the entry gives \"command\" as the string %q: in a list it is the program and its arguments in one array: %s", line, words)
		}
	}
	var e entry
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return Job{}, fmt.Errorf("%w: a list entry has name and target (and headers, for a URL), or name, command, env and cwd; a server.json has packages or remotes", err)
	}
	return e.job(base), nil
}

// readConfig reads a client configuration's servers as jobs.
func readConfig(_ context.Context, path string, data []byte, o ReadOptions) ([]Job, error) {
	f, err := clientconfig.Parse(path, data, clientconfig.Options{Format: o.ConfigFormat})
	if err != nil {
		return nil, err
	}
	if len(f.Disabled) > 0 && o.Say != nil {
		o.Say(fmt.Sprintf("%s: left out, disabled in the configuration: %s", path, strings.Join(f.Disabled, ", ")))
	}
	var jobs []Job
	for _, s := range f.Servers {
		j := Job{Name: s.Name, Transport: s.Transport, Target: s.Target, Secrets: s.Secrets, where: fmt.Sprintf("server %q", s.Name)}
		if s.Err != nil {
			j.Err = s.Err.Error()
		}
		jobs = append(jobs, j)
	}
	return jobs, nil
}

// parseTSV reads a TSV scan list: a header naming the columns (name and
// target, command or both; env, cwd and header optional), then a server
// a line. A command is split at spaces; env is NAME=VALUE pairs split at
// spaces; a header column holds one header sent to a target URL, as
// "Name: value" or Name=value, and may be named again for another. A
// column of another name is refused: it would be dropped without a word
// (a headers column of credentials, the server then read without them).
// Empty lines and lines starting with # are skipped.
func parseTSV(path string, data []byte) ([]Job, error) {
	base := filepath.Dir(path)
	var cols map[string]int
	var headerCols []int
	var jobs []Job
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Split(line, "\t")
		if cols == nil {
			var err error
			if cols, headerCols, err = tsvColumns(fields); err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, n+1, err)
			}
			continue
		}
		cell := func(i int) string {
			if i < len(fields) {
				return strings.TrimSpace(fields[i])
			}
			return ""
		}
		get := func(col string) string {
			if i, ok := cols[col]; ok {
				return cell(i)
			}
			return ""
		}
		e := entry{Name: get("name"), Target: get("target"), Command: strings.Fields(get("command")), Cwd: get("cwd")}
		for _, kv := range strings.Fields(get("env")) {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return nil, fmt.Errorf("%s:%d: env %q: write NAME=VALUE", path, n+1, kv)
			}
			if e.Env == nil {
				e.Env = map[string]string{}
			}
			e.Env[k] = v
		}
		for _, i := range headerCols {
			h := cell(i)
			if h == "" {
				continue
			}
			k, v, ok := cutHeader(h)
			if !ok {
				return nil, fmt.Errorf("%s:%d: the header in column %d is not Name: value (its text is not shown: it may hold a secret): write Name: value or Name=value, one header a column", path, n+1, i+1)
			}
			if e.Headers == nil {
				e.Headers = map[string]string{}
			}
			e.Headers[k] = v
		}
		j := e.job(base)
		j.where = fmt.Sprintf("line %d", n+1)
		jobs = append(jobs, j)
	}
	if cols == nil {
		return nil, errors.New(path + " is empty: " + tsvHeaderAdvice)
	}
	return jobs, nil
}

// tsvHeaderAdvice says what the first line of a TSV list is.
const tsvHeaderAdvice = "the first line names the columns, tab-separated: name, then target or command, and env, cwd or header (one header a column, the column named again for each other) as need be"

// tsvColumns reads a TSV list's first line: the place of each column,
// and those of the header columns in order.
func tsvColumns(fields []string) (map[string]int, []int, error) {
	cols := map[string]int{}
	var headers []int
	for i, f := range fields {
		col := strings.ToLower(strings.TrimSpace(f))
		switch col {
		case "header", "headers":
			headers = append(headers, i)
			continue
		case "name", "target", "command", "env", "cwd":
		case "":
			if i == len(fields)-1 {
				continue // a trailing tab
			}
			return nil, nil, fmt.Errorf("column %d has no name: %s", i+1, tsvHeaderAdvice)
		default:
			return nil, nil, fmt.Errorf("column %q is not one a scan reads: %s", strings.TrimSpace(f), tsvHeaderAdvice)
		}
		if _, ok := cols[col]; ok {
			return nil, nil, fmt.Errorf("the column %s is named twice: name it once", col)
		}
		cols[col] = i
	}
	if _, ok := cols["name"]; !ok {
		return nil, nil, errors.New(tsvHeaderAdvice)
	}
	return cols, headers, nil
}

// cutHeader splits a header cell, "Name: value" as curl takes it or
// Name=value as --header does, at whichever of : and = comes first
// (neither may be in a header's name).
func cutHeader(h string) (name, value string, ok bool) {
	i := strings.IndexAny(h, ":=")
	if i <= 0 {
		return "", "", false
	}
	name, value = strings.TrimSpace(h[:i]), strings.TrimSpace(h[i+1:])
	return name, value, name != "" && !strings.ContainsAny(name, " \t")
}
