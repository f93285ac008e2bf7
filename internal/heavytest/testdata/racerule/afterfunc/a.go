// Package afterfunc runs a function on a timer, no go statement:
// time.AfterFunc calls it in a goroutine of its own.
package afterfunc

import (
	"sync"
	"time"
)

// Later sets *v under mu once d has passed.
func Later(mu *sync.Mutex, v *int, d time.Duration) {
	time.AfterFunc(d, func() {
		mu.Lock()
		*v = 1
		mu.Unlock()
	})
}
