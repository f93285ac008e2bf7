rubric "child" { # ERROR 1:1: a rubric that extends another sets its own version
  extends = "../extends/base.hcl"
  weights = { typed = 5, purpose_clarty = 3 } # ERROR 3:26: the parent has no weight purpose_clarty: did you mean purpose_clarity?
  check "typd" { # ERROR 4:9: the parent has no check "typd": did you mean "typed"?
    pass  = "true"
    issue = "x"
  }
  question "typed" { # ERROR 8:3: the parent's "typed" is a check, not a question
    kind = "x"
  }
  tool {
    metric "purpose_clarity" {
      value = "weights.purpose_clarity * 2"
    }
    score = "metrics.purpose_clarity + weights.tpyed" # ERROR 15:40: weights.tpyed names no weight: did you mean weights.typed?
  }
}
