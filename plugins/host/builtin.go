package host

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/rubricmcp/rubric/plugins/protocol"
)

// Builtins returns the built-in plugins as the host starts them: self (the
// rubric binary) with the serve arguments of each, judges first, each kind
// in order of name. A built-in whose companion binary lies beside self,
// executable, has its path as Companion, which the host tries first.
func Builtins(self string, list []protocol.Builtin) []Plugin {
	ps := make([]Plugin, 0, len(list))
	for _, b := range list {
		p := Plugin{
			Kind: b.Kind(), Name: b.Name, Path: self, From: FromBuiltin, Leaf: b.Leaf,
			Args: []string{protocol.ServeArg, b.Kind(), b.Name},
		}
		if b.Companion != "" {
			p.Companion = companionPath(self, b.Companion)
		}
		if b.Judge == nil {
			p.transport = b.Transport
		} else {
			p.judge = b.Judge
		}
		ps = append(ps, p)
	}
	slices.SortStableFunc(ps, func(a, b Plugin) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Name, b.Name))
	})
	return ps
}

// describeBuiltin returns a built-in plugin's version and, for a
// transport, the schemes it reads, in process: a built-in is this binary,
// so starting it to ask would only say what is compiled in here.
func describeBuiltin(ctx context.Context, list []protocol.Builtin, kind, name string) (string, []string, error) {
	for _, b := range list {
		if b.Kind() != kind || b.Name != name {
			continue
		}
		if b.Judge != nil {
			id, err := b.Judge().Describe(ctx)
			return id.Version, nil, err
		}
		info, err := b.Transport().Describe(ctx)
		return info.Version, info.Schemes, err
	}
	return "", nil, fmt.Errorf("no built-in %s plugin %q", kind, name)
}

// Self returns the path of the running rubric binary, to start built-ins
// from. When the binary was started under another name than the file it
// resolves to (a test binary standing in for rubric), the name it was
// started by is looked up instead, so the re-executed binary sees the same
// name.
func Self() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("cannot find the rubric binary to start built-in plugins: %w", err)
	}
	arg0 := os.Args[0]
	if filepath.Base(arg0) == filepath.Base(exe) {
		return exe, nil
	}
	if filepath.IsAbs(arg0) {
		return arg0, nil
	}
	if p, err := exec.LookPath(arg0); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs, nil
		}
	}
	return exe, nil
}

// companionPath is the path of the companion binary name beside self,
// or "" when there is no such executable file: on Windows, where file
// modes carry no execute bits, a regular file name.exe.
func companionPath(self, name string) string {
	if runtime.GOOS == "windows" {
		c := filepath.Join(filepath.Dir(self), name+".exe")
		if st, err := os.Stat(c); err == nil && st.Mode().IsRegular() {
			return c
		}
		return ""
	}
	if c := filepath.Join(filepath.Dir(self), name); isExecutable(c) {
		return c
	}
	return ""
}
