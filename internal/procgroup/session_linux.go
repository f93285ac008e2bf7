package procgroup

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
)

// KillMarked kills every process, other than the caller, whose initial
// environment holds mark (MarkEnv=value, as Mark returns it), and returns
// once none is left running, or after a bounded number of rounds: a
// process may fork while the others die. It returns how many processes
// it killed. Processes of other users, which it cannot read, are not
// looked at.
func KillMarked(mark string) int {
	want := []byte(mark)
	self := os.Getpid()
	// killed holds each process signalled once: one that has not yet
	// been torn down when the next round looks (a busy machine) is
	// signalled again, but counted once.
	killed := map[int]bool{}
	for round := 0; round < markRounds; round++ {
		pids := marked(want, self)
		if len(pids) == 0 {
			return len(killed)
		}
		for _, pid := range pids {
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				killed[pid] = true
			}
		}
		// A killed process keeps its environment until the kernel has
		// torn it down; give that a moment before the next look.
		time.Sleep(markPause)
	}
	return len(killed)
}

// How often KillMarked looks again, and how long it lets the killed die.
const (
	markRounds = 50
	markPause  = 5 * time.Millisecond
)

// marked lists the processes whose environment holds want.
func marked(want []byte, self int) []int {
	dir, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := dir.Readdirnames(-1)
	dir.Close()
	var pids []int
	for _, name := range names {
		pid, err := strconv.Atoi(name)
		if err != nil || pid == self {
			continue
		}
		env, err := os.ReadFile("/proc/" + name + "/environ")
		if err != nil || len(env) == 0 {
			continue // gone, a zombie, or not ours
		}
		for _, kv := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(kv, want) {
				pids = append(pids, pid)
				break
			}
		}
	}
	return pids
}
