package hugepages

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// childEnv makes the test binary the child of TestAdviseBacksLaterObjects.
const childEnv = "HUGEPAGES_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		os.Exit(child())
	}
	os.Exit(m.Run())
}

// child advises as rubric's main does, in a process of its own whose
// heap has not grown, then makes 16 MiB of small objects, touching
// each, and prints the advised size and the flags of the mapping that
// holds the last object and the process's resident size.
func child() int {
	n, why := Advise()
	keep := make([][]byte, 0, 4096)
	for range 4096 {
		b := make([]byte, 4096)
		b[0] = 1
		keep = append(keep, b)
	}
	last := uintptr(unsafe.Pointer(&keep[len(keep)-1][0]))
	flags, err := vmFlags(last)
	if err != nil {
		fmt.Println("error", err)
		return 1
	}
	fmt.Printf("advised %d %q\nflags %s\n", n, why, flags)
	return 0
}

// vmFlags reads the VmFlags of the mapping that holds addr.
func vmFlags(addr uintptr) (string, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return "", err
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		fields := strings.Fields(line)
		if len(fields) > 1 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			lo, hi, _ := strings.Cut(fields[0], "-")
			l, err1 := strconv.ParseUint(lo, 16, 64)
			h, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && uint64(addr) >= l && uint64(addr) < h
			continue
		}
		if in {
			if rest, ok := strings.CutPrefix(line, "VmFlags:"); ok {
				return strings.TrimSpace(rest), nil
			}
		}
	}
	return "", fmt.Errorf("no mapping holds %#x", addr)
}

// TestAdviseBacksLaterObjects checks the point of Advise: the objects
// made after it lie in a mapping advised for huge pages ("hg"). Without
// it (RUBRIC_HUGEPAGES=0) they do not.
func TestAdviseBacksLaterObjects(t *testing.T) {
	if race {
		t.Skip("under the race detector Advise declines")
	}
	b, _ := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if selected(string(b)) != "madvise" {
		t.Skipf("transparent huge pages are %q here, not left to each program", strings.TrimSpace(string(b)))
	}
	for _, tc := range []struct {
		env  string
		want bool
	}{{"", true}, {"0", false}} {
		if limited() {
			t.Skip("this process's address space or data is limited, so Advise declines")
		}
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"=1", Env+"="+tc.env)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s=%s: child: %v\n%s", Env, tc.env, err, out)
		}
		var flags string
		for line := range strings.Lines(string(out)) {
			if rest, ok := strings.CutPrefix(line, "flags "); ok {
				flags = strings.TrimSpace(rest)
			}
		}
		hg := strings.Contains(" "+flags+" ", " hg ")
		if hg != tc.want {
			t.Errorf("%s=%q: the mapping of the last object has flags %q, advised for huge pages: %v, want %v\n%s", Env, tc.env, flags, hg, tc.want, out)
		}
	}
}
