// Command gen writes a large surface for benchmarks: the tools of the
// corpus captures given as arguments, repeated with numbered names until
// there are -n tools.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
)

func main() {
	n := flag.Int("n", 100000, "number of tools")
	out := flag.String("o", "big.tools.json", "output file")
	flag.Parse()
	var tools []map[string]any
	var names []string
	for _, f := range flag.Args() {
		b, err := os.ReadFile(f)
		if err != nil {
			fail(err)
		}
		var c struct {
			Tools []map[string]any `json:"tools"`
		}
		if err := json.Unmarshal(b, &c); err != nil {
			fail(fmt.Errorf("%s: %w", f, err))
		}
		for _, t := range c.Tools {
			tools = append(tools, t)
			names = append(names, fmt.Sprint(t["name"]))
		}
	}
	if len(tools) == 0 {
		fail(fmt.Errorf("usage: gen [-n N] [-o FILE] CAPTURE.json..."))
	}
	f, err := os.Create(*out)
	if err != nil {
		fail(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString(`{"server":{"name":"bench"},"tools":[`)
	for i := range *n {
		t := tools[i%len(tools)]
		t["name"] = fmt.Sprintf("%s_%d", names[i%len(tools)], i)
		b, _ := json.Marshal(t)
		if i > 0 {
			w.WriteByte(',')
		}
		w.Write(b)
	}
	w.WriteString("]}\n")
	if err := w.Flush(); err != nil {
		fail(err)
	}
	if err := f.Close(); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "gen:", err)
	os.Exit(2)
}
