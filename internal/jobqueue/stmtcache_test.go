package jobqueue

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"modernc.org/sqlite"
)

// cacheDB opens a SQLite database through the statement cache, on one
// connection as the queue does, with a table t of the numbers 1 to 3.
func cacheDB(t *testing.T) (*sql.DB, *sql.Conn) {
	t.Helper()
	ctx := t.Context()
	c, err := sqlite.NewConnector("file:" + filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	db := sql.OpenDB(stmtCacheConnector{c})
	db.SetMaxOpenConns(1)
	t.Cleanup(func() { db.Close() })
	if _, err := db.ExecContext(ctx, "CREATE TABLE t (n INTEGER)"); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 3; n++ {
		if _, err := db.ExecContext(ctx, "INSERT INTO t VALUES (?)", n); err != nil {
			t.Fatal(err)
		}
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return db, conn
}

// kept is the texts of the statements the connection keeps.
func kept(t *testing.T, conn *sql.Conn) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	if err := conn.Raw(func(dc any) error {
		c := dc.(*cachingConn)
		c.mu.Lock()
		defer c.mu.Unlock()
		for q := range c.stmts {
			out[q] = true
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

func sum(t *testing.T, rows *sql.Rows) int {
	t.Helper()
	total := 0
	for rows.Next() {
		var n int
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		total += n
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if err := rows.Close(); err != nil {
		t.Fatal(err)
	}
	return total
}

// A query run again goes through the statement kept, with its new
// arguments, and gives what a fresh statement would.
func TestStmtCacheReuses(t *testing.T) {
	ctx := t.Context()
	_, conn := cacheDB(t)
	const q = "SELECT n FROM t WHERE n >= ?"
	before := len(kept(t, conn))
	for _, tc := range []struct{ from, want int }{{1, 6}, {2, 5}, {3, 3}, {4, 0}} {
		rows, err := conn.QueryContext(ctx, q, tc.from)
		if err != nil {
			t.Fatal(err)
		}
		if got := sum(t, rows); got != tc.want {
			t.Errorf("n >= %d: sum %d, want %d", tc.from, got, tc.want)
		}
	}
	if k := kept(t, conn); !k[q] || len(k) != before+1 {
		t.Errorf("kept %v, want one statement more than the %d before, the query's", k, before)
	}
}

// While rows of a statement are open, the same text runs on a statement
// of its own, and both read their rows whole.
func TestStmtCacheBusyStatement(t *testing.T) {
	ctx := t.Context()
	_, conn := cacheDB(t)
	const q = "SELECT n FROM t ORDER BY n"
	outer, err := conn.QueryContext(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if !outer.Next() {
		t.Fatal("no first row")
	}
	inner, err := conn.QueryContext(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if got := sum(t, inner); got != 6 {
		t.Errorf("the second query's sum is %d, want 6", got)
	}
	var first int
	if err := outer.Scan(&first); err != nil {
		t.Fatal(err)
	}
	if got := first + sum(t, outer); got != 6 {
		t.Errorf("the first query's sum is %d, want 6", got)
	}
}

// Past stmtCacheSize texts, the least recently used statement goes, and
// one evicted while its rows are open is closed with them.
func TestStmtCacheEvicts(t *testing.T) {
	ctx := t.Context()
	_, conn := cacheDB(t)
	const open = "SELECT n FROM t"
	rows, err := conn.QueryContext(ctx, open)
	if err != nil {
		t.Fatal(err)
	}
	for i := range stmtCacheSize + 5 {
		var got int
		if err := conn.QueryRowContext(ctx, fmt.Sprintf("SELECT %d + n FROM t WHERE n = 1", i)).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != i+1 {
			t.Fatalf("query %d gave %d, want %d", i, got, i+1)
		}
	}
	k := kept(t, conn)
	if len(k) != stmtCacheSize {
		t.Errorf("%d statements kept, want %d", len(k), stmtCacheSize)
	}
	if k[open] || k["SELECT 0 + n FROM t WHERE n = 1"] {
		t.Errorf("the least recently used statements are still kept")
	}
	if got := sum(t, rows); got != 6 {
		t.Errorf("the evicted statement's rows sum to %d, want 6", got)
	}
	// Run again, the evicted text is prepared anew and kept.
	again, err := conn.QueryContext(context.WithoutCancel(ctx), open)
	if err != nil {
		t.Fatal(err)
	}
	if got := sum(t, again); got != 6 {
		t.Errorf("run again, the sum is %d, want 6", got)
	}
	if !kept(t, conn)[open] {
		t.Errorf("the text run again is not kept")
	}
}
