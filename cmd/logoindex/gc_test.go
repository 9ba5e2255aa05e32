package main

import (
	"os"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

// TestMemoryFloor: after a collection, the collector's next heap goal is
// near memoryFloor while little is live (a test process holds a few MB),
// and twice the live heap, as by default, once more than half the floor
// is live.
func TestMemoryFloor(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set, which setMemoryFloor leaves alone")
	}
	setMemoryFloor()
	sample := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}, {Name: "/gc/heap/live:bytes"}}
	// waitFor collects until want holds of the goal and the live heap.
	waitFor := func(what string, want func(goal, live uint64) bool) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			runtime.GC() // the finalizer of the last round runs after it
			time.Sleep(10 * time.Millisecond)
			metrics.Read(sample)
			goal, live := sample[0].Value.Uint64(), sample[1].Value.Uint64()
			if want(goal, live) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: heap goal %d MB with %d MB live", what, goal>>20, live>>20)
			}
		}
	}
	// The limit counts the runtime's memory besides the heap: a few MB.
	waitFor("little live", func(goal, live uint64) bool {
		if live >= memoryFloor/2 {
			t.Skipf("%d MB live: the floor does not apply", live>>20)
		}
		return goal >= memoryFloor*3/4 && goal <= memoryFloor
	})

	held := make([][]byte, 24)
	for i := range held {
		held[i] = make([]byte, 1<<20)
	}
	waitFor("24 MB held", func(goal, live uint64) bool { return live >= 24<<20 && goal >= 2*live-live/10 })
	runtime.KeepAlive(held)

	held = nil
	waitFor("let go", func(goal, live uint64) bool {
		return live < memoryFloor/2 && goal >= memoryFloor*3/4 && goal <= memoryFloor
	})
}
