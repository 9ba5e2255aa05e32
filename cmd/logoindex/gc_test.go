package main

import (
	"os"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

// TestHeapFloor: after a collection, the collector's next goal is at
// least heapFloor while little is live (a test process holds a few MB).
func TestHeapFloor(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set, which setHeapFloor leaves alone")
	}
	sample := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}, {Name: "/gc/heap/live:bytes"}}
	setHeapFloor()
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC() // the finalizer of the last round runs after it
		time.Sleep(10 * time.Millisecond)
		metrics.Read(sample)
		goal, live := sample[0].Value.Uint64(), sample[1].Value.Uint64()
		if live >= heapFloor/2 {
			t.Skipf("%d MB live: the floor does not apply", live>>20)
		}
		if goal >= heapFloor {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("heap goal %d MB with %d MB live, want at least %d MB", goal>>20, live>>20, heapFloor>>20)
		}
	}
}
