package jobqueue

import (
	"context"
	"fmt"
	"time"
)

// rateTable holds, for each limiter key, the start of its next free slot
// in Unix nanoseconds. The SQL is the same on SQLite and Postgres.
const rateTable = "rubric_jobqueue_rate"

// createTables makes the tables this package keeps beside River's.
func (q *Queue) createTables(ctx context.Context) error {
	_, err := q.db.ExecContext(ctx, "CREATE TABLE IF NOT EXISTS "+rateTable+" (key TEXT PRIMARY KEY, next_ns BIGINT NOT NULL)")
	if err != nil {
		return fmt.Errorf("creating the rate-limit table: %w", err)
	}
	return nil
}

// clock is what the limiter knows of time.
type clock interface {
	Now() time.Time
	// Sleep waits for d or until ctx ends.
	Sleep(ctx context.Context, d time.Duration) error
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Limiter spaces out the calls of every worker on the queue's database,
// on any machine, that waits on the same key: at most perMinute calls
// start in any minute, evenly spaced, with no burst.
type Limiter struct {
	q        *Queue
	key      string
	interval time.Duration
}

// Limiter returns the rate limit named key (a judge's identity, for
// example "openai:gpt-5"), allowing perMinute calls a minute across all
// workers. perMinute 0 or less means no limit. The slots are kept in the
// database, so two Limiters with one key share them even in two
// processes; the clocks of the machines are taken to agree.
func (q *Queue) Limiter(key string, perMinute int) *Limiter {
	l := &Limiter{q: q, key: key}
	if perMinute > 0 {
		l.interval = time.Minute / time.Duration(perMinute)
	}
	return l
}

// Wait reserves the next free slot and waits for it. When ctx ends first
// it returns ctx's error and the slot goes unused.
func (l *Limiter) Wait(ctx context.Context) error {
	slot, err := l.reserve(ctx)
	if err != nil {
		return err
	}
	return l.q.clock.Sleep(ctx, slot.Sub(l.q.clock.Now()))
}

// reserve takes the next free slot of the key in one statement, so two
// workers can never take the same one.
func (l *Limiter) reserve(ctx context.Context) (time.Time, error) {
	now := l.q.clock.Now()
	if l.interval == 0 {
		return now, nil
	}
	step := int64(l.interval)
	query := "INSERT INTO " + rateTable + " (key, next_ns) VALUES ($1, $2) " +
		"ON CONFLICT (key) DO UPDATE SET next_ns = CASE WHEN " + rateTable + ".next_ns > $3 THEN " + rateTable + ".next_ns ELSE $3 END + $4 " +
		"RETURNING next_ns"
	var next int64
	if err := l.q.db.QueryRowContext(ctx, query, l.key, now.UnixNano()+step, now.UnixNano(), step).Scan(&next); err != nil {
		return time.Time{}, fmt.Errorf("rate limit %s: %w", l.key, err)
	}
	return time.Unix(0, next-step), nil
}
