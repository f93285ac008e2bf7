// Command gen writes a large surface for benchmarks: the tools of the
// corpus captures given as arguments, repeated with numbered names until
// there are -n tools.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/rubricmcp/rubric/engine/surface/surfacetest"
)

func main() {
	n := flag.Int("n", 100000, "number of tools")
	out := flag.String("o", "big.tools.json", "output file")
	flag.Parse()
	if flag.NArg() == 0 {
		//lint:ignore ST1005 a usage line, whose ellipsis says one capture or more
		fail(fmt.Errorf("usage: gen [-n N] [-o FILE] CAPTURE.json..."))
	}
	f, err := os.Create(*out)
	if err != nil {
		fail(err)
	}
	if err := surfacetest.Repeat(f, *n, flag.Args()...); err != nil {
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
