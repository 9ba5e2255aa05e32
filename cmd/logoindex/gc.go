package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// heapFloor is the least room the garbage collector leaves a run to
// allocate in above what is live, before it collects: 16 MB.
//
// A build keeps little in memory (what the cache needs waits on disk),
// 1 to 5 MB for 3,470 logos, and allocates a gigabyte on the way; with
// Go's default (collect when the heap is twice what is live, at least
// 4 MB) that was 659 collections and a sixth of a clean build's CPU
// (16 MB: 95 collections; 32 MB saved no more time). The room, not the
// heap: a collection's work grows with what is live, and the number of
// collections with the allocations over the room. With a floor under the
// heap instead, a build of 104,100 logos (7 to 9 MB live: their slugs and
// records) had half the room of a build of 3,470, made 2,789 collections
// where 30 builds of 3,470 make 1,830, and spent 10% of its CPU in the
// collector against 3.6%: most of what its CPU grew faster than the
// number of logos. Once 16 MB is live, the room is what is live, as by
// default.
const heapFloor = 16 << 20

// setHeapFloor keeps the collector's room at heapFloor or more: after
// each collection it sets the percentage (GOGC) that puts the next goal
// heapFloor above the live heap, or back at 100 once that is what does. A
// GOGC set in the environment is left alone.
func setHeapFloor() {
	if os.Getenv("GOGC") != "" {
		return // run as asked
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var tune func()
	tune = func() {
		metrics.Read(sample)
		debug.SetGCPercent(roomPercent(sample[0].Value.Uint64()))
		// Run again after the next collection, which finds this
		// unreachable.
		runtime.SetFinalizer(&gcTick{}, func(*gcTick) { tune() })
	}
	tune()
}

// roomPercent is the GOGC that makes the goal live+heapFloor, where the
// goal is the larger of live*(1+pct/100) and the runtime's least heap,
// 4 MB*pct/100: pct stops where the latter is live+heapFloor.
func roomPercent(live uint64) int {
	live = max(live, 1)
	if live >= heapFloor {
		return 100
	}
	return int(min(100*heapFloor/live, 100*(live+heapFloor)/(4<<20)))
}

// gcTick is the object whose finalizer runs after a collection: it holds
// a pointer, so that it is not one of the tiny objects that share a block
// (whose finalizers may never run).
type gcTick struct{ _ *gcTick }
