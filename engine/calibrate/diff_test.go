package calibrate

import (
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/surface"
)

func TestDiff(t *testing.T) {
	parse := func(doc string) *surface.Surface {
		s, err := surface.Parse("test", []byte(doc))
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	capture := parse(`{"tools": [
		{"name": "a", "description": "Read it.", "annotations": {"readOnlyHint": true}},
		{"name": "b", "description": "Same."},
		{"name": "gone", "description": "Only in the capture."}]}`)
	server := parse(`{"tools": [
		{"name": "a", "description": "Read it, all of it.", "annotations": {"readOnlyHint": true, "title": "Read"}},
		{"name": "b", "description": "Same."},
		{"name": "new", "description": "Only in the server."}]}`)
	d := Diff(capture, server, "srv")
	var got []string
	for _, td := range d.Tools {
		for _, line := range td.Differences {
			got = append(got, td.Tool+": "+line)
		}
	}
	want := []string{
		`a: annotations.title present in the server, absent in the capture`,
		`a: description differs: "Read it, all of it." in the server, "Read it." in the capture`,
		`gone: the tool is in the capture, absent in the server's tools/list`,
		`new: the tool is in the server's tools/list, absent in the capture`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if same := Diff(capture, capture, "srv"); len(same.Tools) != 0 {
		t.Errorf("a surface differs from itself: %+v", same.Tools)
	}
}
