// Package par runs a loop's iterations on several goroutines.
package par

import (
	"context"
	"runtime"
	"sync"
)

// For calls fn(0..n-1) on up to workers goroutines (0 or less: one per
// CPU) and returns when every call it started has returned. Once ctx is
// done it starts no more calls; the caller checks ctx.Err() to tell a
// finished loop from a stopped one.
func For(ctx context.Context, n, workers int, fn func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(workers, n) {
		wg.Go(func() {
			for i := range next {
				fn(i)
			}
		})
	}
	defer func() { close(next); wg.Wait() }()
	for i := range n {
		select {
		case next <- i:
		case <-ctx.Done():
			return
		}
	}
}
