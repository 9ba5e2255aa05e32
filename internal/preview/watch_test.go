package preview

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func write(t *testing.T, name, data string, mtime time.Time) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	// Set the time explicitly: two writes within the file system's clock
	// resolution must still look different.
	if err := os.Chtimes(name, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

func TestSnapshot(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	write(t, filepath.Join(dir, "a", "logo.yaml"), "name: A\n", t0)
	snap := func() string {
		t.Helper()
		s, err := Snapshot(dir)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	prev := snap()
	if again := snap(); again != prev {
		t.Fatal("two snapshots of an unchanged tree differ")
	}
	for _, step := range []struct {
		name   string
		change func()
	}{
		{"same size, new time", func() { write(t, filepath.Join(dir, "a", "logo.yaml"), "name: B\n", t0.Add(time.Second)) }},
		{"new size, same time", func() { write(t, filepath.Join(dir, "a", "logo.yaml"), "name: Bee\n", t0.Add(time.Second)) }},
		{"new file", func() { write(t, filepath.Join(dir, "a", "icon.svg"), "<svg/>", t0) }},
		{"rename", func() {
			if err := os.Rename(filepath.Join(dir, "a", "icon.svg"), filepath.Join(dir, "a", "icon-mono.svg")); err != nil {
				t.Fatal(err)
			}
		}},
		{"remove", func() {
			if err := os.Remove(filepath.Join(dir, "a", "icon-mono.svg")); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		step.change()
		s := snap()
		if s == prev {
			t.Errorf("%s: snapshot unchanged", step.name)
		}
		prev = s
	}
	if _, err := Snapshot(filepath.Join(dir, "missing")); err == nil {
		t.Error("Snapshot of a missing folder should fail")
	}
}

// TestSnapshotIgnores checks that what the build ignores does not change
// the snapshot, so it never starts a rebuild: the default patterns, the
// patterns of .logoindexignore and the folder times they touch.
func TestSnapshotIgnores(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	write(t, filepath.Join(dir, "a", "logo.yaml"), "name: A\n", t0)
	write(t, filepath.Join(dir, ".logoindexignore"), "*.orig\ndrafts/\n", t0)
	before, err := Snapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	w := NewWatcher(dir, time.Hour)
	write(t, filepath.Join(dir, ".DS_Store"), "x", t0)
	write(t, filepath.Join(dir, "a", ".DS_Store"), "x", t0)
	write(t, filepath.Join(dir, "a", ".icon.svg.swp"), "x", t0)
	write(t, filepath.Join(dir, "a", "logo.yaml~"), "x", t0)
	write(t, filepath.Join(dir, "a", "icon.svg.orig"), "x", t0)
	write(t, filepath.Join(dir, "drafts", "b", "logo.yaml"), "x", t0)
	// Emacs' lock: a dangling link.
	if err := os.Symlink("user@host.1234:1700000000", filepath.Join(dir, "a", ".#logo.yaml")); err != nil {
		t.Fatal(err)
	}
	after, err := Snapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	if after != before {
		t.Error("an ignored file changed the snapshot")
	}
	if w.check() || w.check() {
		t.Error("the watcher reported a change of ignored files")
	}
	// The same kind of file under a name nothing ignores is a change.
	write(t, filepath.Join(dir, "a", "icon.svg.bak"), "x", t0)
	if s, _ := Snapshot(dir); s == after {
		t.Error("a file nothing ignores did not change the snapshot")
	}
}

// TestWatcherCheck steps the watcher by hand: a change is reported once it
// has held still for one look, and only once.
func TestWatcherCheck(t *testing.T) {
	dir := t.TempDir()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	write(t, filepath.Join(dir, "a.yaml"), "1", t0)
	w := NewWatcher(dir, time.Hour)
	var got []bool
	look := func() { got = append(got, w.check()) }

	look()                                                           // nothing changed
	write(t, filepath.Join(dir, "a.yaml"), "2", t0.Add(time.Second)) // a change...
	look()                                                           // ...seen, waiting to hold still
	write(t, filepath.Join(dir, "b.yaml"), "3", t0)                  // still changing
	look()
	look() // held still: report
	look() // nothing new
	write(t, filepath.Join(dir, "a.yaml"), "4", t0.Add(2*time.Second))
	look()
	write(t, filepath.Join(dir, "a.yaml"), "2", t0.Add(time.Second)) // changed back
	look()                                                           // same as the last reported state
	look()

	want := []bool{false, false, false, true, false, false, false, false}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("look %d: %v, want %v (all: %v)", i, got[i], want[i], got)
		}
	}
}

func TestWatcherRun(t *testing.T) {
	dir := t.TempDir()
	w := NewWatcher(dir, time.Millisecond)
	write(t, filepath.Join(dir, "a.yaml"), "1", time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	ctx, cancel := context.WithCancel(t.Context())
	changes := 0
	err := w.Run(ctx, func() {
		changes++
		cancel()
	})
	if !errors.Is(err, context.Canceled) || changes != 1 {
		t.Errorf("Run = %v after %d changes; want context.Canceled after 1", err, changes)
	}
}
