rubric "t" {
  version = "1"
  tool {
    score = "3"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 3.5, F = 0 }
  scale { min = 1 } # ERROR 10:11: The argument "max" is required
}
