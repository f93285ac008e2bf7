rubric "top" {
  extends = "middle.hcl"
  version = "1.0.0-top"
  weights = { purpose_clarity = 1 }
  check "named" {
    points = 50
    pass   = "tool.name != ''"
    issue  = "no name"
  }
  tool {
    score = "metrics.double / 4"
  }
  grades = { A = 40, F = 0 }
}
