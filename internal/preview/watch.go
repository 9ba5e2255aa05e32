package preview

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"logoindex/generator/ignore"
)

// DefaultInterval is how often a Watcher looks at the sources: often
// enough to feel immediate, rare enough that a stat walk of thousands of
// files costs nothing noticeable. Polling needs no file-notification
// dependency and works the same on every system and file system.
const DefaultInterval = 500 * time.Millisecond

// Snapshot fingerprints the tree under dir: the name, size, mode and
// modification time of every entry, links not followed. It changes when a
// file is added, removed, renamed or rewritten, without reading any file.
// It skips what the build skips: the files dir/.logoindexignore and the
// default patterns ignore (package ignore), so that an editor's swap file
// or .DS_Store does not start a rebuild. The time and size of a folder are
// left out too: they change when such a file comes or goes, and the names
// of the entries already tell what a folder holds.
func Snapshot(dir string) (string, error) {
	// A bad ignore file is the build's to report; its valid lines and the
	// defaults still apply here.
	m, _ := ignore.Load(os.DirFS(dir), "")
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel != "." && m.Match(rel, d.IsDir()) != nil {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			fmt.Fprintf(h, "%q/\n", rel)
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%q %d %o %d\n", rel, info.Size(), info.Mode(), info.ModTime().UnixNano())
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Watcher polls a folder for changes.
type Watcher struct {
	dir      string
	interval time.Duration
	last     string // the snapshot changes are measured from
	pending  string // a new snapshot waiting to hold still
}

// NewWatcher returns a watcher of dir that looks every interval (0 means
// DefaultInterval). Changes count from now: NewWatcher takes the first
// snapshot.
func NewWatcher(dir string, interval time.Duration) *Watcher {
	if interval <= 0 {
		interval = DefaultInterval
	}
	last, _ := Snapshot(dir) // a tree that cannot be read yet counts as changed once it can
	return &Watcher{dir: dir, interval: interval, last: last}
}

// check looks once. It reports a change when the tree differs from the
// last reported state and has held still since the previous look, so a
// burst of saves (an editor, a git checkout) gives one rebuild, not one a
// file.
func (w *Watcher) check() bool {
	now, err := Snapshot(w.dir)
	if err != nil {
		return false // a folder mid-rename: look again next time
	}
	switch {
	case now == w.last:
		w.pending = ""
	case now == w.pending:
		w.last, w.pending = now, ""
		return true
	default:
		w.pending = now
	}
	return false
}

// Run calls onChange after each change until ctx is done, and returns
// ctx's error. onChange runs on Run's goroutine: changes made while it
// runs are seen on the next look.
func (w *Watcher) Run(ctx context.Context, onChange func()) error {
	tick := time.NewTicker(w.interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
			if w.check() {
				onChange()
			}
		}
	}
}
