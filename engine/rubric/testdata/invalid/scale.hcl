rubric "t" {
  version = "1"
  tool {
    score = "100"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 90, F = 0 }
  scale {
    min = 0
    max = 80 # ERROR 12:11: grade A starts at 90, above the scale's max 80: no score would reach it
  }
  scale { # ERROR 14:3: only one scale block is allowed
    min = 0
    max = 100
  }
}
