package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/jackc/pgx/v5"
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

// envCondition reads the scripts' own conditions: [env:NAME], NAME is
// set (as RUBRIC_TEST_POSTGRES is when scripts/pg-test.sh starts a
// Postgres), and [testdeps:DIR] (testdepsCondition).
func envCondition(cond string) (bool, error) {
	if dir, ok := strings.CutPrefix(cond, "testdeps:"); ok {
		return testdepsCondition(dir)
	}
	name, ok := strings.CutPrefix(cond, "env:")
	if !ok {
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	return os.Getenv(name) != "", nil
}

// freshDBCmd is "freshdb VAR": it creates an empty database beside the
// one RUBRIC_TEST_POSTGRES names, sets VAR to its address and drops it
// when the script ends, so that a script's queue starts empty whatever
// an earlier run (of the script, or of a developer's) left in that
// server.
func freshDBCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: freshdb VAR")
	}
	base := ts.Getenv("RUBRIC_TEST_POSTGRES")
	if base == "" {
		ts.Fatalf("freshdb: RUBRIC_TEST_POSTGRES is not set (scripts/pg-test.sh starts a Postgres)")
	}
	u, err := url.Parse(base)
	ts.Check(err)
	var b [6]byte
	rand.Read(b[:])
	name := "script_" + hex.EncodeToString(b[:])
	ctx := context.Background()
	exec := func(sql string) error {
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			return fmt.Errorf("connecting to RUBRIC_TEST_POSTGRES: %w", err)
		}
		defer conn.Close(ctx)
		_, err = conn.Exec(ctx, sql)
		return err
	}
	ts.Check(exec("CREATE DATABASE " + name))
	ts.Defer(func() {
		if err := exec("DROP DATABASE " + name + " WITH (FORCE)"); err != nil {
			ts.Logf("dropping %s: %v", name, err)
		}
	})
	u.Path = "/" + name
	ts.Setenv(args[0], u.String())
}
