package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// memoryFloor is the memory (the Go runtime's, of which the heap is most)
// a run may grow to before it collects: 28 MB.
//
// A build keeps little in memory (what the cache needs waits on disk) but
// allocates many times that on the way. Go's default, collecting when the
// heap is twice what is live and at least 4 MB, would then collect
// hundreds of times. A fixed floor collects far less often and keeps the
// peak resident memory steady from run to run.
const memoryFloor = 28 << 20

// setMemoryFloor makes the collector collect when the runtime's memory
// reaches memoryFloor (a memory limit, with GOGC off) while the live heap
// is less than half of it, and as by default (GOGC 100, no limit) once it
// is more: memory then grows with the live heap alone, and never waits on
// a limit it is near. After each collection it looks again. A GOGC or
// GOMEMLIMIT set in the environment is left alone.
func setMemoryFloor() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return // run as asked
	}
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var tune func()
	tune = func() {
		metrics.Read(sample)
		if sample[0].Value.Uint64() < memoryFloor/2 {
			debug.SetGCPercent(-1)
			debug.SetMemoryLimit(memoryFloor)
		} else {
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
		}
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
