// Package store is the bookmark collection behind the two example MCP
// servers, tidy and sloppy: a few seeded bookmarks kept in memory, so that
// both servers describe the same small domain and their tools really work
// when called. Nothing is written to disk; every process starts from the
// same seed.
//
// A Store is safe for concurrent use.
package store

import (
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// Limits the servers advertise in their schemas and the store enforces.
const (
	MaxTitle    = 200  // characters in a title
	MaxNote     = 2000 // characters in a note
	MaxTags     = 10   // tags on one bookmark
	MaxTagLen   = 32   // characters in one tag
	MaxSearch   = 50   // largest page of search results
	DefaultPage = 10   // search results when no limit is given
)

// ErrNotFound is returned for an id that names no bookmark.
var ErrNotFound = errors.New("no bookmark with that id")

// ErrDuplicate is returned when a bookmark for the same URL already exists.
var ErrDuplicate = errors.New("a bookmark for that URL already exists")

// Bookmark is one saved link.
type Bookmark struct {
	ID      string    `json:"id"`      // "bm-" and a number, assigned by the store
	URL     string    `json:"url"`     // absolute http or https URL
	Title   string    `json:"title"`   // short human title
	Tags    []string  `json:"tags"`    // lower-case, sorted, no duplicates; never nil
	Note    string    `json:"note"`    // free text, may be empty
	Created time.Time `json:"created"` // when it was saved, UTC
}

// Patch lists the fields Update changes; a nil field is left as it is.
type Patch struct {
	URL   *string
	Title *string
	Tags  *[]string // replaces every tag
	Note  *string
}

// Store holds bookmarks in memory.
type Store struct {
	mu    sync.Mutex
	next  int
	items map[string]Bookmark
	now   func() time.Time
}

// New returns an empty store.
func New() *Store {
	return &Store{next: 1, items: map[string]Bookmark{}, now: func() time.Time { return time.Now().UTC() }}
}

// Seeded returns a store holding the same five bookmarks every time.
func Seeded() *Store {
	s := New()
	base := time.Date(2026, 1, 5, 9, 0, 0, 0, time.UTC)
	seed := []struct {
		url, title, note string
		tags             []string
	}{
		{"https://go.dev/doc/effective_go", "Effective Go", "Idioms worth rereading once a year.", []string{"go", "reference"}},
		{"https://modelcontextprotocol.io/specification", "Model Context Protocol specification", "Tools, resources and prompts over JSON-RPC.", []string{"mcp", "reference", "spec"}},
		{"https://json-schema.org/understanding-json-schema", "Understanding JSON Schema", "", []string{"json-schema", "reference"}},
		{"https://pkg.go.dev/net/http", "net/http package", "Server shutdown and timeouts.", []string{"go", "http"}},
		{"https://www.rfc-editor.org/rfc/rfc8259", "RFC 8259: JSON", "The JSON grammar, numbers included.", []string{"json", "spec"}},
	}
	for i, b := range seed {
		at := base.Add(time.Duration(i) * 24 * time.Hour)
		s.now = func() time.Time { return at }
		if _, err := s.Create(b.url, b.title, b.tags, b.note); err != nil {
			panic("store: bad seed: " + err.Error())
		}
	}
	s.now = func() time.Time { return time.Now().UTC() }
	return s
}

// Get returns the bookmark with the given id.
func (s *Store) Get(id string) (Bookmark, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.items[id]
	if !ok {
		return Bookmark{}, fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	return clone(b), nil
}

// Search returns up to limit bookmarks, newest first, whose title, URL or
// note contains query (ignoring case; an empty query matches all) and that
// carry every tag in tags, with the number of matches before the limit.
func (s *Store) Search(query string, tags []string, limit int) ([]Bookmark, int) {
	q := strings.ToLower(strings.TrimSpace(query))
	want := normTags(tags)
	var out []Bookmark
	for _, b := range s.sorted() {
		text := strings.ToLower(b.Title + "\n" + b.URL + "\n" + b.Note)
		if q != "" && !strings.Contains(text, q) {
			continue
		}
		if !hasAll(b.Tags, want) {
			continue
		}
		out = append(out, b)
	}
	total := len(out)
	if limit >= 0 && len(out) > limit {
		out = out[:limit]
	}
	return nonNil(out), total
}

// All returns every bookmark, newest first, or only those carrying tag
// when it is not empty.
func (s *Store) All(tag string) []Bookmark {
	var tags []string
	if tag != "" {
		tags = []string{tag}
	}
	out, _ := s.Search("", tags, -1)
	return out
}

// Create saves a new bookmark and returns it with its id.
func (s *Store) Create(rawURL, title string, tags []string, note string) (Bookmark, error) {
	u, err := checkURL(rawURL)
	if err != nil {
		return Bookmark{}, err
	}
	b := Bookmark{URL: u, Title: strings.TrimSpace(title), Tags: normTags(tags), Note: note}
	if err := check(b); err != nil {
		return Bookmark{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if other, ok := s.byURL(u); ok {
		return Bookmark{}, fmt.Errorf("%w: %s", ErrDuplicate, other.ID)
	}
	b.ID = fmt.Sprintf("bm-%d", s.next)
	b.Created = s.now()
	s.next++
	s.items[b.ID] = b
	return clone(b), nil
}

// Update changes the fields set in p and returns the bookmark as it now is.
func (s *Store) Update(id string, p Patch) (Bookmark, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.items[id]
	if !ok {
		return Bookmark{}, fmt.Errorf("%w: %q", ErrNotFound, id)
	}
	if p.URL != nil {
		u, err := checkURL(*p.URL)
		if err != nil {
			return Bookmark{}, err
		}
		if other, ok := s.byURL(u); ok && other.ID != id {
			return Bookmark{}, fmt.Errorf("%w: %s", ErrDuplicate, other.ID)
		}
		b.URL = u
	}
	if p.Title != nil {
		b.Title = strings.TrimSpace(*p.Title)
	}
	if p.Tags != nil {
		b.Tags = normTags(*p.Tags)
	}
	if p.Note != nil {
		b.Note = *p.Note
	}
	if err := check(b); err != nil {
		return Bookmark{}, err
	}
	s.items[id] = b
	return clone(b), nil
}

// AddTags adds tags to each bookmark in ids and returns them updated. It
// changes nothing unless every id exists and every result stays within
// MaxTags.
func (s *Store) AddTags(ids []string, tags []string) ([]Bookmark, error) {
	add := normTags(tags)
	s.mu.Lock()
	defer s.mu.Unlock()
	updated := make([]Bookmark, 0, len(ids))
	for _, id := range ids {
		b, ok := s.items[id]
		if !ok {
			return nil, fmt.Errorf("%w: %q", ErrNotFound, id)
		}
		b.Tags = normTags(append(slices.Clone(b.Tags), add...))
		if err := check(b); err != nil {
			return nil, fmt.Errorf("%s: %w", id, err)
		}
		updated = append(updated, b)
	}
	for _, b := range updated {
		s.items[b.ID] = b
	}
	for i := range updated {
		updated[i] = clone(updated[i])
	}
	return updated, nil
}

// Delete removes the bookmark with the given id and returns it; ok is
// false when there was none.
func (s *Store) Delete(id string) (Bookmark, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.items[id]
	if ok {
		delete(s.items, id)
	}
	return clone(b), ok
}

// Len returns the number of bookmarks.
func (s *Store) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.items)
}

func (s *Store) sorted() []Bookmark {
	s.mu.Lock()
	out := make([]Bookmark, 0, len(s.items))
	for _, b := range s.items {
		out = append(out, clone(b))
	}
	s.mu.Unlock()
	slices.SortFunc(out, func(a, b Bookmark) int {
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	return out
}

// byURL needs s.mu held.
func (s *Store) byURL(u string) (Bookmark, bool) {
	for _, b := range s.items {
		if b.URL == u {
			return b, true
		}
	}
	return Bookmark{}, false
}

func checkURL(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("url %q: want an absolute http or https URL", raw)
	}
	return u.String(), nil
}

func check(b Bookmark) error {
	switch {
	case b.Title == "":
		return errors.New("title: must not be empty")
	case len([]rune(b.Title)) > MaxTitle:
		return fmt.Errorf("title: longer than %d characters", MaxTitle)
	case len([]rune(b.Note)) > MaxNote:
		return fmt.Errorf("note: longer than %d characters", MaxNote)
	case len(b.Tags) > MaxTags:
		return fmt.Errorf("tags: more than %d", MaxTags)
	}
	for _, t := range b.Tags {
		if len([]rune(t)) > MaxTagLen {
			return fmt.Errorf("tag %q: longer than %d characters", t, MaxTagLen)
		}
	}
	return nil
}

// normTags lower-cases and trims tags, drops blanks and duplicates, and
// sorts them.
func normTags(tags []string) []string {
	out := make([]string, 0, len(tags))
	for _, t := range tags {
		t = strings.ToLower(strings.TrimSpace(t))
		if t != "" {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func hasAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}

func clone(b Bookmark) Bookmark {
	b.Tags = nonNil(slices.Clone(b.Tags))
	return b
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
