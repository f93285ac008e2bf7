// Command hostile feeds rubric's readers one hostile input each, for
// measuring that none hangs or takes much memory:
//
//	go build -o /tmp/hostile ./bench/hostile
//	for c in $(/tmp/hostile list); do /usr/bin/time -f "$c %e s %M KiB" /tmp/hostile $c; done
//
// Each case prints what rubric made of its input (an error, as a user
// would see it, shortened) and exits 0 when rubric refused or bounded it.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/rubricmcp/rubric/engine/judge"
	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/rubric"
	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/judges/replay"
)

var cases = []struct {
	name string
	run  func() (string, error)
}{
	{"allof-doubling", allOfDoubling},
	{"schema-2000-deep", func() (string, error) {
		n := 2000
		src := `{"tools":[{"name":"deep","inputSchema":` + strings.Repeat(`{"properties":{"a":`, n) + `{}` + strings.Repeat(`}}`, n) + `}]}`
		_, err := surface.Parse("deep.json", []byte(src))
		return fmt.Sprintf("%d bytes", len(src)), err
	}},
	{"schema-1e400", func() (string, error) {
		_, err := surface.Parse("big.json", []byte(`{"tools":[{"name":"a","inputSchema":{"maximum":1e400}}]}`))
		return "", err
	}},
	{"schema-million-digits", func() (string, error) {
		_, err := surface.Parse("big.json", []byte(`{"tools":[{"name":"a","inputSchema":{"maximum":`+strings.Repeat("9", 1_000_000)+`}}]}`))
		return "", err
	}},
	{"rubric-1e999999999", func() (string, error) {
		_, err := rubric.Load("n.hcl", []byte("rubric \"x\" {\n  version = \"1\"\n  check \"c\" {\n    points = 1e999999999\n    pass = \"true\"\n    issue = \"x\"\n  }\n  tool { score = \"1\" }\n  surface { score = \"2\" }\n  grades = { A = 1e999999999, F = 0 }\n}\n"))
		return "", err
	}},
	{"rubric-100000-nested", func() (string, error) {
		_, err := rubric.Load("deep.hcl", []byte("rubric \"x\" {\n  v = "+strings.Repeat("{a = ", 100_000)+strings.Repeat("}", 100_000)+"\n}\n"))
		return "", err
	}},
	{"rubric-dev-zero", func() (string, error) {
		_, err := rubric.LoadFile("/dev/zero")
		return "", err
	}},
	{"report-dev-zero", func() (string, error) {
		_, err := report.Read("/dev/zero")
		return "", err
	}},
	{"answers-dev-zero", func() (string, error) {
		_, err := replay.New().Configure(context.Background(), judge.Config{Options: map[string]string{replay.OptionAnswers: "/dev/zero"}})
		return "", err
	}},
}

// allOfDoubling validates a value against a 3 KB schema of 40 nested
// allOf doublings, which takes 2^40 steps unbounded.
func allOfDoubling() (string, error) {
	defs := map[string]any{}
	for i := range 40 {
		ref := map[string]any{"$ref": fmt.Sprintf("#/$defs/d%d", i+1)}
		defs[fmt.Sprintf("d%d", i)] = map[string]any{"allOf": []any{ref, ref}}
	}
	defs["d40"] = map[string]any{"type": "string"}
	schema := map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"$ref": "#/$defs/d0"}}, "$defs": defs}
	b, _ := json.Marshal(schema)
	var s any
	json.Unmarshal(b, &s)
	env, err := lang.NewEnv(lang.Var{Name: "schema", Type: lang.Object}, lang.Var{Name: "args", Type: lang.Object})
	if err != nil {
		return "", err
	}
	p, ds := env.Compile("schema_errors(args, schema)", nil)
	if len(ds) > 0 {
		return "", fmt.Errorf("%v", ds)
	}
	v, err := p.Eval(map[string]any{"schema": s, "args": map[string]any{"a": "x"}})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%d-byte schema: %v", len(b), v.Value()), nil
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: hostile CASE|list")
		os.Exit(2)
	}
	for _, c := range cases {
		if os.Args[1] == "list" {
			fmt.Println(c.name)
			continue
		}
		if c.name != os.Args[1] {
			continue
		}
		out, err := c.run()
		msg := fmt.Sprint(err)
		if len(msg) > 300 {
			msg = msg[:300] + fmt.Sprintf("… (%d bytes)", len(msg))
		}
		fmt.Printf("%s: %s; error: %s\n", c.name, out, msg)
		return
	}
	if os.Args[1] != "list" {
		fmt.Fprintf(os.Stderr, "no case %q\n", os.Args[1])
		os.Exit(2)
	}
}
