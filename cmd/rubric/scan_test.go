package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/rubricmcp/rubric/engine/scan"
)

// cmpBoardCmd is "cmpboard A B": the leaderboards A and B are equal,
// byte for byte as rubric wrote them, once the members that depend on
// the clock (scan.TimeFields) are left out of both.
func cmpBoardCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: cmpboard A B")
	}
	strip := func(path string) []byte {
		data, err := os.ReadFile(ts.MkAbs(path))
		ts.Check(err)
		var lb map[string]any
		ts.Check(json.Unmarshal(data, &lb))
		for _, f := range scan.TimeFields {
			parent, key, _ := strings.Cut(f, ".")
			m, ok := lb[parent].(map[string]any)
			if !ok {
				ts.Fatalf("%s has no %s", path, parent)
			}
			if _, ok := m[key]; !ok {
				ts.Fatalf("%s has no %s", path, f)
			}
			delete(m, key)
		}
		out, err := json.MarshalIndent(lb, "", "  ")
		ts.Check(err)
		return out
	}
	a, b := strip(args[0]), strip(args[1])
	if eq := bytes.Equal(a, b); eq == neg {
		if neg {
			ts.Fatalf("%s and %s are equal", args[0], args[1])
		}
		ts.Fatalf("%s and %s differ:\n%s\n----\n%s", args[0], args[1], a, b)
	}
}

// envCondition is the scripts' condition [env:NAME]: NAME is set (as
// RUBRIC_TEST_POSTGRES is when scripts/pg-test.sh starts a Postgres).
func envCondition(cond string) (bool, error) {
	name, ok := strings.CutPrefix(cond, "env:")
	if !ok {
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	return os.Getenv(name) != "", nil
}
