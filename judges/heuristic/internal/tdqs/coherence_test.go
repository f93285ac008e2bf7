package tdqs

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/judges/heuristic/internal/lex"
)

// corpusTools reads the name and description of every tool of the real
// captures the score tests use.
func corpusTools(t testing.TB) []CoherenceTool {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "..", "..", "engine", "score", "testdata", "corpus", "*.tools.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus captures found (%v): run the test from its package directory", err)
	}
	var out []CoherenceTool
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var capture struct {
			Tools []CoherenceTool `json:"tools"`
		}
		if err := json.Unmarshal(b, &capture); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, capture.Tools...)
	}
	return out
}

// randomSurface draws n tools from pool with replacement, so descriptions
// repeat, and changes some: a version word or a number added to the name,
// the verb swapped, the description dropped, cut or taken from another
// tool.
func randomSurface(r *rand.Rand, pool []CoherenceTool, n int) *CoherenceInput {
	verbs := []string{"get", "list", "create", "update", "delete", "set", "fetch", "remove", "add", "process"}
	in := &CoherenceInput{Server: "random", ToolCount: n}
	for range n {
		t := pool[r.IntN(len(pool))]
		name := t.Name
		switch r.IntN(8) {
		case 0:
			name += "_v2"
		case 1:
			name = fmt.Sprintf("%s_%d", name, r.IntN(4))
		case 2:
			name = verbs[r.IntN(len(verbs))] + "_" + name
		case 3:
			ws := lex.NameWords(name)
			if len(ws) > 1 {
				name = verbs[r.IntN(len(verbs))] + "_" + strings.Join(ws[1:], "_")
			}
		}
		desc := t.Description
		switch r.IntN(8) {
		case 0:
			desc = nil
		case 1:
			desc = pool[r.IntN(len(pool))].Description
		case 2:
			if desc != nil {
				ws := strings.Fields(*desc)
				cut := strings.Join(ws[:min(len(ws), 4+r.IntN(8))], " ")
				desc = &cut
			}
		}
		in.Tools = append(in.Tools, CoherenceTool{Name: name, Description: desc})
	}
	return in
}

// TestCoherenceAgreesWithPairwise: the grouped disambiguation and the
// lifecycle that names tools elsewhere only for the gaps it shows give,
// on random surfaces drawn from the corpus (with repeated tools, renamed
// tools and shared descriptions), exactly the answers of the code that
// compared every pair of tools: the same scores, texts and share.
func TestCoherenceAgreesWithPairwise(t *testing.T) {
	all := corpusTools(t)
	r := rand.New(rand.NewPCG(22, 3))
	for round := range 300 {
		pool := all
		if round%3 == 0 {
			// A few tools, many copies: many pairs and large cells.
			start := r.IntN(len(all) - 8)
			pool = all[start : start+1+r.IntN(8)]
		}
		n := r.IntN(200)
		if round%50 == 0 {
			n = 600 + r.IntN(600)
		}
		in := randomSurface(r, pool, n)
		tools, ns := prepare(in)
		gotD, gotShare := disambiguation(tools)
		wantD, wantShare := disambiguationPairwise(tools)
		if gotD != wantD || math.Float64bits(gotShare) != math.Float64bits(wantShare) {
			t.Fatalf("round %d, %d tools: disambiguation\n got %v share %v\nwant %v share %v", round, n, gotD, gotShare, wantD, wantShare)
		}
		if got, want := lifecycle(tools, ns), lifecyclePairwise(tools, ns); got != want {
			t.Fatalf("round %d, %d tools: completeness\n got %v\nwant %v", round, n, got, want)
		}
	}
}

// TestLookAlikesCountsPairsOfCopies: copies of one tool are counted as
// pairs of copies (k(k-1)/2), with every copy involved, and the first
// five pairs are in tool order.
func TestLookAlikesCountsPairsOfCopies(t *testing.T) {
	desc := "Reads the open issues of a repository with their labels and assignees."
	other := "Sends an email message to the given recipients with a subject line."
	in := &CoherenceInput{}
	for i := range 7 {
		in.Tools = append(in.Tools, CoherenceTool{Name: "read_issues", Description: &desc})
		if i%2 == 0 {
			in.Tools = append(in.Tools, CoherenceTool{Name: fmt.Sprintf("delete_message_%d", i), Description: &other})
		}
	}
	tools, _ := prepare(in)
	involved := make([]bool, len(tools))
	got := lookAlikes(tools, involved)
	// 7 copies of read_issues: 21 pairs; 4 delete_message tools with
	// one description whose names differ in a number, so that their
	// resources are apart: none.
	if got.count != 21 {
		t.Errorf("count = %d, want 21", got.count)
	}
	want := [][2]int{{0, 2}, {0, 3}, {0, 5}, {0, 6}, {0, 8}}
	if !slices.Equal(got.first, want) {
		t.Errorf("first pairs = %v, want %v", got.first, want)
	}
	for i, tl := range tools {
		if involved[i] != (tl.name == "read_issues") {
			t.Errorf("tool %d (%s) involved = %v", i, tl.name, involved[i])
		}
	}
	d, _ := disambiguationPairwise(tools)
	dd, _ := disambiguation(tools)
	if d != dd {
		t.Errorf("disambiguation %v, pairwise %v", dd, d)
	}
}

// disambiguationPairwise is the pairwise disambiguation this package
// answered with before it grouped tools: every pair compared. It is the
// reference disambiguation must agree with.
//
// It looks for tools a model could mistake for each other:
// vague names, variants of one name, and descriptions that share most of
// their words. It returns the dimension and the share of tools involved.
func disambiguationPairwise(tools []surfaceTool) (dimension, float64) {
	n := len(tools)
	if d, share, ok := disambiguationOfFew(tools); ok {
		return d, share
	}
	involved := map[int]bool{}
	var vague, pairs []string
	for i, t := range tools {
		if t.vague {
			vague = append(vague, t.name)
			involved[i] = true
		}
	}
	terms := make([]map[string]int, len(tools))
	for i, t := range tools {
		terms[i] = t.terms
	}
	vectors := lex.UnitVectors(terms, tfidfWeight)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			a, b := tools[i], tools[j]
			same := a.key != "" && a.key == b.key
			// Names with different verbs ("add_x", "delete_x"; but not
			// "get_x", "list_x", both reads) or different resources
			// ("create_group", "create_project") tell the tools apart
			// whatever their descriptions share.
			apart := a.verb != "" && b.verb != "" && a.verb != b.verb && (lex.LifecycleOf[a.verb] == "" || lex.LifecycleOf[a.verb] != lex.LifecycleOf[b.verb]) ||
				a.resource != "" && b.resource != "" && a.resource != b.resource
			if !same && !apart && len(a.terms) >= minConfusableWords && len(b.terms) >= minConfusableWords {
				same = lex.Cosine(vectors[i], vectors[j]) >= confusableCosine
			}
			if same {
				pairs = append(pairs, a.name+"/"+b.name)
				involved[i], involved[j] = true, true
			}
		}
	}
	return disambiguationOf(n, vague, cap5(pairs), len(pairs), len(involved))
}

// lifecyclePairwise is lifecycle as it was before it named the tools
// elsewhere only for the gaps it shows. It is the reference lifecycle must
// agree with.
//
// It scores completeness: for each resource the server creates or
// changes, how many of create, read, update and delete it offers. A
// server that only reads, or acts without a lifecycle (click, navigate),
// has none to complete.
func lifecyclePairwise(tools []surfaceTool, ns string) dimension {
	if len(tools) == 0 {
		return dim(3, "no tool names were given, so completeness cannot be judged.")
	}
	ops := map[string]map[string]bool{}
	perResource := map[string]int{}
	actions := 0
	res := lifecycleResources(tools, ns)
	classes := make([]string, len(tools))
	for i, t := range tools {
		classes[i] = t.class
	}
	headReads(tools, ns, classes, res)
	for i, t := range tools {
		if t.verb != "" && !lex.VagueVerbSet[t.verb] {
			actions++
		}
		if classes[i] == "" || res[i] == "" {
			continue
		}
		if ops[res[i]] == nil {
			ops[res[i]] = map[string]bool{}
		}
		ops[res[i]][classes[i]] = true
		perResource[res[i]]++
	}
	if 4*actions < len(tools) {
		return dim(2, "only %d of %d names carry a specific action verb, so the domain and its gaps cannot be told.", actions, len(tools))
	}
	var written, gaps []string
	total := 0.0
	inWritten := 0
	for _, r := range slices.Sorted(maps.Keys(ops)) {
		o := ops[r]
		if !o["create"] && !o["update"] && !o["delete"] {
			continue
		}
		inWritten += perResource[r]
		written = append(written, r)
		total += float64(len(o)) / 4
		var missing []string
		for _, c := range []string{"create", "read", "update", "delete"} {
			if !o[c] {
				missing = append(missing, c)
			}
		}
		if len(missing) > 0 {
			gap := fmt.Sprintf("no tool named for %s does %s", r, strings.Join(missing, "/"))
			gaps = append(gaps, gap+elsewhere(byClass(tools, classes, res, missing, r)))
		}
	}
	return completeness(len(tools), written, gaps, inWritten, total)
}
