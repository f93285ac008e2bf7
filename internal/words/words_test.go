package words

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 tools"}, {1, "1 tool"}, {2, "2 tools"}, {-1, "-1 tools"}} {
		if got := Count(c.n, "tool"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}

func TestPick(t *testing.T) {
	if got := Pick(1, "is", "are"); got != "is" {
		t.Errorf("Pick(1) = %q", got)
	}
	if got := Pick(0, "is", "are"); got != "are" {
		t.Errorf("Pick(0) = %q", got)
	}
}

func TestList(t *testing.T) {
	for _, c := range []struct {
		items []string
		most  int
		want  string
	}{
		{nil, 2, ""},
		{[]string{"a"}, 2, "a"},
		{[]string{"a", "b"}, 2, "a, b"},
		{[]string{"a", "b", "c", "d"}, 2, "a, b and 2 more"},
	} {
		if got := List(c.items, c.most); got != c.want {
			t.Errorf("List(%q, %d) = %q, want %q", c.items, c.most, got, c.want)
		}
	}
}
