package main

import (
	"os"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

// TestHeapFloor: after a collection, the collector's next goal leaves
// at least heapFloor above what is live, with a few MB live (a test
// process's) and with 10 MB more held.
func TestHeapFloor(t *testing.T) {
	if os.Getenv("GOGC") != "" {
		t.Skip("GOGC is set, which setHeapFloor leaves alone")
	}
	sample := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}, {Name: "/gc/heap/live:bytes"}}
	setHeapFloor()
	for _, held := range []int{0, 10 << 20} {
		hold := make([]byte, held)
		deadline := time.Now().Add(5 * time.Second)
		for {
			runtime.GC() // the finalizer of the last round runs after it
			time.Sleep(10 * time.Millisecond)
			metrics.Read(sample)
			goal, live := sample[0].Value.Uint64(), sample[1].Value.Uint64()
			if live >= heapFloor {
				t.Skipf("%d MB live: the floor does not apply", live>>20)
			}
			// GOGC is a whole percentage: the goal may fall short by a
			// hundredth of what is live or of the runtime's least heap.
			if goal+live/100+(4<<20)/100 >= live+heapFloor {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d MB held: heap goal %.1f MB with %.1f MB live, want at least %d MB above it", held>>20, float64(goal)/(1<<20), float64(live)/(1<<20), heapFloor>>20)
			}
		}
		runtime.KeepAlive(hold)
	}
}

// TestRoomPercent checks the percentage at the edges: the runtime's
// least heap (4 MB*pct/100) never puts the goal above live+heapFloor,
// and from heapFloor live the default takes over.
func TestRoomPercent(t *testing.T) {
	for _, live := range []uint64{0, 1, 1 << 20, 2 << 20, 4 << 20, 8 << 20, heapFloor - 1, heapFloor, 1 << 30} {
		pct := uint64(roomPercent(live))
		goal := max(live+live*pct/100, (4<<20)*pct/100)
		want := max(live, 1) + heapFloor
		if live >= heapFloor {
			want = 2 * live
		}
		if goal > want || goal+live/100+(4<<20)/100 < want {
			t.Errorf("live %d: GOGC %d gives a goal of %d, want %d", live, pct, goal, want)
		}
	}
}
