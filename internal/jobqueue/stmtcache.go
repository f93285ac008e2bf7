package jobqueue

import (
	"context"
	"database/sql/driver"
	"errors"
	"reflect"
	"sync"
)

// stmtCacheSize is how many prepared statements a SQLite connection
// keeps. River asks a few kinds of query again and again (fetch the next
// job, record one done, count the queue); the rest run once.
const stmtCacheSize = 64

// sqliteConn is what database/sql needs of a SQLite connection to keep
// its context-aware paths (the modernc driver's connection has all of
// it; a wrapper that forwarded less would lose, for one, the end of a
// wait for the write lock when the context ends).
type sqliteConn interface {
	driver.Conn
	driver.ConnBeginTx
	driver.ConnPrepareContext
	driver.ExecerContext
	driver.QueryerContext
	driver.Pinger
	driver.SessionResetter
	driver.Validator
}

// sqliteStmt is a statement the connection prepared.
type sqliteStmt interface {
	driver.Stmt
	driver.StmtExecContext
	driver.StmtQueryContext
}

// stmtCacheConnector opens SQLite connections that keep their prepared
// statements. The modernc driver prepares a query's text again each
// time it is run, and River's SQL is long: parsing it was two fifths of
// the queue's CPU time a job (BenchmarkWork), the fetch of the next job
// most of it. A statement kept is only bound and stepped.
type stmtCacheConnector struct{ driver.Connector }

// Connect opens a connection that keeps its statements.
func (c stmtCacheConnector) Connect(ctx context.Context) (driver.Conn, error) {
	conn, err := c.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	sc, ok := conn.(sqliteConn)
	if !ok {
		conn.Close()
		return nil, errors.New("jobqueue: the SQLite driver's connection lacks the context-aware methods (this build's modernc.org/sqlite is not the one it was written for)")
	}
	return &cachingConn{sqliteConn: sc, stmts: map[string]*cachedStmt{}}, nil
}

// cachingConn runs a query through the statement prepared for its text
// the last time, when it has one and no rows of it are still open.
// database/sql uses a connection from one goroutine at a time; the lock
// guards against a Close that comes from elsewhere.
type cachingConn struct {
	sqliteConn
	mu    sync.Mutex
	stmts map[string]*cachedStmt
	tick  uint64 // counts uses, to find the least recently used
}

// cachedStmt is a prepared statement and whether it is in use.
type cachedStmt struct {
	stmt sqliteStmt
	// busy: rows of it are open, so it cannot run again until closed.
	busy bool
	// kept: it is in the cache (or, if not, closed once its rows are).
	kept bool
	used uint64
}

// take returns a statement for query, not busy: the kept one, or one
// prepared now, kept if there is room.
func (c *cachingConn) take(ctx context.Context, query string) (*cachedStmt, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tick++
	if s := c.stmts[query]; s != nil && !s.busy {
		s.used, s.busy = c.tick, true
		return s, nil
	}
	ds, err := c.sqliteConn.PrepareContext(ctx, query)
	if err != nil {
		return nil, err
	}
	st, ok := ds.(sqliteStmt)
	if !ok {
		ds.Close()
		return nil, errors.New("jobqueue: the SQLite driver's statement lacks the context-aware methods")
	}
	s := &cachedStmt{stmt: st, busy: true, used: c.tick}
	if c.stmts[query] == nil {
		if len(c.stmts) >= stmtCacheSize {
			c.evictLocked()
		}
		s.kept = true
		c.stmts[query] = s
	}
	return s, nil
}

// evictLocked drops the least recently used statement from the cache;
// one in use is closed when its rows are.
func (c *cachingConn) evictLocked() {
	var oldest string
	var at uint64
	for q, s := range c.stmts {
		if oldest == "" || s.used < at {
			oldest, at = q, s.used
		}
	}
	s := c.stmts[oldest]
	delete(c.stmts, oldest)
	s.kept = false
	if !s.busy {
		s.stmt.Close()
	}
}

// give ends a use of s.
func (c *cachingConn) give(s *cachedStmt) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	s.busy = false
	if !s.kept {
		return s.stmt.Close()
	}
	return nil
}

// QueryContext runs query through a kept statement; the statement is
// free again once the rows are closed.
func (c *cachingConn) QueryContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Rows, error) {
	s, err := c.take(ctx, query)
	if err != nil {
		return nil, err
	}
	rows, err := s.stmt.QueryContext(ctx, args)
	if err != nil {
		c.give(s)
		return nil, err
	}
	return &cachedRows{Rows: rows, done: func() error { return c.give(s) }}, nil
}

// ExecContext runs query through a kept statement.
func (c *cachingConn) ExecContext(ctx context.Context, query string, args []driver.NamedValue) (driver.Result, error) {
	s, err := c.take(ctx, query)
	if err != nil {
		return nil, err
	}
	res, err := s.stmt.ExecContext(ctx, args)
	if gerr := c.give(s); err == nil && gerr != nil {
		return nil, gerr
	}
	return res, err
}

// Close closes the kept statements, then the connection.
func (c *cachingConn) Close() error {
	c.mu.Lock()
	for q, s := range c.stmts {
		delete(c.stmts, q)
		s.kept = false
		if !s.busy {
			s.stmt.Close()
		}
	}
	c.mu.Unlock()
	return c.sqliteConn.Close()
}

// cachedRows frees its statement for the next query when closed.
type cachedRows struct {
	driver.Rows
	done func() error
}

// Close closes the rows (the driver resets the statement) and frees the
// statement.
func (r *cachedRows) Close() error {
	err := r.Rows.Close()
	if derr := r.done(); err == nil {
		err = derr
	}
	return err
}

// ColumnTypeScanType is the driver's, so that sql.Rows.ColumnTypes says
// what it would without the cache.
func (r *cachedRows) ColumnTypeScanType(index int) reflect.Type {
	if t, ok := r.Rows.(driver.RowsColumnTypeScanType); ok {
		return t.ColumnTypeScanType(index)
	}
	return reflect.TypeFor[any]()
}

// ColumnTypeDatabaseTypeName is the driver's.
func (r *cachedRows) ColumnTypeDatabaseTypeName(index int) string {
	if t, ok := r.Rows.(driver.RowsColumnTypeDatabaseTypeName); ok {
		return t.ColumnTypeDatabaseTypeName(index)
	}
	return ""
}
