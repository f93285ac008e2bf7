# tdqs-usage-heavy.hcl: the whole file
rubric "tdqs-usage-heavy" {
  extends = "tdqs"
  version = "1.3.0-usage-heavy"
  weights = { purpose_clarity = 15, usage_guidelines = 30 }
}
