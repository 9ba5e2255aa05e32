//go:build unix

package main

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"logoindex/generator/outtree"
)

// TestStateDirAsBuild: the uploader finds the lock where the build keeps
// it.
func TestStateDirAsBuild(t *testing.T) {
	for _, dir := range []string{"dist", "out/dist", "/srv/logos/", "./a/../b"} {
		if got, want := stateDir(dir), outtree.StateDir(dir); got != want {
			t.Errorf("stateDir(%q) = %q, outtree.StateDir = %q", dir, got, want)
		}
	}
}

// TestLockBuildWaits: the tree is not read while a build holds its lock,
// and a folder no build wrote is read at once.
func TestLockBuildWaits(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dist")
	unlock, err := lockBuild(dir, func() { t.Error("waited for a folder no build wrote") })
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	if _, err := os.Stat(stateDir(dir)); err == nil {
		t.Errorf("lockBuild made %s", stateDir(dir))
	}

	if err := os.MkdirAll(stateDir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	held, err := os.OpenFile(filepath.Join(stateDir(dir), "lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := unix.Flock(int(held.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	waited := make(chan bool, 1)
	done := make(chan error, 1)
	go func() {
		unlock, err := lockBuild(dir, func() { waited <- true })
		if err == nil {
			unlock()
		}
		done <- err
	}()
	<-waited
	select {
	case err := <-done:
		t.Fatalf("lockBuild returned (%v) while the build held the lock", err)
	case <-time.After(200 * time.Millisecond):
	}
	held.Close() // the build ends
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
