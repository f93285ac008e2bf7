rubric "middle" {
  extends = "base.hcl"
  version = "1.0.0-middle"
  weights = { typed = 30 }
  check "described" {
    points = 7
    pass   = "has(tool.description)"
    issue  = "no description"
  }
}
