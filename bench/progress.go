package main

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// interactive is whether stderr is a terminal: progress bars there, plain
// log lines anywhere else (a CI log, a pipe, a file).
var interactive = term.IsTerminal(int(os.Stderr.Fd()))

// logEvery is how often a stage without a terminal says how far it got.
const logEvery = 30 * time.Second

// stage is one step of a run that may take more than a second. On a
// terminal it draws a progress bar (a spinner when total is unknown) whose
// elapsed time keeps moving between steps; elsewhere it logs a line when it
// starts, one every logEvery, and one when it ends.
type stage struct {
	name  string
	total int // -1: unknown
	start time.Time
	bar   *progressbar.ProgressBar

	mu       sync.Mutex
	done     int
	detail   string
	lastLog  time.Time
	stopTick func()
}

func startStage(name string, total int) *stage {
	s := &stage{name: name, total: total, start: time.Now(), lastLog: time.Now(), stopTick: func() {}}
	if !interactive {
		if total >= 0 {
			logf("%s: %d to do", name, total)
		} else {
			logf("%s", name)
		}
		s.stopTick = poll(s.tick)
		return s
	}
	s.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(os.Stderr),
		progressbar.OptionSetDescription(fitLine(name)),
		progressbar.OptionSetWidth(20),
		progressbar.OptionShowCount(),
		progressbar.OptionSetElapsedTime(true),
		progressbar.OptionSetPredictTime(total > 0),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSpinnerType(14),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetRenderBlankState(true),
	)
	if total >= 0 {
		// A bar redraws only when it moves; this keeps the elapsed time
		// going during a long step (a 10-second build).
		s.stopTick = poll(s.tick)
	}
	return s
}

func (s *stage) tick() bool {
	if s.bar != nil {
		s.bar.Add(0)
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if time.Since(s.lastLog) >= logEvery {
		s.lastLog = time.Now()
		logf("%s: %s", s.name, s.progressLocked())
	}
	return true
}

// poll calls fn four times a second until fn returns false or stop is
// called; stop returns after fn's last call.
func poll(fn func() bool) (stop func()) {
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(250 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if !fn() {
					return
				}
			}
		}
	})
	return func() { close(done); wg.Wait() }
}

// progressLocked says how far the stage got, for the plain log.
func (s *stage) progressLocked() string {
	var b strings.Builder
	if s.total >= 0 {
		fmt.Fprintf(&b, "%d of %d", s.done, s.total)
	}
	if s.detail != "" {
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s.detail)
	}
	if b.Len() > 0 {
		b.WriteString(", ")
	}
	fmt.Fprintf(&b, "%s so far", time.Since(s.start).Round(time.Second))
	return b.String()
}

// Add counts n more steps done.
func (s *stage) Add(n int) {
	s.mu.Lock()
	s.done += n
	s.mu.Unlock()
	if s.bar != nil {
		s.bar.Add(n)
	}
}

// Set says n steps are done.
func (s *stage) Set(n int) {
	s.mu.Lock()
	s.done = n
	s.mu.Unlock()
	if s.bar != nil {
		s.bar.Set(n)
	}
}

// Logf logs a line above the bar.
func (s *stage) Logf(format string, args ...any) {
	if s.bar != nil {
		s.bar.Clear()
	}
	logf(format, args...)
	if s.bar != nil {
		s.bar.Add(0)
	}
}

// Describe shows what the stage is doing now (a build's run, its memory).
func (s *stage) Describe(detail string) {
	s.mu.Lock()
	s.detail = detail
	s.mu.Unlock()
	if s.bar != nil {
		s.bar.Describe(fitLine(s.name + ": " + detail))
	}
}

// fitLine shortens a bar's description so that the bar fits on one line of
// the terminal: a bar that wraps draws a new line each time.
func fitLine(desc string) string {
	cols, _, err := term.GetSize(int(os.Stderr.Fd()))
	if err != nil {
		return desc
	}
	room := max(cols-60, 20) // the bar, its percentage, count and times
	if r := []rune(desc); len(r) > room {
		return string(r[:room-1]) + "…"
	}
	return desc
}

// End removes the bar and logs one line with the summary and the time the
// stage took.
func (s *stage) End(format string, args ...any) time.Duration {
	s.stopTick()
	if s.bar != nil {
		s.bar.Finish()
		s.bar.Clear()
	}
	took := time.Since(s.start)
	logf("%s: %s (%s)", s.name, fmt.Sprintf(format, args...), roundDuration(took))
	return took
}

// roundDuration rounds to a tenth of a second under ten seconds and to
// seconds above.
func roundDuration(d time.Duration) time.Duration {
	if d < 10*time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}

func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
}

// loadAverage is the first three fields of /proc/loadavg (1, 5 and 15
// minutes), or "" where there is none.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return ""
	}
	return strings.Join(f[:3], " ")
}
