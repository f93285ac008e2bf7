// Package gitrev checks revisions of a git repository out into detached
// worktrees of their own, so that a program can be run as it was at that
// revision (the gate exports a base this way) while the working tree stays
// untouched.
package gitrev

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Repo is a git repository, named by the top of its working tree.
type Repo struct {
	// Root is the top-level directory of the working tree.
	Root string
}

// Open finds the repository that holds dir.
func Open(ctx context.Context, dir string) (*Repo, error) {
	out, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, fmt.Errorf("%s is not inside a git repository (%v): run the gate in a clone of the project", dir, err)
	}
	return &Repo{Root: out}, nil
}

// Resolve returns the commit id a revision names (a branch, a tag, a
// remote branch such as origin/main, an id).
func (r *Repo) Resolve(ctx context.Context, rev string) (string, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("%q is not a revision", rev)
	}
	out, err := git(ctx, r.Root, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return "", fmt.Errorf("no commit %q in %s: fetch it first (in CI, check out with fetch-depth: 0)", rev, r.Root)
	}
	return out, nil
}

// Worktree is a detached checkout of one commit in a temporary directory.
type Worktree struct {
	// Dir is the top of the checkout.
	Dir    string
	Commit string
	repo   *Repo
	tmp    string
}

// Checkout adds a detached worktree of commit in a new temporary
// directory. The caller removes it with Remove, also when what it ran
// there failed or was interrupted.
func (r *Repo) Checkout(ctx context.Context, commit string) (*Worktree, error) {
	tmp, err := os.MkdirTemp("", "rubric-rev-")
	if err != nil {
		return nil, err
	}
	w := &Worktree{Dir: filepath.Join(tmp, "tree"), Commit: commit, repo: r, tmp: tmp}
	if _, err := git(ctx, r.Root, "worktree", "add", "--detach", "--quiet", w.Dir, commit); err != nil {
		w.Remove()
		return nil, fmt.Errorf("check out %s into a worktree: %w", commit, err)
	}
	return w, nil
}

// Remove deletes the worktree and its registration in the repository. It
// runs on a context of its own, so an interrupted run still cleans up.
func (w *Worktree) Remove() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := git(ctx, w.repo.Root, "worktree", "remove", "--force", w.Dir)
	if rmErr := os.RemoveAll(w.tmp); err == nil {
		err = rmErr
	}
	// A worktree whose directory is gone but still registered is pruned.
	_, _ = git(ctx, w.repo.Root, "worktree", "prune")
	return err
}

// Rel returns where dir, inside the repository, lies in the worktree.
func (w *Worktree) Rel(dir string) (string, error) {
	rel, err := filepath.Rel(w.repo.Root, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s is outside the repository %s", dir, w.repo.Root)
	}
	return filepath.Join(w.Dir, rel), nil
}

// git runs git in dir and returns its standard output, trimmed; an error
// carries git's standard error.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("git %s: %s", args[0], msg)
		}
		return "", fmt.Errorf("git %s: %w", args[0], err)
	}
	return strings.TrimSpace(stdout.String()), nil
}
