package main

import (
	"math"
	"os"
	"runtime"
	"runtime/metrics"
	"testing"
	"time"
)

// TestMemoryFloor: after a collection, the collector runs with GOGC off
// and a limit of memoryFloor while little is live (a test process holds a
// few MB), and as by default, GOGC 100 and no limit, once more than half
// the floor is live; and back when that is let go.
func TestMemoryFloor(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT is set, which setMemoryFloor leaves alone")
	}
	setMemoryFloor()
	sample := []metrics.Sample{
		{Name: "/gc/heap/goal:bytes"}, {Name: "/gc/heap/live:bytes"},
		{Name: "/gc/gogc:percent"}, {Name: "/gc/gomemlimit:bytes"},
	}
	type state struct {
		goal, live, limit uint64
		gogc              int64 // -1: off
	}
	// waitFor collects until want holds of the collector's state.
	waitFor := func(what string, want func(s state) bool) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			runtime.GC() // the finalizer of the last round runs after it
			time.Sleep(10 * time.Millisecond)
			metrics.Read(sample)
			s := state{sample[0].Value.Uint64(), sample[1].Value.Uint64(), sample[3].Value.Uint64(), int64(sample[2].Value.Uint64())}
			if want(s) {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: GOGC %d, limit %d MB, heap goal %d MB with %d MB live", what, s.gogc, s.limit>>20, s.goal>>20, s.live>>20)
			}
		}
	}
	// Under the limit the heap's goal is the limit less the runtime's
	// other memory, which a test binary under -race has more of: it is
	// checked against Go's default only (twice the live heap, at least
	// 4 MB).
	floor := func(s state) bool {
		if s.live >= memoryFloor/2 {
			t.Skipf("%d MB live: the floor does not apply", s.live>>20)
		}
		return s.gogc == -1 && s.limit == memoryFloor && s.goal >= max(2*s.live, 4<<20)+4<<20 && s.goal <= memoryFloor
	}
	waitFor("little live", floor)

	held := make([][]byte, 24)
	for i := range held {
		held[i] = make([]byte, 1<<20)
	}
	waitFor("24 MB held", func(s state) bool {
		return s.gogc == 100 && s.limit == math.MaxInt64 && s.live >= 24<<20 && s.goal >= 2*s.live-s.live/10
	})
	runtime.KeepAlive(held)

	held = nil
	waitFor("let go", floor)
}
