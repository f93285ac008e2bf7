package replay

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"go/doc/comment"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/judge"
)

// write puts text in a file named answers.jsonl and returns its path.
func write(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "answers.jsonl")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// configure configures a new judge with the file and the model.
func configure(t *testing.T, path, model string) (*Judge, judge.Identity, error) {
	t.Helper()
	j := New()
	id, err := j.Configure(context.Background(), judge.Config{Model: model, Options: map[string]string{OptionAnswers: path}})
	return j, id, err
}

const (
	lineForecast = `{"kind": "tdqs.tool", "subject": "get_forecast", "answer": {"score": 4}}`
	lineAlerts   = `{"kind": "tdqs.tool", "subject": "get_alerts", "answer": {"score": 2}}`
	lineThird    = `{"kind": "tdqs.tool", "subject": "get_radar", "answer": {"score": 3}}`
)

func TestConfigureErrors(t *testing.T) {
	cases := []struct {
		name string
		file string
		want string // %s stands for the file's path
	}{
		{
			name: "not JSON",
			file: lineForecast + "\n" + `{"kind": "tdqs.tool", subject: "x"}`,
			want: `%s:2: not JSON: invalid character 's' looking for beginning of object key string at column 23`,
		},
		{
			name: "cut short",
			file: `{"kind": "tdqs.tool", "subject": "x", "answer": {"score": 4}`,
			want: `%s:1: not JSON: unexpected end of JSON input at column 60`,
		},
		{
			name: "two objects on a line",
			file: lineForecast + " " + lineAlerts,
			want: `%s:1: not JSON: invalid character '{' after top-level value at column 74`,
		},
		{
			name: "an array",
			file: `[` + lineForecast + `]`,
			want: `%s:1: not a JSON object: each line is one object with kind, subject and answer`,
		},
		{
			name: "a string",
			file: `"get_forecast"`,
			want: `%s:1: not a JSON object: each line is one object with kind, subject and answer`,
		},
		{
			name: "kind not a string",
			file: `{"kind": 3, "subject": "x", "answer": {}}`,
			want: `%s:1: "kind" must be a string, not a JSON number`,
		},
		{
			name: "model not a string",
			file: `{"kind": "k", "subject": "x", "answer": {}, "model": ["a"]}`,
			want: `%s:1: "model" must be a string, not a JSON array`,
		},
		{
			name: "missing kind",
			file: `{"subject": "x", "answer": {}}`,
			want: `%s:1: missing "kind": name the question's kind, such as "tdqs.tool"`,
		},
		{
			name: "empty kind",
			file: `{"kind": "", "subject": "x", "answer": {}}`,
			want: `%s:1: missing "kind": name the question's kind, such as "tdqs.tool"`,
		},
		{
			name: "missing subject",
			file: `{"kind": "tdqs.tool", "answer": {}}`,
			want: `%s:1: missing "subject": name the tool, or "surface" for a question about the whole surface`,
		},
		{
			name: "missing answer",
			file: `{"kind": "tdqs.tool", "subject": "x"}`,
			want: `%s:1: missing "answer"`,
		},
		{
			name: "null answer",
			file: `{"kind": "tdqs.tool", "subject": "x", "answer": null}`,
			want: `%s:1: "answer" is null: record the answer itself, a JSON value`,
		},
		{
			name: "answer quoted",
			file: `{"kind": "tdqs.tool", "subject": "x", "answer": "{\"score\": 4}"}`,
			want: `%s:1: "answer" is a string holding JSON: write the JSON value itself, without the quotes`,
		},
		{
			name: "the same kind and subject twice",
			file: "# header\n" + lineForecast + "\n" + lineAlerts + "\n\n" + strings.Replace(lineForecast, "4", "5", 1),
			want: `%s:5: a second answer for kind "tdqs.tool", subject "get_forecast" (the first is on line 2)`,
		},
		{
			name: "line numbers count comments, blank lines and CRLF",
			file: "# one\r\n\r\n   # three, indented\r\n" + lineForecast + "\r\n{\r\n",
			want: `%s:5: not JSON: unexpected end of JSON input at column 2`,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := write(t, c.file)
			_, _, err := configure(t, path, "")
			want := strings.ReplaceAll(c.want, "%s", path)
			if err == nil || err.Error() != want {
				t.Fatalf("error:\n got %v\nwant %s", err, want)
			}
		})
	}
}

func TestConfigureOptionErrors(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope.jsonl")
	cases := []struct {
		name string
		opts map[string]string
		want string
	}{
		{"no options", nil, "the replay judge needs an answers file: pass --answers FILE"},
		{"empty answers", map[string]string{"answers": ""}, "the replay judge needs an answers file: pass --answers FILE"},
		{"misspelt option", map[string]string{"answer": "a.jsonl"}, `the replay judge has no option "answer" (did you mean "answers"?); its options are answers, answers_name, max_file_size`},
		{"no such file", map[string]string{"answers": missing}, "answers file " + missing + " does not exist: give a file of recorded answers, as --record FILE writes one"},
		{"endless file", map[string]string{"answers": "/dev/zero"}, "/dev/zero is larger than 64MiB; raise the limit with --max-file-size"},
		{"endless file, raised limit", map[string]string{"answers": "/dev/zero", "max_file_size": "65536"}, "/dev/zero is larger than 64KiB; raise the limit with --max-file-size"},
		{"bad limit", map[string]string{"answers": "/dev/zero", "max_file_size": "-1"}, `the replay judge's option max_file_size must be a number of bytes above 0, not "-1": give it with --judge-option max_file_size=BYTES (or in --judge replay:max_file_size=BYTES)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := New().Configure(context.Background(), judge.Config{Options: c.opts})
			if err == nil || err.Error() != c.want {
				t.Fatalf("error:\n got %v\nwant %s", err, c.want)
			}
		})
	}
}

// TestModel pins the model a replay answers as: whatever the lines name,
// a file replays (each answer satisfies the pin on the identity's model,
// as the engine's asker checks it), unless the run pins a model some
// lines do not name, which is refused before anything is asked.
func TestModel(t *testing.T) {
	const none = "(none)" // an answer that reports no model
	withModel := func(line, model string) string {
		return strings.TrimSuffix(line, "}") + `, "model": "` + model + `"}`
	}
	cases := []struct {
		name     string
		file     string
		model    string // configured
		want     string // the identity's model
		models   string // the identity's models parameter, for a mixed file
		forecast string // the model get_forecast's answer reports (none: "")
		alerts   string // the model get_alerts's answer reports (none: "")
		err      string // what Configure says instead
	}{
		{name: "the configured model, named by every line", file: withModel(lineForecast, "m") + "\n" + withModel(lineAlerts, "m"), model: "m", want: "m", forecast: "m", alerts: "m"},
		{name: "the configured model, answered by snapshots", file: withModel(lineForecast, "m-2025-01-31") + "\n" + withModel(lineAlerts, "m-20250301"), model: "m", want: "m", forecast: "m-2025-01-31", alerts: "m-20250301"},
		{name: "every line names the same model", file: withModel(lineForecast, "a") + "\n" + withModel(lineAlerts, "a"), want: "a", forecast: "a", alerts: "a"},
		{name: "lines name snapshots of one model", file: withModel(lineForecast, "gpt-4o-2024-08-06") + "\n" + withModel(lineAlerts, "gpt-4o-2024-11-20"), want: "gpt-4o", forecast: "gpt-4o-2024-08-06", alerts: "gpt-4o-2024-11-20"},
		{name: "a model and its snapshot", file: withModel(lineForecast, "gpt-4o") + "\n" + withModel(lineAlerts, "gpt-4o-2024-11-20"), want: "gpt-4o", forecast: "gpt-4o", alerts: "gpt-4o-2024-11-20"},
		{name: "lines name different models", file: withModel(lineForecast, "a") + "\n" + withModel(lineAlerts, "b"), want: "", models: "a (1 answer), b (1 answer)", forecast: "a", alerts: "b"},
		{name: "one line names none", file: lineForecast + "\n" + withModel(lineAlerts, "a"), want: "", models: "a (1 answer), none (1 answer)", forecast: none, alerts: "a"},
		{name: "no line names one", file: lineForecast + "\n" + lineAlerts, want: "replay", forecast: "replay", alerts: "replay"},
		{name: "no line names one, model configured", file: lineForecast + "\n" + lineAlerts, model: "m", want: "m", forecast: "m", alerts: "m"},
		{name: "an empty file", file: "# nothing yet\n", want: "replay"},
		{name: "the configured model, named by no line", file: withModel(lineForecast, "a") + "\n" + withModel(lineAlerts, "b") + "\n" + withModel(lineThird, "b"), model: "m",
			err: `%s: the run pins model "m" (--model, or a config file's model), but all 3 of its answers name another model: "a" (1 answer, line 1), "b" (2 answers, lines 2, 3); a replayed answer keeps the model it was recorded from: leave --model out to replay each answer as recorded (each answer then reports the model its line names, and the run pins none), or give the file answers from model "m"`},
		{name: "the configured model, named by some lines", file: withModel(lineForecast, "m") + "\n" + withModel(lineAlerts, "b"), model: "m",
			err: `%s: the run pins model "m" (--model, or a config file's model), but 1 of its 2 answers names another model: "b" (1 answer, line 2); a replayed answer keeps the model it was recorded from: leave --model out to replay each answer as recorded (each answer then reports the model its line names, and the run pins none), or give the file answers from model "m"`},
		{name: "the configured model, some lines naming none and one it", file: lineForecast + "\n" + withModel(lineAlerts, "b") + "\n" + withModel(lineThird, "m"), model: "m",
			err: `%s: the run pins model "m" (--model, or a config file's model), but 1 of its 2 answers naming a model names another model: "b" (1 answer, line 2); a replayed answer keeps the model it was recorded from: leave --model out to replay each answer as recorded (each answer then reports the model its line names, and the run pins none), or give the file answers from model "m"`},
		{name: "the configured model, some lines naming none", file: lineForecast + "\n" + withModel(lineAlerts, "b"), model: "m",
			err: `%s: the run pins model "m" (--model, or a config file's model), but its only answer naming a model names another model: "b" (1 answer, line 2); a replayed answer keeps the model it was recorded from: leave --model out to replay each answer as recorded (each answer then reports the model its line names, and the run pins none), or give the file answers from model "m"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := write(t, c.file)
			j, id, err := configure(t, path, c.model)
			if c.err != "" {
				if want := fmt.Sprintf(c.err, path); err == nil || err.Error() != want {
					t.Fatalf("Configure = %v,\nwant %s", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if id.Model != c.want {
				t.Errorf("identity model = %q, want %q", id.Model, c.want)
			}
			if got, _ := id.Params[judge.ParamModels].(string); got != c.models {
				t.Errorf("identity's models = %q, want %q", got, c.models)
			}
			for subject, want := range map[string]string{"get_forecast": c.forecast, "get_alerts": c.alerts} {
				switch want {
				case "":
					continue
				case none:
					want = ""
				}
				a, err := j.Ask(context.Background(), judge.Question{Kind: "tdqs.tool", Subject: subject})
				if err != nil {
					t.Fatal(err)
				}
				if a.Model != want {
					t.Errorf("%s: answer model = %q, want %q", subject, a.Model, want)
				}
				// The engine refuses an answer its pin does not accept.
				pin := c.model
				if pin == "" {
					pin = id.Model
				}
				if !judge.SameModel(pin, a.Model) {
					t.Errorf("%s: answer model %q does not satisfy the pin on %q", subject, a.Model, pin)
				}
			}
		})
	}
}

func TestIdentity(t *testing.T) {
	text := lineForecast + "\n"
	path := write(t, text)
	_, id, err := configure(t, path, "")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(text))
	want := judge.Identity{
		Plugin: "replay", Version: "1.0.0", Provider: "replay", Model: "replay",
		Params: map[string]any{"answers_sha256": hex.EncodeToString(sum[:])},
	}
	if !reflect.DeepEqual(id, want) {
		t.Fatalf("identity:\n got %+v\nwant %+v", id, want)
	}

	// A comment changes no answer, but it changes the file: another identity.
	if err := os.WriteFile(path, []byte("# edited\n"+text), 0o644); err != nil {
		t.Fatal(err)
	}
	_, edited, err := configure(t, path, "")
	if err != nil {
		t.Fatal(err)
	}
	if edited.Params["answers_sha256"] == id.Params["answers_sha256"] {
		t.Fatal("an edited file kept its answers_sha256")
	}

	described, err := New().Describe(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := (judge.Identity{Plugin: "replay", Version: "1.0.0", Provider: "replay"}); !reflect.DeepEqual(described, want) {
		t.Fatalf("Describe = %+v, want %+v", described, want)
	}
}

// TestReplayExample replays the hand-written example the README shows.
func TestReplayExample(t *testing.T) {
	path := filepath.Join("testdata", "weather.jsonl")
	j, id, err := configure(t, path, "")
	if err != nil {
		t.Fatal(err)
	}
	if id.Model != "claude-opus-5-5" {
		t.Errorf("identity model = %q, want claude-opus-5-5", id.Model)
	}
	cases := []struct {
		kind, subject string
		want          string
	}{
		{"tdqs.tool", "get_forecast", `{"purpose_clarity": {"score": 4, "justification": "Says it returns a daily forecast for a place."}, "usage_guidelines": {"score": 3, "justification": "No word on when to prefer get_alerts."}}`},
		{"tdqs.tool", "get_alerts", `{"purpose_clarity": {"score": 2, "justification": "\"Alerts\" is not said to mean severe-weather warnings."}, "usage_guidelines": {"score": 1, "justification": "Nothing."}}`},
		{"tdqs.coherence", "surface", `{"coherence": {"score": 3, "justification": "Consistent names; overlapping scopes."}}`},
	}
	for _, c := range cases {
		t.Run(c.kind+"/"+c.subject, func(t *testing.T) {
			a, err := j.Ask(context.Background(), judge.Question{Kind: c.kind, Subject: c.subject, System: "ignored", User: "ignored"})
			if err != nil {
				t.Fatal(err)
			}
			want := judge.Answer{JSON: []byte(c.want), Model: "claude-opus-5-5"}
			if !reflect.DeepEqual(a, want) {
				t.Fatalf("answer:\n got %s %+v\nwant %s %+v", a.JSON, a, want.JSON, want)
			}
		})
	}
}

// TestAskErrors: a question the file does not answer names its kind and
// subject, which subjects of that kind the file answers (so that a file
// written for another server shows as one), and how to supply the answer.
func TestAskErrors(t *testing.T) {
	path := filepath.Join("testdata", "weather.jsonl")
	j, _, err := configure(t, path, "")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name          string
		kind, subject string
		want          string
	}{
		{"unknown tool", "tdqs.tool", "get_user", `no recorded answer for kind "tdqs.tool", subject "get_user" in testdata/weather.jsonl, which answers that kind for get_alerts, get_forecast: add a line for it ({"kind": "tdqs.tool", "subject": "get_user", "answer": ...}), or write the file afresh with --record FILE and the judge whose answers it should hold (the default, heuristic, answers the built-in rubrics without a model)`},
		{"known tool, other kind", "gradable.tool", "get_alerts", `no recorded answer for kind "gradable.tool", subject "get_alerts" in testdata/weather.jsonl, which answers no question of that kind: add a line for it ({"kind": "gradable.tool", "subject": "get_alerts", "answer": ...}), or write the file afresh with --record FILE and the judge whose answers it should hold (the default, heuristic, answers the built-in rubrics without a model)`},
		{"surface asked per tool", "tdqs.tool", "surface", `no recorded answer for kind "tdqs.tool", subject "surface" in testdata/weather.jsonl, which answers that kind for get_alerts, get_forecast: add a line for it ({"kind": "tdqs.tool", "subject": "surface", "answer": ...}), or write the file afresh with --record FILE and the judge whose answers it should hold (the default, heuristic, answers the built-in rubrics without a model)`},
		{"subjects are case-sensitive", "tdqs.tool", "GET_ALERTS", `no recorded answer for kind "tdqs.tool", subject "GET_ALERTS" in testdata/weather.jsonl, which answers that kind for get_alerts, get_forecast: add a line for it ({"kind": "tdqs.tool", "subject": "GET_ALERTS", "answer": ...}), or write the file afresh with --record FILE and the judge whose answers it should hold (the default, heuristic, answers the built-in rubrics without a model)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := j.Ask(context.Background(), judge.Question{Kind: c.kind, Subject: c.subject})
			if err == nil || err.Error() != c.want {
				t.Fatalf("error:\n got %v\nwant %s", err, c.want)
			}
		})
	}

	_, err = New().Ask(context.Background(), judge.Question{Kind: "tdqs.tool", Subject: "get_alerts"})
	if want := "the replay judge was asked a question before it was configured"; err == nil || err.Error() != want {
		t.Fatalf("unconfigured: error %v, want %s", err, want)
	}

	// Past five subjects, the rest are counted.
	var lines strings.Builder
	for _, tool := range []string{"g", "f", "e", "d", "c", "b", "a"} {
		fmt.Fprintf(&lines, `{"kind": "tdqs.tool", "subject": %q, "answer": {}}`+"\n", tool)
	}
	many := filepath.Join(t.TempDir(), "many.jsonl")
	if err := os.WriteFile(many, []byte(lines.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	j, _, err = configure(t, many, "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = j.Ask(context.Background(), judge.Question{Kind: "tdqs.tool", Subject: "h"})
	if want := "which answers that kind for a, b, c, d, e and 2 more: "; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want it to say %q", err, want)
	}
}

// TestAnswersName: a file read from a copy is named in messages as the
// answers_name option says (rubric gate's REV:path), and its identity is
// the same as when it is not.
func TestAnswersName(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "answers.jsonl")
	bad := filepath.Join(dir, "bad.jsonl")
	if err := os.WriteFile(good, []byte(lineForecast+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("{\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, path, want string
	}{
		{"no recorded answer", good, `no recorded answer for kind "tdqs.tool", subject "get_user" in HEAD~1:answers.jsonl`},
		{"unreadable line", bad, `HEAD~1:answers.jsonl:1: not JSON`},
		{"missing file", filepath.Join(dir, "none.jsonl"), `HEAD~1:answers.jsonl`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			j := New()
			_, err := j.Configure(context.Background(), judge.Config{Options: map[string]string{OptionAnswers: c.path, OptionAnswersName: "HEAD~1:answers.jsonl"}})
			if err == nil {
				_, err = j.Ask(context.Background(), judge.Question{Kind: "tdqs.tool", Subject: "get_user"})
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), dir) {
				t.Fatalf("error %v: want it to name %s, not %s", err, c.want, dir)
			}
		})
	}
	named, err := New().Configure(context.Background(), judge.Config{Options: map[string]string{OptionAnswers: good, OptionAnswersName: "HEAD~1:answers.jsonl"}})
	if err != nil {
		t.Fatal(err)
	}
	_, plain, err := configure(t, good, "")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(named, plain) {
		t.Fatalf("identity with a name %+v, without %+v: the name must not move it", named, plain)
	}
}

// TestAnswerIsACopy: a caller that changes an answer does not change what
// the next caller is given.
func TestAnswerIsACopy(t *testing.T) {
	j, _, err := configure(t, write(t, lineForecast), "")
	if err != nil {
		t.Fatal(err)
	}
	q := judge.Question{Kind: "tdqs.tool", Subject: "get_forecast"}
	a, err := j.Ask(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	copy(a.JSON, "XXXX")
	b, err := j.Ask(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if string(b.JSON) != `{"score": 4}` {
		t.Fatalf("second answer = %s", b.JSON)
	}
}

// TestREADMEShowsTheExample keeps the README's example file the one the
// tests replay.
func TestREADMEShowsTheExample(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile(filepath.Join("testdata", "weather.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(readme), "```jsonl\n")
	if !ok {
		t.Fatal("README.md has no ```jsonl block")
	}
	block, _, _ = strings.Cut(block, "```")
	if block != string(example) {
		t.Fatalf("README.md's example differs from testdata/weather.jsonl:\n%s", block)
	}
}

// TestDocShowsTheExample keeps the package comment's example file the one
// the tests replay (and the README shows), so that the shape it shows is
// the shape the judge reads.
func TestDocShowsTheExample(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "replay.go", nil, parser.ParseComments|parser.PackageClauseOnly)
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile(filepath.Join("testdata", "weather.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var p comment.Parser
	for _, block := range p.Parse(f.Doc.Text()).Content {
		if code, ok := block.(*comment.Code); ok {
			if code.Text != string(example) {
				t.Fatalf("the package comment's example differs from testdata/weather.jsonl:\n%s", code.Text)
			}
			return
		}
	}
	t.Fatal("the package comment shows no example file")
}

// TestRecordedTokensAreReported: an answer recorded with its cost reports
// that cost again, so a replayed run measures cost as the recorded one did.
func TestRecordedTokensAreReported(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.jsonl")
	doc := `{"kind": "k", "subject": "s", "answer": {}, "tokens": {"input": 1200, "output": 80}}` + "\n" + lineForecast + "\n"
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	j, _, err := configure(t, path, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		kind, subject string
		want          judge.Tokens
	}{{"k", "s", judge.Tokens{Input: 1200, Output: 80}}, {"tdqs.tool", "get_forecast", judge.Tokens{}}} {
		a, err := j.Ask(context.Background(), judge.Question{Kind: c.kind, Subject: c.subject})
		if err != nil {
			t.Fatal(err)
		}
		if a.Tokens != c.want {
			t.Errorf("%s/%s: tokens %+v, want %+v", c.kind, c.subject, a.Tokens, c.want)
		}
	}
}

// TestMissingAnswerListsSubjectsPrintable: the subjects an answers file
// answers are a server's names, a hostile one's among them; the message
// for a question the file does not answer lists them without their
// terminal controls.
func TestMissingAnswerListsSubjectsPrintable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "answers.jsonl")
	line := `{"kind": "tdqs.tool", "subject": "wipe\u001b]0;owned\u0007\u001b[2J", "answer": {"score": 2}}` + "\n"
	if err := os.WriteFile(path, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	j, _, err := configure(t, path, "")
	if err != nil {
		t.Fatal(err)
	}
	_, err = j.Ask(context.Background(), judge.Question{Kind: "tdqs.tool", Subject: "other"})
	if err == nil || !strings.Contains(err.Error(), "which answers that kind for wipe:") || strings.ContainsAny(err.Error(), "\x1b\x07") {
		t.Errorf("got %v, want the subject listed as wipe, without its control characters", err)
	}
}

// TestAnswerAgainstSchema: a recorded answer that breaks the question's
// answer schema is unreadable, as the engine's check would find it, but
// named at its file and line with what to do, since asking again
// replays the same answer; it read "still unreadable after 3 attempts"
// with no word of the file. An answer that fits, and a question with no
// schema, are replayed as they are.
func TestAnswerAgainstSchema(t *testing.T) {
	path := filepath.Join("testdata", "weather.jsonl")
	j, _, err := configure(t, path, "")
	if err != nil {
		t.Fatal(err)
	}
	const coherence = `{"type": "object", "required": ["coherence"], "properties": {"coherence": {"type": "object", "required": ["score"]}}}`
	const other = `{"type": "object", "required": ["scores", "summary"], "additionalProperties": false}`
	cases := []struct {
		name, schema string
		want         string // "" for an answer replayed
	}{
		{"a schema it fits", coherence, ""},
		{"no schema", "", ""},
		{"a schema it breaks", other, `unreadable reply: testdata/weather.jsonl:9: the recorded answer for kind "tdqs.coherence", subject "surface" does not satisfy the question's schema: jsonschema validation failed with 'rubric:answer_schema.json#' - at '': missing properties 'scores', 'summary' - at '': additional properties 'coherence' not allowed; a replayed answer is the same at every attempt: write that line's answer as the rubric's answer_schema says (rubric rubrics show RUBRIC --source prints it), or write the file afresh with --record FILE and the judge whose answers it should hold (the default, heuristic, answers the built-in rubrics without a model)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, err := j.Ask(context.Background(), judge.Question{Kind: "tdqs.coherence", Subject: "surface", AnswerSchema: []byte(c.schema)})
			if c.want == "" {
				if err != nil || len(a.JSON) == 0 {
					t.Fatalf("answer %s, error %v", a.JSON, err)
				}
				return
			}
			var unreadable *judge.UnreadableError
			if !errors.As(err, &unreadable) || err.Error() != c.want {
				t.Fatalf("error (%T):\n got %v\nwant %s", err, err, c.want)
			}
		})
	}
}
