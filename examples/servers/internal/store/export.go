package store

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Formats Export writes.
var Formats = []string{"json", "csv", "markdown"}

// Export writes bookmarks as a JSON array, as CSV with a header row
// (tags joined by ";"), or as a Markdown list of links.
func Export(bs []Bookmark, format string) (string, error) {
	switch format {
	case "json":
		out, err := json.MarshalIndent(nonNil(bs), "", "  ")
		return string(out), err
	case "csv":
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		_ = w.Write([]string{"id", "url", "title", "tags", "note", "created"})
		for _, b := range bs {
			_ = w.Write([]string{b.ID, b.URL, b.Title, strings.Join(b.Tags, ";"), b.Note, b.Created.Format(time.RFC3339)})
		}
		w.Flush()
		return buf.String(), w.Error()
	case "markdown":
		var sb strings.Builder
		for _, b := range bs {
			fmt.Fprintf(&sb, "- [%s](%s)", mdEscape(b.Title), b.URL)
			if len(b.Tags) > 0 {
				fmt.Fprintf(&sb, " `%s`", strings.Join(b.Tags, "` `"))
			}
			if b.Note != "" {
				fmt.Fprintf(&sb, ": %s", strings.ReplaceAll(b.Note, "\n", " "))
			}
			sb.WriteByte('\n')
		}
		return sb.String(), nil
	}
	return "", fmt.Errorf("format %q: want one of %s", format, strings.Join(Formats, ", "))
}

func mdEscape(s string) string {
	return strings.NewReplacer(`[`, `\[`, `]`, `\]`).Replace(s)
}
