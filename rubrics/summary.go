package rubrics

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync"

	"github.com/rubricmcp/rubric/engine/lang"
	"github.com/rubricmcp/rubric/engine/rubric"
)

// Summary is what rubric rubrics list and rubric version show of a
// built-in rubric.
type Summary struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	Title   string `json:"title"`
	Digest  string `json:"digest"`
	// File and SHA256 are the embedded file the summary is of and the
	// sha256 of its text.
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
}

// summaryIndex is index.json: the built-in rubrics' summaries as the
// generator computed them, under the language Lang.
type summaryIndex struct {
	Lang    string    `json:"lang"`
	Rubrics []Summary `json:"rubrics"`
}

func summaryOf(b Builtin, src []byte, r *rubric.Rubric) Summary {
	return Summary{Name: r.Name, Version: r.Version, Title: r.Title, Digest: r.Digest, File: b.File, SHA256: textSHA256(src)}
}

func textSHA256(src []byte) string {
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:])
}

// generated is index.json read, by file; none when it does not decode
// or was made under another language version.
var generated = sync.OnceValue(func() map[string]Summary {
	var idx summaryIndex
	if err := json.Unmarshal(indexJSON, &idx); err != nil || idx.Lang != lang.Version {
		return nil
	}
	out := make(map[string]Summary, len(idx.Rubrics))
	for _, s := range idx.Rubrics {
		out[s.File] = s
	}
	return out
})

// Summaries are the built-in rubrics' summaries, by name. Each is read
// from the index made when rubric was built, without compiling the
// rubric, when the index holds one of the same text; any other is
// compiled.
func Summaries() ([]Summary, error) { return summariesFrom(generated()) }

// summariesFrom is Summaries with index as the index made when rubric
// was built.
func summariesFrom(index map[string]Summary) ([]Summary, error) {
	bs, err := List()
	if err != nil {
		return nil, err
	}
	out := make([]Summary, 0, len(bs))
	for _, b := range bs {
		src, err := files.ReadFile(b.File)
		if err != nil {
			return nil, err
		}
		if s, ok := index[b.File]; ok && s.SHA256 == textSHA256(src) {
			out = append(out, s)
			continue
		}
		r, err := builtin(b)
		if err != nil {
			return nil, err
		}
		out = append(out, summaryOf(b, src, r))
	}
	return out, nil
}
