package scan

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

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
// job's directory as the server starts.
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
}

// Install installs p into dir.
func (c Commands) Install(ctx context.Context, p *Package, dir string) (transport.Target, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return transport.Target{}, err
	}
	switch p.Registry {
	case "npm":
		return c.npm(ctx, p, dir)
	case "pypi":
		return uvx(p, dir)
	}
	return transport.Target{}, fmt.Errorf("packages of registry %q are not installed by rubric scan: use npm or pypi, or list the server's command", p.Registry)
}

// npm installs the package into dir with npm and starts its executable
// with node.
func (c Commands) npm(ctx context.Context, p *Package, dir string) (transport.Target, error) {
	npm := c.NPM
	if npm == "" {
		npm = "npm"
	}
	argv := []string{"install", "--prefix", dir, "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error", "--save-exact", p.Spec()}
	if c.Lock != "" {
		for _, f := range []string{"package.json", "package-lock.json"} {
			data, err := os.ReadFile(filepath.Join(c.Lock, f))
			if err != nil {
				return transport.Target{}, fmt.Errorf("--npm-lock: %w", err)
			}
			if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
				return transport.Target{}, err
			}
		}
		argv = []string{"ci", "--prefix", dir, "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"}
	}
	if c.Offline {
		argv = append(argv, "--offline")
	}
	cmd := exec.CommandContext(ctx, npm, argv...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return transport.Target{}, fmt.Errorf("npm install %s: %v: %s", p.Spec(), err, lastLines(out.String(), 5))
	}
	bin, version, err := npmBin(dir, p.Identifier)
	if err != nil {
		return transport.Target{}, err
	}
	if c.Lock != "" && p.Version != "" && version != p.Version {
		return transport.Target{}, fmt.Errorf("the lock file in %s holds %s@%s, not %s", c.Lock, p.Identifier, version, p.Version)
	}
	t := transport.Target{Location: "node", Dir: dir}
	if p.Runtime == "node" {
		t.Args = append(t.Args, p.RuntimeArgs...)
	}
	t.Args = append(append(t.Args, bin), p.PackageArgs...)
	return t, nil
}

// npmBin is the path, relative to dir, of the installed package's
// executable (its only one, else the one named as the package) and the
// version installed.
func npmBin(dir, pkg string) (bin, version string, err error) {
	root := filepath.Join("node_modules", filepath.FromSlash(pkg))
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
		return filepath.Join(root, one), meta.Version, nil
	}
	var many map[string]string
	_ = json.Unmarshal(meta.Bin, &many)
	if len(many) == 0 {
		return "", "", fmt.Errorf("%s has no executable (no bin in its package.json): list the server's command instead", pkg)
	}
	short := pkg[strings.LastIndex(pkg, "/")+1:]
	if b, ok := many[short]; ok {
		return filepath.Join(root, b), meta.Version, nil
	}
	names := make([]string, 0, len(many))
	for n := range many {
		names = append(names, n)
	}
	slices.Sort(names)
	if len(names) == 1 {
		return filepath.Join(root, many[names[0]]), meta.Version, nil
	}
	return "", "", fmt.Errorf("%s has several executables (%s) and none is named %s: list the server's command instead", pkg, strings.Join(names, ", "), short)
}

// uvx starts a pypi package through uvx (the runtime hint uvx, or none),
// with uv's cache in dir.
func uvx(p *Package, dir string) (transport.Target, error) {
	if p.Runtime != "" && p.Runtime != "uvx" {
		return transport.Target{}, fmt.Errorf("pypi package %s asks for runtime %q: rubric scan starts pypi packages with uvx only", p.Identifier, p.Runtime)
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
