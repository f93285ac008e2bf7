package report

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
)

// TestJudgeLabelsAreMembersOfTheJudgeBlock: a rubric's judge labels are
// written beside the identity and read back as labels.
func TestJudgeLabelsAreMembersOfTheJudgeBlock(t *testing.T) {
	j := Judge{Identity: judge.Identity{Plugin: "claude-cli", Version: "1", Model: "m", CLI: "claude", CLIVersion: "2.1.0"},
		Labels: map[string]string{"taskGeneratorVersion": "tasks-v1", "promptTemplateVersion": "selection-v1"}}
	b, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"plugin":"claude-cli","version":"1","model":"m","cli":"claude","cli_version":"2.1.0","promptTemplateVersion":"selection-v1","taskGeneratorVersion":"tasks-v1"}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	var back Judge
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, j) {
		t.Errorf("read back %+v, want %+v", back, j)
	}
	if b, _ := json.Marshal(Judge{Identity: judge.Identity{Plugin: "p", Version: "1"}}); string(b) != `{"plugin":"p","version":"1"}` {
		t.Errorf("without labels: %s", b)
	}
}

// TestJudgeMembersAreTheIdentitys: the names labels may not take are the
// JSON names of the identity and the plugin's sha256, no more, no less.
func TestJudgeMembersAreTheIdentitys(t *testing.T) {
	var want []string
	for _, f := range reflect.VisibleFields(reflect.TypeOf(judgeFields{})) {
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" && !f.Anonymous {
			want = append(want, name)
		}
	}
	got := append([]string(nil), judge.BlockMembers...)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("judge.BlockMembers = %v, want the judge block's members %v", got, want)
	}
}

// TestALabelCannotPassForTheModel: a label spelled like an identity
// member in another case stays a label when read back.
func TestALabelCannotPassForTheModel(t *testing.T) {
	var j Judge
	if err := json.Unmarshal([]byte(`{"plugin":"p","version":"1","model":"real","Model":"fake"}`), &j); err != nil {
		t.Fatal(err)
	}
	if j.Model != "real" || j.Labels["Model"] != "fake" {
		t.Errorf("model %q, labels %v", j.Model, j.Labels)
	}
}

// TestJudgeShort: the one-line name rankings and leaderboards give a
// judge configuration, with the model and the hash's first 12 digits
// only where there are some.
func TestJudgeShort(t *testing.T) {
	for _, tc := range []struct {
		j    *Judge
		want string
	}{
		{nil, "none"},
		{&Judge{Identity: judge.Identity{Plugin: "heuristic", Version: "1.4.0"}}, "heuristic 1.4.0"},
		{&Judge{Identity: judge.Identity{Plugin: "openai", Version: "1.0.0", Model: "gpt-4o-mini"}}, "openai 1.0.0 gpt-4o-mini"},
		{&Judge{Identity: judge.Identity{Plugin: "mine", Version: "2"}, SHA256: "0123456789abcdef0123"}, "mine 2 sha256:0123456789ab"},
		{&Judge{Identity: judge.Identity{Plugin: "mine", Version: "2"}, SHA256: "abc"}, "mine 2 sha256:abc"},
	} {
		if got := tc.j.Short(); got != tc.want {
			t.Errorf("Short() = %q, want %q", got, tc.want)
		}
	}
}
