package gate

import (
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
)

// A surface value that is only the score or a metric is the same value
// under another name; anything that computes is not, however it is
// spaced or parenthesised.
func TestIsAlias(t *testing.T) {
	env, err := lang.NewEnv(lang.Var{Name: "metrics", Type: lang.Object}, lang.Var{Name: "score", Type: lang.Dyn})
	if err != nil {
		t.Fatal(err)
	}
	for src, want := range map[string]bool{
		"score":                      true,
		" metrics.overall ":          true,
		"(metrics.overall)":          true,
		"metrics['overall']":         true,
		"metrics.overall.value":      false,
		"round(metrics.meanTdqs, 1)": false,
		"score + 0":                  false,
		"metrics":                    false,
		"'metrics.overall'":          false,
	} {
		p, diags := env.Compile(src, nil)
		if diags != nil {
			t.Fatalf("%s: %v", src, diags)
		}
		if got := isAlias(p); got != want {
			t.Errorf("isAlias(%q) = %v, want %v", src, got, want)
		}
	}
}
