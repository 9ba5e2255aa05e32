package par

import (
	"context"
	"sync/atomic"
	"testing"
)

func TestForCallsEachOnce(t *testing.T) {
	for _, workers := range []int{0, 1, 3, 100} {
		calls := make([]atomic.Int32, 50)
		For(context.Background(), len(calls), workers, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if n := calls[i].Load(); n != 1 {
				t.Errorf("workers %d: fn(%d) called %d times, want 1", workers, i, n)
			}
		}
	}
}

func TestForNothingToDo(t *testing.T) {
	For(context.Background(), 0, 4, func(i int) { t.Errorf("fn(%d) called for n = 0", i) })
}

func TestForStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var calls atomic.Int32
	For(ctx, 1000, 1, func(i int) {
		calls.Add(1)
		if i == 2 {
			cancel()
		}
	})
	// One worker: after the call that cancels, at most one more index
	// may already have been handed over.
	if n := calls.Load(); n > 4 {
		t.Errorf("%d calls after cancelling at the third, want at most 4", n)
	}
}
