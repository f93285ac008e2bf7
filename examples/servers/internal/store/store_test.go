package store

import (
	"errors"
	"strings"
	"testing"
)

func TestSeededSearchAndGet(t *testing.T) {
	s := Seeded()
	if s.Len() != 5 {
		t.Fatalf("seed holds %d bookmarks, want 5", s.Len())
	}
	got, total := s.Search("", []string{"Reference"}, 2)
	if total != 3 || len(got) != 2 {
		t.Fatalf("reference: %d of %d, want 2 of 3", len(got), total)
	}
	if got[0].ID != "bm-3" || got[1].ID != "bm-2" {
		t.Errorf("want newest first, got %s, %s", got[0].ID, got[1].ID)
	}
	if _, err := s.Get("bm-99"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get(bm-99): %v", err)
	}
	if got, _ := s.Search("JSON", nil, 10); len(got) != 3 {
		t.Errorf("query JSON matched %d, want 3", len(got))
	}
}

func TestCreateUpdateTagDelete(t *testing.T) {
	s := Seeded()
	b, err := s.Create("https://example.com/a", " A ", []string{"X", "x", " y "}, "")
	if err != nil {
		t.Fatal(err)
	}
	if b.ID != "bm-6" || b.Title != "A" || strings.Join(b.Tags, ",") != "x,y" {
		t.Errorf("created %+v", b)
	}
	if _, err := s.Create("https://example.com/a", "again", nil, ""); !errors.Is(err, ErrDuplicate) {
		t.Errorf("duplicate URL: %v", err)
	}
	if _, err := s.Create("ftp://example.com", "t", nil, ""); err == nil {
		t.Error("ftp URL accepted")
	}
	title := "B"
	if b, err = s.Update(b.ID, Patch{Title: &title}); err != nil || b.Title != "B" || len(b.Tags) != 2 {
		t.Errorf("update: %+v %v", b, err)
	}
	if _, err := s.AddTags([]string{"bm-1", "bm-404"}, []string{"z"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("AddTags with a missing id: %v", err)
	}
	if one, _ := s.Get("bm-1"); strings.Contains(strings.Join(one.Tags, ","), "z") {
		t.Error("a failed AddTags changed bm-1")
	}
	if _, err := s.AddTags([]string{"bm-1"}, []string{"z"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Delete(b.ID); !ok {
		t.Error("delete found nothing")
	}
	if _, ok := s.Delete(b.ID); ok {
		t.Error("second delete found something")
	}
}

func TestExport(t *testing.T) {
	s := Seeded()
	for _, f := range Formats {
		out, err := Export(s.All("spec"), f)
		if err != nil || !strings.Contains(out, "rfc8259") {
			t.Errorf("%s: %v\n%s", f, err, out)
		}
	}
	if _, err := Export(nil, "xml"); err == nil {
		t.Error("xml accepted")
	}
}
