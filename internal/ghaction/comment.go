package ghaction

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"unicode/utf8"
)

// DefaultAuthor is the login of the comments GITHUB_TOKEN writes.
const DefaultAuthor = "github-actions[bot]"

// Client keeps rubric's comment on a pull request up to date through
// GitHub's REST API.
type Client struct {
	API   string // $GITHUB_API_URL, such as https://api.github.com
	Token string // a token that may write the repository's issues
	Repo  string // $GITHUB_REPOSITORY, owner/name
	// Author is the login whose comment is updated (DefaultAuthor when
	// empty): a comment by anyone else that quotes the marker is left
	// alone.
	Author string
	HTTP   *http.Client // http.DefaultClient when nil
}

// Marker is the hidden first line that finds a comment again: one per
// key, so that two rubric steps of one workflow keep two comments.
func Marker(key string) string {
	return "<!-- rubric:comment " + markerKey(key) + " -->"
}

var (
	unsafeKey = regexp.MustCompile(`[^A-Za-z0-9._/:@+-]+`)
	dashes    = regexp.MustCompile(`-{2,}`)
)

// markerKey keeps what may stand inside an HTML comment on one line.
func markerKey(key string) string {
	k := dashes.ReplaceAllString(unsafeKey.ReplaceAllString(strings.TrimSpace(key), "-"), "-")
	if k == "" {
		k = "rubric"
	}
	return k
}

// Body is the comment's text: the marker, then body cut to what GitHub
// accepts (CommentLimit characters), saying so when it was cut.
func Body(key, body, rest string) string {
	text := Marker(key) + "\n" + body
	if utf8.RuneCountInString(text) <= CommentLimit {
		return text
	}
	// Cut counts bytes, which are never fewer than characters: cutting at
	// CommentLimit bytes keeps within the limit in characters too.
	out, _ := Cut([]byte(text), CommentLimit, rest)
	return string(out)
}

type comment struct {
	ID   int64  `json:"id"`
	Body string `json:"body"`
	User struct {
		Login string `json:"login"`
	} `json:"user"`
	HTMLURL string `json:"html_url"`
}

// Result says what Upsert did.
type Result struct {
	ID      int64
	URL     string
	Created bool // a new comment; false when an earlier one was updated
}

// Upsert writes body (see Body) as rubric's comment on pull request pr:
// it updates the comment by c.Author whose first line is key's marker,
// or posts a new one when there is none.
func (c *Client) Upsert(ctx context.Context, pr int, key, body string) (Result, error) {
	if c.Token == "" {
		return Result{}, fmt.Errorf("no token to write the comment with: give the step GITHUB_TOKEN (the action passes github.token) and the job permissions: pull-requests: write")
	}
	if c.Repo == "" || !strings.Contains(c.Repo, "/") {
		return Result{}, fmt.Errorf("GITHUB_REPOSITORY %q is not owner/name: run this inside a GitHub Actions step", c.Repo)
	}
	marker := Marker(key)
	existing, err := c.find(ctx, pr, marker)
	if err != nil {
		return Result{}, err
	}
	payload, err := json.Marshal(map[string]string{"body": body})
	if err != nil {
		return Result{}, err
	}
	var got comment
	if existing != 0 {
		err = c.do(ctx, http.MethodPatch, fmt.Sprintf("/repos/%s/issues/comments/%d", c.Repo, existing), payload, &got)
	} else {
		err = c.do(ctx, http.MethodPost, fmt.Sprintf("/repos/%s/issues/%d/comments", c.Repo, pr), payload, &got)
	}
	if err != nil {
		return Result{}, err
	}
	return Result{ID: got.ID, URL: got.HTMLURL, Created: existing == 0}, nil
}

// find returns the id of the comment that carries marker, or 0, reading
// every page of the pull request's comments.
func (c *Client) find(ctx context.Context, pr int, marker string) (int64, error) {
	author := c.Author
	if author == "" {
		author = DefaultAuthor
	}
	next := fmt.Sprintf("/repos/%s/issues/%d/comments?per_page=100", c.Repo, pr)
	// A pull request with more than 10,000 comments is not looked through
	// further; a new comment is posted instead.
	for page := 0; next != "" && page < 100; page++ {
		var cs []comment
		link, err := c.get(ctx, next, &cs)
		if err != nil {
			return 0, err
		}
		for _, cm := range cs {
			first, _, _ := strings.Cut(cm.Body, "\n")
			if strings.TrimSpace(first) == marker && cm.User.Login == author {
				return cm.ID, nil
			}
		}
		next = nextLink(link)
	}
	return 0, nil
}

var linkNext = regexp.MustCompile(`<([^>]+)>\s*;\s*rel="next"`)

// nextLink is the rel="next" address of a Link header, or "".
func nextLink(header string) string {
	if m := linkNext.FindStringSubmatch(header); m != nil {
		return m[1]
	}
	return ""
}

func (c *Client) get(ctx context.Context, path string, out any) (link string, err error) {
	resp, err := c.send(ctx, http.MethodGet, path, nil, out)
	if err != nil {
		return "", err
	}
	return resp.Header.Get("Link"), nil
}

func (c *Client) do(ctx context.Context, method, path string, body []byte, out any) error {
	_, err := c.send(ctx, method, path, body, out)
	return err
}

// send makes one API request; path is relative to c.API or, for the
// pages that a Link header names, absolute (it must then lie under
// c.API, so that the token goes nowhere else).
func (c *Client) send(ctx context.Context, method, path string, body []byte, out any) (*http.Response, error) {
	base := strings.TrimRight(c.API, "/")
	if base == "" {
		base = "https://api.github.com"
	}
	addr := base + path
	if strings.Contains(path, "://") {
		if !strings.HasPrefix(path, base+"/") {
			return nil, fmt.Errorf("the API sent a next page at %s, outside %s: not followed", path, base)
		}
		addr = path
	}
	if _, err := url.Parse(addr); err != nil {
		return nil, err
	}
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, addr, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	req.Header.Set("Accept", "application/vnd.github+json")
	req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	// Comments are at most 64 KiB; a page of 100 of them fits in 8 MiB.
	b, err := io.ReadAll(io.LimitReader(resp.Body, 8<<20))
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", method, addr, err)
	}
	if resp.StatusCode/100 != 2 {
		return nil, apiError(method, addr, resp.StatusCode, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			return nil, fmt.Errorf("%s %s: the answer is not the JSON expected: %w", method, addr, err)
		}
	}
	return resp, nil
}

// apiError says what a failed request means for the user.
func apiError(method, addr string, status int, body []byte) error {
	var msg struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(body, &msg)
	what := fmt.Sprintf("%s %s: %d %s", method, addr, status, http.StatusText(status))
	if msg.Message != "" {
		what += ": " + msg.Message
	}
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden, http.StatusNotFound:
		return fmt.Errorf("%s (give the job permissions: pull-requests: write; a pull request from a fork gets a read-only token and cannot be commented on from pull_request)", what)
	}
	return fmt.Errorf("%s", what)
}
