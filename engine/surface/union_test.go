package surface

import (
	"testing"
)

func TestUnion(t *testing.T) {
	a, err := Parse("a.json", []byte(`{"tools":[{"name":"search","description":"Search code"},{"name":"read"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := Parse("b.json", []byte(`{"tools":[{"name":"search","description":"Search the web"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	b.Warnings = []string{"skipped a line"}
	set := Union("cfg.json", []Member{{Name: "git", Surface: a}, {Name: "web", Surface: b}})
	var names []string
	for _, tl := range set.Tools {
		names = append(names, tl.Name)
	}
	if got := len(names); got != 3 || names[0] != "git/search" || names[1] != "git/read" || names[2] != "web/search" {
		t.Fatalf("names %v", names)
	}
	tl := set.Tools[2]
	if tl.Def[ServerKey] != "web" || tl.Def["name"] != "search" {
		t.Errorf("the set's definition %v does not keep its server and its own name", tl.Def)
	}
	if _, had := b.Tools[0].Def[ServerKey]; had {
		t.Error("Union changed the member's own definition")
	}
	if tl.Hash == b.Tools[0].Hash || tl.Hash != NewTool("search", tl.Def).Hash {
		t.Error("the set's tool hash is not the hash of its definition with the server")
	}
	if set.Format != FormatSet || set.Source != "cfg.json" || len(set.Warnings) != 1 || set.Warnings[0] != "web: skipped a line" {
		t.Errorf("set %+v", set)
	}
	servers := set.Server["servers"].([]any)
	if len(servers) != 2 || servers[1].(map[string]any)["tools"] != float64(1) {
		t.Errorf("servers %v", servers)
	}
	back, err := Parse("set.json", set.Marshal())
	if err != nil || back.Hash() != set.Hash() {
		t.Errorf("the set does not read back to the same hash: %v", err)
	}
}
