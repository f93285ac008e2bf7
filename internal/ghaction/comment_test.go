package ghaction

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestUpsertPostsThenUpdates: the first push posts the comment, every
// later one edits that same comment, and the marker stays its first line.
func TestUpsertPostsThenUpdates(t *testing.T) {
	api := newFakeAPI(t, "tok")
	c := &Client{API: api.srv.URL, Token: "tok", Repo: "owner/repo"}
	ctx := context.Background()

	first, err := c.Upsert(ctx, 7, "gate-tdqs", Body("gate-tdqs", "## PASS\n", "see the job"))
	if err != nil {
		t.Fatal(err)
	}
	if !first.Created || first.URL == "" {
		t.Fatalf("first push: %+v, want a new comment", first)
	}
	second, err := c.Upsert(ctx, 7, "gate-tdqs", Body("gate-tdqs", "## BLOCK\n", "see the job"))
	if err != nil {
		t.Fatal(err)
	}
	if second.Created || second.ID != first.ID {
		t.Fatalf("second push: %+v, want comment %d updated", second, first.ID)
	}
	cs, calls := api.snapshot()
	if len(cs) != 1 || cs[0].Body != "<!-- rubric:comment gate-tdqs -->\n## BLOCK\n" {
		t.Fatalf("comments: %+v", cs)
	}
	want := []string{
		"GET /repos/owner/repo/issues/7/comments",
		"POST /repos/owner/repo/issues/7/comments",
		"GET /repos/owner/repo/issues/7/comments",
		"PATCH /repos/owner/repo/issues/comments/1001",
	}
	if strings.Join(calls, "\n") != strings.Join(want, "\n") {
		t.Errorf("calls:\n%s\nwant:\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
	}
}

// TestUpsertFinds: which earlier comment is updated.
func TestUpsertFinds(t *testing.T) {
	for _, c := range []struct {
		name    string
		setup   func(api *fakeAPI) int64 // returns the id to update, 0 for a new one
		perPage int
	}{
		{"on a later page", func(api *fakeAPI) int64 {
			for range 5 {
				api.add("someone", "lgtm")
			}
			return api.add(DefaultAuthor, Marker("k")+"\nold")
		}, 2},
		{"another key's comment is not it", func(api *fakeAPI) int64 {
			api.add(DefaultAuthor, Marker("other")+"\nold")
			return 0
		}, 100},
		{"a person quoting the marker is not it", func(api *fakeAPI) int64 {
			api.add("mallory", Marker("k")+"\nforged")
			return 0
		}, 100},
		{"the marker must be the first line", func(api *fakeAPI) int64 {
			api.add(DefaultAuthor, "quoted:\n"+Marker("k"))
			return 0
		}, 100},
	} {
		t.Run(c.name, func(t *testing.T) {
			api := newFakeAPI(t, "tok")
			api.perPage = c.perPage
			want := c.setup(api)
			cl := &Client{API: api.srv.URL, Token: "tok", Repo: "owner/repo"}
			res, err := cl.Upsert(context.Background(), 7, "k", Body("k", "new", ""))
			if err != nil {
				t.Fatal(err)
			}
			if want != 0 && (res.Created || res.ID != want) {
				t.Errorf("got %+v, want comment %d updated", res, want)
			}
			if want == 0 && !res.Created {
				t.Errorf("got %+v, want a new comment", res)
			}
		})
	}
}

// TestUpsertErrors: a failure says what to give the job.
func TestUpsertErrors(t *testing.T) {
	api := newFakeAPI(t, "tok")
	for _, c := range []struct {
		name   string
		client Client
		want   string
	}{
		{"no token", Client{API: api.srv.URL, Repo: "owner/repo"}, "no token to write the comment with"},
		{"bad token", Client{API: api.srv.URL, Token: "nope", Repo: "owner/repo"}, "401 Unauthorized: Bad credentials (give the job permissions: pull-requests: write"},
		{"no repository", Client{API: api.srv.URL, Token: "tok"}, `GITHUB_REPOSITORY "" is not owner/name`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.client.Upsert(context.Background(), 7, "k", "x")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

// TestNextLinkStaysOnTheAPI: a Link header that points elsewhere is not
// followed with the token.
func TestNextLinkStaysOnTheAPI(t *testing.T) {
	c := &Client{API: "http://127.0.0.1:1", Token: "tok", Repo: "owner/repo"}
	_, err := c.send(context.Background(), "GET", "http://evil.invalid/x", nil, nil)
	if err == nil || !strings.Contains(err.Error(), "outside http://127.0.0.1:1") {
		t.Errorf("error %v", err)
	}
}

// TestBodyCut: a comment stays within GitHub's limit in characters and
// says it was cut; a short one is the marker and the text.
func TestBodyCut(t *testing.T) {
	if got := Body("k", "short", "rest"); got != Marker("k")+"\nshort" {
		t.Errorf("short body: %q", got)
	}
	long := strings.Repeat("| tool | é |\n", 10000)
	got := Body("k", long, "the full report is in the job summary")
	if n := utf8.RuneCountInString(got); n > CommentLimit {
		t.Errorf("%d characters, over %d", n, CommentLimit)
	}
	if !strings.HasPrefix(got, Marker("k")+"\n") || !strings.Contains(got, "the full report is in the job summary") {
		t.Errorf("cut body lacks the marker or the note: %q...%q", got[:60], got[len(got)-200:])
	}
}

// TestMarkerKey: a key cannot end the HTML comment early.
func TestMarkerKey(t *testing.T) {
	for in, want := range map[string]string{
		"":              "<!-- rubric:comment rubric -->",
		"gate tdqs":     "<!-- rubric:comment gate-tdqs -->",
		"x --> <b>":     "<!-- rubric:comment x-b- -->",
		"srv/a:tdqs@v1": "<!-- rubric:comment srv/a:tdqs@v1 -->",
	} {
		if got := Marker(in); got != want {
			t.Errorf("Marker(%q) = %q, want %q", in, got, want)
		}
	}
}
