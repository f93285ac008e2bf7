rubric "q" {
  version = "1"
  question "a" {
    kind    = "k"
    per     = "each" # ERROR 5:15: per must be "tool", "surface" or "item"
    retries = 11 # ERROR 6:15: retries must be a whole number from 0 to 10
    input   = "{'x': answers.a}" # ERROR 7:22: input: undeclared reference to 'answers'
    system  = "{{ .x" # ERROR 8:15: system is not a valid template
    user    = { url = "ftp://x", sha256 = "abababababababababababababababababababababababababababababababab" } # ERROR 9:15: user url must start with https:// or http://
    answer_schema = "{\"type\": " # ERROR 10:21: answer_schema is not JSON
  }
  question "b" {
    kind          = "k"
    per           = "surface"
    items         = "[]" # ERROR 15:5: items is only for questions asked per item
    input         = "{'n': size(surface.tools)}"
    system        = "s"
    user          = "u"
    answer_schema = "{\"type\": \"nonsense\"}" # ERROR 19:21: answer_schema is not a valid JSON Schema
  }
  question "b" { # ERROR 21:12: question "b" is declared twice
    kind          = "k"
    per           = "item" # ERROR 23:21: question "b" is asked per item: set items
    input         = "{}"
    system        = "s"
    user          = "u"
    answer_schema = "{}"
  }
  tool {
    signals {
      early = "answers.a.x" # ERROR 31:16: early: undeclared reference to 'answers'
    }
    score = "1"
    report {
      name = "1" # ERROR 34:5: "name" is a member every tool entry already has
    }
  }
  surface {
    score = "1"
    report "tools" { # ERROR 40:12: "tools" is a member every report already has
      n = "2"
    }
  }
  grades = { A = 0 }
}
