package boundedread

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestNamed(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.json")
	read := func(path string) error {
		_, err := ReadFile(context.Background(), path, 1<<10)
		return err
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, make([]byte, 2<<10), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		err  error
		path string
		want string
	}{
		{"missing", read(missing), missing, "report " + missing + " does not exist: give a report"},
		{"a directory", read(dir), dir, "report " + dir + " is a directory, not a file: give a report"},
		{"too large keeps its words", read(big), big, big + " is larger than 1KiB; raise the limit with --max-file-size"},
		{"cancelled keeps its words", context.Canceled, missing, "context canceled"},
		{"another error", &fs.PathError{Op: "read", Path: missing, Err: errors.New("input/output error")}, missing, "cannot read report " + missing + ": input/output error"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := Named(c.err, "report", c.path, "give a report")
			if err.Error() != c.want {
				t.Errorf("got  %s\nwant %s", err, c.want)
			}
			if !errors.Is(err, c.err) {
				t.Errorf("%v does not wrap %v", err, c.err)
			}
		})
	}
}
