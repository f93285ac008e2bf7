rubric "t" {
  version = "1"
  tool {
    score = "3"
  }
  surface {
    score = "mean(tools.map(t, t.score))"
  }
  grades = { A = 3.5, F = 0 }
  scale {
    min = 5
    max = 1 # ERROR 12:11: max 1 is not above min 5
  }
}
