package scan

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/rubricmcp/rubric/engine/transport"
)

// Installer installs a job's package into a directory of the job's own
// and says how to start it.
type Installer interface {
	// Install installs p into dir and returns the command that starts
	// the server (Location, Args; Dir is dir).
	Install(ctx context.Context, p *Package, dir string) (transport.Target, error)
}

// Commands installs with the registries' own clients: npm into a prefix
// (with install scripts off: a package's scripts would run outside any
// sandbox), and pypi through uvx, which fetches the package into the
// job's directory as the server starts. With a Lock, npm ci runs once
// and each job gets a copy of what it installed. Use one Commands a
// scan, by pointer, and Close it at the end.
type Commands struct {
	// NPM is the npm command; empty means "npm".
	NPM string
	// Offline, when true, installs from npm's cache only (--offline).
	Offline bool
	// Lock, when set, is a directory holding a package.json and its
	// package-lock.json: each npm job installs exactly what it locks
	// (npm ci), and a package it does not lock at the version asked for
	// is an error.
	Lock string

	mu     sync.Mutex
	locked string // the directory of Lock's one npm ci, once it has succeeded
}

// Install installs p into dir, emptied first: an attempt after a failed
// one starts from nothing, so its error is its own and not the leftovers
// of the first (a copy of the lock's install refused for files that
// exist). A failure that no other attempt can mend (the lock lacks the
// package, the package has no executable, --npm-offline and npm's cache
// lacks it) is marked transport.Permanent.
func (c *Commands) Install(ctx context.Context, p *Package, dir string) (transport.Target, error) {
	if err := os.RemoveAll(dir); err != nil {
		return transport.Target{}, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return transport.Target{}, err
	}
	switch p.Registry {
	case "npm":
		return c.npm(ctx, p, dir)
	case "pypi":
		return uvx(p, dir)
	}
	return transport.Target{}, transport.Permanent(fmt.Errorf("packages of registry %q are not installed by rubric scan: use npm or pypi, or list the server's command", p.Registry))
}

// npm installs the package into dir with npm and starts its executable
// with node.
func (c *Commands) npm(ctx context.Context, p *Package, dir string) (transport.Target, error) {
	if c.Lock != "" {
		tree, err := c.lockedTree(ctx, filepath.Dir(dir))
		if err != nil {
			return transport.Target{}, err
		}
		if err := os.CopyFS(dir, os.DirFS(tree)); err != nil {
			return transport.Target{}, fmt.Errorf("copying the install of --npm-lock %s: %w", c.Lock, err)
		}
	} else if err := c.run(ctx, "install", dir, "--save-exact", p.Spec()); err != nil {
		return transport.Target{}, unreachable(missing(c.offline(fmt.Errorf("npm install %s: %w", p.Spec(), err), p.Spec())))
	}
	bin, version, err := npmBin(dir, p.Identifier)
	if errors.Is(err, fs.ErrNotExist) && c.Lock != "" {
		return transport.Target{}, transport.Permanent(fmt.Errorf("the lock in %s does not hold %s: add it to %s and run npm install --package-lock-only there, then scan again", c.Lock, p.Spec(), filepath.Join(c.Lock, "package.json")))
	}
	if err != nil {
		return transport.Target{}, err
	}
	if c.Lock != "" && p.Version != "" && version != p.Version {
		return transport.Target{}, transport.Permanent(fmt.Errorf("the lock in %s holds %s@%s, not %s: lock version %s (npm install --package-lock-only there), or list that version", c.Lock, p.Identifier, version, p.Version, p.Version))
	}
	t := transport.Target{Location: "node", Dir: dir}
	if p.Runtime == "node" {
		t.Args = append(t.Args, p.RuntimeArgs...)
	}
	t.Args = append(append(t.Args, bin), p.PackageArgs...)
	return t, nil
}

// missing marks err permanent, with what to do, when the registry has
// no such package or version (E404, ETARGET): another attempt would ask
// it again for the same.
func missing(err error) error {
	msg := err.Error()
	if !strings.Contains(msg, ": E404: ") && !strings.Contains(msg, ": ETARGET: ") {
		return err
	}
	return transport.Permanent(fmt.Errorf("%w: check the package's name and version in the list (npm view NAME versions lists those the registry has)", err))
}

// RegistryDown is an install that failed because the package registry
// did not answer (a server error, a rate limit, no connection): nothing
// of the server's, so a scan run again tries it again (Failed.Retry).
type RegistryDown struct{ Err error }

// Error implements error.
func (e *RegistryDown) Error() string { return e.Err.Error() }

// Unwrap returns the install's error.
func (e *RegistryDown) Unwrap() error { return e.Err }

// registryCodes are npm's codes for a registry that did not answer: its
// server errors and rate limit (E500 ... E504, E429), and the network's
// (connection refused or reset, a timeout, a name not resolved).
var registryCodes = regexp.MustCompile(`: (E5[0-9][0-9]|E429|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH): `)

// unreachable marks err a RegistryDown when npm said the registry did
// not answer.
func unreachable(err error) error {
	if err == nil || transport.IsPermanent(err) || !registryCodes.MatchString(err.Error()) {
		return err
	}
	return &RegistryDown{Err: err}
}

// offline marks err permanent, with what to do, when npm failed for
// want of what it needs in its cache and --npm-offline keeps it from the
// registry: another attempt would find the cache as empty.
func (c *Commands) offline(err error, what string) error {
	if !c.Offline || !strings.Contains(err.Error(), "ENOTCACHED") {
		return err
	}
	return transport.Permanent(fmt.Errorf("%w: npm's cache lacks %s, and --npm-offline keeps npm from the registry: fill the cache (scan once without --npm-offline, or npm cache add PACKAGE@VERSION), then scan again", err, what))
}

// run runs npm's command verb with prefix dir and the flags every
// install takes, then args.
func (c *Commands) run(ctx context.Context, verb, dir string, args ...string) error {
	npm := c.NPM
	if npm == "" {
		npm = "npm"
	}
	// npm's own retries are off (--fetch-retries=0): they waited 70 s
	// an install for a registry that answers 503, under each of the
	// scan's --attempts, which are the only retries a user can set.
	argv := append([]string{verb, "--prefix", dir, "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error", "--fetch-retries=0"}, args...)
	if c.Offline {
		argv = append(argv, "--offline")
	}
	cmd := exec.CommandContext(ctx, npm, argv...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%v: %s", err, npmError(out.String()))
	}
	return nil
}

// npmError is what npm said of its failure, for a message: the code and
// the paragraph after it ("E503: 503 Service Unavailable - GET ..."),
// not the usage text nor the line naming npm's log that follow; the last
// lines of out when npm said it otherwise. npm tags every line of some
// paragraphs with a word ("notarget", "404"), and a line of the tag
// alone ends the paragraph: a tag of letters is left out.
func npmError(out string) string {
	var code string
	var said []string
	for line := range strings.Lines(out) {
		text, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), "npm error")
		if !ok {
			continue
		}
		text = strings.TrimSpace(text)
		if code == "" && len(said) == 0 && strings.HasPrefix(text, "code ") {
			code = strings.TrimPrefix(text, "code ")
			continue
		}
		ends := text == "" || strings.HasPrefix(text, "A complete log of this run")
		if len(said) > 0 {
			tag, _, _ := strings.Cut(said[0], " ")
			ends = ends || text == tag
		}
		switch {
		case ends && len(said) > 0:
			return npmSaid(code, untag(said))
		case !ends:
			said = append(said, text)
		}
	}
	if len(said) == 0 {
		return lastLines(out, 5)
	}
	return npmSaid(code, untag(said))
}

// untag leaves out the word every line of a paragraph starts with, when
// there are lines enough to tell it is a tag and it is a word (a status
// such as 404 is kept where it first says something: "404 Not Found").
func untag(lines []string) []string {
	if len(lines) < 2 {
		return lines
	}
	tag, _, _ := strings.Cut(lines[0], " ")
	for _, l := range lines {
		if !strings.HasPrefix(l, tag+" ") {
			return lines
		}
	}
	out := slices.Clone(lines)
	for i := range out {
		if i > 0 || strings.Trim(tag, "abcdefghijklmnopqrstuvwxyz") == "" {
			out[i] = strings.TrimSpace(strings.TrimPrefix(out[i], tag))
		}
	}
	return out
}

func npmSaid(code string, said []string) string {
	if code == "" {
		return strings.Join(said, " ")
	}
	return code + ": " + strings.Join(said, " ")
}

// lockedTree is the directory, made in parent, that holds Lock's
// package files and what npm ci installed from them, installing it the
// first time a job asks. The lock pins every package, so the install is
// the same for every job: each job copies this one, where each ran npm
// ci of its own (6 CPU-s of npm a job for three small servers, against
// a tenth of a second to copy). A failed install is tried again by the
// next job that asks; Close removes the directory.
func (c *Commands) lockedTree(ctx context.Context, parent string) (string, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.locked != "" {
		return c.locked, nil
	}
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", err
	}
	tree, err := os.MkdirTemp(parent, "npm-lock-")
	if err != nil {
		return "", err
	}
	for _, f := range []string{"package.json", "package-lock.json"} {
		data, err := os.ReadFile(filepath.Join(c.Lock, f))
		if err == nil {
			err = os.WriteFile(filepath.Join(tree, f), data, 0o644)
		}
		if err != nil {
			os.RemoveAll(tree)
			return "", fmt.Errorf("--npm-lock: %w", err)
		}
	}
	if err := c.run(ctx, "ci", tree); err != nil {
		os.RemoveAll(tree)
		return "", missing(c.offline(fmt.Errorf("npm ci of --npm-lock %s: %w", c.Lock, err), "the lock's packages"))
	}
	c.locked = tree
	return tree, nil
}

// Close removes the install of Lock that the jobs copied, if any.
func (c *Commands) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.locked == "" {
		return nil
	}
	err := os.RemoveAll(c.locked)
	c.locked = ""
	return err
}

// nodeModules is the directory under an npm prefix that packages are
// installed into.
const nodeModules = "node_modules"

// npmBin is the path, relative to dir, of the installed package's
// executable (its only one, else the one named as the package) and the
// version installed.
func npmBin(dir, pkg string) (bin, version string, err error) {
	root := filepath.Join(nodeModules, filepath.FromSlash(pkg))
	data, err := os.ReadFile(filepath.Join(dir, root, "package.json"))
	if err != nil {
		return "", "", fmt.Errorf("npm installed no %s: %w", pkg, err)
	}
	var meta struct {
		Version string          `json:"version"`
		Bin     json.RawMessage `json:"bin"`
	}
	if err := json.Unmarshal(data, &meta); err != nil {
		return "", "", fmt.Errorf("%s/package.json: %w", root, err)
	}
	var one string
	if json.Unmarshal(meta.Bin, &one) == nil && one != "" {
		return installedBin(dir, root, one, pkg, meta.Version)
	}
	var many map[string]string
	_ = json.Unmarshal(meta.Bin, &many)
	if len(many) == 0 {
		return "", "", transport.Permanent(fmt.Errorf("%s@%s has no executable (no bin in its package.json): list the server's command instead", pkg, meta.Version))
	}
	short := pkg[strings.LastIndex(pkg, "/")+1:]
	names := make([]string, 0, len(many))
	for n := range many {
		names = append(names, n)
	}
	slices.Sort(names)
	switch b, ok := many[short]; {
	case ok:
		one = b
	case len(names) == 1:
		one = many[names[0]]
	default:
		return "", "", transport.Permanent(fmt.Errorf("%s@%s has several executables (%s) and none is named %s: list the server's command instead", pkg, meta.Version, strings.Join(names, ", "), short))
	}
	return installedBin(dir, root, one, pkg, meta.Version)
}

// installedBin is root's executable bin, checked to be in the package
// as installed: a package whose package.json names a file it does not
// ship would otherwise fail later, as node's "Cannot find module" when
// the server starts, and be tried again at every attempt.
func installedBin(dir, root, bin, pkg, version string) (string, string, error) {
	path := filepath.Join(root, filepath.FromSlash(bin))
	if _, err := os.Stat(filepath.Join(dir, path)); err != nil {
		return "", "", transport.Permanent(fmt.Errorf("%s@%s names the executable %s in its package.json, and its package has no such file: the package is broken; list the server's command instead, or another version", pkg, version, bin))
	}
	return path, version, nil
}

// uvx starts a pypi package through uvx (the runtime hint uvx, or none),
// with uv's cache in dir.
func uvx(p *Package, dir string) (transport.Target, error) {
	if p.Runtime != "" && p.Runtime != "uvx" {
		return transport.Target{}, transport.Permanent(fmt.Errorf("pypi package %s asks for runtime %q: rubric scan starts pypi packages with uvx only; list the server's command instead", p.Identifier, p.Runtime))
	}
	args := append(slices.Clone(p.RuntimeArgs), p.Spec())
	return transport.Target{
		Location: "uvx",
		Args:     append(args, p.PackageArgs...),
		Dir:      dir,
		Env:      map[string]string{"UV_CACHE_DIR": filepath.Join(dir, "uv-cache"), "UV_TOOL_DIR": filepath.Join(dir, "uv-tools")},
	}, nil
}

// lastLines is the last n lines of s, for an error message.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " / ")
}

// CheckLock refuses an --npm-lock directory npm ci could not install
// from: missing, or without a package.json and a package-lock.json that
// parse, the lock with a lockfileVersion. Checked before any job runs:
// each job would otherwise fail alike, after its attempts, with npm's
// usage text.
func CheckLock(dir string) error {
	remake := "make it with npm install --package-lock-only --ignore-scripts in " + dir + " (package.json listing the servers' packages at their versions)"
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("--npm-lock %s does not exist: give a directory holding a package.json and its package-lock.json; %s", dir, remake)
	case err != nil:
		return fmt.Errorf("--npm-lock: %w", err)
	case !st.IsDir():
		return fmt.Errorf("--npm-lock %s is a file: give the directory that holds the package.json and the package-lock.json", dir)
	}
	for _, f := range []string{"package.json", "package-lock.json"} {
		path := filepath.Join(dir, f)
		data, err := os.ReadFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("--npm-lock %s has no %s: %s", dir, f, remake)
		}
		if err != nil {
			return fmt.Errorf("--npm-lock: %w", err)
		}
		var top struct {
			LockfileVersion int `json:"lockfileVersion"`
		}
		if err := json.Unmarshal(data, &top); err != nil {
			return fmt.Errorf("--npm-lock: %s is not JSON (%v): %s", path, err, remake)
		}
		if f == "package-lock.json" && top.LockfileVersion < 1 {
			return fmt.Errorf("--npm-lock: %s has no lockfileVersion, so npm ci does not take it: %s", path, remake)
		}
	}
	return nil
}
