package heuristic_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/judges/heuristic"
)

// BenchmarkGradableLargestServer generates the tasks of the largest
// corpus server and answers every one of its selection questions, as a
// Gradable run does, and reports tasks answered per second. Building the
// question inputs is the engine's work and is not timed.
func BenchmarkGradableLargestServer(b *testing.B) {
	all := corpus(b)
	var largest *surface.Surface
	for _, name := range names(all) {
		if s := all[name]; largest == nil || len(s.Tools) > len(largest.Tools) {
			largest = s
		}
	}
	j := heuristic.New()
	ctx := context.Background()
	tasksIn, err := json.Marshal(tasksInput(largest, 3))
	if err != nil {
		b.Fatal(err)
	}
	tasks := 0
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		heuristic.ResetPrepared()
		b.StartTimer()
		got, err := j.Ask(ctx, judge.Question{Kind: heuristic.KindTasks, Input: tasksIn})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		var ts gTasks
		if err := json.Unmarshal(got.JSON, &ts); err != nil {
			b.Fatal(err)
		}
		inputs := make([][]byte, len(ts.Tasks))
		for i, t := range ts.Tasks {
			if inputs[i], err = json.Marshal(selectionInput(largest, t.Task)); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		for _, in := range inputs {
			if _, err := j.Ask(ctx, judge.Question{Kind: heuristic.KindSelection, Input: in}); err != nil {
				b.Fatal(err)
			}
		}
		tasks += len(inputs)
	}
	b.ReportMetric(float64(tasks)/b.Elapsed().Seconds(), "tasks/s")
}
