package main

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/rubricmcp/rubric/engine/cache"
	"github.com/rubricmcp/rubric/engine/gate"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/internal/gitrev"
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
// writes one. Answers cached at the base, and a cache outside the
// repository, are read as usual. The change returned is nil when there
// is nothing to say; a base that does not resolve is left for the gate
// to report.
func distrustChangedCache(ctx context.Context, store *cache.Store, base, head string) (*gate.CacheChange, error) {
	if store == nil || store.Dir() == "" || base == "" {
		return nil, nil
	}
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	repo, err := gitrev.Open(ctx, cwd)
	if err != nil {
		return nil, nil // the gate says so
	}
	rel, in := repo.Rel(store.Dir())
	if !in {
		return nil, nil
	}
	if _, err := repo.Resolve(ctx, base); err != nil {
		return nil, nil // the gate says so, with how to fetch it
	}
	if head != "" {
		if _, err := repo.Resolve(ctx, head); err != nil {
			return nil, nil
		}
	}
	dir := filepath.ToSlash(rel)
	changed, err := repo.Changed(ctx, base, head, dir)
	if err != nil {
		return nil, fmt.Errorf("find the cached answers this change adds or edits under %s, which the gate must not read: %w (or keep the answer cache outside the repository with --cache-dir)", store.Dir(), err)
	}
	var files, paths []string
	for _, f := range changed {
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
	if len(files) == 0 {
		return nil, nil
	}
	store.Distrust(paths)
	where := dir + "/"
	if dir == "." {
		where = "the top of the repository"
	}
	return &gate.CacheChange{Dir: dir, Files: files, Note: fmt.Sprintf(
		"this change adds or edits %s under %s since the base (%s): the gate asked the judge again instead of reading them (answers cached at the base were read as usual)",
		report.Plural(len(files), "cached answer"), where, base)}, nil
}
