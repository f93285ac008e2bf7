package main

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/gate"
	"github.com/rubricmcp/rubric/engine/report"
)

// distrustChangedCache keeps the gate from reading the answers a change
// brings into the answer cache, when the cache directory lies in the
// repository (some teams commit it to save model calls in CI). Cache
// keys can be computed by anyone, so a pull request could add or edit an
// answer file that gives its worse definition the base's good answer,
// and pass without the judge being asked. The answer files the working
// tree adds or edits since the merge base of base and head, committed or
// not, are set aside
// (cache.Store.Distrust): the judge is asked again for any the gate
// needs, and its fresh answer is written in their place, as any run
// writes one. Answer files git does not track there are set aside too:
// an earlier step of the job, running the change's scripts, may have
// written them. A cache directory reached through a symbolic link of
// the work tree (itself or a folder of it) is not read at all: the
// change can point the link anywhere, out of the repository too, where
// git sees nothing. Answers cached at the base, and a cache outside the
// repository, are read as usual. The change returned is nil when there
// is nothing to say; a base that does not resolve is left for the gate
// to report.
func distrustChangedCache(ctx context.Context, store *cache.Store, base, head string) (*gate.CacheChange, error) {
	if store == nil || store.Dir() == "" || base == "" {
		return nil, nil
	}
	repo, err := baseRepo(ctx, base)
	if repo == nil {
		return nil, err
	}
	if head != "" {
		if _, err := repo.Resolve(ctx, head); err != nil {
			return nil, nil
		}
	}
	if l, ok := repo.LinkOn(store.Dir()); ok {
		// What lies behind a link is not what git tracks there, and the
		// change may have pointed the link elsewhere, out of the
		// repository too: no answer read through it is vouched for.
		store.Distrust([]string{"."})
		return &gate.CacheChange{Dir: l.Path, Files: []string{l.Path}, Link: l.Link, Note: fmt.Sprintf(
			"the cache directory %s/ is reached through the symbolic link %s (to %s), which a change can point anywhere: the gate read none of the answers cached there and asked the judge again (make %s a plain directory, or keep the answer cache outside the repository with --cache-dir)",
			l.Path, l.Link, l.Target, l.Link)}, nil
	}
	rel, in := repo.Rel(store.Dir())
	if !in {
		return nil, nil
	}
	dir := filepath.ToSlash(rel)
	changed, err := repo.Changed(ctx, base, head, dir)
	if err != nil {
		return nil, fmt.Errorf("find the cached answers this change adds or edits under %s, which the gate must not read: %w (or keep the answer cache outside the repository with --cache-dir)", store.Dir(), err)
	}
	untracked, err := repo.Untracked(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("find the cached answers under %s that git does not track, which the gate must not read: %w (or keep the answer cache outside the repository with --cache-dir)", store.Dir(), err)
	}
	changedFiles, changedPaths := cachedAnswers(dir, changed)
	untrackedFiles, untrackedPaths := cachedAnswers(dir, untracked)
	if len(changedFiles)+len(untrackedFiles) == 0 {
		return nil, nil
	}
	store.Distrust(append(changedPaths, untrackedPaths...))
	where := dir + "/"
	if dir == "." {
		where = "the top of the repository"
	}
	var what []string
	if len(changedFiles) > 0 {
		what = append(what, fmt.Sprintf("this change adds or edits %s under %s since the base (%s)", report.Plural(len(changedFiles), "cached answer"), where, base))
	}
	if len(untrackedFiles) > 0 {
		n := report.Plural(len(untrackedFiles), "cached answer")
		if len(changedFiles) > 0 {
			what = append(what, fmt.Sprintf("%s there are files git does not track, which a step before the gate may have written", n))
		} else {
			what = append(what, fmt.Sprintf("%s under %s are files git does not track, which a step before the gate may have written", n, where))
		}
	}
	return &gate.CacheChange{Dir: dir, Files: append(changedFiles, untrackedFiles...), Untracked: untrackedFiles, Note: fmt.Sprintf(
		"%s: the gate asked the judge again instead of reading them (answers cached at the base were read as usual)",
		strings.Join(what, ", and "))}, nil
}

// cachedAnswers keeps, of files relative to the top of the repository,
// those that are answers of the cache directory dir (or folders of
// them), and returns each also relative to dir, the name
// cache.Store.Distrust is given.
func cachedAnswers(dir string, found []string) (files, paths []string) {
	for _, f := range found {
		p := f // relative to the cache directory
		if dir != "." {
			p = "."
			if rest, ok := strings.CutPrefix(f, dir+"/"); ok {
				p = rest
			}
		}
		// Prompts are checked against their sha256 when read, and the
		// gate neither sends nor collects batches: answers alone matter.
		if p == "." || p == "answers" || strings.HasPrefix(p, "answers/") {
			files, paths = append(files, f), append(paths, path.Clean(p))
		}
	}
	return files, paths
}
