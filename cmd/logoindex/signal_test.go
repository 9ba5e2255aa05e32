//go:build unix

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"logoindex/internal/testtree"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// largeSource copies the shipped collection n times under new slugs, for a
// build that takes seconds.
func largeSource(t *testing.T, n int) string {
	t.Helper()
	from, err := filepath.Abs("../../source-logos")
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(t.TempDir(), "src")
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	copyFile := func(a, b string) {
		data, err := os.ReadFile(a)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(b, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(src, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(filepath.Join(from, "categories.yaml"), filepath.Join(src, "categories.yaml"))
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		files, _ := os.ReadDir(filepath.Join(from, e.Name()))
		for i := range n {
			dir := filepath.Join(src, fmt.Sprintf("%s-x%d", e.Name(), i))
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, f := range files {
				copyFile(filepath.Join(from, e.Name(), f.Name()), filepath.Join(dir, f.Name()))
			}
		}
	}
	return src
}

// TestSignalStopsBuild sends SIGINT or SIGTERM to the real binary while
// it checks or builds a few thousand logos: at the start, while it checks,
// and once it writes its temporary tree. It must exit within a second with
// 130 or 143 and leave dist/ exactly as it was.
func TestSignalStopsBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a few thousand logos; skipped with -short")
	}
	bin := buildBinary(t)
	src := largeSource(t, 10)
	dir := t.TempDir()
	command := func(args ...string) *exec.Cmd {
		cmd := exec.Command(bin, args...)
		cmd.Dir = dir
		return cmd
	}
	if out, err := command("build", "-src", src, "-out", "dist", "-base-url", "https://a.example").CombinedOutput(); err != nil {
		t.Fatalf("first build: %v\n%s", err, out)
	}
	before := testtree.ReadFiles(t, filepath.Join(dir, "dist"))
	// checking returns once the command reads the source, which it opens
	// after it listens for signals: a signal while a loaded machine still
	// starts the process would end it the default way, before main runs.
	checking := func(r *buildRun) {
		for start := time.Now(); time.Since(start) < 30*time.Second && !r.exited; time.Sleep(time.Millisecond) {
			if holdsOpen(r.cmd.Process.Pid, src) {
				time.Sleep(20 * time.Millisecond)
				return
			}
		}
	}

	for _, tc := range []struct {
		name  string
		args  []string
		sig   syscall.Signal
		code  int
		after func(r *buildRun) // returns when the signal is to be sent
	}{
		{"build, SIGINT while checking", []string{"build"}, syscall.SIGINT, 130, checking},
		{"build, SIGTERM while writing", []string{"build"}, syscall.SIGTERM, 143, func(r *buildRun) { r.waitForTemp() }},
		{"build, SIGINT while writing", []string{"build"}, syscall.SIGINT, 130, func(r *buildRun) { r.waitForTemp() }},
		{"check, SIGINT", []string{"check"}, syscall.SIGINT, 130, checking},
		{"check, SIGTERM", []string{"check"}, syscall.SIGTERM, 143, checking},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append(tc.args, "-src", src)
			if tc.args[0] == "build" {
				args = append(args, "-out", "dist", "-base-url", "https://b.example", "-no-cache")
			}
			cmd := command(args...)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			r := startBuild(t, cmd, dir)
			tc.after(r)
			if r.exited {
				t.Fatalf("%s finished before the signal; the source is too small for this machine", tc.args[0])
			}
			sent := time.Now()
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			var err error
			select {
			case err = <-r.done:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill()
				t.Fatalf("still running 10 s after %v", tc.sig)
			}
			took := time.Since(sent)
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tc.code {
				t.Errorf("exit %v, want status %d; stderr:\n%s", err, tc.code, stderr.String())
			}
			if took > time.Second {
				t.Errorf("exited %v after %v; want within a second", took.Round(time.Millisecond), tc.sig)
			}
			if !strings.Contains(stderr.String(), "logoindex: interrupted by SIG") {
				t.Errorf("stderr does not say it was interrupted:\n%s", stderr.String())
			}
			if diff := cmp.Diff(before, testtree.ReadFiles(t, filepath.Join(dir, "dist"))); diff != "" {
				t.Errorf("dist changed (-before +after):\n%.2000s", diff)
			}
			t.Logf("%v: exit %d after %v", tc.sig, tc.code, took.Round(time.Millisecond))
		})
	}
}

// holdsOpen reports whether process pid has path open, on Linux from
// /proc; elsewhere it waits a second and says yes.
func holdsOpen(pid int, path string) bool {
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		if _, statErr := os.Stat("/proc/self/fd"); statErr != nil {
			time.Sleep(time.Second)
			return true
		}
		return false
	}
	for _, fd := range fds {
		if target, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name())); err == nil && target == path {
			return true
		}
	}
	return false
}

// TestSignalStopsServe stops a serving, watching preview with SIGTERM.
func TestSignalStopsServe(t *testing.T) {
	bin := buildBinary(t)
	dir := inTempDir(t, goodSource())
	cmd := exec.Command(bin, "serve", "-addr", "127.0.0.1:0", "-watch", "-src", "source-logos", "-dir", "dist")
	cmd.Dir = dir
	stdout := newLineLog()
	cmd.Stdout, cmd.Stderr = stdout, stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	if _, err := stdout.waitFor(ctx, regexp.MustCompile(`^built 1 logo`)); err != nil {
		cmd.Process.Kill()
		t.Fatal(err)
	}
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 143 {
			t.Errorf("exit %v, want status 143; output:\n%s", err, stdout.String())
		}
		if want := "logoindex: interrupted by SIGTERM; stopped serving dist, which holds the last good build"; stdout.count(want) != 1 {
			t.Errorf("serve did not say %q; output:\n%s", want, stdout.String())
		}
		if took := time.Since(sent); took > time.Second {
			t.Errorf("serve exited %v after SIGTERM; want within a second", took.Round(time.Millisecond))
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("serve still running 10 s after SIGTERM")
	}
}

// TestNamedPipeInSource puts a named pipe where icon.svg belongs. Opening
// it would wait for ever for a writer; check and build must refuse it and
// return at once with an error naming it.
func TestNamedPipeInSource(t *testing.T) {
	dir := inTempDir(t, goodSource())
	fifo := filepath.Join(dir, "source-logos/gitlab/icon.svg")
	os.Remove(fifo)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	t.Cleanup(func() { // releases a reader, should one be waiting
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	want := "source-logos/gitlab/icon.svg: is a named pipe (FIFO), not a regular file; it was not opened: replace it with a regular file\n"
	for _, cmd := range []string{"check", "build"} {
		type result struct {
			code   int
			stderr string
		}
		done := make(chan result, 1)
		go func() {
			code, _, stderr := runCmd(cmd)
			done <- result{code, stderr}
		}()
		select {
		case r := <-done:
			if r.code != 1 || r.stderr != want {
				t.Errorf("%s: exit %d, stderr:\n%s\nwant exit 1 and:\n%s", cmd, r.code, r.stderr, want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s is still waiting on the named pipe after 20 s", cmd)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "dist")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("build wrote dist: %v", err)
	}
}
