package jobqueue

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
)

// Advisory lock keys of a Postgres queue: setUpKey is held exclusively
// while one Queue sets up (River's migrator does not lock), liveKey is
// held shared by every open Queue for its lifetime.
const (
	setUpKey int64 = 0x72756272_69630001 // "rubric" and a number
	liveKey  int64 = 0x72756272_69630002
)

// pgLocks holds the advisory locks on one connection of its own: session
// locks end with the session, so Postgres drops them when a worker's
// connection dies with its process.
type pgLocks struct {
	conn *pgxpool.Conn
}

func lockPostgres(ctx context.Context, pool *pgxpool.Pool) (presence, error) {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("opening queue database: %w", err)
	}
	return &pgLocks{conn: conn}, nil
}

func (l *pgLocks) enter(ctx context.Context) (bool, error) {
	if _, err := l.conn.Exec(ctx, "SELECT pg_advisory_lock($1)", setUpKey); err != nil {
		return false, fmt.Errorf("locking the queue database: %w", err)
	}
	var alone bool
	if err := l.conn.QueryRow(ctx, "SELECT pg_try_advisory_lock($1)", liveKey).Scan(&alone); err != nil {
		return false, fmt.Errorf("locking the queue database: %w", err)
	}
	if _, err := l.conn.Exec(ctx, "SELECT pg_advisory_lock_shared($1)", liveKey); err != nil {
		return false, fmt.Errorf("locking the queue database: %w", err)
	}
	if alone {
		if _, err := l.conn.Exec(ctx, "SELECT pg_advisory_unlock($1)", liveKey); err != nil {
			return false, fmt.Errorf("locking the queue database: %w", err)
		}
	}
	return alone, nil
}

func (l *pgLocks) opened() {
	l.conn.Exec(context.Background(), "SELECT pg_advisory_unlock($1)", setUpKey)
}

func (l *pgLocks) close() {
	// Hijacking and closing the connection ends its session, and with it
	// the shared lock, without handing a locked connection back to the pool.
	c := l.conn.Hijack()
	c.Close(context.Background())
}
