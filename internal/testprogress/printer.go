package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"
)

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action     string
	Package    string
	ImportPath string // of build-output events
	Test       string
	Output     string
}

// printer turns events into go test's plain output, holding each
// top-level test's lines until it ends: a failing test's are printed,
// the others dropped.
type printer struct {
	mu      sync.Mutex
	w       io.Writer
	now     func() time.Time
	last    time.Time                       // of the last line printed
	started map[string]time.Time            // running packages
	running map[string]map[string]time.Time // their running top-level tests
	held    map[string][]string             // package + "\x00" + test: its lines
	failed  bool
}

func newPrinter(w io.Writer, now func() time.Time) *printer {
	return &printer{w: w, now: now, last: now(), started: map[string]time.Time{}, running: map[string]map[string]time.Time{}, held: map[string][]string{}}
}

// read prints the events of r until its end. A line that is not an
// event (go test's own complaints) is printed as it is.
func (p *printer) read(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var e event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Action == "" {
			p.print(sc.Text() + "\n")
			continue
		}
		p.handle(e)
	}
	return sc.Err()
}

func (p *printer) handle(e event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	top, _, _ := strings.Cut(e.Test, "/")
	key := e.Package + "\x00" + top
	switch {
	case e.Action == "build-output":
		p.printLocked(e.Output)
	case e.Action == "build-fail":
		p.failed = true
	case e.Test == "":
		p.packageEvent(e)
	case e.Action == "run" && e.Test == top:
		p.running[e.Package][top] = p.now()
	case e.Action == "output":
		p.held[key] = append(p.held[key], e.Output)
	case e.Test == top && (e.Action == "pass" || e.Action == "fail" || e.Action == "skip"):
		if e.Action == "fail" {
			for _, line := range p.held[key] {
				if !chatter(line) {
					p.printLocked(line)
				}
			}
		}
		delete(p.held, key)
		delete(p.running[e.Package], top)
	}
}

// packageEvent handles an event of a package as a whole: its start, its
// own output (the "ok" or "FAIL" line, a panic outside any test) and its
// end.
func (p *printer) packageEvent(e event) {
	switch e.Action {
	case "start":
		p.started[e.Package] = p.now()
		p.running[e.Package] = map[string]time.Time{}
	case "output":
		if e.Output != "PASS\n" && !chatter(e.Output) {
			p.printLocked(e.Output)
		}
	case "pass", "fail", "skip":
		if e.Action == "fail" {
			p.failed = true
		}
		delete(p.started, e.Package)
		delete(p.running, e.Package)
	}
}

// chatter reports whether line is one that go test prints only with -v.
func chatter(line string) bool {
	t := strings.TrimLeft(line, " ")
	for _, prefix := range []string{"=== RUN", "=== PAUSE", "=== CONT", "=== NAME", "--- PASS", "--- SKIP"} {
		if strings.HasPrefix(t, prefix) {
			return true
		}
	}
	return false
}

func (p *printer) print(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.printLocked(s)
}

func (p *printer) printLocked(s string) {
	io.WriteString(p.w, s)
	p.last = p.now()
}

// heartbeat names what is running each time every passes without a line,
// until done is closed or ctx ends.
func (p *printer) heartbeat(ctx context.Context, every time.Duration, done <-chan struct{}) {
	t := time.NewTicker(every / 4)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-done:
			return
		case <-t.C:
		}
		p.mu.Lock()
		if p.now().Sub(p.last) >= every {
			p.printLocked(p.status())
		}
		p.mu.Unlock()
	}
}

// status is the heartbeat's line: the running packages, longest first,
// each with its running tests, or that test binaries are being compiled.
func (p *printer) status() string {
	now := p.now()
	if len(p.started) == 0 {
		return "... compiling packages and tests\n"
	}
	pkgs := make([]string, 0, len(p.started))
	for pkg := range p.started {
		pkgs = append(pkgs, pkg)
	}
	slices.SortFunc(pkgs, func(a, b string) int { return p.started[a].Compare(p.started[b]) })
	var parts []string
	for _, pkg := range pkgs {
		tests := make([]string, 0, len(p.running[pkg]))
		for name := range p.running[pkg] {
			tests = append(tests, name)
		}
		slices.SortFunc(tests, func(a, b string) int { return p.running[pkg][a].Compare(p.running[pkg][b]) })
		for i, name := range tests {
			tests[i] = fmt.Sprintf("%s %s", name, since(now, p.running[pkg][name]))
		}
		part := fmt.Sprintf("%s (%s", pkg, since(now, p.started[pkg]))
		if len(tests) > 0 {
			part += ": " + strings.Join(tests, ", ")
		}
		parts = append(parts, part+")")
	}
	return "... still running " + strings.Join(parts, "; ") + "\n"
}

func since(now, t time.Time) string { return now.Sub(t).Round(time.Second).String() }
