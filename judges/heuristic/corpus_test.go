package heuristic_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/surface"
	"github.com/rubricmcp/rubric/internal/heavytest"
	"github.com/rubricmcp/rubric/judges/heuristic"
)

// corpusGlob finds the real tools/list captures the score tests use.
var corpusGlob = filepath.Join("..", "..", "engine", "score", "testdata", "corpus", "*.tools.json")

// corpus reads every capture of the corpus.
func corpus(t testing.TB) map[string]*surface.Surface {
	t.Helper()
	files, err := filepath.Glob(corpusGlob)
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus captures at %s (%v)", corpusGlob, err)
	}
	out := map[string]*surface.Surface{}
	for _, f := range files {
		out[strings.TrimSuffix(filepath.Base(f), ".tools.json")] = readSurface(t, f)
	}
	return out
}

func names(m map[string]*surface.Surface) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// toolInput builds the tdqs.tool input the engine sends for tool i of s.
func toolInput(s *surface.Surface, i int) map[string]any {
	var siblings []string
	for j, t := range s.Tools {
		if j != i {
			siblings = append(siblings, t.Name)
		}
	}
	if siblings == nil {
		siblings = []string{}
	}
	return map[string]any{"tool": s.Tools[i].Def, "siblings": siblings}
}

func coherenceInput(server string, s *surface.Surface) map[string]any {
	var tools []map[string]any
	for _, t := range s.Tools {
		tools = append(tools, map[string]any{"name": t.Name, "description": t.Def["description"]})
	}
	return map[string]any{"server": server, "toolCount": len(tools), "tools": tools}
}

// TestCorpus asks about every tool of every real capture: each answer
// must satisfy its schema and come back byte for byte the same when asked
// again. With -v it logs each server's mean TDQS, its lowest tool and its
// coherence scores.
func TestCorpus(t *testing.T) {
	heavytest.Later(t)
	toolSchema, coherenceSchema := answerSchemas(t)
	var log strings.Builder
	flagged := 0
	all := corpus(t)
	for _, server := range names(all) {
		s := all[server]
		sum, lowest, lowName := 0, 100, ""
		for i := range s.Tools {
			in := toolInput(s, i)
			first, a := ask(t, heuristic.KindTool, in)
			again, _ := ask(t, heuristic.KindTool, in)
			if !bytes.Equal(first, again) {
				t.Errorf("%s/%s: two answers to one question differ:\n%s\n%s", server, s.Tools[i].Name, first, again)
			}
			validate(t, toolSchema, first, server+"/"+s.Tools[i].Name)
			v := tdqsTenths(a)
			sum += v
			if v < lowest {
				lowest, lowName = v, s.Tools[i].Name
			}
			if a.AnnotationContradiction {
				flagged++
				fmt.Fprintf(&log, "  contradiction flagged: %s/%s: %s\n", server, s.Tools[i].Name, a.Scores["behavioral_transparency"].Justification)
			}
		}
		in := coherenceInput(server, s)
		first, c := ask(t, heuristic.KindCoherence, in)
		again, _ := ask(t, heuristic.KindCoherence, in)
		if !bytes.Equal(first, again) {
			t.Errorf("%s: two coherence answers differ", server)
		}
		validate(t, coherenceSchema, first, server+" coherence")
		meanT := float64(sum) / float64(10*len(s.Tools))
		fmt.Fprintf(&log, "%-16s %3d tools  mean TDQS %.2f  lowest %s (%s)  coherence D%d N%d T%d C%d\n", server, len(s.Tools), meanT, tenths(lowest), lowName,
			c.score("disambiguation"), c.score("naming_consistency"), c.score("tool_count_appropriateness"), c.score("completeness"))
	}
	t.Log("\n" + log.String())
	// The published servers in the corpus are maintained; none of them
	// says the opposite of its annotations. A contradiction flag here is
	// almost certainly a false positive of the cues.
	if flagged > 0 {
		t.Errorf("%d corpus tools flagged as contradicting their annotations; see the log", flagged)
	}
}
