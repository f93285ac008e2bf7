package gitrev

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// repo makes a repository with two commits of file.txt, tagged v1 and v2.
func repo(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	gitconfig := filepath.Join(t.TempDir(), "gitconfig")
	if err := os.WriteFile(gitconfig, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL="+gitconfig)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q", "-b", "main")
	for _, v := range []string{"v1", "v2"} {
		if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "sub", "file.txt"), []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
		run("add", ".")
		run("commit", "-q", "-m", v)
		run("tag", v)
	}
	return dir
}

func TestCheckoutAndRemove(t *testing.T) {
	dir := repo(t)
	ctx := context.Background()
	r, err := Open(ctx, filepath.Join(dir, "sub"))
	if err != nil {
		t.Fatal(err)
	}
	commit, err := r.Resolve(ctx, "v1")
	if err != nil || len(commit) < 40 {
		t.Fatalf("resolve: %q, %v", commit, err)
	}
	w, err := r.Checkout(ctx, commit)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := w.Rel(filepath.Join(r.Root, "sub"))
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(sub, "file.txt")); err != nil || string(b) != "v1" {
		t.Fatalf("the worktree holds %q, %v", b, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "sub", "file.txt")); string(b) != "v2" {
		t.Errorf("the working tree changed to %q", b)
	}
	if err := w.Remove(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(w.Dir); !os.IsNotExist(err) {
		t.Errorf("the worktree is still there: %v", err)
	}
	list, err := git(ctx, dir, "worktree", "list")
	if err != nil || strings.Count(list, "\n") != 0 {
		t.Errorf("worktrees left: %q, %v", list, err)
	}
}

func TestErrors(t *testing.T) {
	dir := repo(t)
	ctx := context.Background()
	r, _ := Open(ctx, dir)
	for _, rev := range []string{"nosuch", "", "--all"} {
		if _, err := r.Resolve(ctx, rev); err == nil {
			t.Errorf("%q resolved", rev)
		}
	}
	if _, err := Open(ctx, t.TempDir()); err == nil || !strings.Contains(err.Error(), "not inside a git repository") {
		t.Errorf("a plain directory: %v", err)
	}
}

// TestSuperproject: a submodule's outermost superproject, through
// nested submodules; a repository that is no submodule (one that holds
// submodules included) is its own.
func TestSuperproject(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	run := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "protocol.file.allow=always"}, args...)...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	// inner is a submodule of middle, which is one of outer.
	for _, name := range []string{"inner", "middle", "outer"} {
		dir := filepath.Join(base, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "README"), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
		run(dir, "init", "-q", "-b", "main")
		run(dir, "add", ".")
		switch name {
		case "middle":
			run(dir, "submodule", "add", "-q", filepath.Join(base, "inner"), "vendor/inner")
		case "outer":
			run(dir, "submodule", "add", "-q", filepath.Join(base, "middle"), "vendor/middle")
			run(dir, "submodule", "update", "-q", "--init", "--recursive")
		}
		run(dir, "commit", "-q", "-m", name)
	}
	outer := filepath.Join(base, "outer")
	ctx := context.Background()
	for _, c := range []struct{ name, dir, want string }{
		{"no submodule", filepath.Join(base, "inner"), filepath.Join(base, "inner")},
		{"a repository holding a submodule", filepath.Join(base, "middle"), filepath.Join(base, "middle")},
		{"the outermost", outer, outer},
		{"a submodule", filepath.Join(outer, "vendor", "middle"), outer},
		{"a submodule's submodule", filepath.Join(outer, "vendor", "middle", "vendor", "inner"), outer},
	} {
		r, err := Open(ctx, c.dir)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got, err := r.Superproject(ctx); err != nil || got != c.want {
			t.Errorf("%s: got %q, %v; want %q", c.name, got, err, c.want)
		}
	}
}

// TestRelThroughASymlink: git reports the top of the repository with
// links resolved, and a directory reached through a link is still
// inside it.
func TestRelThroughASymlink(t *testing.T) {
	dir := repo(t)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip("no symbolic links:", err)
	}
	ctx := context.Background()
	r, err := Open(ctx, filepath.Join(link, "sub"))
	if err != nil {
		t.Fatal(err)
	}
	commit, err := r.Resolve(ctx, "v1")
	if err != nil {
		t.Fatal(err)
	}
	w, err := r.Checkout(ctx, commit)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Remove()
	sub, err := w.Rel(filepath.Join(link, "sub"))
	if err != nil {
		t.Fatal(err)
	}
	if sub != filepath.Join(w.Dir, "sub") {
		t.Errorf("Rel = %s, want %s", sub, filepath.Join(w.Dir, "sub"))
	}
	if _, err := w.Rel(t.TempDir()); err == nil || !strings.Contains(err.Error(), "outside the repository") {
		t.Errorf("a directory outside: %v", err)
	}
}

// TestRemoveTouchesOnlyItsOwnRegistration: when git cannot remove a
// worktree (its directory is already gone), Remove drops that
// worktree's registration and leaves another stale worktree, which may
// be someone else's, registered.
func TestRemoveTouchesOnlyItsOwnRegistration(t *testing.T) {
	dir := repo(t)
	ctx := context.Background()
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	commit, err := r.Resolve(ctx, "v1")
	if err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(t.TempDir(), "other")
	if _, err := git(ctx, dir, "worktree", "add", "--detach", "--quiet", other, commit); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(other); err != nil {
		t.Fatal(err)
	}
	w, err := r.Checkout(ctx, commit)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(w.Dir); err != nil {
		t.Fatal(err)
	}
	if err := w.Remove(); err != nil {
		t.Fatalf("Remove: %v", err)
	}
	list, err := git(ctx, dir, "worktree", "list", "--porcelain")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(list, w.Dir) {
		t.Errorf("the removed worktree is still registered:\n%s", list)
	}
	if !strings.Contains(list, other) {
		t.Errorf("another stale worktree was pruned:\n%s", list)
	}
}

// TestResolveSaysHowToFetch: a revision the clone lacks names the fetch
// that brings it; a failure git explains quotes git.
func TestResolveSaysHowToFetch(t *testing.T) {
	dir := repo(t)
	ctx := context.Background()
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	// Without a remote there is nothing to fetch from.
	if _, err := r.Resolve(ctx, "nosuch"); err == nil || !strings.Contains(err.Error(), "has no remote to fetch it from: give a branch, tag or commit it has") {
		t.Errorf("no remote: %v", err)
	}
	if _, err := git(ctx, dir, "remote", "add", "origin", "https://example.com/r.git"); err != nil {
		t.Fatal(err)
	}
	for rev, want := range map[string]string{
		"origin/main": "fetch it first: git fetch origin main, or actions/checkout with fetch-depth: 0",
		"v9":          "if it is a branch or tag of origin, fetch it first: git fetch origin v9:v9, or",
		"0123456789abcdef0123456789abcdef01234567": "git fetch origin 0123456789abcdef0123456789abcdef01234567,",
		"0123456789ab": "by its full id: git fetch origin FULL-ID",
		// Not shallow: the history is all there is.
		"HEAD~5": "the history does not go back that far",
	} {
		if _, err := r.Resolve(ctx, rev); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", rev, err, want)
		}
	}
	notRepo := &Repo{Root: t.TempDir()}
	_, err = notRepo.Resolve(ctx, "main")
	if err == nil || !strings.Contains(err.Error(), "not a git repository") || strings.Contains(err.Error(), "fetch") {
		t.Errorf("git's own message: %v", err)
	}
}

// A shallow clone lacks history, not refs: git fetch origin HEAD~1 is
// not a command git takes, so the advice is to deepen the history, and
// it works.
func TestResolveInAShallowClone(t *testing.T) {
	dir := repo(t)
	ctx := context.Background()
	clone := filepath.Join(t.TempDir(), "clone")
	if _, err := git(ctx, dir, "clone", "-q", "--depth", "1", "file://"+dir, clone); err != nil {
		t.Fatal(err)
	}
	r, err := Open(ctx, clone)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Resolve(ctx, "HEAD~1")
	want := "the clone is shallow and its history stops before it: deepen it with git fetch --deepen=1 (or git fetch --unshallow)"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("got %v, want %q", err, want)
	}
	if _, err := git(ctx, clone, "fetch", "-q", "--deepen=1"); err != nil {
		t.Fatalf("the advice fails: %v", err)
	}
	if _, err := r.Resolve(ctx, "HEAD~1"); err != nil {
		t.Errorf("after the advice: %v", err)
	}
}

// A repository without a commit has no base: nothing to fetch.
func TestResolveWithoutACommit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	ctx := context.Background()
	dir := t.TempDir()
	if _, err := git(ctx, dir, "init", "-q", "-b", "main"); err != nil {
		t.Fatal(err)
	}
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Resolve(ctx, "HEAD")
	if err == nil || !strings.Contains(err.Error(), "the repository has no commit yet, so there is no base to compare with") || strings.Contains(err.Error(), "fetch") {
		t.Errorf("got %v", err)
	}
}

// Without git on PATH a repository is not "not a repository": git is
// missing, and the message says so.
func TestOpenWithoutGit(t *testing.T) {
	dir := repo(t)
	t.Setenv("PATH", t.TempDir())
	_, err := Open(context.Background(), dir)
	if err == nil || !strings.Contains(err.Error(), "git is not found") || strings.Contains(err.Error(), "not inside a git repository") {
		t.Errorf("got %v", err)
	}
}

// A worktree left by a process that was killed (its directory named with
// the id of a process that has ended) is removed with its registration
// by the next Checkout; this process's own worktree is left alone.
func TestSweepRemovesWorktreesOfDeadProcesses(t *testing.T) {
	dir := repo(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	ctx := context.Background()
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	commit, err := r.Resolve(ctx, "v1")
	if err != nil {
		t.Fatal(err)
	}
	ended := exec.Command("true")
	if err := ended.Run(); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(tmp, fmt.Sprintf("%s%d-1", tmpPrefix, ended.Process.Pid), "tree")
	if _, err := git(ctx, dir, "worktree", "add", "--detach", "--quiet", stale, commit); err != nil {
		t.Fatal(err)
	}
	w, err := r.Checkout(ctx, commit)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Remove()
	if _, err := os.Stat(filepath.Dir(stale)); !os.IsNotExist(err) {
		t.Errorf("the stale worktree is still there: %v", err)
	}
	list, err := git(ctx, dir, "worktree", "list", "--porcelain")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(list, stale) {
		t.Errorf("the stale worktree is still registered:\n%s", list)
	}
	if !strings.Contains(list, w.Dir) {
		t.Errorf("this process's worktree was removed:\n%s", list)
	}
}

// TestResolveSaysHowToFetchInGitLab: in a GitLab CI job the advice is
// GitLab's, not actions/checkout's: GitLab's runner fetches only the
// pipeline's own branch, so a base branch is fetched in the job's script,
// and a shallow history is deepened with GIT_DEPTH.
func TestResolveSaysHowToFetchInGitLab(t *testing.T) {
	t.Setenv("GITLAB_CI", "true")
	dir := repo(t)
	ctx := context.Background()
	if _, err := git(ctx, dir, "remote", "add", "origin", "https://example.com/r.git"); err != nil {
		t.Fatal(err)
	}
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	for rev, want := range map[string]string{
		"origin/main":  "fetch it first: git fetch origin main in the job's script before the gate (GitLab's runner fetches only the pipeline's own branch, whatever GIT_DEPTH says)",
		"v9":           "git fetch origin v9:v9 in the job's script before the gate",
		"0123456789ab": "by its full id: git fetch origin FULL-ID in the job's script",
	} {
		_, err := r.Resolve(ctx, rev)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "actions/checkout") {
			t.Errorf("%s: %v, want %q", rev, err, want)
		}
	}
	clone := filepath.Join(t.TempDir(), "clone")
	if _, err := git(ctx, dir, "clone", "-q", "--depth", "1", "file://"+dir, clone); err != nil {
		t.Fatal(err)
	}
	shallow, err := Open(ctx, clone)
	if err != nil {
		t.Fatal(err)
	}
	_, err = shallow.Resolve(ctx, "HEAD~1")
	if want := `git fetch --deepen=1 (or git fetch --unshallow), or set GIT_DEPTH: "0" in .gitlab-ci.yml`; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("shallow: %v, want %q", err, want)
	}
}

// TestChanged: the files the working tree changes under a folder since
// the merge base of base and head, committed or not; nothing outside the
// folder. The working tree is at v2.
func TestChanged(t *testing.T) {
	dir := repo(t)
	ctx := context.Background()
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "other.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, base, head, dir string
		want                  string
	}{
		{name: "committed", base: "v1", head: "v2", dir: "sub", want: "sub/file.txt"},
		{name: "the same", base: "v2", head: "v2", dir: "sub", want: ""},
		{name: "elsewhere", base: "v1", head: "v2", dir: "none", want: ""},
		{name: "HEAD", base: "v2", head: "", dir: "sub", want: ""},
		{name: "HEAD since v1", base: "v1", head: "", dir: "sub", want: "sub/file.txt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := r.Changed(ctx, tc.base, tc.head, tc.dir)
			if err != nil || strings.Join(got, ",") != tc.want {
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "file.txt"), []byte("edited"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := r.Changed(ctx, "v2", "", "sub"); err != nil || strings.Join(got, ",") != "sub/file.txt" {
		t.Errorf("an edit in the working tree: got %q, %v", got, err)
	}
}

// TestUntracked: files git does not track under a folder, ignored ones
// included; tracked files and files elsewhere are not in it.
func TestUntracked(t *testing.T) {
	dir := repo(t)
	ctx := context.Background()
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		".gitignore":    "*.ign\n",
		"sub/new.txt":   "x",
		"sub/a/b.ign":   "x",
		"other/new.txt": "x",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := r.Untracked(ctx, "sub")
	if want := "sub/a/b.ign,sub/new.txt"; err != nil || strings.Join(got, ",") != want {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
	if got, err := r.Untracked(ctx, "none"); err != nil || len(got) != 0 {
		t.Errorf("a folder that does not exist: got %q, %v", got, err)
	}
}

// TestLinkOn: a symbolic link of the work tree on the way to a path,
// the path itself or a folder of it, wherever it points; a link above
// the top of the repository does not count.
func TestLinkOn(t *testing.T) {
	dir := repo(t)
	outside := t.TempDir()
	mk := func(name string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Join(dir, name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	mk("real/cache")
	mk("plain/cache")
	for link, target := range map[string]string{
		"cache":     "real/cache",
		"parent":    "real",
		"away":      outside,
		"sub/cache": "../real/cache",
	} {
		if err := os.Symlink(target, filepath.Join(dir, link)); err != nil {
			t.Skip("no symbolic links:", err)
		}
	}
	above := filepath.Join(t.TempDir(), "checkout")
	if err := os.Symlink(dir, above); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path string
		want       Link
		ok         bool
	}{
		{name: "a plain folder", path: filepath.Join(dir, "plain/cache")},
		{name: "not there yet", path: filepath.Join(dir, "plain/new/cache")},
		{name: "outside", path: outside},
		{name: "the folder", path: filepath.Join(dir, "cache"), want: Link{Path: "cache", Link: "cache", Target: "real/cache"}, ok: true},
		{name: "a parent", path: filepath.Join(dir, "parent/cache"), want: Link{Path: "parent/cache", Link: "parent", Target: "real"}, ok: true},
		{name: "out of the repository", path: filepath.Join(dir, "away/x"), want: Link{Path: "away/x", Link: "away", Target: outside}, ok: true},
		{name: "deeper", path: filepath.Join(dir, "sub/cache/answers"), want: Link{Path: "sub/cache/answers", Link: "sub/cache", Target: "../real/cache"}, ok: true},
		{name: "through a link above the top", path: filepath.Join(above, "plain/cache")},
		{name: "a link after a link above the top", path: filepath.Join(above, "cache"), want: Link{Path: "cache", Link: "cache", Target: "real/cache"}, ok: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := r.LinkOn(tc.path)
			if ok != tc.ok || got != tc.want {
				t.Errorf("got %+v, %v; want %+v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

// TestLinkAt: a revision's symbolic link is told from a file that holds
// its text, a folder, and nothing at all.
func TestLinkAt(t *testing.T) {
	dir := repo(t)
	if err := os.Symlink("file.txt", filepath.Join(dir, "sub", "link")); err != nil {
		t.Skip("no symbolic links:", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "sub", "text"), []byte("file.txt"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"add", "."}, {"commit", "-q", "-m", "v3"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	ctx := context.Background()
	r, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, rev, path string
		text            string
		link, missing   bool
	}{
		{name: "a link", rev: "HEAD", path: "sub/link", text: "file.txt", link: true},
		{name: "a file with a link's text", rev: "HEAD", path: "sub/text"},
		{name: "a file", rev: "HEAD", path: "sub/file.txt"},
		{name: "a folder", rev: "HEAD", path: "sub"},
		{name: "not yet", rev: "v2", path: "sub/link", missing: true},
		{name: "never", rev: "HEAD", path: "sub/none", missing: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text, link, err := r.LinkAt(ctx, tc.rev, tc.path)
			if tc.missing != errors.Is(err, fs.ErrNotExist) || !tc.missing && err != nil {
				t.Fatalf("error %v, want missing %v", err, tc.missing)
			}
			if text != tc.text || link != tc.link {
				t.Errorf("got %q, %v; want %q, %v", text, link, tc.text, tc.link)
			}
		})
	}
}
