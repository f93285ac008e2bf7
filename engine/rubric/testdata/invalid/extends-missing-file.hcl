rubric "child" {
  extends = "nosuch.hcl" # ERROR 2:13: extends "nosuch.hcl": 
  version = "1"
}
