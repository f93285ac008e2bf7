rubric "a" {
  extends = "extends-cycle-b.hcl" # ERROR 2:13: extends makes a cycle: testdata/invalid/extends-cycle-a.hcl -> testdata/invalid/extends-cycle-b.hcl -> testdata/invalid/extends-cycle-a.hcl
  version = "1"
}
