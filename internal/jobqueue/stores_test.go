package jobqueue

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/jackc/pgx/v5"
)

// The tests run on both stores. Postgres is the one RUBRIC_TEST_POSTGRES
// names (scripts/pg-test.sh starts one, as .ci/run does); each test gets
// a database of its own in it.

// testStore is one kind of database a test runs on.
type testStore struct {
	name string
	// dsn makes a new, empty queue database and names it.
	dsn func(t *testing.T) string
	// settle, where set, waits until the database has ended the sessions
	// of a process killed a moment ago. The kernel releases a dead
	// process's file locks as it dies, but a Postgres backend ends its
	// session (and drops its advisory locks) only when it reads the end
	// of its closed socket, which on a busy machine can come after the
	// next Queue opens.
	settle func(t *testing.T, dsn string)
}

func stores(t *testing.T) []testStore {
	t.Helper()
	out := []testStore{{name: "sqlite", dsn: sqliteDSN}}
	base := os.Getenv("RUBRIC_TEST_POSTGRES")
	if base == "" {
		if os.Getenv("RUBRIC_REQUIRE_SERVERS") != "" {
			t.Fatal("RUBRIC_TEST_POSTGRES is not set, and RUBRIC_REQUIRE_SERVERS asks for every test server: run .ci/run, or start one with `eval $(scripts/pg-test.sh)` and run the tests again")
		}
		t.Log("RUBRIC_TEST_POSTGRES is not set: testing on SQLite only (scripts/pg-test.sh starts a Postgres)")
		return out
	}
	return append(out, testStore{
		name:   "postgres",
		dsn:    func(t *testing.T) string { return freshPostgres(t, base) },
		settle: awaitLiveLockFree,
	})
}

// sqliteDSN names a new SQLite queue in the test's temporary directory.
func sqliteDSN(t *testing.T) string {
	return "sqlite:" + filepath.Join(t.TempDir(), "queue.db")
}

// freshPostgres creates an empty database beside the one base names and
// drops it when the test ends.
// awaitLiveLockFree blocks until no session of the database at dsn holds
// the lock every open Queue holds shared: it takes that lock exclusively,
// which Postgres grants only once the last holder's session has ended,
// and lets it go at once. It waits on Postgres, not on a timer.
func awaitLiveLockFree(t *testing.T, dsn string) {
	t.Helper()
	ctx := t.Context()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_lock($1)", liveKey); err != nil {
		t.Fatalf("waiting for the killed worker's session to end: %v", err)
	}
	if _, err := conn.Exec(ctx, "SELECT pg_advisory_unlock($1)", liveKey); err != nil {
		t.Fatal(err)
	}
}

func freshPostgres(t *testing.T, base string) string {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		t.Fatalf("connecting to RUBRIC_TEST_POSTGRES: %v (is the server up? scripts/pg-test.sh starts one)", err)
	}
	defer conn.Close(ctx)
	var b [6]byte
	rand.Read(b[:])
	name := "jq_" + hex.EncodeToString(b[:])
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			t.Errorf("dropping %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("dropping %s: %v", name, err)
		}
	})
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

func open(t *testing.T, dsn string) *Queue {
	t.Helper()
	q, err := Open(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { q.Close() })
	return q
}

// corpusJobs is n jobs, each naming one of the corpus captures in turn
// (engine/score/testdata/corpus), under keys unique to the job.
func corpusJobs(t *testing.T, n int) []Job {
	t.Helper()
	files, err := filepath.Glob("../../engine/score/testdata/corpus/*.tools.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus captures under engine/score/testdata/corpus: %v", err)
	}
	jobs := make([]Job, n)
	for i := range jobs {
		f := files[i%len(files)]
		jobs[i] = Job{Key: fmt.Sprintf("%s#%d", filepath.Base(f), i/len(files)), Payload: []byte(f)}
	}
	return jobs
}

// tally counts how often each key reached a handler, and with which
// attempt numbers.
type tally struct {
	mu       sync.Mutex
	attempts map[string][]int
}

func (c *tally) add(j Job) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.attempts == nil {
		c.attempts = map[string][]int{}
	}
	c.attempts[j.Key] = append(c.attempts[j.Key], j.Attempt)
}

func (c *tally) get(key string) []int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.attempts[key]
}

// readCapture is a handler's real work: read the capture the payload
// names.
func readCapture(j Job) error {
	b, err := os.ReadFile(string(j.Payload))
	if err != nil {
		return err
	}
	if len(b) == 0 || b[0] != '{' && b[0] != '[' {
		return fmt.Errorf("%s is not JSON", j.Payload)
	}
	return nil
}

// The worker process: the test binary re-executed with
// JOBQUEUE_TEST_WORKER set to a queue DSN. It works the queue with one
// worker, writing "ran KEY" on file descriptor 3 for each of the first
// JOBQUEUE_TEST_FINISH jobs it finishes, then "started KEY" for the next
// one, on which it hangs until it is killed.

func TestMain(m *testing.M) {
	if dsn := os.Getenv("JOBQUEUE_TEST_WORKER"); dsn != "" {
		os.Exit(workerMain(dsn))
	}
	os.Exit(m.Run())
}

func workerMain(dsn string) int {
	finish, _ := strconv.Atoi(os.Getenv("JOBQUEUE_TEST_FINISH"))
	report := os.NewFile(3, "report")
	ctx := context.Background()
	q, err := Open(ctx, dsn)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	// First the jobs it finishes, in a Work of their own: its end waits
	// for River to record them as done, which a kill could otherwise
	// outrun. A job handed over after the last is put back by the stop.
	if finish > 0 {
		phase, endPhase := context.WithCancel(ctx)
		var mu sync.Mutex
		done := 0
		err = q.Work(phase, Options{Workers: 1}, func(ctx context.Context, j Job) error {
			mu.Lock()
			defer mu.Unlock()
			if done == finish {
				return errors.New("past the jobs to finish")
			}
			done++
			fmt.Fprintf(report, "ran %s\n", j.Key)
			if done == finish {
				endPhase()
			}
			return readCapture(j)
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	err = q.Work(ctx, Options{Workers: 1}, func(ctx context.Context, j Job) error {
		fmt.Fprintf(report, "started %s\n", j.Key)
		select {} // hang, as a worker stuck on a server would, until killed
	})
	fmt.Fprintln(os.Stderr, "worker ended:", err)
	return 1
}

// worker is a running worker process.
type workerProc struct {
	cmd   *exec.Cmd
	lines *bufio.Scanner
}

func startWorker(t *testing.T, dsn string, finish int) *workerProc {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "JOBQUEUE_TEST_WORKER="+dsn, "JOBQUEUE_TEST_FINISH="+strconv.Itoa(finish))
	cmd.ExtraFiles = []*os.File{w}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		r.Close()
	})
	return &workerProc{cmd: cmd, lines: bufio.NewScanner(r)}
}

// waitStarted reads the worker's reports up to its "started" line and
// returns the keys it ran before and the key it hangs on.
func (p *workerProc) waitStarted(t *testing.T) (ran []string, hung string) {
	t.Helper()
	for p.lines.Scan() {
		word, key, _ := strings.Cut(p.lines.Text(), " ")
		switch word {
		case "ran":
			ran = append(ran, key)
		case "started":
			return ran, key
		}
	}
	t.Fatalf("the worker process ended before it started a job it hangs on: %v", p.lines.Err())
	return nil, ""
}

// kill9 kills the worker with SIGKILL, as the OOM killer or a lost machine
// would, and waits for it to be gone.
func (p *workerProc) kill9(t *testing.T) {
	t.Helper()
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	p.cmd.Wait()
}
