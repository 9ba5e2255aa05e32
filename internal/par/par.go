// Package par runs a loop's iterations on several goroutines.
package par

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls fn(0..n-1) on up to workers goroutines (0 or less: one per
// CPU) and returns when every call it started has returned. Once ctx is
// done it starts no more calls; the caller checks ctx.Err() to tell a
// finished loop from a stopped one.
//
// The workers take the next index from a counter: a no-op build runs a
// call of a few stats for each logo, and handing each index over a
// channel would cost a wake-up per call.
func For(ctx context.Context, n, workers int, fn func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	var next atomic.Int64
	work := func() {
		for ctx.Err() == nil {
			i := next.Add(1) - 1
			if i >= int64(n) {
				return
			}
			fn(int(i))
		}
	}
	var wg sync.WaitGroup
	for range min(workers, n) - 1 {
		wg.Go(work)
	}
	work() // the caller is one of the workers
	wg.Wait()
}
