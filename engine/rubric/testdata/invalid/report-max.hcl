rubric "t" {
  version = "1"
  weights = { safety = 30 }
  tool {
    score = "3"
    report {
      scores = "{'a': 1}"
      max {
        scorez = 5 # ERROR 9:9: the report block has no value scorez to give a maximum: did you mean scores?
      }
    }
  }
  surface {
    score = "mean(tools.map(t, t.score))"
    report "categories" {
      safety = "30"
      other  = "1"
      max {
        safety = weights.missing # ERROR 19:25: Unsupported attribute
        other  = 0 # ERROR 20:18: the maximum of other is 0: a maximum is above zero
      }
      max { # ERROR 22:7: only one max block is allowed in a report block
      }
    }
  }
  grades = { A = 3, F = 0 }
}
