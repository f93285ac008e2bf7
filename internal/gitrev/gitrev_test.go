package gitrev

import (
	"context"
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
