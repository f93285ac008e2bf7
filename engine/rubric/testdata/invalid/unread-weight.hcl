rubric "t" {
  # safety is read by a formula, limit only by a max block, and a by its
  # check; ghost by nothing, and typd is a check's name misspelled.
  weights = { a = 10, safety = 5, limit = 20, ghost = 3, typd = 4 }
  # ERROR 4:47: weight ghost names no check and no formula reads weights.ghost
  # ERROR 4:58: weight typd names no check and no formula reads weights.typd: did you mean check typed?
  version = "1"
  check "a" {
    pass  = "true"
    issue = "x"
  }
  check "typed" {
    points = 1
    pass   = "true"
    issue  = "x"
  }
  tool {
    score = "sum(checks.map(c, c.points * c.credit)) * weights.safety / 5"
    report {
      calls = "1"
      max {
        calls = weights.limit
      }
    }
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 90, F = 0 }
}
