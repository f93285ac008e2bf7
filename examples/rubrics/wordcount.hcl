# wordcount.hcl: the rubric the example judge plugin answers
# (examples/judge-plugin, rubric-judge-wordcount). It asks one question
# per tool, of kind "wordcount.words", whose answer is the judge's count
# of the description's words and its verdict; a tool scores 100 for a
# description of 8 words or more, 50 for a terse one, 0 for none.
#
#   go build -o ~/.local/share/rubric/plugins/rubric-judge-wordcount ./examples/judge-plugin
#   rubric score --rubric examples/rubrics/wordcount.hcl --judge wordcount --model wordcount-1 tools.json
#
# A judge of your own answers a rubric of your own the same way: the
# question's kind tells it what is asked, its input is the structured
# data below, and its answer must satisfy answer_schema.

rubric "wordcount" {
  version = "1.0.0"
  title   = "Description length"
  scale {
    min = 0
    max = 100
  }
  grades = { A = 90, B = 75, C = 50, D = 25, F = 0 }

  question "words" {
    kind    = "wordcount.words"
    per     = "tool"
    retries = 1
    input   = "{'description': has(tool.description) ? tool.description : ''}"
    system  = "Count the words of a tool's description."
    user    = "How many words has this description, and is it missing (none), terse (under 8) or ok? {{ fence \"description\" .description }}"
    answer_schema = <<-JSON
      {"type": "object", "additionalProperties": false, "required": ["words", "verdict"],
       "properties": {"words": {"type": "integer", "minimum": 0},
                      "verdict": {"enum": ["missing", "terse", "ok"]}}}
    JSON
  }

  tool {
    score = "answers.words.verdict == 'ok' ? 100 : answers.words.verdict == 'terse' ? 50 : 0"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
}
