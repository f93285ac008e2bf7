package usesmutex

import "testing"

func TestLocked(t *testing.T) { Locked(func() {}) }
