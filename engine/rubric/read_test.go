package rubric

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/internal/boundedread"
)

// Neither a rubric nor a prompt file it reads with file() is read past
// the limit: /dev/zero is refused, not read into memory.
func TestLoadFileStopsAtTheLimit(t *testing.T) {
	_, err := LoadFileContext(context.Background(), "/dev/zero", 1<<16)
	if !errors.As(err, new(*boundedread.TooLargeError)) {
		t.Fatalf("rubric /dev/zero: err = %v, want a TooLargeError", err)
	}
	dir := t.TempDir()
	src := `rubric "x" {
  version = "1"
  question "q" {
    kind          = "k"
    per           = "tool"
    input         = "{}"
    system        = file("/dev/zero")
    user          = "u"
    answer_schema = "{}"
  }
  tool { score = "1" }
  surface { score = "2" }
  grades = { A = 0 }
}
`
	path := filepath.Join(dir, "r.hcl")
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = LoadFileContext(context.Background(), path, 1<<16)
	if err == nil || !strings.Contains(err.Error(), "/dev/zero is larger than 64KiB") {
		t.Fatalf("prompt file /dev/zero: err = %v, want it refused at the limit", err)
	}
}
