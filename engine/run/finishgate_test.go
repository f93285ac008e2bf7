package run

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/gate"
	"github.com/rubricmcp/rubric/internal/ghaction"
	"github.com/rubricmcp/rubric/rubrics"
)

// TestFinishGate: the decision is printed, the report files are written
// only when asked, and after an interruption nothing is printed and the
// cause comes back.
func TestFinishGate(t *testing.T) {
	r, err := rubrics.Find("schema-quality")
	if err != nil {
		t.Fatal(err)
	}
	stop := errors.New("stopped")
	for _, tc := range []struct {
		name        string
		interrupted bool
		write       bool
		runErr      error
		wantErr     error
		wantFiles   bool
	}{
		{name: "check: the decision only"},
		{name: "a run: the decision and the files", write: true, wantFiles: true},
		{name: "a failed run: its error is in the report", write: true, runErr: errors.New("no export"), wantFiles: true},
		{name: "interrupted", interrupted: true, write: true, wantErr: stop},
		{name: "interrupted with the run's error", interrupted: true, write: true, runErr: context.Canceled, wantErr: context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithCancelCause(context.Background())
			if tc.interrupted {
				cancel(stop)
			} else {
				defer cancel(nil)
			}
			rep := gate.New(r, gate.Side{Rev: "base"}, gate.Side{Rev: "head"}, "test")
			if tc.runErr != nil {
				_ = rep.Fail(tc.runErr)
			}
			dir := t.TempDir()
			var out strings.Builder
			err := FinishGate(ctx, &out, rep, dir, "", tc.write, tc.runErr)
			if !errors.Is(err, tc.wantErr) || (err == nil) != (tc.wantErr == nil) {
				t.Fatalf("error %v, want %v", err, tc.wantErr)
			}
			if tc.interrupted != (out.Len() == 0) {
				t.Errorf("printed %q", out.String())
			}
			_, statErr := os.Stat(filepath.Join(dir, "gate.json"))
			if (statErr == nil) != tc.wantFiles {
				t.Errorf("gate.json written: %v, want %v", statErr == nil, tc.wantFiles)
			}
			if tc.wantFiles && !strings.Contains(out.String(), "report: "+filepath.Join(dir, "gate.json")) {
				t.Errorf("does not say where the report went:\n%s", out.String())
			}
		})
	}
}

// TestWriteGateSummaryLimit: the gate appends gate.md to the job summary
// cut below GitHub's limit for a step's summary, counting what earlier
// commands of the step wrote, with a note that says where the whole
// report is; past the limit GitHub would show none of the summary.
func TestWriteGateSummaryLimit(t *testing.T) {
	r, err := rubrics.Find("schema-quality")
	if err != nil {
		t.Fatal(err)
	}
	rep := gate.New(r, gate.Side{Rev: "base"}, gate.Side{Rev: "head"}, "test")
	_ = rep.Fail(errors.New(strings.Repeat("a server that does not export; ", 200)))
	dir := t.TempDir()
	summary := filepath.Join(dir, "summary.md")
	earlier := strings.Repeat("x", ghaction.SummaryLimit-3000) + "\n"
	if err := os.WriteFile(summary, []byte(earlier), 0o644); err != nil {
		t.Fatal(err)
	}
	_, mdPath, err := WriteGate(filepath.Join(dir, "out"), summary, rep)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) >= ghaction.SummaryLimit {
		t.Errorf("the job summary is %d bytes, not below GitHub's %d", len(b), ghaction.SummaryLimit)
	}
	added := string(b[len(earlier):])
	if !strings.HasPrefix(added, "## rubric gate: INVALID\n") || !strings.Contains(added, "This report was cut to its first ") || !strings.Contains(added, "the whole report is "+mdPath) {
		t.Errorf("the gate's part of the summary:\n%s", added)
	}
	md, err := os.ReadFile(mdPath)
	if err != nil || len(md) < 6000 {
		t.Errorf("gate.md itself is %d bytes (%v), want it whole", len(md), err)
	}
}
