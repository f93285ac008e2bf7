// Command decode is the benchmark baseline: it reads a surface file and
// decodes it with encoding/json into generic values, and nothing else.
package main

import (
	"encoding/json"
	"fmt"
	"os"
)

func main() {
	b, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "decode:", err)
		os.Exit(2)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		fmt.Fprintln(os.Stderr, "decode:", err)
		os.Exit(2)
	}
	tools := v.(map[string]any)["tools"].([]any)
	fmt.Println(len(tools), "tools decoded")
}
