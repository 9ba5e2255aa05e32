package outtree

import (
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"logoindex/generator/internal/sysfs"
	"logoindex/generator/internal/wire"
)

// Commit makes the standby the live tree, in one exchange of the two
// folders where the system has one, and records both trees: the tree it
// replaced becomes the standby, which differs from the new live tree in
// the files this build wrote.
func (w *Writer) Commit() error {
	t := w.t
	if err := w.s.recordDirs(t.opts.Workers); err != nil {
		return err
	}
	if err := t.swap(); err != nil {
		return err
	}
	switch {
	case w.empty:
		t.recs.differ = nil // everything may differ
	default:
		t.recs.differ = slices.Sorted(maps.Keys(w.wrote))
	}
	if err := t.recordRoot(t.live); err != nil {
		return err
	}
	return t.saveRecords()
}

// Abort leaves the live tree as it is and records what this build wrote
// into the standby, for the next build to bring up to date.
func (w *Writer) Abort() error {
	t := w.t
	if w.empty {
		t.standby.rec = nil // a partial tree: the next build removes it
		return t.saveRecords()
	}
	if err := w.s.recordDirs(t.opts.Workers); err != nil {
		return err
	}
	t.recs.differ = slices.Sorted(maps.Keys(w.wrote)) // Begin brought the two in step
	if err := t.recordRoot(t.standby); err != nil {
		return err
	}
	return t.saveRecords()
}

// swap exchanges the standby and the live tree.
func (t *Tree) swap() error {
	sb := t.standbyDir()
	if t.live == nil {
		if err := os.Rename(sb, t.dir); err != nil {
			return err
		}
		t.live, t.standby = t.standby, nil
		t.live.dir.Moved(t.dir)
		return nil
	}
	ok, err := sysfs.Exchange(sb, t.dir)
	if err != nil {
		return err
	}
	if !ok {
		if err := t.swapByRenames(); err != nil {
			return err
		}
	}
	t.live, t.standby = t.standby, t.live
	t.live.dir.Moved(t.dir)
	t.standby.dir.Moved(sb)
	return nil
}

// swapByRenames swaps the trees where the system has no exchange: a
// moment with no output folder, which a build that dies then leaves to the
// next one to repair (cleanLeftovers).
func (t *Tree) swapByRenames() error {
	old := filepath.Join(t.state, "old")
	if err := os.Rename(t.dir, old); err != nil {
		return err
	}
	if err := os.Rename(t.standbyDir(), t.dir); err != nil {
		os.Rename(old, t.dir)
		return err
	}
	return os.Rename(old, t.standbyDir())
}

// recordRoot records the identity of the tree's folder, which the records
// are found by.
func (t *Tree) recordRoot(s *side) error {
	if s == nil || s.rec == nil {
		return nil
	}
	info, err := os.Lstat(s.dir.Path())
	if err != nil {
		return err
	}
	s.rec.dev, s.rec.ino = sysfs.DevIno(info)
	return nil
}

// saveRecords writes the records of both trees.
func (t *Tree) saveRecords() error {
	var trees []*record
	for _, s := range []*side{t.live, t.standby} {
		if s != nil && s.rec != nil && s.rec.ino != 0 {
			trees = append(trees, s.rec)
		}
	}
	return sysfs.ReplaceFile(filepath.Join(t.state, stateFile), func(w io.Writer) error {
		e := wire.NewFileEncoder(w, magic)
		e.String(sysfs.BootID())
		e.Bool(t.recs.differ != nil)
		if t.recs.differ != nil {
			e.Strings(t.recs.differ)
		}
		e.Uint(uint64(len(trees)))
		for _, r := range trees {
			if err := r.encode(e); err != nil {
				return err
			}
		}
		return e.Close()
	})
}

// PrepareStandby makes the standby hold what the live tree holds, so that
// the next build writes only what it changes: serve -watch calls it after
// its first build, so that the first save does not wait for it.
func (t *Tree) PrepareStandby() error {
	if t.live == nil {
		return nil
	}
	w, err := t.Begin()
	if err != nil {
		return err
	}
	return w.Abort()
}
