package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/rubricmcp/rubric/internal/buildtest"
)

// goRunCacheEnv names the directory where gorun keeps its builds; the
// scripts' Setup sets it to one directory per script.
const goRunCacheEnv = "RUBRIC_TEST_GORUN_CACHE"

// goRunMain is the command "gorun PKG [ARG...]", which transcripts
// start a Go server with in place of "go run PKG [ARG...]". It builds
// PKG once for each distinct content of its module's files, keeps the
// build under $RUBRIC_TEST_GORUN_CACHE and replaces itself with it. go
// run loads and hashes every package of the build each time it starts
// (about a quarter of a CPU-second for tidy), and before Go 1.24 linked
// afresh too: a gate transcript that starts the same revision's server
// twenty times spent minutes of a loaded machine so. gorun builds with
// go run itself, whose linked program Go's build cache keeps from one
// run of make test to the next, and has cp copy the program out in
// place of starting it (go build would link it again). A build that
// fails fails as go run's does: go's message, exit status 1.
func goRunMain() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gorun PKG [ARG...]")
		os.Exit(2)
	}
	cache := os.Getenv(goRunCacheEnv)
	if cache == "" {
		fmt.Fprintf(os.Stderr, "gorun: %s is not set (the scripts' Setup sets it)\n", goRunCacheEnv)
		os.Exit(2)
	}
	bin, err := goRunBuild(cache, os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	err = syscall.Exec(bin, append([]string{bin}, os.Args[2:]...), os.Environ())
	fmt.Fprintf(os.Stderr, "gorun: %v\n", err)
	os.Exit(1)
}

// goRunBuild returns the build of pkg, built from the working directory,
// under cache, building it first when no build of the same sources is
// there.
func goRunBuild(cache, pkg string) (string, error) {
	root, err := buildtest.ModuleRoot()
	if err != nil {
		return "", err
	}
	sum, err := sourceSum(root, pkg)
	if err != nil {
		return "", err
	}
	bin := filepath.Join(cache, sum)
	if _, err := os.Stat(bin); err == nil {
		return bin, nil
	}
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	// Two servers of one revision may start at once (the gate reads its
	// two sides concurrently): each builds to a name of its own and the
	// rename makes whichever finishes last the build kept.
	tmp, err := os.CreateTemp(cache, sum+".*")
	if err != nil {
		return "", err
	}
	tmp.Close()
	cmd := exec.Command("go", "run", "-exec", "cp", pkg, tmp.Name())
	cmd.Stdout = os.Stderr
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("gorun: go run %s: %v", pkg, err)
	}
	// cp kept the mode CreateTemp gave the file.
	if err := os.Chmod(tmp.Name(), 0o755); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return bin, os.Rename(tmp.Name(), bin)
}

// sourceSum hashes what a build of pkg from the working directory
// depends on inside its module: the working directory's place in the
// module, pkg, and the name and content of every Go file, go.mod and
// go.sum (the module's dependencies come from the module cache, which
// no script changes).
func sourceSum(root, pkg string) (string, error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	rel, err := filepath.Rel(root, wd)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00", rel, pkg)
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if name := d.Name(); !strings.HasSuffix(name, ".go") && name != "go.mod" && name != "go.sum" {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		name, _ := filepath.Rel(root, path)
		fmt.Fprintf(h, "%s\x00", name)
		_, err = io.Copy(h, f)
		h.Write([]byte{0})
		return err
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
