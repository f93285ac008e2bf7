package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"
)

// TestWriteToolsInParallelWritesWhatOneGoroutineWrites: the tools' lines
// encoded a chunk at a time on several goroutines are the bytes one
// goroutine writes, in tool order, for any number of tools around the
// chunk size; and a report two of whose tools cannot be encoded fails
// with the first one's error, however many goroutines encode it.
func TestWriteToolsInParallelWritesWhatOneGoroutineWrites(t *testing.T) {
	tool := func(i int) Tool {
		return Tool{Name: fmt.Sprintf("tool_%d", i), Hash: "sha256:x", Score: json.Number(fmt.Sprint(i % 100)), Grade: "B",
			Issues: []Issue{{Check: "c", Message: fmt.Sprintf("<%d> \u2028", i), Params: []string{"p"}, Points: "1"}},
			Fields: Fields{{Name: "raw", Value: json.RawMessage(fmt.Sprintf(`{"n":%d}`, i))}, {Name: "value", Value: []any{i, "x"}}}}
	}
	write := func(tools []Tool, workers int) (string, error) {
		var b bytes.Buffer
		w := bufio.NewWriter(&b)
		err := writeTools(w, tools, workers)
		w.Flush()
		return b.String(), err
	}
	for _, n := range []int{0, 1, toolsPerChunk - 1, toolsPerChunk, toolsPerChunk + 1, 5*toolsPerChunk + 7} {
		tools := make([]Tool, n)
		for i := range tools {
			tools[i] = tool(i)
		}
		want, err := write(tools, 1)
		if err != nil {
			t.Fatalf("%d tools: %v", n, err)
		}
		for _, workers := range []int{2, 3, 8} {
			got, err := write(tools, workers)
			if err != nil || got != want {
				t.Errorf("%d tools on %d goroutines: %v, bytes the same: %v", n, workers, err, got == want)
			}
		}
	}
	tools := make([]Tool, 4*toolsPerChunk)
	for i := range tools {
		tools[i] = tool(i)
	}
	for _, i := range []int{toolsPerChunk + 3, 3 * toolsPerChunk} {
		tools[i].Fields = append(tools[i].Fields, Field{Name: "bad", Value: math.Inf(1)})
	}
	_, want := write(tools, 1)
	if want == nil {
		t.Fatal("a tool with an infinite value was written")
	}
	for _, workers := range []int{2, 8} {
		if _, err := write(tools, workers); err == nil || err.Error() != want.Error() {
			t.Errorf("on %d goroutines: %v, want %v", workers, err, want)
		}
	}
}
