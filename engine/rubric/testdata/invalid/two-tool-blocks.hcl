rubric "t" {
  version = "1"
  tool {
    score = "1"
  }
  tool { # ERROR 6:3: only one tool block is allowed (first at line 3)
    score = "2"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 90, F = 0 }
}
