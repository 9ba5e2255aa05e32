// Package outtree is the output folder of a build: written whole into a
// second tree, the standby, and exchanged with the live one in a single
// rename, so that a reader, a crash or Ctrl-C sees the whole old tree or
// the whole new one, never a mix.
//
// The build's own state lives in one hidden folder beside the output
// (.<out>.logoindex): the lock that serialises builds of one output, the
// standby, the records of both trees and any file a build that died left
// behind. Nothing in it is ever published.
//
// Invariants:
//   - Only a folder that is empty or holds the marker file of an earlier
//     output is replaced.
//   - A record names what a tree holds, each file with its digest and the
//     stat it had once written. A folder whose mtime is the recorded one
//     still holds the files on record (adding, removing or renaming a file
//     changes it), so its files need no stat of their own, in the boot the
//     record was written in. A file written in place is not seen, as make
//     and ninja do not see an output edited after them.
//   - The standby is kept one build behind the live tree: the records say
//     in which files the two may differ, and Begin brings the standby up to
//     date with those alone (hard links to the live tree's files), so a
//     build writes only what it changes.
//   - Nothing outside the two trees and the state folder is touched: every
//     name on record is a clean path below its tree.
package outtree

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"logoindex/generator/internal/sysfs"
)

// Options configures a Tree. The zero value is usable.
type Options struct {
	// Marker is a file every output holds: a folder that is not empty
	// and lacks it is not an earlier output, and is never replaced.
	Marker string
	// Workers bounds the goroutines that take stats and make links; 0
	// means one per CPU.
	Workers int
}

// Tree is an output folder, locked for one build.
type Tree struct {
	opts   Options
	dir    string // the output folder
	state  string // the state folder beside it
	unlock func()

	recs          *records
	live, standby *side // nil when the folder does not exist
}

// StateDir is the hidden folder beside the output folder dir that holds
// the build's own state.
func StateDir(dir string) string {
	dir = filepath.Clean(dir)
	return filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".logoindex")
}

// Open locks the output folder dir for one build, restores or removes what
// a build that died left behind, and reads the records of its trees. It
// refuses a dir that is not an earlier output.
func Open(dir string, opts Options) (*Tree, error) {
	dir = filepath.Clean(dir)
	base := filepath.Base(dir)
	if base == "." || base == ".." || base == string(filepath.Separator) {
		return nil, fmt.Errorf("refusing to write the output to %q: name a folder of its own, such as dist", dir)
	}
	t := &Tree{opts: opts, dir: dir, state: StateDir(dir)}
	if _, err := os.Lstat(t.state); errors.Is(err, fs.ErrNotExist) {
		// No build wrote here yet: refuse a folder it may not replace
		// before leaving a state folder beside it. (open checks again,
		// under the lock.)
		if err := t.checkReplaceable(); err != nil {
			return nil, err
		}
	}
	if err := os.MkdirAll(t.state, 0o755); err != nil {
		return nil, err
	}
	unlock, err := sysfs.Lock(filepath.Join(t.state, "lock"))
	if err != nil {
		return nil, err
	}
	t.unlock = unlock
	if err := t.open(); err != nil {
		t.Close()
		return nil, err
	}
	return t, nil
}

func (t *Tree) open() error {
	if err := t.cleanLeftovers(); err != nil {
		return err
	}
	if err := t.checkReplaceable(); err != nil {
		return err
	}
	t.recs = readRecords(t.state)
	var err error
	if t.live, err = t.openSide(t.dir); err != nil {
		return err
	}
	t.standby, err = t.openSide(t.standbyDir())
	return err
}

// Dir is the output folder.
func (t *Tree) Dir() string { return t.dir }

// State is the state folder.
func (t *Tree) State() string { return t.state }

func (t *Tree) standbyDir() string { return filepath.Join(t.state, "standby") }

// Close releases the lock.
func (t *Tree) Close() {
	for _, s := range []*side{t.live, t.standby} {
		if s != nil {
			s.dir.Close()
		}
	}
	if t.unlock != nil {
		t.unlock()
		t.unlock = nil
	}
}

// openSide finds the tree at dir and its record.
func (t *Tree) openSide(dir string) (*side, error) {
	info, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	s := &side{dir: sysfs.OpenTree(dir)}
	if info.IsDir() {
		s.rec = t.recs.find(sysfs.DevIno(info))
	}
	return s, nil
}

// cleanLeftovers removes what a build that died left in the state folder,
// and puts the old tree back where a build died between the two renames
// of a swap without an atomic exchange.
func (t *Tree) cleanLeftovers() error {
	entries, err := os.ReadDir(t.state)
	if err != nil {
		return err
	}
	_, err = os.Lstat(t.dir)
	missing := errors.Is(err, fs.ErrNotExist)
	for _, e := range entries {
		p := filepath.Join(t.state, e.Name())
		switch name := e.Name(); {
		case name == "old" && missing:
			if err := os.Rename(p, t.dir); err != nil {
				return err
			}
			missing = false
		case name == "old", strings.HasPrefix(name, "tmp-"):
			if err := os.RemoveAll(p); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkReplaceable refuses an output folder that is not an earlier output.
func (t *Tree) checkReplaceable() error {
	info, err := os.Lstat(t.dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !info.IsDir():
		return fmt.Errorf("refusing to replace %s: it is not a folder", t.dir)
	}
	if t.opts.Marker != "" {
		if _, err := os.Lstat(filepath.Join(t.dir, filepath.FromSlash(t.opts.Marker))); err == nil {
			return nil
		}
	}
	entries, err := os.ReadDir(t.dir)
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("refusing to replace %s: it is not empty and holds no %s, so it is not an earlier build; remove it or choose another -out", t.dir, t.opts.Marker)
	}
	return nil
}

// sameBoot reports whether the records were written in this boot of the
// system.
func (t *Tree) sameBoot() bool {
	return t.recs.boot != "" && t.recs.boot == sysfs.BootID()
}

// Current reports whether the live tree holds n files whose names and
// digests sum to sum (digest.NameSum), and nothing else, by its record and
// the stat of its folders: then the build has nothing to write. A folder
// whose entries changed may hold files off record, which only a new tree
// leaves out.
func (t *Tree) Current(n int, sum uint64) bool {
	l := t.live
	if l == nil || l.rec == nil || l.rec.n != n || l.rec.sum != sum {
		return false
	}
	l.check(t.opts.Workers, t.sameBoot())
	return len(l.changed) == 0
}

// LiveFiles is how many files the live tree's record names and the sum of
// their names and digests (digest.NameSum); ok is false when there is no
// record of it.
func (t *Tree) LiveFiles() (n int, sum uint64, ok bool) {
	if t.live == nil || t.live.rec == nil {
		return 0, 0, false
	}
	return t.live.rec.n, t.live.rec.sum, true
}
