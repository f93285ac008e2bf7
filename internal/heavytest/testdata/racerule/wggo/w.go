// Package wggo starts its goroutines with sync.WaitGroup.Go, no go
// statement: it runs code at once all the same.
package wggo

import "sync"

// Both returns f() twice, computed at once.
func Both(f func() int) (int, int) {
	var a, b int
	var wg sync.WaitGroup
	wg.Go(func() { a = f() })
	wg.Go(func() { b = f() })
	wg.Wait()
	return a, b
}
