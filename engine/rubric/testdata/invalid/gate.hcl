rubric "g" {
  version = "1"
  gate {
    value          = "metrics.nosuch + tool.name" # ERROR 4:40: value: undeclared reference to 'tool'
    round          = 1.5 # ERROR 5:22: round must be a whole number of digits from 0 to 12
    confirm        = 11 # ERROR 6:22: confirm must be a whole number of pairs from 0 to 10
    scores         = "dims" # ERROR 7:22: scores names "dims", which the tool report block does not define
    justifications = "why"
    weight         = 3 # ERROR 9:5: Unsupported argument
  }
  gate { # ERROR 11:3: only one gate block is allowed (first at line 3)
  }
  tool {
    score = "1"
    report {
      why = "'because'"
    }
  }
  surface { score = "1" }
  grades = { A = 1 }
}
