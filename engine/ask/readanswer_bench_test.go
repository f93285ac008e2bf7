package ask

import (
	"testing"

	"github.com/rubricmcp/rubric/internal/cputime"
	"github.com/rubricmcp/rubric/rubrics"
)

// tdqsAnswer is an answer to TDQS's tool question as the heuristic judge
// writes it: compact, keys in its own order.
const tdqsAnswer = `{"scores":{"purpose_clarity":{"score":4,"justification":"Heuristic: opens with the verb \"retrieve\" on a named resource (\"Retrieve a user\"), but nothing sets it apart from sibling tools."},"usage_guidelines":{"score":2,"justification":"Heuristic: no cue says when to use the tool, when not to, or what to use instead."},"behavioral_transparency":{"score":3,"justification":"Heuristic: annotations are present; 8 words disclosing errors (\"error\")."},"parameter_semantics":{"score":2,"justification":"Heuristic: schema coverage is only 0%; the description names user_id but does not say what values it takes."},"conciseness_structure":{"score":4,"justification":"Heuristic: 8 words: short and to the point, but thin."},"contextual_completeness":{"score":3,"justification":"Heuristic: has behavioural detail; lacks: a description of the 1 parameter the schema leaves undescribed."}},"annotation_contradiction":false,"summary":"Heuristic: word and pattern cues, not a model, scored API-get-user_0: purpose 4, usage 2, behaviour 3, parameters 2, conciseness 4, completeness 3; weakest is usage."}`

// BenchmarkReadAnswer reads one TDQS tool answer as the asker reads every
// answer a judge gives: validated, compacted and made into the formulas'
// value.
//
//	go test ./engine/ask -run '^$' -bench ReadAnswer -benchmem
func BenchmarkReadAnswer(b *testing.B) {
	r, err := rubrics.Find("tdqs")
	if err != nil {
		b.Fatal(err)
	}
	q := r.Questions[0]
	text := []byte(tdqsAnswer)
	b.ReportAllocs()
	cpu, _ := cputime.Process()
	for b.Loop() {
		if _, _, err := readAnswer(q, text); err != nil {
			b.Fatal(err)
		}
	}
	// CPU time, less swayed than the wall clock by what else the machine
	// runs.
	end, _ := cputime.Process()
	b.ReportMetric(float64((end-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
}
