package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// events is a `go test -json` stream: a package that passes with a
// skipped test, one whose test fails in a subtest, and one that does not
// build.
const events = `{"Action":"start","Package":"a"}
{"Action":"run","Package":"a","Test":"TestOK"}
{"Action":"output","Package":"a","Test":"TestOK","Output":"=== RUN   TestOK\n"}
{"Action":"output","Package":"a","Test":"TestOK","Output":"    a_test.go:9: chatter\n"}
{"Action":"output","Package":"a","Test":"TestOK","Output":"--- PASS: TestOK (0.00s)\n"}
{"Action":"pass","Package":"a","Test":"TestOK"}
{"Action":"run","Package":"a","Test":"TestTool"}
{"Action":"output","Package":"a","Test":"TestTool","Output":"--- SKIP: TestTool (0.00s)\n"}
{"Action":"skip","Package":"a","Test":"TestTool"}
{"Action":"output","Package":"a","Output":"PASS\n"}
{"Action":"output","Package":"a","Output":"ok  \ta\t0.01s\n"}
{"Action":"pass","Package":"a"}
{"Action":"start","Package":"b"}
{"Action":"run","Package":"b","Test":"TestBad"}
{"Action":"output","Package":"b","Test":"TestBad","Output":"=== RUN   TestBad\n"}
{"Action":"run","Package":"b","Test":"TestBad/case"}
{"Action":"output","Package":"b","Test":"TestBad/case","Output":"=== RUN   TestBad/case\n"}
{"Action":"output","Package":"b","Test":"TestBad/case","Output":"    b_test.go:12: got 1, want 2\n"}
{"Action":"output","Package":"b","Test":"TestBad/case","Output":"--- FAIL: TestBad (0.00s)\n"}
{"Action":"output","Package":"b","Test":"TestBad/case","Output":"    --- FAIL: TestBad/case (0.00s)\n"}
{"Action":"fail","Package":"b","Test":"TestBad/case"}
{"Action":"fail","Package":"b","Test":"TestBad"}
{"Action":"output","Package":"b","Output":"FAIL\n"}
{"Action":"output","Package":"b","Output":"FAIL\tb\t0.02s\n"}
{"Action":"fail","Package":"b"}
{"ImportPath":"c [c.test]","Action":"build-output","Output":"c/c.go:3:1: syntax error\n"}
{"ImportPath":"c [c.test]","Action":"build-fail"}
go: warning: a line that is not an event
`

func TestPrintsWhatGoTestPrints(t *testing.T) {
	var out, errs bytes.Buffer
	err := run(context.Background(), nil, strings.NewReader(events), &out, &errs)
	if !errors.Is(err, errFailed) {
		t.Errorf("run = %v, want errFailed", err)
	}
	want := `ok  	a	0.01s
    b_test.go:12: got 1, want 2
--- FAIL: TestBad (0.00s)
    --- FAIL: TestBad/case (0.00s)
FAIL
FAIL	b	0.02s
c/c.go:3:1: syntax error
go: warning: a line that is not an event
`
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
}

func TestPassingRunExitsZero(t *testing.T) {
	var out bytes.Buffer
	stream := strings.Join(strings.Split(events, "\n")[:12], "\n")
	if err := run(context.Background(), nil, strings.NewReader(stream), &out, &out); err != nil {
		t.Errorf("run = %v, want nil", err)
	}
}

// TestHeartbeatNamesWhatRuns: the line printed after a silence names the
// running packages and their tests, with how long each has run.
func TestHeartbeatNamesWhatRuns(t *testing.T) {
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var out bytes.Buffer
	p := newPrinter(&out, func() time.Time { return clock })
	if got, want := p.status(), "... compiling packages and tests\n"; got != want {
		t.Errorf("before any package: %q, want %q", got, want)
	}
	p.handle(event{Action: "start", Package: "slow"})
	clock = clock.Add(10 * time.Second)
	p.handle(event{Action: "run", Package: "slow", Test: "TestA"})
	p.handle(event{Action: "start", Package: "quick"})
	clock = clock.Add(35 * time.Second)
	p.handle(event{Action: "run", Package: "slow", Test: "TestA/sub"})
	p.handle(event{Action: "run", Package: "slow", Test: "TestB"})
	clock = clock.Add(5 * time.Second)
	want := "... still running slow (50s: TestA 40s, TestB 5s); quick (40s)\n"
	if diff := cmp.Diff(want, p.status()); diff != "" {
		t.Errorf("status (-want +got):\n%s", diff)
	}
}

// TestHeartbeatAfterSilence: with no event for a while, the heartbeat
// prints, and it stops when the input ends.
func TestHeartbeatAfterSilence(t *testing.T) {
	var out syncBuffer
	p := newPrinter(&out, time.Now)
	done := make(chan struct{})
	go p.heartbeat(context.Background(), 20*time.Millisecond, done)
	defer close(done)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if strings.Contains(out.String(), "compiling packages and tests") {
			return
		}
	}
	t.Errorf("no heartbeat after a silence; output %q", out.String())
}

func TestUsage(t *testing.T) {
	var out bytes.Buffer
	if err := run(context.Background(), []string{"-every", "0"}, strings.NewReader(""), &out, &out); err == nil {
		t.Error("-every 0 accepted")
	}
}
