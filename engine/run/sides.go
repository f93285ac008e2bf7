package run

import (
	"context"
	"fmt"
	"os"

	"github.com/rubricmcp/rubric/engine/gate"
	"github.com/rubricmcp/rubric/engine/transport"
	"github.com/rubricmcp/rubric/internal/gitrev"
)

// ExportSides resolves each side's revision in the git repository that
// holds the working directory, filling in its Commit, then reads each
// side's surface as ExportSide does, in the order given. src and info
// are what GateSource returned.
func (s *Session) ExportSides(ctx context.Context, src Source, info transport.Info, sides ...*Side) ([]gate.Input, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	repo, err := gitrev.Open(ctx, cwd)
	if err != nil {
		return nil, err
	}
	for _, sd := range sides {
		if sd.Rev == "" {
			continue
		}
		if sd.Commit, err = repo.Resolve(ctx, sd.Rev); err != nil {
			return nil, fmt.Errorf("--%s: %w", sd.Name, err)
		}
	}
	in := make([]gate.Input, len(sides))
	for i, sd := range sides {
		if in[i], err = s.ExportSide(ctx, repo, cwd, *sd, src, info); err != nil {
			return nil, fmt.Errorf("exporting the %s: %w", sd, err)
		}
	}
	return in, nil
}
