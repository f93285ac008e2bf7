package scan

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fakeNPM writes an npm that logs each call to calls and, for ci, makes
// the tree a lock of the two servers would install: each package's
// package.json (version 1.0.0, one executable) and a relative link in
// node_modules/.bin. With fail set, every call fails.
func fakeNPM(t *testing.T, calls string, fail bool) string {
	t.Helper()
	exit := ""
	if fail {
		exit = "echo 'npm error offline: no such package in the cache' >&2; exit 1\n"
	}
	script := `#!/bin/sh
echo "$*" >> ` + calls + `
` + exit + `m=$3/` + nodeModules + `
for p in alpha beta; do
	mkdir -p "$m/$p" "$m/.bin"
	printf '{"version": "1.0.0", "bin": "server.js"}' > "$m/$p/package.json"
	echo "// $p" > "$m/$p/server.js"
	ln -s "../$p/server.js" "$m/.bin/$p"
done
`
	path := filepath.Join(t.TempDir(), "npm")
	if err := os.WriteFile(path, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLockInstalledOnce: the jobs of a scan with --npm-lock share one npm
// ci, each job getting a copy of its own (files, links, the lock files),
// and Close removes the shared install; a failed install is tried again
// by the next job.
func TestLockInstalledOnce(t *testing.T) {
	lock := t.TempDir()
	for _, f := range []string{"package.json", "package-lock.json"} {
		if err := os.WriteFile(filepath.Join(lock, f), []byte(`{"name": "servers"}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name      string
		fail      bool
		wantCalls int
		wantErr   string
	}{
		{name: "installed", wantCalls: 1},
		{name: "failing", fail: true, wantCalls: 4, wantErr: "npm ci of --npm-lock " + lock + ": exit status 1: npm error offline: no such package in the cache"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := filepath.Join(t.TempDir(), "calls")
			c := &Commands{NPM: fakeNPM(t, calls, tc.fail), Offline: true, Lock: lock}
			install := filepath.Join(t.TempDir(), "install")
			var wg sync.WaitGroup
			errs := make([]error, 4)
			for i, pkg := range []string{"alpha", "beta", "alpha", "beta"} {
				wg.Go(func() {
					dir := filepath.Join(install, pkg+string(rune('0'+i)))
					tgt, err := c.Install(context.Background(), &Package{Registry: "npm", Identifier: pkg, Version: "1.0.0"}, dir)
					if err != nil {
						errs[i] = err
						return
					}
					if want := filepath.Join(nodeModules, pkg, "server.js"); tgt.Location != "node" || len(tgt.Args) != 1 || tgt.Args[0] != want || tgt.Dir != dir {
						t.Errorf("%s: target %+v, want node %s in %s", pkg, tgt, want, dir)
					}
					for _, f := range []string{"package-lock.json", nodeModules + "/alpha/server.js", nodeModules + "/.bin/beta"} {
						if data, err := os.ReadFile(filepath.Join(dir, f)); err != nil || len(data) == 0 {
							t.Errorf("%s: %s: %q, %v", pkg, f, data, err)
						}
					}
					if link, err := os.Readlink(filepath.Join(dir, nodeModules, ".bin", "alpha")); err != nil || link != "../alpha/server.js" {
						t.Errorf("%s: .bin/alpha links to %q, %v", pkg, link, err)
					}
				})
			}
			wg.Wait()
			for i, err := range errs {
				if (err == nil) != (tc.wantErr == "") || err != nil && err.Error() != tc.wantErr {
					t.Errorf("job %d: %v, want %q", i, err, tc.wantErr)
				}
			}
			data, err := os.ReadFile(calls)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(data)), "\n")
			if len(lines) != tc.wantCalls || !strings.HasPrefix(lines[0], "ci --prefix "+install+"/npm-lock-") || !strings.HasSuffix(lines[0], " --ignore-scripts --no-audit --no-fund --loglevel=error --offline") {
				t.Errorf("npm calls:\n%s\nwant %d of ci --prefix %s/npm-lock-... --offline", data, tc.wantCalls, install)
			}
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			left, _ := filepath.Glob(filepath.Join(install, "npm-lock-*"))
			if len(left) != 0 {
				t.Errorf("left after Close: %v", left)
			}
		})
	}
}
