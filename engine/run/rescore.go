package run

import (
	"context"

	"github.com/rubricmcp/rubric/engine/rank"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/surface"
)

// ReadRecorded reads the JSON report at path and the surface it
// recorded, which rescoring scores again.
func ReadRecorded(path string) (*report.Report, *surface.Surface, error) {
	old, err := report.Read(path)
	if err != nil {
		return nil, nil, err
	}
	s, err := old.EmbeddedSurface(path)
	if err != nil {
		return nil, nil, err
	}
	return old, s, nil
}

// Rescore scores surf, recorded in old as target, again with r from the
// observations old recorded: no plugin is started and no judge asked.
// Its type is rank.Scan, so that a ranking rescores each report so.
func (s *Session) Rescore(r *rubric.Rubric) rank.Scan {
	return func(ctx context.Context, surf *surface.Surface, target string, old *report.Report) (*report.Report, error) {
		return s.Scan(ctx, Source{Surface: surf, Name: target}, r, ScanOptions{Answers: old})
	}
}
