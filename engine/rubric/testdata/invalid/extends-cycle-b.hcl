rubric "b" {
  extends = "extends-cycle-a.hcl" # ERROR 2:13: extends makes a cycle: testdata/invalid/extends-cycle-b.hcl -> testdata/invalid/extends-cycle-a.hcl -> testdata/invalid/extends-cycle-b.hcl
  version = "1"
}
