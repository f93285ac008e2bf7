package rubric

import (
	"errors"
	"strings"
	"testing"

	"github.com/rubricmcp/rubric/engine/lang"
)

// validRubric is a small valid rubric, which the tests of mistakes change
// a line of.
const validRubric = `rubric "t" {
  version = "1"
  weights = { described = 20, typed = 10 }
  check "described" {
    pass  = "has(tool.description)"
    issue = "the tool has no description"
  }
  tool {
    score = "sum(checks.map(c, c.points * c.credit))"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 15, F = 0 }
}
`

// TestAuthoringMistakes: each mistake an author makes is one diagnostic,
// at its exact file:line:col, saying what to write instead, never a
// rubric that loads and scores zero.
func TestAuthoringMistakes(t *testing.T) {
	// A valid rubric; each case replaces one line of it.
	const base = validRubric
	// lineIn replaces line n of src; line replaces one of base. Two
	// replacements are made bottom first, so that the line numbers of
	// the second are base's.
	lineIn := func(src string, n int, with string) string {
		ls := strings.Split(src, "\n")
		ls[n-1] = with
		return strings.Join(ls, "\n")
	}
	line := func(n int, with string) string { return lineIn(base, n, with) }
	for _, tt := range []struct {
		name, file, src, want string
	}{
		{"a misspelled tool field", "t.hcl",
			line(5, `    pass  = "has(tool.descripton)"`),
			`t.hcl:5:18: pass: tool.descripton is not a field of an MCP tool: did you mean tool.description?`},
		{"a misspelled annotation", "t.hcl",
			line(5, `    pass  = "tool.?annotations.?readOnlyHnt.orValue(false)"`),
			`t.hcl:5:14: pass: tool.annotations.readOnlyHnt is not a field of a tool's annotations: did you mean tool.annotations.readOnlyHint?`},
		{"an unknown field, far from every one", "t.hcl",
			line(5, `    pass  = "has(tool.zzz)"`),
			`t.hcl:5:18: pass: tool.zzz is not a field of an MCP tool: its fields are name, title, description, inputSchema, outputSchema, annotations, icons, execution, _meta`},
		{"a misspelled optional member", "t.hcl",
			line(5, `    pass  = "tool.?titel.orValue('') != ''"`),
			`t.hcl:5:14: pass: tool.titel is not a field of an MCP tool: did you mean tool.title?`},
		{"a misspelled member of the execution", "t.hcl",
			line(5, `    pass  = "has(tool.execution.taskSuport)"`),
			`t.hcl:5:18: pass: tool.execution.taskSuport is not a field of a tool's execution: did you mean tool.execution.taskSupport?`},
		{"a misspelled member of a macro's tool", "t.hcl",
			line(5, `    pass  = "[tool].all(t, has(t.descripton))"`),
			`t.hcl:5:32: pass: undefined field 'descripton': did you mean t.description?`},
		{"a misspelled weight in a formula", "t.hcl",
			line(9, `    score = "weights.descrbed"`),
			`t.hcl:9:14: weights.descrbed names no weight: did you mean weights.described? the rubric's weights are described, typed`},
		{"a check with neither points nor weight", "t.hcl",
			line(4, `  check "describd" {`),
			`t.hcl:4:3: check "describd" has no points: set points, or give the rubric a weight named describd (weights = { describd = 10 })`},
		{"a check named by no word, with neither points nor weight", "t.hcl",
			line(4, `  check "describ.ed" {`),
			`t.hcl:4:3: check "describ.ed" has no points: set points; a weight names only a check named by a word (letters, digits, _ and -), so to weigh it, name it describ_ed and give the rubric a weight named describ_ed (weights = { describ_ed = 10 })`},
		{"${...} in an issue message", "t.hcl",
			line(6, `    issue = "parameter ${p.path} has no description"`),
			`t.hcl:6:24: issue: ${...} is not read in a message; write {items} where the failing items' names go (with each set), and plain text elsewhere, or compute the message in CEL: issue = cel("'parameters without a description: ' + items.join(', ')")`},
		{"${...} in a CEL message", "t.hcl",
			line(6, `    issue = cel("'parameter ${p} has no description'")`),
			`t.hcl:6:29: issue: ${...} is not read in a message; write {items} where the failing items' names go (with each set), and plain text elsewhere, or compute the message in CEL: issue = cel("'parameters without a description: ' + items.join(', ')")`},
		{"a placeholder other than {items}", "t.hcl",
			line(6, `    issue = "{tool.name} has no description"`),
			`t.hcl:6:13: issue: {tool.name} is not filled in, but printed as written: a message fills only {items}, the failing items' names (with each set); for anything else, compute the message in CEL: issue = cel("tool.name + ': no description'")`},
		{"a CEL message that is not a string", "t.hcl",
			line(6, `    issue = cel("size(items)")`),
			`t.hcl:6:18: issue: the formula yields int, want string`},
		{"a CEL message that reads what it cannot see", "t.hcl",
			line(6, `    issue = cel("'no ' + item.name")`),
			`t.hcl:6:26: issue: undeclared reference to 'item': item is seen by a check with each and a question per item, not here; did you mean items?`},
		{"a tool's score that is null", "t.hcl",
			line(9, `    score = "size(checks) > 0 ? null : sum(checks.map(c, c.points * c.credit))"`),
			`t.hcl:9:14: score: the formula yields null, want num`},
		{"a conditional of a number and null", "t.hcl",
			line(9, `    score = "size(checks) > 0 ? 1 : null"`),
			`t.hcl:9:31: score: the branches of ? : are int and null, of different types: give both one type, or wrap each in dyn(), such as c ? dyn(a) : dyn(null)`},
		{"text added to a number", "t.hcl",
			line(5, `    pass  = "tool.name + 1 == 'x'"`),
			`t.hcl:5:24: pass: + does not apply to string and int: convert one side, such as string(x), int(x) or num(x)`},
		{"a string left open", "t.hcl",
			line(6, `    issue = "the tool has no description`),
			`t.hcl:6:41: a string is not closed on its line: add its closing " (a text over several lines is a heredoc: <<-EOT, the lines, then EOT) (and 10 more syntax errors after it, which may follow from it: fix this one first)`},
		{"an argument without its =", "t.hcl",
			line(5, `    pass  "has(tool.description)"`),
			`t.hcl:5:34: Invalid block definition: A block definition must have block content delimited by "{" and "}", starting on the same line as the block header. An argument is written NAME = VALUE: if this line is one, add its "=".`},
		{"an argument set twice", "t.hcl",
			line(5, `    pass  = "has(tool.description)"
    pass  = "true"`),
			`t.hcl:6:5: Attribute redefined: The argument "pass" was already set at t.hcl:5:5. Each argument may be set only once.`},
		{"single quotes", "t.hcl",
			line(5, `    pass  = 'has(tool.description)'`),
			`t.hcl:5:13: Invalid character: Single quotes are not valid. Use double quotes (") to enclose strings. (and 1 more syntax error after it, which may follow from it: fix this one first)`},
		{"an item without each", "t.hcl",
			line(5, `    pass  = "has(item.description)"`),
			`t.hcl:5:13: pass reads item, which only a check with each has: set each to the list of items to check (such as each = "params(tool)"), or read tool`},
		{"the tools in a tool's score", "t.hcl",
			line(9, `    score = "size(tools)"`),
			`t.hcl:9:19: score: undeclared reference to 'tools': tools is seen by the surface block's metrics, score, warnings, invalid and report (not its signals, computed before any tool is scored), not here; did you mean tool?`},
		{"the tool in the surface's score", "t.hcl",
			line(12, `    score = "size(tool.name)"`),
			`t.hcl:12:19: score: undeclared reference to 'tool': tool is seen by checks, the tool block's signals, metrics, score, issues and report, and tool questions (the surface block's metrics and score see tools), not here`},
		{"a grade given twice", "t.hcl",
			line(14, `  grades = { A = 15, A = 10, F = 0 }`),
			`t.hcl:14:22: grade A is given twice (first at line 14): a grade starts at one score`},
		{"a misspelled check by name", "t.hcl",
			line(9, `    score = "check.describd.points * check.described.credit"`),
			`t.hcl:9:14: check.describd names no check: did you mean check.described? the rubric's checks are described`},
		{"a misspelled check beside a macro's variable named check", "t.hcl",
			line(9, `    score = "sum(checks.map(check, check.points * check.credit)) + check.describd.points"`),
			`t.hcl:9:68: check.describd names no check: did you mean check.described? the rubric's checks are described`},
		{"a signal the tool block does not have", "t.hcl",
			line(9, `    score = "signals.count"`),
			`t.hcl:9:14: signals.count names no signal of the tool block: the tool block's signals: none`},
		{"a misspelled function", "t.hcl",
			line(5, `    pass  = "size(paramz(tool)) > 0"`),
			`t.hcl:5:25: pass: undeclared reference to 'paramz': did you mean params?`},
		{"a function that is nowhere near", "t.hcl",
			line(5, `    pass  = "nosuchfn(tool)"`),
			`t.hcl:5:22: pass: undeclared reference to 'nosuchfn'`},
		{"cel() with two arguments", "t.hcl",
			line(6, `    issue = cel("'a'", "'b'")`),
			`t.hcl:6:13: issue: cel(...) takes one string, the message as a CEL expression, such as cel("'parameters without a description: ' + items.join(', ')")`},
		{"a weight that is not a number", "t.hcl",
			line(3, `  weights = { described = "20", typed = 10 }`),
			`t.hcl:3:27: want a number, not the string "20": write it without quotes`},
		{"a weight that is a word", "t.hcl",
			line(3, `  weights = { described = "forty", typed = 10 }`),
			`t.hcl:3:27: want a number, not the string "forty"`},
		{"a metric declared twice", "t.hcl",
			line(9, "    metric \"count\" { value = \"1\" }\n    metric \"count\" { value = \"2\" }\n    score = \"sum(checks.map(c, c.points * c.credit))\""),
			`t.hcl:10:12: metric "count" is declared twice (first at line 9)`},
		{"a misspelled weight in a child", "testdata/child.hcl",
			`rubric "c" {
  extends = "extends/base.hcl"
  version = "1-c"
  weights = { purpose_clarty = 3 }
}`,
			`testdata/child.hcl:4:15: the parent has no weight purpose_clarty: did you mean purpose_clarity? (its weights are typed, purpose_clarity)`},
		// A child's own check has its points: a weight it names is a
		// weight its parent must declare, so the advice is points alone.
		{"a child's check with neither points nor weight", "testdata/child.hcl",
			`rubric "c" {
  extends = "extends/base.hcl"
  version = "1-c"
  check "has_title" {
    pass  = "has(tool.title)"
    issue = "no title"
  }
}`,
			`testdata/child.hcl:4:3: check "has_title" has no points: set points (points = 10); a rubric that extends another sets the weights its parent declares and adds none`},
		{"an unknown parent file", "testdata/child.hcl",
			`rubric "c" {
  extends = "extends/nosuch.hcl"
  version = "1-c"
}`,
			`testdata/child.hcl:2:13: extends "extends/nosuch.hcl": open testdata/extends/nosuch.hcl: no such file or directory; a path is relative to this rubric's file`},
		{"a parent file named without .hcl", "testdata/child.hcl",
			`rubric "c" {
  extends = "extends/base"
  version = "1-c"
}`,
			`testdata/child.hcl:2:13: extends "extends/base": open testdata/extends/base: no such file or directory; did you mean "extends/base.hcl"?`},
		{"a parent file beside it named without .hcl", "testdata/extends/child.hcl",
			`rubric "c" {
  extends = "base"
  version = "1-c"
}`,
			`testdata/extends/child.hcl:2:13: extends "base" names no built-in rubric: for the file beside this rubric, write extends = "base.hcl"`},
		{"an unknown built-in parent", "t.hcl",
			`rubric "c" {
  extends = "nosuch"
  version = "1-c"
}`,
			`t.hcl:2:13: extends "nosuch" names no built-in rubric`},
		{"a child's grade above its parent's scale", "testdata/child.hcl",
			`rubric "c" {
  extends = "extends/scaled.hcl"
  version = "1-c"
  grades  = { A = 200, F = 0 }
}`,
			`testdata/child.hcl:4:19: grade A starts at 200, above the scale's max 100: no score would reach it`},
		{"a child's scale above its parent's lowest grade", "testdata/child.hcl",
			`rubric "c" {
  extends = "extends/scaled.hcl"
  version = "1-c"
  scale {
    min = -10
    max = 100
  }
}`,
			`testdata/child.hcl:5:11: the lowest grade, F, starts at 0, above the scale's min -10: a score below 0 would have no grade; add a grade that starts at -10, such as F = -10`},
		{"an empty extends", "t.hcl",
			`rubric "c" {
  extends = ""
  version = "1-c"
}`,
			`t.hcl:2:13: extends is empty: name the rubric this one extends, a built-in one by its name or a file by its path, relative to this rubric's file`},
		{"a redeclared block of another kind", "testdata/child.hcl",
			`rubric "c" {
  extends = "extends/base.hcl"
  version = "1-c"
  metric "named" {
    value = "1"
  }
}`,
			`testdata/child.hcl:4:3: the parent's "named" is a check, not a metric: a block replaces only one of its own kind; name the metric otherwise`},
		{"a child without its own version", "testdata/child.hcl",
			`rubric "c" {
  extends = "extends/base.hcl"
}`,
			`testdata/child.hcl:1:1: a rubric that extends another sets its own version: add version = "..." (such as the parent's with a suffix)`},
		{"a let that reads itself", "t.hcl",
			line(2, `  version = "1"
  let {
    a = "a + 1"
  }`),
			`t.hcl:4:5: let a reads itself (a -> a): a let cannot be computed from its own value; compute the shared part in a let of its own`},
		{"a let that reads itself through another", "t.hcl",
			line(2, `  version = "1"
  let {
    a = "1"
    b = "c + 1"
    c = "[b][0]"
  }`),
			`t.hcl:5:5: let b reads itself (b -> c -> b): a let cannot be computed from its own value; compute the shared part in a let of its own`},
		{"a cycle of lets a formula reads", "t.hcl",
			// The formula that reads the cycle is not also told that
			// the let is undeclared, "did you mean the let a?", which
			// contradicted itself.
			lineIn(line(5, `    pass  = "a > 0"`), 2, `  version = "1"
  let {
    a = "b + 1"
    b = "a + 1"
  }`),
			`t.hcl:4:5: let a reads itself (a -> b -> a): a let cannot be computed from its own value; compute the shared part in a let of its own`},
		{"a misspelled tool field in a let", "t.hcl",
			line(5, `    let {
      n = "size(tool.descripton)"
    }
    pass  = "n > 0"`),
			`t.hcl:6:17: let n, read by pass: tool.descripton is not a field of an MCP tool: did you mean tool.description?`},
		{"a let that reads what its formula cannot see", "t.hcl",
			line(5, `    let {
      asked = "answers.purpose != null"
    }
    pass  = "asked"`),
			`t.hcl:6:16: let asked, read by pass: undeclared reference to 'answers': answers is seen by the tool block's metrics, score, issues and report, surface questions and the surface block's metrics, score and report (not a signal, computed before any question is asked), not here`},
		{"a let named like a variable", "t.hcl",
			line(2, `  version = "1"
  let {
    tool = "1"
  }`),
			`t.hcl:4:5: let tool has the name of a variable formulas see: name it otherwise`},
		{"a let named by a word of CEL's", "t.hcl",
			line(2, `  version = "1"
  let {
    null = "1"
  }`),
			`t.hcl:4:5: let null: null is a word of CEL's own: name the let otherwise`},
		{"a check's let of the name of the rubric's", "t.hcl",
			lineIn(line(5, `    let {
      n = "2"
    }
    pass  = "n > 1"`), 2, `  version = "1"
  let {
    n = "1"
  }`),
			`t.hcl:9:7: let n is already declared (line 4): a let is declared once where its formulas see it`},
		{"a misspelled let", "t.hcl",
			lineIn(line(5, `    pass  = "describd > 0"`), 2, `  version = "1"
  let {
    described = "size(params(tool).filter(p, described(p.schema)))"
  }`),
			`t.hcl:8:14: pass: undeclared reference to 'describd': did you mean the let described?`},
		{"an expected list", "t.hcl",
			line(14, `  test "x" {
    surface = "[]"
    expect  = { score = [1] }
  }
  grades = { A = 15, F = 0 }`),
			`t.hcl:16:25: expect score: want a number, a string, true or false`},
		{"an expectation given twice", "t.hcl",
			line(14, `  test "x" {
    surface = "[]"
    expect  = { score = 1, "score" = 2 }
  }
  grades = { A = 15, F = 0 }`),
			`t.hcl:16:28: expect score is given twice (first at line 16): a test expects one value of each`},
		{"a division HCL would work out in floating point", "t.hcl",
			line(14, `  test "x" {
    surface = "[]"
    expect  = { score = (1 + 1)/3 }
  }
  grades = { A = 15, F = 0 }`),
			`t.hcl:16:25: expect score: HCL works out (1 + 1)/3 in binary floating point, not exactly: write the fraction as a string, such as "1/3", which the test reads exactly`},
		{"titles without issues", "t.hcl",
			line(9, `    score = "1"
    titles = { shadow = "Shadowing" }`),
			`t.hcl:10:5: titles name the checks the tool's issues formula names: set issues, or remove titles`},
		{"a title for a check block", "t.hcl",
			line(9, `    score = "1"
    issues = "[]"
    titles = { described = "Described" }`),
			`t.hcl:11:16: titles: described is a check block, whose title is its own title attribute: remove it from titles`},
		{"a title that is not a string", "t.hcl",
			line(9, `    score = "1"
    issues = "[]"
    titles = { shadow = 1 }`),
			`t.hcl:11:25: titles: the title of shadow must be a string, such as "Sensitive path"`},
		{"a test that expects nothing", "t.hcl",
			line(14, `  test "x" {
    surface = "[]"
    expect  = {}
  }
  grades = { A = 15, F = 0 }`),
			`t.hcl:16:15: expect names nothing: say what the report must hold, such as { score = 91.2, grade = "A" }`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Load(tt.file, []byte(tt.src))
			var le *Error
			if !errors.As(err, &le) {
				t.Fatalf("want a *rubric.Error, got %v", err)
			}
			if len(le.Diagnostics) != 1 {
				t.Fatalf("want one diagnostic, got:\n%v", err)
			}
			if got := le.Diagnostics[0].String(); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}

// TestOptionalSyntax: tool.?title.orValue(”) reads a member that may be
// absent, in place of has(tool.title) ? tool.title : ”.
func TestOptionalSyntax(t *testing.T) {
	r := loadString(t, `rubric "t" {
  version = "1"
  check "titled" {
    points = 1
    pass   = "tool.?title.orValue('') != '' && tool.?annotations.?readOnlyHint.orValue(false)"
    issue  = "x"
  }
  tool {
    score = "sum(checks.map(c, c.points * c.credit))"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 1, F = 0 }
}`)
	for _, tt := range []struct {
		tool map[string]any
		want bool
	}{
		{map[string]any{"name": "a"}, false},
		{map[string]any{"name": "a", "title": "A"}, false},
		{map[string]any{"name": "a", "title": "A", "annotations": map[string]any{"readOnlyHint": true}}, true},
	} {
		v, err := r.Checks[0].Pass.Eval(map[string]any{"tool": tt.tool, "item": nil})
		if err != nil || v.Value() != tt.want {
			t.Errorf("%v: got %v %v, want %v", tt.tool, v, err, tt.want)
		}
	}
}

// TestToolIsAJSONObject: the declared tool type refuses a misspelled
// member, yet the tool is still the JSON object it was: it is indexed by
// any key, tested with in, omitted from, and stands in a conditional
// against a map, computing what it computed as an open map.
func TestToolIsAJSONObject(t *testing.T) {
	def := map[string]any{"name": "a", "rubric/server": "s", "annotations": map[string]any{"readOnlyHint": true}}
	for _, tt := range []struct {
		formula string
		want    any
	}{
		{"tool['rubric/server']", "s"},
		{"'rubric/server' in tool && !('x' in tool)", true},
		{"'readOnlyHint' in tool.annotations", true},
		{"size(omit(tool, ['rubric/server']))", int64(2)},
		{"size(has(tool.annotations) ? tool.annotations : {})", int64(1)},
		{"size(!has(tool.execution) ? {'a': 1, 'b': 2} : tool.execution)", int64(2)},
		{"tool.?annotations.?destructiveHint.orValue(false)", false},
		{"tool.annotations.readOnlyHint", true},
		{"tool.name + '!'", "a!"},
	} {
		t.Run(tt.formula, func(t *testing.T) {
			src := `rubric "t" {
  version = "1"
  tool {
    score = "1"
    report { v = "` + strings.ReplaceAll(tt.formula, `"`, `\"`) + `" }
  }
  surface {
    score = "1"
  }
  grades = { A = 1, F = 0 }
}`
			r := loadString(t, src)
			v, err := r.Tool.Reports[0].Fields[0].Value.Eval(map[string]any{"tool": lang.ToolValue(def)})
			if err != nil {
				t.Fatal(err)
			}
			if v.Value() != tt.want {
				t.Errorf("got %v, want %v", v.Value(), tt.want)
			}
		})
	}
}

// TestSurfaceScoreNull: a surface's score is a number or null (none for
// this surface), whichever branch of a conditional the null is in:
// size(tools) == 0 ? null : mean(...) was refused as "yields null_type,
// want num" while its mirror image loaded.
func TestSurfaceScoreNull(t *testing.T) {
	for _, score := range []string{
		"size(tools) == 0 ? null : mean(tools.map(t, t.score))",
		"size(tools) > 0 ? mean(tools.map(t, t.score)) : null",
		"null",
		"size(tools)",
	} {
		t.Run(score, func(t *testing.T) {
			loadString(t, `rubric "t" {
  version = "1"
  check "a" {
    points = 1
    pass   = "true"
    issue  = "x"
  }
  tool {
    score = "sum(checks.map(c, c.points * c.credit))"
  }
  surface {
    score = "`+score+`"
  }
  grades = { A = 1, F = 0 }
}`)
		})
	}
}
