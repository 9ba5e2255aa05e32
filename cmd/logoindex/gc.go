package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// heapFloor is the least heap the garbage collector lets a run grow to
// before it collects: 16 MB.
//
// A build keeps little in memory (what the cache needs waits on disk),
// 1 to 5 MB for 3,470 logos, and allocates a gigabyte on the way; with
// Go's default (collect when the heap is twice what is live, at least
// 4 MB) that was 659 collections and a sixth of a clean build's CPU
// (16 MB: 95 collections; 32 MB saved no more time). Where
// the live heap is larger than half the floor, nothing changes: the goal
// is twice the live heap, as by default, so memory still grows with it
// alone (a build of 104,100 logos is as before).
const heapFloor = 16 << 20

// setHeapFloor keeps the collector's goal at heapFloor or more: after
// each collection it sets the percentage (GOGC) that puts the next goal
// at the floor, or back at 100 once twice the live heap is above it. A
// GOGC set in the environment is left alone.
func setHeapFloor() {
	if os.Getenv("GOGC") != "" {
		return // run as asked
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var tune func()
	tune = func() {
		metrics.Read(sample)
		// The goal is the larger of live*(1+pct/100) and the runtime's
		// least heap, 4 MB*pct/100: pct stops where the latter is the
		// floor.
		pct := 100
		if live := max(sample[0].Value.Uint64(), 1); live < heapFloor/2 {
			pct = int(min(100*(heapFloor-live)/live, 100*heapFloor/(4<<20)))
		}
		debug.SetGCPercent(pct)
		// Run again after the next collection, which finds this
		// unreachable.
		runtime.SetFinalizer(&gcTick{}, func(*gcTick) { tune() })
	}
	tune()
}

// gcTick is the object whose finalizer runs after a collection: it holds
// a pointer, so that it is not one of the tiny objects that share a block
// (whose finalizers may never run).
type gcTick struct{ _ *gcTick }
