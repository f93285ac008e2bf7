package plain

// Plain is a package whose tests read nothing make testdeps installs.
func Plain() int { return 1 }
