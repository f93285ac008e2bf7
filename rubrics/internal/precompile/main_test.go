package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/score"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/rubrics"
)

// TestGeneratedAreCurrent: the table and the index rubrics embeds are
// what the generator writes from the built-in rubrics as they are now.
// A table whose stamp is not this build's, or an entry of a rubric that
// has changed, is not used (the rubric is compiled as it loads, slower,
// scoring the same). But the stamp covers the language's declarations,
// not its cost estimator: a table made before the estimator changed
// would be used with the old ladders, which say which formulas may run
// untracked, and those may no longer be sound. A failure here is
// correctness, not only start-up time.
func TestGeneratedAreCurrent(t *testing.T) {
	table, index, err := rubrics.Generate()
	if err != nil {
		t.Fatal(err)
	}
	for file, now := range map[string][]byte{"compiled.bin": table, "index.json": index} {
		embedded, err := os.ReadFile("../../" + file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(now, embedded) {
			t.Errorf("rubrics/%s is not current (%d bytes, the generator writes %d): run go generate ./rubrics", file, len(embedded), len(now))
		}
	}
}

// TestTableScoresAlike: each built-in rubric loaded with the table and
// without it has the same canonical form and digest, and the static
// ones score corpus captures alike.
func TestTableScoresAlike(t *testing.T) {
	embedded, err := os.ReadFile("../../compiled.bin")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lang.UseCompiled(embedded) })
	bs, err := rubrics.List()
	if err != nil {
		t.Fatal(err)
	}
	captures := []string{"filesystem", "github", "everything"}
	for _, b := range bs {
		src, err := rubrics.Source(b.Name)
		if err != nil {
			t.Fatal(err)
		}
		var got [2]string
		for i, table := range [][]byte{embedded, nil} {
			lang.UseCompiled(table)
			r, err := rubric.Load("builtin:"+b.File, src)
			if err != nil {
				t.Fatal(err)
			}
			out := string(rubric.Canonical(r)) + "\n" + r.Digest
			if len(r.Questions) == 0 {
				for _, c := range captures {
					out += "\n" + scored(t, r, "../../../engine/score/testdata/corpus/"+c+".tools.json")
				}
			}
			got[i] = out
		}
		if got[0] != got[1] {
			t.Errorf("%s loads otherwise from the table:\nwith:    %.300s\nwithout: %.300s", b.Name, got[0], got[1])
		}
	}
}

// scored is the JSON report of r on the capture at path, without its
// timings.
func scored(t *testing.T, r *rubric.Rubric, path string) string {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := surface.Parse(path, src)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := score.Run(context.Background(), r, s, score.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep.Timings = report.Timings{}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// BenchmarkLoad loads each built-in rubric from its text with the
// embedded table and without it, side by side in one run:
//
//	go test ./rubrics/internal/precompile -run '^$' -bench Load
func BenchmarkLoad(b *testing.B) {
	embedded, err := os.ReadFile("../../compiled.bin")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { lang.UseCompiled(embedded) })
	for _, name := range []string{"schema-quality", "tdqs", "tool-safety"} {
		src, err := rubrics.Source(name)
		if err != nil {
			b.Fatal(err)
		}
		for _, side := range []struct {
			name  string
			table []byte
		}{{"table", embedded}, {"compiled", nil}} {
			b.Run(name+"/"+side.name, func(b *testing.B) {
				lang.UseCompiled(side.table)
				for b.Loop() {
					if _, err := rubric.Load("builtin:"+name, src); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
