rubric "t" {
  version = "1"
  tool { score = "" } # ERROR 3:18: score is empty: write a formula
  surface { score = 3 } # ERROR 4:21: score must be a string
  grades = { A = 0 }
}
