package run

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/gate"
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
