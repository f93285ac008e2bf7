rubric "t" { # ERROR 1:1: the rubric has no surface block
  version = "1"
  tool {
    score = "100"
  }
  grades = { A = 90, F = 0 }
}
