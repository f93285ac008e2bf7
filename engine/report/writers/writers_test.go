package writers

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/report"
	"github.com/rubricmcp/rubric/engine/report/reporttest"
	"github.com/rubricmcp/rubric/engine/report/text"
)

func TestFind(t *testing.T) {
	tests := []struct {
		name, wantErr string
	}{
		{name: "text"}, {name: "json"}, {name: "markdown"}, {name: "sarif"},
		{name: "html", wantErr: `unknown --format "html": use text, json, markdown or sarif`},
		{name: "", wantErr: `unknown --format "": use text, json, markdown or sarif`},
	}
	for _, tt := range tests {
		w, err := Find(tt.name)
		switch {
		case tt.wantErr != "":
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("Find(%q): %v, want %q", tt.name, err, tt.wantErr)
			}
		case err != nil:
			t.Errorf("Find(%q): %v", tt.name, err)
		case w.Name != tt.name:
			t.Errorf("Find(%q) found %q", tt.name, w.Name)
		}
	}
}

// Every format writes the same report as its own package does, to a file
// as to a stream.
func TestWriteFileMatchesStream(t *testing.T) {
	rep := reporttest.Capture(t, "everything.tools.json")
	dir := t.TempDir()
	for _, w := range All {
		t.Run(w.Name, func(t *testing.T) {
			var want bytes.Buffer
			if err := w.Write(&want, rep, text.Options{}); err != nil {
				t.Fatal(err)
			}
			if want.Len() == 0 {
				t.Fatal("wrote nothing")
			}
			path := filepath.Join(dir, "out."+w.Name)
			if err := w.WriteFile(path, rep, text.Options{Color: true, Width: 20}); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want.Bytes()) {
				t.Errorf("the file differs from the stream (a file gets no colour and no width limit)")
			}
		})
	}
}

func TestJSONIsTheReport(t *testing.T) {
	rep := reporttest.Capture(t, "everything.tools.json")
	w, err := Find("json")
	if err != nil {
		t.Fatal(err)
	}
	var got, want bytes.Buffer
	if err := w.Write(&got, rep, text.Options{}); err != nil {
		t.Fatal(err)
	}
	if err := report.Write(&want, rep); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() || !strings.HasPrefix(got.String(), "{") {
		t.Errorf("the json writer does not write report.Write's JSON")
	}
}
