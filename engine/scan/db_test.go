package scan

import (
	"testing"
	"time"
)

// TestQueueOutlastsTimeout: a database queue takes a job back from a
// worker it deems dead only after the scan's own --timeout, twice over
// (a job taken ahead waits for one job, then runs its own), so the
// scanner always cuts a job first, with its own reason; and with
// --timeout 0 (no bound) the queue waits a day. The queue's default
// rescue delay of an hour cut every job at an hour, whatever --timeout
// said.
func TestQueueOutlastsTimeout(t *testing.T) {
	for _, timeout := range []time.Duration{time.Second, 5 * time.Minute, 2 * time.Hour, 0} {
		o := workOptions(3, DB{Drain: true}, timeout)
		if o.Timeout != 0 {
			t.Errorf("--timeout %s: the queue keeps a timeout of its own, %s, racing the scanner's", timeout, o.Timeout)
		}
		least := 2 * timeout
		if timeout == 0 {
			least = UnboundedRescue - 1
		}
		if o.RescueAfter <= least {
			t.Errorf("--timeout %s: the queue takes a job back after %s, not after %s", timeout, o.RescueAfter, least)
		}
		if o.Workers != 3 || !o.Drain || !o.Ahead || o.TimeoutSetting != "--timeout" {
			t.Errorf("--timeout %s: options %+v", timeout, o)
		}
	}
}
