package ghaction

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// This file runs a composite action's steps the way a GitHub runner
// does, as far as action.yml needs: each run step is a bash script
// (bash --noprofile --norc -eo pipefail) with its own GITHUB_OUTPUT and
// GITHUB_STEP_SUMMARY files, its env and if evaluated as expressions; a
// step that uses another action is recorded with its inputs, not run.

// actionFile is the part of action.yml the runner reads.
type actionFile struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	ID    string            `yaml:"id"`
	Name  string            `yaml:"name"`
	If    string            `yaml:"if"`
	Uses  string            `yaml:"uses"`
	With  map[string]string `yaml:"with"`
	Shell string            `yaml:"shell"`
	Env   map[string]string `yaml:"env"`
	Run   string            `yaml:"run"`
}

// usedAction is a step that uses another action, with its evaluated
// inputs.
type usedAction struct {
	Uses string
	With map[string]string
}

// actionRun is one run of the action: its inputs, the GitHub context it
// sees and what it left.
type actionRun struct {
	t          *testing.T
	actionPath string
	workspace  string
	inputs     map[string]string
	github     map[string]string // github.* (action_path, action_ref, token)
	runner     map[string]string // runner.* (temp)
	env        []string          // the job's environment

	steps   map[string]map[string]string // steps.<id>.outputs
	failed  bool
	Used    []usedAction
	Summary string // every step's summary, in order, as the job page shows it
	Log     strings.Builder
	Outputs map[string]string
}

func loadAction(t *testing.T, path string) *actionFile {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var a actionFile
	if err := yaml.Unmarshal(b, &a); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if a.Runs.Using != "composite" {
		t.Fatalf("%s: runs.using is %q, the runner here knows composite only", path, a.Runs.Using)
	}
	return &a
}

// run runs the action's steps; it returns false when a step failed.
func (r *actionRun) run(a *actionFile) bool {
	r.steps = map[string]map[string]string{}
	for name, in := range a.Inputs {
		if _, ok := r.inputs[name]; !ok {
			r.inputs[name] = in.Default
		}
	}
	for i, s := range a.Runs.Steps {
		cond := strings.TrimSpace(s.If)
		if cond == "" {
			cond = "success()"
		}
		cond = strings.TrimSuffix(strings.TrimPrefix(cond, "${{"), "}}")
		// As on GitHub, a condition without a status function runs only
		// while every step before it succeeded.
		if !statusCall.MatchString(cond) {
			cond = "success() && (" + cond + ")"
		}
		if !truthy(r.eval(cond)) {
			fmt.Fprintf(&r.Log, "--- step %d %s%s: skipped\n", i, s.Name, s.Uses)
			continue
		}
		if s.Uses != "" {
			with := map[string]string{}
			for k, v := range s.With {
				with[k] = r.interpolate(v)
			}
			r.Used = append(r.Used, usedAction{Uses: s.Uses, With: with})
			fmt.Fprintf(&r.Log, "--- step %d %s: recorded, not run\n", i, s.Uses)
			continue
		}
		r.runStep(i, s)
	}
	r.Outputs = map[string]string{}
	for name, o := range a.Outputs {
		r.Outputs[name] = r.interpolate(o.Value)
	}
	return !r.failed
}

func (r *actionRun) runStep(i int, s actionStep) {
	t := r.t
	if s.Shell != "bash" {
		t.Fatalf("step %d: shell %q, the runner here knows bash only", i, s.Shell)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "step.sh")
	output := filepath.Join(dir, "output")
	summary := filepath.Join(dir, "summary")
	for _, f := range []string{output, summary} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(script, []byte(s.Run), 0o644); err != nil {
		t.Fatal(err)
	}
	env := append([]string(nil), r.env...)
	env = append(env, "GITHUB_OUTPUT="+output, "GITHUB_STEP_SUMMARY="+summary, "GITHUB_ACTION_PATH="+r.actionPath)
	for k, v := range s.Env {
		env = append(env, k+"="+r.interpolate(v))
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	cmd.Dir = r.workspace
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	fmt.Fprintf(&r.Log, "--- step %d %s (%s): %v\n%s", i, s.Name, s.ID, err, out)
	if err != nil {
		r.failed = true
	}
	if s.ID != "" {
		r.steps[s.ID] = readOutputs(t, output)
	}
	b, err := os.ReadFile(summary)
	if err != nil {
		t.Fatal(err)
	}
	r.Summary += string(b)
}

// readOutputs parses a GITHUB_OUTPUT file: NAME=VALUE lines and
// NAME<<DELIMITER blocks.
func readOutputs(t *testing.T, path string) map[string]string {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	outs := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if name, delim, ok := strings.Cut(line, "<<"); ok && !strings.Contains(name, "=") {
			var val []string
			for sc.Scan() && sc.Text() != delim {
				val = append(val, sc.Text())
			}
			outs[name] = strings.Join(val, "\n")
			continue
		}
		if name, val, ok := strings.Cut(line, "="); ok {
			outs[name] = val
		} else if line != "" {
			t.Fatalf("%s: line %q is neither NAME=VALUE nor NAME<<DELIMITER", path, line)
		}
	}
	return outs
}

var statusCall = regexp.MustCompile(`\b(always|success|failure|cancelled)\(`)

var template = regexp.MustCompile(`\$\{\{(.*?)\}\}`)

// interpolate replaces every ${{ expression }} in s with its value.
func (r *actionRun) interpolate(s string) string {
	return template.ReplaceAllStringFunc(s, func(m string) string {
		return str(r.eval(template.FindStringSubmatch(m)[1]))
	})
}

// eval evaluates the expressions action.yml uses: contexts (inputs.*,
// github.*, runner.*, steps.*.outputs.*), 'strings', ==, !=, &&, ||,
// !, parentheses, always(), success() and failure().
func (r *actionRun) eval(expr string) any {
	p := &exprParser{r: r, toks: tokenize(r.t, expr)}
	v := p.or()
	if p.pos != len(p.toks) {
		r.t.Fatalf("expression %q: unexpected %q", expr, p.toks[p.pos])
	}
	return v
}

func tokenize(t *testing.T, s string) []string {
	var toks []string
	for i := 0; i < len(s); {
		c := rune(s[i])
		switch {
		case unicode.IsSpace(c):
			i++
		case strings.HasPrefix(s[i:], "==") || strings.HasPrefix(s[i:], "!=") || strings.HasPrefix(s[i:], "&&") || strings.HasPrefix(s[i:], "||"):
			toks = append(toks, s[i:i+2])
			i += 2
		case c == '!' || c == '(' || c == ')':
			toks = append(toks, string(c))
			i++
		case c == '\'':
			j := i + 1
			var b strings.Builder
			for ; j < len(s); j++ {
				if s[j] == '\'' {
					if j+1 < len(s) && s[j+1] == '\'' {
						b.WriteByte('\'')
						j++
						continue
					}
					break
				}
				b.WriteByte(s[j])
			}
			if j >= len(s) {
				t.Fatalf("expression %q: unterminated string", s)
			}
			toks = append(toks, "'"+b.String())
			i = j + 1
		case unicode.IsLetter(c) || c == '_':
			j := i
			for j < len(s) && (unicode.IsLetter(rune(s[j])) || unicode.IsDigit(rune(s[j])) || strings.ContainsRune("_.-", rune(s[j]))) {
				j++
			}
			toks = append(toks, s[i:j])
			i = j
		default:
			t.Fatalf("expression %q: the runner here does not know %q", s, c)
		}
	}
	return toks
}

type exprParser struct {
	r    *actionRun
	toks []string
	pos  int
}

func (p *exprParser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *exprParser) or() any {
	v := p.and()
	for p.peek() == "||" {
		p.pos++
		w := p.and()
		if !truthy(v) {
			v = w
		}
	}
	return v
}

func (p *exprParser) and() any {
	v := p.cmp()
	for p.peek() == "&&" {
		p.pos++
		w := p.cmp()
		if truthy(v) {
			v = w
		}
	}
	return v
}

func (p *exprParser) cmp() any {
	v := p.unary()
	for op := p.peek(); op == "==" || op == "!="; op = p.peek() {
		p.pos++
		w := p.unary()
		// GitHub compares strings ignoring case.
		eq := strings.EqualFold(str(v), str(w))
		v = eq == (op == "==")
	}
	return v
}

func (p *exprParser) unary() any {
	switch tok := p.peek(); {
	case tok == "!":
		p.pos++
		return !truthy(p.unary())
	case tok == "(":
		p.pos++
		v := p.or()
		p.expect(")")
		return v
	case strings.HasPrefix(tok, "'"):
		p.pos++
		return tok[1:]
	case tok == "always" || tok == "success" || tok == "failure" || tok == "cancelled":
		p.pos++
		p.expect("(")
		p.expect(")")
		switch tok {
		case "always":
			return true
		case "success":
			return !p.r.failed
		case "cancelled":
			return false
		}
		return p.r.failed
	case tok == "true" || tok == "false":
		p.pos++
		return tok == "true"
	case tok != "":
		p.pos++
		return p.r.lookup(tok)
	}
	p.r.t.Fatalf("expression ends early: %q", p.toks)
	return nil
}

func (p *exprParser) expect(tok string) {
	if p.peek() != tok {
		p.r.t.Fatalf("expression %q: want %q at %d", p.toks, tok, p.pos)
	}
	p.pos++
}

// lookup reads a context value; a name the runner does not know fails the
// test, so that action.yml uses no context this runner ignores.
func (r *actionRun) lookup(name string) string {
	parts := strings.Split(name, ".")
	switch {
	case len(parts) == 2 && parts[0] == "inputs":
		v, ok := r.inputs[parts[1]]
		if !ok {
			r.t.Fatalf("%s: action.yml declares no such input", name)
		}
		return v
	case len(parts) == 2 && parts[0] == "github":
		v, ok := r.github[parts[1]]
		if !ok {
			r.t.Fatalf("%s: the runner here does not set it", name)
		}
		return v
	case len(parts) == 2 && parts[0] == "runner":
		v, ok := r.runner[parts[1]]
		if !ok {
			r.t.Fatalf("%s: the runner here does not set it", name)
		}
		return v
	case len(parts) == 4 && parts[0] == "steps" && parts[2] == "outputs":
		return r.steps[parts[1]][parts[3]]
	}
	r.t.Fatalf("%s: the runner here does not know this context", name)
	return ""
}

func truthy(v any) bool {
	switch v := v.(type) {
	case bool:
		return v
	case string:
		return v != ""
	}
	return v != nil
}

func str(v any) string {
	switch v := v.(type) {
	case bool:
		if v {
			return "true"
		}
		return "false"
	case string:
		return v
	}
	return ""
}
