package archtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/rubricmcp/rubric/"

// rules say which packages (by path prefix under the module) may not
// depend, directly or not, on which others.
var rules = []struct {
	from string
	not  []string
}{
	{from: "engine/", not: []string{"plugins/", "judges/", "cmd/"}},
	{from: "plugins/", not: []string{"judges/", "cmd/"}},
	{from: "judges/", not: []string{"cmd/"}},
}

// TestImportDirection runs go list -deps over the module and fails for
// every package that depends on one a rule forbids it.
func TestImportDirection(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command")
	}
	cmd := exec.Command("go", "list", "-deps=false", "-json=ImportPath,Deps", module+"...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(out))
	checked := 0
	for {
		var p struct {
			ImportPath string
			Deps       []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		rel, ok := strings.CutPrefix(p.ImportPath, module)
		if !ok {
			continue
		}
		for _, r := range rules {
			if !strings.HasPrefix(rel, r.from) {
				continue
			}
			checked++
			for _, d := range p.Deps {
				drel, ok := strings.CutPrefix(d, module)
				if !ok {
					continue
				}
				for _, bad := range r.not {
					if strings.HasPrefix(drel, bad) {
						t.Errorf("%s depends on %s: nothing under %s may import %s", rel, drel, r.from, bad)
					}
				}
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d packages checked: is go list reading the module?", checked)
	}
}
