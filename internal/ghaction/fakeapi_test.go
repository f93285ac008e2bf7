package ghaction

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"sync"
	"testing"
)

// fakeAPI is the part of GitHub's REST API that the comment uses: the
// comments of issue (pull request) 7 of owner/repo, served on 127.0.0.1,
// paged by perPage with Link headers as GitHub pages them.
type fakeAPI struct {
	t       *testing.T
	srv     *httptest.Server
	token   string
	perPage int

	mu       sync.Mutex
	comments []comment
	nextID   int64
	calls    []string // method and path of every request
}

func newFakeAPI(t *testing.T, token string) *fakeAPI {
	f := &fakeAPI{t: t, token: token, perPage: 100, nextID: 1000}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

// add puts a comment by login on the pull request, as someone else would.
func (f *fakeAPI) add(login, body string) int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextID++
	c := comment{ID: f.nextID, Body: body}
	c.User.Login = login
	f.comments = append(f.comments, c)
	return c.ID
}

func (f *fakeAPI) snapshot() ([]comment, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]comment(nil), f.comments...), append([]string(nil), f.calls...)
}

var (
	listPath  = regexp.MustCompile(`^/repos/owner/repo/issues/7/comments$`)
	patchPath = regexp.MustCompile(`^/repos/owner/repo/issues/comments/(\d+)$`)
)

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, r.Method+" "+r.URL.Path)
	if r.Header.Get("Authorization") != "Bearer "+f.token {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, `{"message":"Bad credentials"}`)
		return
	}
	if r.Header.Get("Accept") != "application/vnd.github+json" {
		f.t.Errorf("%s %s: Accept %q", r.Method, r.URL, r.Header.Get("Accept"))
	}
	var in struct {
		Body string `json:"body"`
	}
	if r.Method != http.MethodGet {
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
	}
	switch {
	case r.Method == http.MethodGet && listPath.MatchString(r.URL.Path):
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		page = max(page, 1)
		lo := min((page-1)*f.perPage, len(f.comments))
		hi := min(lo+f.perPage, len(f.comments))
		if hi < len(f.comments) {
			w.Header().Set("Link", fmt.Sprintf(`<%s%s?per_page=%d&page=%d>; rel="next", <%s%s?page=99>; rel="last"`, f.srv.URL, r.URL.Path, f.perPage, page+1, f.srv.URL, r.URL.Path))
		}
		json.NewEncoder(w).Encode(f.comments[lo:hi])
	case r.Method == http.MethodPost && listPath.MatchString(r.URL.Path):
		f.nextID++
		c := comment{ID: f.nextID, Body: in.Body, HTMLURL: fmt.Sprintf("https://github.invalid/owner/repo/pull/7#issuecomment-%d", f.nextID)}
		c.User.Login = DefaultAuthor
		f.comments = append(f.comments, c)
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(c)
	case r.Method == http.MethodPatch && patchPath.MatchString(r.URL.Path):
		id, _ := strconv.ParseInt(patchPath.FindStringSubmatch(r.URL.Path)[1], 10, 64)
		for i := range f.comments {
			if f.comments[i].ID == id {
				f.comments[i].Body = in.Body
				json.NewEncoder(w).Encode(f.comments[i])
				return
			}
		}
		w.WriteHeader(http.StatusNotFound)
	default:
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"message":"Not Found"}`)
	}
}
