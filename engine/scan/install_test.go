package scan

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/rubricmcp/rubric/engine/transport"
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
		{name: "failing", fail: true, wantCalls: 4, wantErr: "npm ci of --npm-lock " + lock + ": exit status 1: offline: no such package in the cache"},
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
			if len(lines) != tc.wantCalls || !strings.HasPrefix(lines[0], "ci --prefix "+install+"/npm-lock-") || !strings.HasSuffix(lines[0], " --ignore-scripts --no-audit --no-fund --loglevel=error --fetch-retries=0 --offline") {
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

// scriptNPM writes an npm whose every call runs body (sh) with $m the
// node_modules directory of its --prefix.
func scriptNPM(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "npm")
	if err := os.WriteFile(path, []byte("#!/bin/sh\nm=$3/"+nodeModules+"\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestInstallFailsForGood: an install that no other attempt can mend is
// marked permanent (the scan then tries it once), and an attempt made
// anyway, into the same directory, fails for the same reason, not for
// what the first left there.
func TestInstallFailsForGood(t *testing.T) {
	lock := t.TempDir()
	for _, f := range []string{"package.json", "package-lock.json"} {
		if err := os.WriteFile(filepath.Join(lock, f), []byte(`{"name": "servers"}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// alpha 1.0.0, with its executable and a link to it, as npm ci of a
	// lock of alpha alone installs it.
	const alpha = `mkdir -p "$m/alpha" "$m/.bin"
printf '{"version": "1.0.0", "bin": "server.js"}' > "$m/alpha/package.json"
echo '// alpha' > "$m/alpha/server.js"
ln -s ../alpha/server.js "$m/.bin/alpha"
`
	for _, tc := range []struct {
		name    string
		npm     string
		lock    bool
		offline bool
		pkg     Package
		want    string
	}{
		{name: "no such version", npm: `printf 'npm error code ETARGET\nnpm error notarget No matching version found for alpha@9.9.9.\nnpm error notarget In most cases you or one of your dependencies are requesting a package version that doesn'"'"'t exist.\n' >&2; exit 1`, pkg: Package{Identifier: "alpha", Version: "9.9.9"},
			want: "npm install alpha@9.9.9: exit status 1: ETARGET: No matching version found for alpha@9.9.9. In most cases you or one of your dependencies are requesting a package version that doesn't exist.: check the package's name and version in the list (npm view NAME versions lists those the registry has)"},
		{name: "pypi through another runtime", pkg: Package{Registry: "pypi", Identifier: "mcp-server-time", Version: "0.6.2", Runtime: "python"},
			want: `pypi package mcp-server-time asks for runtime "python": rubric scan starts pypi packages with uvx only; list the server's command instead`},
		{name: "lock lacks the package", npm: alpha, lock: true, pkg: Package{Identifier: "beta", Version: "2.0.0"},
			want: "the lock in " + lock + " does not hold beta@2.0.0: add it to " + lock + "/package.json and run npm install --package-lock-only there, then scan again"},
		{name: "lock holds another version", npm: alpha, lock: true, pkg: Package{Identifier: "alpha", Version: "1.0.1"},
			want: "the lock in " + lock + " holds alpha@1.0.0, not 1.0.1: lock version 1.0.1 (npm install --package-lock-only there), or list that version"},
		{name: "no executable", npm: `mkdir -p "$m/lib"; printf '{"version": "3.0.0"}' > "$m/lib/package.json"`, pkg: Package{Identifier: "lib", Version: "3.0.0"},
			want: "lib@3.0.0 has no executable (no bin in its package.json): list the server's command instead"},
		{name: "executable not shipped", npm: `mkdir -p "$m/half"; printf '{"version": "0.1.0", "bin": {"half": "dist/index.js"}}' > "$m/half/package.json"`, pkg: Package{Identifier: "half", Version: "0.1.0"},
			want: "half@0.1.0 names the executable dist/index.js in its package.json, and its package has no such file: the package is broken; list the server's command instead, or another version"},
		{name: "offline, not in the cache", npm: `printf 'npm error code ENOTCACHED\nnpm error request to https://registry.npmjs.org/gone failed: cache mode is '"'only-if-cached'"' but no cached response is available.\nnpm error A complete log of this run can be found in: /x.log\n' >&2; exit 1`, offline: true, pkg: Package{Identifier: "gone", Version: "1.0.0"},
			want: "npm install gone@1.0.0: exit status 1: ENOTCACHED: request to https://registry.npmjs.org/gone failed: cache mode is 'only-if-cached' but no cached response is available.: npm's cache lacks gone@1.0.0, and --npm-offline keeps npm from the registry: fill the cache (scan once without --npm-offline, or npm cache add PACKAGE@VERSION), then scan again"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &Commands{NPM: scriptNPM(t, tc.npm), Offline: tc.offline}
			if tc.lock {
				c.Lock = lock
			}
			defer c.Close()
			dir := filepath.Join(t.TempDir(), "install", "job")
			if tc.pkg.Registry == "" {
				tc.pkg.Registry = "npm"
			}
			for attempt := 1; attempt <= 2; attempt++ {
				_, err := c.Install(context.Background(), &tc.pkg, dir)
				if err == nil || err.Error() != tc.want {
					t.Fatalf("attempt %d: %v\nwant %s", attempt, err, tc.want)
				}
				if !transport.IsPermanent(err) {
					t.Errorf("attempt %d: %v is not marked permanent: the scan would try it again", attempt, err)
				}
			}
		})
	}
}

// TestNPMError: a failed npm's message is its code and what it said of
// the failure, without the usage text or the log line that follow.
func TestNPMError(t *testing.T) {
	for _, tc := range []struct{ name, out, want string }{
		{"503", "npm error code E503\nnpm error 503 Service Unavailable - GET http://127.0.0.1:4873/@scope%2fpkg\nnpm error A complete log of this run can be found in: /root/.npm/_logs/x.log\n",
			"E503: 503 Service Unavailable - GET http://127.0.0.1:4873/@scope%2fpkg"},
		{"corrupt lock", "npm error code EUSAGE\nnpm error\nnpm error The `npm ci` command can only install with an existing package-lock.json or\nnpm error npm-shrinkwrap.json with lockfileVersion >= 1. Run an install with npm@5 or\nnpm error later to generate a package-lock.json file, then try again.\nnpm error\nnpm error Clean install a project\nnpm error\nnpm error Usage:\nnpm error npm ci\n",
			"EUSAGE: The `npm ci` command can only install with an existing package-lock.json or npm-shrinkwrap.json with lockfileVersion >= 1. Run an install with npm@5 or later to generate a package-lock.json file, then try again."},
		{"no such package", "npm error code E404\nnpm error 404 Not Found - GET https://registry.npmjs.org/rubric-no-such-package-xyz\nnpm error 404\nnpm error 404  The requested resource 'rubric-no-such-package-xyz@1.0.0' could not be found or you do not have permission to access it.\nnpm error 404\nnpm error 404 Note that you can also install from a\nnpm error 404 tarball, folder, http url, or git url.\nnpm error A complete log of this run can be found in: /root/.npm/_logs/x.log\n",
			"E404: 404 Not Found - GET https://registry.npmjs.org/rubric-no-such-package-xyz"},
		{"no such version", "npm error code ETARGET\nnpm error notarget No matching version found for @modelcontextprotocol/server-memory@1999.1.1.\nnpm error notarget In most cases you or one of your dependencies are requesting a package version that doesn't exist.\nnpm error A complete log of this run can be found in: /root/.npm/_logs/x.log\n",
			"ETARGET: No matching version found for @modelcontextprotocol/server-memory@1999.1.1. In most cases you or one of your dependencies are requesting a package version that doesn't exist."},
		{"not cached", "npm error code ENOTCACHED\nnpm error request to https://registry.npmjs.org/x failed: cache mode is 'only-if-cached' but no cached response is available.\nnpm error A complete log of this run can be found in: /x.log\n",
			"ENOTCACHED: request to https://registry.npmjs.org/x failed: cache mode is 'only-if-cached' but no cached response is available."},
		{"no code", "npm error offline: no such package in the cache\n", "offline: no such package in the cache"},
		{"not npm's words", "sh: 1: npm: Permission denied\n", "sh: 1: npm: Permission denied"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := npmError(tc.out); got != tc.want {
				t.Errorf("npmError:\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestInstallRegistryDown: npm, pointed at a registry that answers 503,
// asks it once an install and fails at once with the registry's answer:
// the scan's --attempts are the only retries, not each multiplied by
// npm's own (two more, after 10 s and 60 s).
func TestInstallRegistryDown(t *testing.T) {
	if _, err := exec.LookPath("npm"); err != nil {
		t.Skip("no npm here")
	}
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
	}))
	defer srv.Close()
	t.Setenv("npm_config_registry", srv.URL+"/")
	t.Setenv("npm_config_cache", t.TempDir())
	c := &Commands{}
	_, err := c.Install(context.Background(), &Package{Registry: "npm", Identifier: "some-server", Version: "1.0.0"}, filepath.Join(t.TempDir(), "job"))
	want := "npm install some-server@1.0.0: exit status 1: E503: 503 Service Unavailable - GET " + srv.URL + "/some-server"
	if err == nil || err.Error() != want {
		t.Errorf("%v\nwant %s", err, want)
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("the registry was asked %d times, want once", n)
	}
	if down := (*RegistryDown)(nil); !errors.As(err, &down) {
		t.Errorf("%v is not marked as the registry's failure", err)
	}
}

// TestUnreachable: npm's codes for a registry that did not answer mark
// an install's failure as the registry's, which a scan run again tries
// again; a package it lacks, or an empty offline cache, are not.
func TestUnreachable(t *testing.T) {
	for _, tc := range []struct {
		msg  string
		down bool
	}{
		{"npm install a@1: exit status 1: E503: 503 Service Unavailable - GET https://registry.npmjs.org/a", true},
		{"npm install a@1: exit status 1: E502: 502 Bad Gateway - GET https://registry.npmjs.org/a", true},
		{"npm install a@1: exit status 1: E429: 429 Too Many Requests - GET https://registry.npmjs.org/a", true},
		{"npm install a@1: exit status 1: ECONNREFUSED: request to http://127.0.0.1:1/a failed, reason: connect ECONNREFUSED 127.0.0.1:1", true},
		{"npm install a@1: exit status 1: ETIMEDOUT: request to https://registry.npmjs.org/a failed, reason: timeout", true},
		{"npm install a@1: exit status 1: EAI_AGAIN: request to https://registry.npmjs.org/a failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org", true},
		{"npm install a@1: exit status 1: E404: 404 Not Found - GET https://registry.npmjs.org/a", false},
		{"npm install a@1: exit status 1: ENOTCACHED: request to https://registry.npmjs.org/a failed: cache mode is 'only-if-cached'", false},
		{"npm install a@1: exit status 1: EACCES: permission denied", false},
		{"npm install a@1: exit status 1: the package says E503 in its README", false},
	} {
		err := unreachable(missing(errors.New(tc.msg)))
		down := (*RegistryDown)(nil)
		if got := errors.As(err, &down); got != tc.down {
			t.Errorf("%s: the registry's = %v, want %v", tc.msg, got, tc.down)
		}
		if err.Error() != tc.msg && !transport.IsPermanent(err) {
			t.Errorf("%s: message changed to %s", tc.msg, err)
		}
	}
	if unreachable(nil) != nil {
		t.Error("unreachable(nil) is not nil")
	}
}
