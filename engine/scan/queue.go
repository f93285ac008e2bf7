package scan

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Queue is where a scan's jobs wait until a worker takes one: in
// process (Memory), or a database that workers on many machines share.
type Queue interface {
	// Add enqueues jobs by their key; a key the queue already holds is
	// not added again.
	Add(ctx context.Context, jobs []Job) error
	// Work runs handle on the queue's jobs with n workers until none is
	// left or ctx ends. A job whose handle returns an error is not done:
	// Work returns the error. timeout is the longest handle runs one job
	// by its own bound (0: no bound): a queue that takes back a job it
	// deems stuck must wait longer than that.
	Work(ctx context.Context, n int, timeout time.Duration, handle func(context.Context, Job) error) error
}

// Memory is a queue in the process: the plain loop of one machine. Its
// jobs last as long as it does; a scan resumed finds what is done in
// the scan's directory.
type Memory struct {
	mu   sync.Mutex
	jobs []Job
	keys map[string]bool
}

// Add enqueues jobs.
func (m *Memory) Add(_ context.Context, jobs []Job) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.keys == nil {
		m.keys = map[string]bool{}
	}
	for _, j := range jobs {
		if !m.keys[j.Key] {
			m.keys[j.Key] = true
			m.jobs = append(m.jobs, j)
		}
	}
	return nil
}

// Work runs the jobs in the order added, n at once; it takes back no
// job, so timeout is not its to keep.
func (m *Memory) Work(ctx context.Context, n int, _ time.Duration, handle func(context.Context, Job) error) error {
	m.mu.Lock()
	jobs := m.jobs
	m.jobs = nil
	m.mu.Unlock()
	next := make(chan Job)
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for range max(n, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range next {
				if err := handle(ctx, j); err != nil {
					once.Do(func() { first = err })
				}
			}
		}()
	}
feed:
	for _, j := range jobs {
		select {
		case next <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	return first
}

// Shard is the part i of n (1 ≤ i ≤ n) of a scan split without a queue.
type Shard struct{ I, N int }

// ParseShard reads "i/n".
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return Shard{}, fmt.Errorf("--shard %q: write i/n with 1 ≤ i ≤ n, as 3/20 (a Kubernetes Indexed Job's index is 0-based: add 1)", s)
	}
	return Shard{I: i, N: n}, nil
}

// Has says whether the job keyed key is in the shard: by a hash of the
// key, so that every shard, on any machine, picks the same jobs.
func (s Shard) Has(key string) bool {
	if s.N <= 1 {
		return true
	}
	sum := sha256.Sum256([]byte(key))
	return binary.BigEndian.Uint64(sum[:8])%uint64(s.N) == uint64(s.I-1)
}

// Pick is the jobs of the shard.
func (s Shard) Pick(jobs []Job) []Job {
	var out []Job
	for _, j := range jobs {
		if s.Has(j.Key) {
			out = append(out, j)
		}
	}
	return out
}
