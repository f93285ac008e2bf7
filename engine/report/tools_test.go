package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"strings"
	"testing"
)

// TestToolLinesInParallel: the tools' lines written on several goroutines
// are the bytes written on one, for reports of every size around the
// chunks, and a tool that cannot be written ends the output where one
// goroutine would have, with its error.
func TestToolLinesInParallel(t *testing.T) {
	tools := func(n, bad int) []Tool {
		out := make([]Tool, n)
		for i := range out {
			out[i] = Tool{Name: fmt.Sprintf("t%d", i), Hash: "sha256:x", Score: "1", Exact: "1", Grade: "A",
				Checks: []Check{}, Issues: []Issue{{Check: "c", Message: fmt.Sprintf("<%d> & more", i), Params: []string{}}},
				Fields: []Field{{Name: "n", Value: i}}}
		}
		if bad >= 0 {
			out[bad].Fields = []Field{{Name: "n", Value: math.Inf(1)}}
		}
		return out
	}
	for _, tc := range []struct {
		n, bad int
	}{
		{0, -1}, {1, -1}, {toolsChunk, -1}, {toolsChunk + 1, -1}, {5*toolsChunk + 7, -1},
		{5*toolsChunk + 7, 0}, {5*toolsChunk + 7, 2*toolsChunk + 3}, {5*toolsChunk + 7, 5 * toolsChunk},
	} {
		ts := tools(tc.n, tc.bad)
		write := func(cores int) ([]byte, error) {
			var b bytes.Buffer
			bw := bufio.NewWriter(&b)
			err := writeTools(bw, ts, cores)
			bw.Flush()
			return b.Bytes(), err
		}
		one, oneErr := write(1)
		if (oneErr != nil) != (tc.bad >= 0) {
			t.Fatalf("%d tools, bad %d: error %v", tc.n, tc.bad, oneErr)
		}
		lines := tc.n
		if tc.bad >= 0 {
			lines = tc.bad + 1 // the bad tool's separator is written before it fails
		}
		if got := bytes.Count(one, []byte("\n    ")); got != lines {
			t.Fatalf("%d tools, bad %d: %d lines begun, want %d", tc.n, tc.bad, got, lines)
		}
		for _, cores := range []int{2, 3, 8} {
			got, err := write(cores)
			if fmt.Sprint(err) != fmt.Sprint(oneErr) {
				t.Errorf("%d tools, bad %d, %d cores: error %v, one goroutine's %v", tc.n, tc.bad, cores, err, oneErr)
			}
			if !bytes.Equal(got, one) {
				t.Errorf("%d tools, bad %d, %d cores: %d bytes differ from one goroutine's %d", tc.n, tc.bad, cores, len(got), len(one))
			}
		}
	}
}

// TestMembersInPlace: a tool's rubric fields appended to its line in
// place are the bytes of the line followed by each field as
// encoding/json writes its name (HTML escaped) and value, and a value it
// cannot write is its error, with what comes before the line left as it
// was (the caller drops the line).
func TestMembersInPlace(t *testing.T) {
	for i, name := range strs {
		for j, v := range anys {
			fs := []Field{{Name: "first", Value: json.RawMessage(`"x"`)}, {Name: name, Value: v}}
			line := []byte(`,\n    {"name":"t"}`)
			start := len(`,\n    `)
			want := string(line[:len(line)-1])
			var wantErr error
			for _, f := range fs {
				k, _ := json.Marshal(f.Name)
				b, err := encode(f.Value, "")
				if err != nil {
					wantErr = err
					break
				}
				want += "," + string(k) + ":" + string(b)
			}
			want += "}"
			before := string(line)
			got, err := appendMembersAt(line, start, fs)
			if wantErr != nil {
				if err == nil || !strings.Contains(err.Error(), wantErr.Error()) {
					t.Errorf("name %d, value %d: error %v, want one with %v", i, j, err, wantErr)
				}
				if string(line[:start]) != before[:start] {
					t.Errorf("name %d, value %d: what precedes the line became %q", i, j, line[:start])
				}
				continue
			}
			if err != nil || string(got) != want {
				t.Errorf("name %d, value %d:\n got %s (%v)\nwant %s", i, j, got, err, want)
			}
		}
	}
}

// TestToolLinesBufferIsSmall: the lines of a report of thousands of tools
// are written through buffers of a chunk each, reused from chunk to
// chunk: what writeTools allocates is a small part of what it writes
// (the buffers of 512 lines each were a few MB of fresh memory a write).
func TestToolLinesBufferIsSmall(t *testing.T) {
	long := strings.Repeat("a justification of some length. ", 60)
	ts := make([]Tool, 4000)
	for i := range ts {
		ts[i] = Tool{Name: fmt.Sprintf("t%d", i), Hash: "sha256:x", Score: "1", Exact: "1", Grade: "A",
			Checks: []Check{}, Issues: []Issue{}, Fields: []Field{{Name: "why", Value: json.RawMessage(`"` + long + `"`)}}}
	}
	var out countingWriter
	bw := bufio.NewWriter(&out)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if err := writeTools(bw, ts, 2); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	bw.Flush()
	if got := after.TotalAlloc - before.TotalAlloc; got > uint64(out)/8 {
		t.Errorf("writeTools allocated %d bytes to write %d", got, out)
	}
}

// countingWriter counts what is written to it.
type countingWriter int

func (w *countingWriter) Write(b []byte) (int, error) {
	*w += countingWriter(len(b))
	return len(b), nil
}
