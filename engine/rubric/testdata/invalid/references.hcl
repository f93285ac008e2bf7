rubric "t" {
  version = "1"
  question "q" {
    kind          = "k"
    per           = "tool"
    input         = "{}"
    system        = "s"
    user          = "u"
    answer_schema = "{}"
  }
  tool {
    metric "a" {
      value = "answers.q == null ? 0 : 1"
    }
    metric "b" {
      value = "metrics.c + 1" # ERROR 16:16: metric "b" reads metrics.c, which is computed after it
    }
    metric "c" {
      value = "metrics.c" # ERROR 19:16: metric "c" reads itself
    }
    score = "answers.nope == null ? metrics.a : 0" # ERROR 21:14: answers.nope names no question
  }
  surface {
    score = "mean(tools.map(t, t.score)) + size(metrics.x)" # ERROR 24:49: metrics.x names no metric of the surface block
  }
  grades = { A = 90, F = 0 }
}
