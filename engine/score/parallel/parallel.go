// Package parallel runs the steps of a scoring run over many indexes (the
// tools, a batch of questions) on several goroutines, with a result that
// does not depend on the scheduling.
package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// For runs fn(0..n-1) on up to workers goroutines (0 means GOMAXPROCS)
// and returns the error of the lowest index that failed, so that the
// error is the same whatever the scheduling.
func For(ctx context.Context, n, workers int, fn func(int) error) error {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	const batch = 64
	errs := make([]error, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, max(n, 1)) {
		wg.Go(func() {
			for {
				lo := int(next.Add(batch)) - batch
				if lo >= n || ctx.Err() != nil {
					return
				}
				for k := lo; k < min(lo+batch, n) && ctx.Err() == nil; k++ {
					errs[k] = fn(k)
				}
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
