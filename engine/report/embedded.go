package report

import (
	"fmt"

	"github.com/rubricmcp/rubric/engine/surface"
)

// EmbeddedSurface reads back the surface the report embeds, for scoring
// it again; name says where the report was read. A surface that does
// not hash to the recorded hash is refused: the report was edited.
func (r *Report) EmbeddedSurface(name string) (*surface.Surface, error) {
	s, err := surface.Parse(name+"#embedded_surface", r.Embedded)
	if err != nil {
		return nil, fmt.Errorf("the report's embedded surface is damaged: %w", err)
	}
	if h := s.Hash(); h != r.Surface.Hash {
		return nil, fmt.Errorf("%s: the embedded surface hashes to %s, not the recorded %s: the report was edited; score the server again", name, h, r.Surface.Hash)
	}
	return s, nil
}

// ScoredSurface is the surface the report scored: the one Embed recorded
// for a report just scored, else the one it embeds (EmbeddedSurface), for
// writers that show the definitions.
func (r *Report) ScoredSurface() (*surface.Surface, error) {
	if r.surface != nil {
		return r.surface, nil
	}
	return r.EmbeddedSurface("the report")
}
