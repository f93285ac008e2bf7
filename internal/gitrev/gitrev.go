// Package gitrev checks revisions of a git repository out into detached
// worktrees of their own, so that a program can be run as it was at that
// revision (the gate exports a base this way) while the working tree stays
// untouched. It tells too where a working tree and its superprojects lie
// (Open, Repo.Superproject), from which the SARIF writer's paths start.
package gitrev

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rubricmcp/rubric/internal/piddir"
)

// Repo is a git repository, named by the top of its working tree.
type Repo struct {
	// Root is the top-level directory of the working tree, with symbolic
	// links resolved (as git reports it).
	Root string
}

// Open finds the repository that holds dir.
func Open(ctx context.Context, dir string) (*Repo, error) {
	out, err := git(ctx, dir, "rev-parse", "--show-toplevel")
	if errors.Is(err, exec.ErrNotFound) {
		return nil, fmt.Errorf("git is not found on PATH: the gate checks each revision out with git; install git, or put it on PATH")
	}
	if err != nil {
		return nil, fmt.Errorf("%s is not inside a git repository (%v): run the gate in a clone of the project", dir, err)
	}
	return &Repo{Root: out}, nil
}

// Superproject returns the top of the working tree of the outermost
// repository that holds r's as a submodule, climbing nested submodules
// one level a step, or r.Root when r is no submodule. Code scanning
// resolves a submodule's paths from the checkout of that repository.
// With an error comes the last top git could tell.
func (r *Repo) Superproject(ctx context.Context) (string, error) {
	top := r.Root
	// The bound only guards against a loop.
	for range 64 {
		super, err := git(ctx, top, "rev-parse", "--show-superproject-working-tree")
		if err != nil || super == "" {
			return top, err
		}
		top = super
	}
	return top, nil
}

// Resolve returns the commit id a revision names (a branch, a tag, a
// remote branch such as origin/main, an id). A revision git does not
// know is most often one the clone has not fetched (a shallow clone in
// CI): the error says how to bring it in, as the repository stands (no
// commit yet, no remote, a shallow history), or quotes git when git
// said why.
func (r *Repo) Resolve(ctx context.Context, rev string) (string, error) {
	if rev == "" || strings.HasPrefix(rev, "-") {
		return "", fmt.Errorf("%q is not a revision", rev)
	}
	out, err := git(ctx, r.Root, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		var ge *gitError
		if errors.As(err, &ge) && ge.stderr != "" {
			return "", fmt.Errorf("cannot resolve %q in %s: %s", rev, r.Root, ge.stderr)
		}
		return "", fmt.Errorf("no commit %q in %s: %s", rev, r.Root, r.fetchHint(ctx, rev))
	}
	return out, nil
}

// fetchHint says how to bring rev into the clone, as the repository
// stands: nothing to fetch in a repository without a commit or without
// a remote; a deeper history for a revision counted back from another
// (HEAD~1) in a shallow clone; else git fetch of the remote's branch,
// tag or commit, or in GitHub Actions a full checkout.
func (r *Repo) fetchHint(ctx context.Context, rev string) string {
	if _, err := git(ctx, r.Root, "rev-parse", "--verify", "--quiet", "HEAD^{commit}"); err != nil {
		return "the repository has no commit yet, so there is no base to compare with: commit the base first, then the change on top of it"
	}
	shallow, _ := git(ctx, r.Root, "rev-parse", "--is-shallow-repository")
	if n, ok := ancestry(rev); ok {
		if shallow == "true" {
			return fmt.Sprintf("the clone is shallow and its history stops before it: deepen it with git fetch --deepen=%d (or git fetch --unshallow)%s", n, ciHistory())
		}
		return "the history does not go back that far: give a commit the repository has (git log --oneline lists them)"
	}
	list, _ := git(ctx, r.Root, "remote")
	remotes := strings.Fields(list)
	if len(remotes) == 0 {
		return "the repository has no remote to fetch it from: give a branch, tag or commit it has (git log --oneline --all lists them)"
	}
	if remote, branch, ok := strings.Cut(rev, "/"); ok && branch != "" && slices.Contains(remotes, remote) {
		return fmt.Sprintf("fetch it first: git fetch %s %s%s", remote, branch, ciFetch())
	}
	remote := remotes[0]
	if slices.Contains(remotes, "origin") {
		remote = "origin"
	}
	if isCommitID(rev) {
		if len(rev) < 40 {
			return fmt.Sprintf("fetch it first by its full id: git fetch %s FULL-ID%s", remote, ciFetch())
		}
		return fmt.Sprintf("fetch it first: git fetch %s %s%s", remote, rev, ciFetch())
	}
	return fmt.Sprintf("if it is a branch or tag of %s, fetch it first: git fetch %s %s:%s%s", remote, remote, rev, rev, ciFetch())
}

// inGitLab reports whether this runs in a GitLab CI job, whose clone is
// made by the runner (GIT_DEPTH, and in a merge request pipeline the
// merge request's branch alone), not by actions/checkout.
func inGitLab() bool { return os.Getenv("GITLAB_CI") == "true" }

// ciFetch is the end of the advice to fetch a revision, as the CI that
// made the clone is told to: actions/checkout's fetch-depth: 0 brings
// every branch and tag, while GitLab's runner fetches only the
// pipeline's own branch at any depth, so there the fetch is the way.
func ciFetch() string {
	if inGitLab() {
		return " in the job's script before the gate (GitLab's runner fetches only the pipeline's own branch, whatever GIT_DEPTH says)"
	}
	return ", or actions/checkout with fetch-depth: 0"
}

// ciHistory is the end of the advice to deepen a shallow clone, as the
// CI that made it is told to.
func ciHistory() string {
	if inGitLab() {
		return `, or set GIT_DEPTH: "0" in .gitlab-ci.yml`
	}
	return ", or use actions/checkout with fetch-depth: 0"
}

// ancestry reports whether rev counts back from another revision (HEAD~2,
// main^, HEAD@{1}), and how many commits back its last step goes: what a
// shallow clone lacks rather than a ref.
func ancestry(rev string) (int, bool) {
	i := strings.LastIndexAny(rev, "~^")
	if strings.Contains(rev, "^{") {
		return 0, false // v1^{} peels a tag; it counts nothing back
	}
	if i < 0 {
		return 0, strings.Contains(rev, "@{")
	}
	n, err := strconv.Atoi(rev[i+1:])
	if err != nil || n < 1 {
		n = 1
	}
	return n, true
}

// isCommitID reports whether rev looks like a commit id, whole or
// abbreviated.
func isCommitID(rev string) bool {
	if len(rev) < 7 || len(rev) > 64 {
		return false
	}
	for _, c := range rev {
		if !strings.ContainsRune("0123456789abcdef", c) {
			return false
		}
	}
	return true
}

// Worktree is a detached checkout of one commit in a temporary directory.
type Worktree struct {
	// Dir is the top of the checkout.
	Dir    string
	Commit string
	repo   *Repo
	tmp    string
	// admin is the worktree's administrative directory in the repository
	// (.git/worktrees/NAME): its registration.
	admin string
}

// Checkout adds a detached worktree of commit in a new temporary
// directory. The caller removes it with Remove, also when what it ran
// there failed or was interrupted.
func (r *Repo) Checkout(ctx context.Context, commit string) (*Worktree, error) {
	Sweep()
	tmp, err := piddir.Make("", tmpPrefix)
	if err != nil {
		return nil, err
	}
	w := &Worktree{Dir: filepath.Join(tmp, "tree"), Commit: commit, repo: r, tmp: tmp}
	if _, err := git(ctx, r.Root, "worktree", "add", "--detach", "--quiet", w.Dir, commit); err != nil {
		w.Remove()
		return nil, fmt.Errorf("check out %s into a worktree: %w", commit, err)
	}
	w.admin, _ = git(ctx, w.Dir, "rev-parse", "--absolute-git-dir")
	return w, nil
}

// tmpPrefix names the temporary directories worktrees are checked out
// in: $TMPDIR/rubric-rev-PID-N, PID being the process that made it.
const tmpPrefix = "rubric-rev-"

// Sweep removes the worktrees (and their registrations in their
// repositories) that a process killed before it could call Remove left
// behind: those in directories named with the id of a process that is no
// longer running. Checkout calls it; it returns what it removed.
func Sweep() []string {
	return piddir.Sweep("", tmpPrefix, func(tmp string) {
		w := &Worktree{Dir: filepath.Join(tmp, "tree")}
		// The checkout's .git file names its registration.
		b, err := os.ReadFile(filepath.Join(w.Dir, ".git"))
		if err != nil {
			return
		}
		admin, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
		if !ok {
			return
		}
		w.admin = admin
		if w.registers() {
			_ = os.RemoveAll(w.admin)
		}
	})
}

// Remove deletes the worktree and its registration in the repository. It
// runs on a context of its own, so an interrupted run still cleans up.
// Only this worktree's registration is touched: when git cannot remove
// the worktree, its directory and its administrative directory are
// deleted by hand, and other stale worktrees are left to their owners.
func (w *Worktree) Remove() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := git(ctx, w.repo.Root, "worktree", "remove", "--force", w.Dir)
	rmErr := os.RemoveAll(w.tmp)
	if err == nil {
		return rmErr
	}
	if w.admin == "" || rmErr != nil {
		return errors.Join(err, rmErr)
	}
	// What git worktree prune would do for this worktree alone: drop the
	// registration of a checkout whose directory is gone.
	if _, statErr := os.Stat(w.admin); errors.Is(statErr, os.ErrNotExist) {
		return nil
	}
	if !w.registers() {
		return err
	}
	if rmErr := os.RemoveAll(w.admin); rmErr != nil {
		return errors.Join(err, rmErr)
	}
	return nil
}

// registers reports whether w.admin is the registration of w: it lies in
// the repository's worktrees directory and its gitdir file points into
// w.Dir.
func (w *Worktree) registers() bool {
	if filepath.Base(filepath.Dir(w.admin)) != "worktrees" {
		return false
	}
	b, err := os.ReadFile(filepath.Join(w.admin, "gitdir"))
	if err != nil {
		return false
	}
	return resolve(strings.TrimSpace(string(b))) == resolve(filepath.Join(w.Dir, ".git"))
}

// Rel returns where dir, inside the repository, lies in the worktree.
// Symbolic links are resolved first, as git resolves them in Root, so a
// directory reached through a link is still inside.
func (w *Worktree) Rel(dir string) (string, error) {
	rel, ok := w.repo.Rel(dir)
	if !ok {
		return "", fmt.Errorf("%s is outside the repository %s", dir, w.repo.Root)
	}
	return filepath.Join(w.Dir, rel), nil
}

// Rel returns path relative to the top of the repository, and whether
// it lies inside it at all. A relative path is taken from the working
// directory; symbolic links are resolved first, as git resolves them in
// Root, so a file reached through a link is still inside.
func (r *Repo) Rel(path string) (string, bool) {
	rel, err := filepath.Rel(resolve(r.Root), resolve(path))
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}

// resolve is path made absolute with its symbolic links resolved; a
// path that does not exist (yet) resolves as far as it exists.
func resolve(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	parent, base := filepath.Split(abs)
	if parent == abs || base == "" {
		return abs
	}
	return filepath.Join(resolve(filepath.Clean(parent)), base)
}

// gitError is a failed git command, with what it wrote to standard
// error.
type gitError struct {
	cmd    string
	stderr string
	err    error
}

func (e *gitError) Error() string {
	if e.stderr != "" {
		return fmt.Sprintf("git %s: %s", e.cmd, e.stderr)
	}
	return fmt.Sprintf("git %s: %v", e.cmd, e.err)
}

func (e *gitError) Unwrap() error { return e.err }

// git runs git in dir and returns its standard output, trimmed; an error
// carries git's standard error.
func git(ctx context.Context, dir string, args ...string) (string, error) {
	out, err := gitBytes(ctx, dir, args...)
	return strings.TrimSpace(string(out)), err
}

// gitBytes runs git as git does and returns its output as it is, for
// a file's bytes.
func gitBytes(ctx context.Context, dir string, args ...string) ([]byte, error) {
	return gitIn(ctx, dir, nil, nil, args...)
}

// gitIn is gitBytes with stdin as git's standard input and env added to
// its environment.
func gitIn(ctx context.Context, dir string, stdin io.Reader, env []string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "LC_ALL=C"), env...)
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, &gitError{cmd: args[0], stderr: strings.TrimSpace(stderr.String()), err: err}
	}
	return stdout.Bytes(), nil
}

// Changed returns the tracked files under dir, a path relative to the
// top of the repository, that the working tree adds or changes since the
// merge base of base and head (a revision, or "" for HEAD), relative to
// the top of the repository: what head's commits change there, and any
// edit not committed, for the working tree's files are the ones read.
// Renames count as added files; deleted files are left out. Files git
// does not track are not in it.
func (r *Repo) Changed(ctx context.Context, base, head, dir string) ([]string, error) {
	from, err := git(ctx, r.Root, "merge-base", "--end-of-options", base, cmp.Or(head, "HEAD"))
	if err != nil {
		// Unrelated histories have no merge base: the base itself is
		// what the head changes.
		from = base
	}
	out, err := git(ctx, r.Root, "diff", "--name-only", "-z", "--no-renames", "--no-ext-diff", "--diff-filter=d", "--end-of-options", from, "--", ":(literal)"+filepath.ToSlash(dir))
	if err != nil {
		return nil, err
	}
	return splitNUL(out), nil
}

// Untracked returns the files under dir, a path relative to the top of
// the repository, that git does not track (ignored ones included),
// relative to the top of the repository: files a step before the
// caller wrote, which no commit vouches for.
func (r *Repo) Untracked(ctx context.Context, dir string) ([]string, error) {
	out, err := git(ctx, r.Root, "ls-files", "-z", "--others", "--", ":(literal)"+filepath.ToSlash(dir))
	if err != nil {
		return nil, err
	}
	return splitNUL(out), nil
}

// Link is a symbolic link of the work tree on the way to a path
// (Repo.LinkOn).
type Link struct {
	// Path is the path asked about as written, made relative to the top
	// of the repository, with slashes.
	Path string
	// Link is the link, relative to the top of the repository, with
	// slashes.
	Link string
	// Target is what the link holds, as read.
	Target string
}

// LinkOn returns the first symbolic link lying inside the work tree on
// the way to path (the path itself or one of its folders), and false
// when none does: links above the top of the repository (a checkout
// reached through a link) do not count. Such a link can be committed to
// point anywhere, in the repository or out of it, so that what lies
// under path is not what git tracks there. Folders of path that do not
// exist yet end the walk.
func (r *Repo) LinkOn(p string) (Link, bool) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return Link{}, false
	}
	root := resolve(r.Root)
	vol := filepath.VolumeName(abs)
	cur := vol + string(filepath.Separator)
	parts := strings.Split(strings.TrimPrefix(abs[len(vol):], string(filepath.Separator)), string(filepath.Separator))
	for i, c := range parts {
		if c == "" {
			continue
		}
		next := filepath.Join(cur, c)
		fi, err := os.Lstat(next)
		if err != nil {
			return Link{}, false
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			cur = next
			continue
		}
		if in, err := filepath.Rel(root, cur); err == nil && in != ".." && !strings.HasPrefix(in, ".."+string(filepath.Separator)) {
			target, _ := os.Readlink(next)
			link := filepath.ToSlash(filepath.Join(in, c))
			return Link{Path: path.Join(append([]string{link}, parts[i+1:]...)...), Link: link, Target: target}, true
		}
		if cur, err = filepath.EvalSymlinks(next); err != nil {
			return Link{}, false
		}
	}
	return Link{}, false
}

// Show returns the file at path, relative to the top of the repository,
// as the revision rev has it; an error wrapping fs.ErrNotExist when rev
// has no such file.
func (r *Repo) Show(ctx context.Context, rev, path string) ([]byte, error) {
	spec := rev + ":" + filepath.ToSlash(path)
	if _, err := git(ctx, r.Root, "cat-file", "-e", "--end-of-options", spec); err != nil {
		return nil, fmt.Errorf("%s: %w", spec, fs.ErrNotExist)
	}
	return gitBytes(ctx, r.Root, "cat-file", "blob", "--end-of-options", spec)
}

// LinkAt returns what the symbolic link at path, relative to the top of
// the repository, holds as the revision rev has it, and whether rev has
// a symbolic link there at all: false, and no error, for a file or a
// folder; an error wrapping fs.ErrNotExist when rev has nothing at path.
// Show alone cannot tell a link from a file that holds its text.
func (r *Repo) LinkAt(ctx context.Context, rev, path string) (string, bool, error) {
	out, err := gitBytes(ctx, r.Root, "ls-tree", "-z", "--end-of-options", rev, "--", filepath.ToSlash(path))
	if err != nil {
		return "", false, err
	}
	entry, _, _ := bytes.Cut(out, []byte{0})
	if len(entry) == 0 {
		return "", false, fmt.Errorf("%s:%s: %w", rev, filepath.ToSlash(path), fs.ErrNotExist)
	}
	// An entry is "MODE TYPE ID\tPATH"; 120000 is a symbolic link.
	if !bytes.HasPrefix(entry, []byte("120000 blob ")) {
		return "", false, nil
	}
	text, err := r.Show(ctx, rev, path)
	if err != nil {
		return "", false, err
	}
	return string(text), true, nil
}

// GrepFixed returns the lines of the working tree's tracked text files
// that hold one of patterns, fixed strings one a line, as "git grep -n
// --full-name" prints them ("PATH:LINE:TEXT", the path from the top of
// the repository); nothing found is no error. Optional locks are off,
// so that it never writes the index of a repository it only reads.
func (r *Repo) GrepFixed(ctx context.Context, patterns io.Reader) ([]byte, error) {
	out, err := gitIn(ctx, r.Root, patterns, []string{"GIT_OPTIONAL_LOCKS=0"}, "grep", "-I", "-n", "--full-name", "--no-color", "-F", "-f", "-")
	if exit := (*exec.ExitError)(nil); errors.As(err, &exit) && exit.ExitCode() == 1 {
		return nil, nil // nothing found
	}
	return out, err
}

// splitNUL splits git's -z output into its non-empty paths.
func splitNUL(out string) []string {
	var files []string
	for _, f := range strings.Split(out, "\x00") {
		if f != "" {
			files = append(files, f)
		}
	}
	return files
}
