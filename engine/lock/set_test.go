package lock

import (
	"path/filepath"
	"testing"

	"github.com/rubricmcp/rubric/engine/surface"
)

// TestSetRoundTrip: a lock of several servers reads back, each server's
// lock diffs as a single-server lock does, and a single-server lock keeps
// no servers member.
func TestSetRoundTrip(t *testing.T) {
	a := surf(t, `[{"name":"x","description":"X."}]`)
	b := surf(t, `[{"name":"y","description":"Y."},{"name":"z"}]`)
	path := filepath.Join(t.TempDir(), "rubric.lock.json")
	if err := NewSet("cfg.json", []surface.Member{{Name: "a", Surface: a}, {Name: "b", Surface: b}}).Write(path); err != nil {
		t.Fatal(err)
	}
	got, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Config != "cfg.json" || len(got.Servers) != 2 || got.Hash != "" || got.Tools != nil {
		t.Fatalf("read back %+v", got)
	}
	sb, ok := got.Find("b")
	if !ok || sb.Hash != b.Hash() || len(sb.Tools) != 2 {
		t.Fatalf("server b: %+v", sb)
	}
	if _, ok := got.Find("c"); ok {
		t.Error("found a server that was never locked")
	}
	changes, err := Diff(sb.Lock(), surf(t, `[{"name":"y","description":"Y!"},{"name":"z"}]`))
	if err != nil || len(changes) != 1 || changes[0].Tool != "y" || changes[0].Kind != "changed" {
		t.Errorf("diff of server b: %+v %v", changes, err)
	}

	one := filepath.Join(t.TempDir(), "one.json")
	if err := New(a).Write(one); err != nil {
		t.Fatal(err)
	}
	single, err := Read(one)
	if err != nil || len(single.Servers) != 0 || single.Hash != a.Hash() {
		t.Errorf("single lock read back as %+v, %v", single, err)
	}
}
