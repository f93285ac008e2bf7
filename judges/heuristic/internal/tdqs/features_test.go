package tdqs

import (
	"bufio"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// TestDumpFeatures reads the tuning records TestDumpTuning (in the
// heuristic package) wrote to the file RUBRIC_TUNING_DUMP names, and
// writes to RUBRIC_TUNING_FEATURES one JSON line per record: its fold,
// published scores and composite, and the robust features the cues
// compute for it (length, sentences, parameters, coverage, output
// schema, annotations, kinds of disclosure, return and usage cues, the
// dimension scores and completeness before its blend; since the fourth
// 1.6.0 candidate also the output schema's field count, parameters
// with a schema default, an "Args:" or "Parameters:" line and a title),
// for fitting a rule by cross-validation outside Go. It reads only what that file
// holds: since the second 1.5.0 fit, every file of published scores in
// calibration/dev (allTuning). Skipped unless both are set.
func TestDumpFeatures(t *testing.T) {
	in, out := os.Getenv("RUBRIC_TUNING_DUMP"), os.Getenv("RUBRIC_TUNING_FEATURES")
	if in == "" || out == "" {
		t.Skip("RUBRIC_TUNING_DUMP and RUBRIC_TUNING_FEATURES not set")
	}
	src, err := os.Open(in)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer dst.Close()
	enc := json.NewEncoder(dst)
	sc := bufio.NewScanner(src)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var rec struct {
			Label     string          `json:"label"`
			Fold      int             `json:"fold"`
			Published map[string]*int `json:"published"`
			TDQS      *float64        `json:"tdqs"`
			Input     ToolInput       `json:"input"`
		}
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatal(err)
		}
		f, err := readFacts(&rec.Input)
		if err != nil {
			t.Fatalf("%s: %v", rec.Label, err)
		}
		a := scoreTool(f)
		schema, _ := rec.Input.Tool["inputSchema"].(map[string]any)
		required, _ := schema["required"].([]any)
		maxSentence := 0
		for _, s := range f.sentenceTexts() {
			maxSentence = max(maxSentence, len(s.Words))
		}
		_, usesWhen := f.descFirstIn(usageWhenList)
		_, implied := f.descFirstIn(usageImpliedList)
		_, explains := f.explainsParams()
		undescMentioned := 0
		for _, p := range f.params {
			if !p.described && p.mentioned {
				undescMentioned++
			}
		}
		outFields := 0
		if out, ok := rec.Input.Tool["outputSchema"].(map[string]any); ok {
			props, _ := out["properties"].(map[string]any)
			outFields = len(props)
		}
		props, _ := schema["properties"].(map[string]any)
		defaults, enums := 0, 0
		for _, v := range props {
			p, _ := v.(map[string]any)
			if _, ok := p["default"]; ok {
				defaults++
			}
			if _, ok := p["enum"]; ok {
				enums++
			}
		}
		argsDump := false
		for _, line := range strings.Split(f.desc.Raw, "\n") {
			switch strings.ToLower(strings.TrimSpace(line)) {
			case "args:", "arguments:", "parameters:", "params:":
				argsDump = true
			}
		}
		title, _ := rec.Input.Tool["title"].(string)
		s := a.Scores
		if err := enc.Encode(map[string]any{
			"label": rec.Label, "fold": rec.Fold, "published": rec.Published, "tdqs": rec.TDQS,
			"words": f.nWords, "sentences": len(f.desc.Sentences), "max_sentence": maxSentence,
			"params": len(f.params), "required": len(required), "described": f.described,
			"mentioned": len(f.mentioned), "undescribed_mentioned": undescMentioned, "explains": explains, "nested": f.nested,
			"has_output": f.hasOutput, "annotated": f.annotated, "kinds": len(f.disclosed),
			"return_cue": hasCue(f.disclosed, "return format"), "effects_cue": hasCue(f.disclosed, "side effects"),
			"usage_when": usesWhen, "usage_implied": implied, "acts": f.acts(),
			"destructive_set": f.destructive != nil, "restated": f.restated, "placeholder": f.placeholder != "",
			"has_desc": f.hasDesc, "alternatives": len(f.alternatives),
			"purpose": s.PurposeClarity.Score, "usage": s.UsageGuidelines.Score,
			"transparency": s.BehavioralTransparency.Score, "parameters": s.ParameterSemantics.Score,
			"conciseness": s.ConcisenessStructure.Score, "completeness": s.ContextualCompleteness.Score,
			"contradiction": a.AnnotationContradiction,
			"out_fields":    outFields, "defaults": defaults, "enums": enums, "args_dump": argsDump, "titled": title != "",
		}); err != nil {
			t.Fatal(err)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
}

// TestWithoutExamples: only values in single quotes after a word for an
// example leave the text; apostrophes and quoted names stay.
func TestWithoutExamples(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Set a tag, e.g. 'urgent' or 'later'.", "Set a tag, e.g.   or  ."},
		{"Tag it with a label like 'overwrites'.", "Tag it with a label like  ."},
		{"Use 'write_pdf' to create PDF files.", "Use 'write_pdf' to create PDF files."},
		{"Search the library's docs, such as 'what's new'.", "Search the library's docs, such as  ."},
		{"Read the users' notes. Use 'head' for the first lines.", "Read the users' notes. Use 'head' for the first lines."},
		{"Pass a mode such as 'fast. Then read 'slow'.", "Pass a mode such as 'fast. Then read 'slow'."},
		{"Unlike 'grep', this reads files.", "Unlike 'grep', this reads files."},
	}
	for _, c := range cases {
		if got := withoutExamples(c.in); got != c.want {
			t.Errorf("withoutExamples(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
