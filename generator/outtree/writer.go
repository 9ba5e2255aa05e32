package outtree

import (
	"bufio"
	"context"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"

	"logoindex/generator/internal/digest"
	"logoindex/generator/internal/spill"
	"logoindex/generator/internal/sysfs"
	"logoindex/generator/internal/wire"
	"logoindex/internal/par"
)

// Writer writes a build's files into the standby, which Commit then
// exchanges with the live tree.
type Writer struct {
	t *Tree
	// s is the standby; its mu guards its record and the writer's own
	// state (wrote, made).
	s, live *side
	// empty: the standby was made empty for this build, so it holds only
	// what the build put there.
	empty  bool
	lost   []string
	strays []string

	// wrote names every file the build put into or removed from the
	// standby: after the swap, the two trees differ in those alone.
	wrote map[string]bool
	// made is the folders this build made, in an empty standby.
	made map[string]bool
}

// Begin opens the standby for writing, holding what the live tree holds:
// the files in which the two may differ are linked from the live tree or
// removed; with no standby to go by, it is made anew of links to every
// file of the live tree. Files on the live tree's record that are gone
// and that the standby does not hold either are Lost.
func (t *Tree) Begin() (*Writer, error) {
	if t.live == nil || t.live.rec == nil {
		return t.BeginEmpty()
	}
	t.live.check(t.opts.Workers, t.sameBoot())
	if err := t.live.rec.buildIndex(); err != nil {
		return t.BeginEmpty()
	}
	lost := t.live.verify(t.opts.Workers)
	strays := t.live.strays()
	w, err := t.begin(lost)
	if w != nil {
		w.strays = strays
	}
	return w, err
}

// begin opens the standby, caught up with the live tree, whose files lost
// are gone.
func (t *Tree) begin(lost []string) (*Writer, error) {
	if t.standby == nil || t.standby.rec == nil || t.standby.rec.buildIndex() != nil {
		return t.copyLive(lost)
	}
	if t.recs.differ == nil {
		t.recs.differ = differ(t.live.rec, t.standby.rec)
	}
	w := t.writer(false)
	if err := w.catchUp(lost); err != nil {
		return nil, err
	}
	return w, nil
}

// BeginEmpty opens a standby made empty, for a build that writes every
// file: it trusts nothing on disk.
func (t *Tree) BeginEmpty() (*Writer, error) {
	if err := t.newStandby(); err != nil {
		return nil, err
	}
	sp, err := spill.New(t.state, "tmp-spill-")
	if err != nil {
		return nil, err
	}
	t.standby.rec.spilled = sp
	return t.writer(true), nil
}

func (t *Tree) writer(empty bool) *Writer {
	return &Writer{t: t, s: t.standby, live: t.live, empty: empty, wrote: map[string]bool{}, made: map[string]bool{}}
}

// newStandby removes the standby and makes an empty one.
func (t *Tree) newStandby() error {
	dir := t.standbyDir()
	if t.standby != nil {
		t.standby.dir.Close()
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	t.standby = &side{dir: sysfs.OpenTree(dir), rec: newRecord(), checked: true}
	return nil
}

// copyLive makes the standby anew of links to the live tree's files,
// which stand by its record, on every CPU.
func (t *Tree) copyLive(lost []string) (*Writer, error) {
	if err := t.newStandby(); err != nil {
		return nil, err
	}
	w := t.writer(false)
	w.lost = lost
	live := t.live.rec
	dirs := map[string]bool{}
	var names []string
	live.eachFile(func(name string, _ file) error {
		names = append(names, name)
		for _, d := range parents(name) {
			dirs[d] = true
		}
		return nil
	})
	// Folders level by level, each level on every CPU, then the links.
	var levels [][]string
	for d := range dirs {
		depth := len(parents(d))
		for len(levels) <= depth {
			levels = append(levels, nil)
		}
		levels[depth] = append(levels[depth], d)
	}
	for _, level := range levels {
		if err := t.each(level, func(d string) error { return w.s.dir.Mkdir(d) }); err != nil {
			return nil, err
		}
	}
	if err := t.each(names, func(name string) error { return w.s.dir.Link(t.live.dir, name) }); err != nil {
		return nil, err
	}
	w.s.rec = live.copy()
	for d := range dirs {
		w.s.touch(d)
	}
	w.s.touch(".")
	t.recs.differ = []string{}
	return w, nil
}

// differ lists the files in which two records differ.
func differ(a, b *record) []string {
	names := []string{}
	a.eachFile(func(name string, f file) error {
		if g, ok := b.lookup(name); !ok || g.Sum != f.Sum {
			names = append(names, name)
		}
		return nil
	})
	b.eachFile(func(name string, _ file) error {
		if _, ok := a.lookup(name); !ok {
			names = append(names, name)
		}
		return nil
	})
	return names
}

// each runs fn on every name, on every CPU, and returns the first error.
func (t *Tree) each(names []string, fn func(string) error) error {
	errs := make([]error, len(names))
	par.For(context.Background(), len(names), t.opts.Workers, func(i int) { errs[i] = fn(names[i]) })
	return errors.Join(errs...)
}

// catchUp brings the standby up to date with the live tree: the files the
// records say may differ, those of the standby's changed folders, and
// those the live tree lost.
func (w *Writer) catchUp(lostLive []string) error {
	s, live := w.s, w.live
	s.check(w.t.opts.Workers, w.t.sameBoot())
	names := append(slices.Clone(w.t.recs.differ), s.verify(w.t.opts.Workers)...)
	if err := s.clean(); err != nil {
		return err
	}
	var gone []string
	for _, name := range lostLive {
		w.lost = append(w.lost, name)
		if err := w.remove(name); err != nil {
			return err
		}
		gone = append(gone, name)
	}
	for _, name := range names {
		f, ok := live.rec.lookup(name)
		switch {
		case slices.Contains(w.lost, name):
		case !ok:
			if err := w.remove(name); err != nil {
				return err
			}
			gone = append(gone, name)
		case !s.holds(name, f):
			if err := w.link(name, f); err != nil {
				return err
			}
		}
	}
	w.prune(gone)
	clear(w.wrote) // the standby now holds what the live tree holds
	return nil
}

// Lost names the files on the live tree's record that neither tree holds
// any more: their owner must make them again.
func (w *Writer) Lost() []string { return w.lost }

// Strays names what the live tree holds that no build wrote: the new tree
// leaves it out.
func (w *Writer) Strays() []string { return w.strays }

// Files is how many files the standby holds and the sum of their names
// and digests (digest.NameSum).
func (w *Writer) Files() (int, uint64) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	return w.s.rec.n, w.s.rec.sum
}

// Has makes the standby hold the file name with digest sum if the standby
// or the live tree does, and reports whether it now holds it.
func (w *Writer) Has(name string, sum digest.Sum) bool {
	f := file{Sum: sum}
	if w.s.holds(name, f) {
		return true
	}
	if w.live == nil || !w.live.holds(name, f) {
		return false
	}
	w.live.mu.Lock()
	f, _ = w.live.rec.lookup(name)
	w.live.mu.Unlock()
	return w.link(name, f) == nil
}

// Copy makes the standby hold at name the file it holds at from, whose
// digest is sum: a file served at two addresses (the artwork of a logo at
// the address of the logo it replaced), as a hard link.
func (w *Writer) Copy(from, name string, sum digest.Sum) error {
	if !w.empty && w.s.holds(name, file{Sum: sum}) {
		return nil
	}
	return w.create(name, func() (file, error) {
		if err := w.s.dir.LinkAs(w.s.dir, from, name); err != nil {
			return file{}, err
		}
		st, err := w.s.dir.StatTree(name)
		return file{Sum: sum, Size: st.Size, MTime: st.MTime, Ino: st.Ino}, err
	})
}

// link makes name in the standby a hard link to the live tree's copy.
func (w *Writer) link(name string, f file) error {
	return w.create(name, func() (file, error) { return f, w.s.dir.Link(w.live.dir, name) })
}

// Put makes the standby hold data, whose digest is sum, at name.
func (w *Writer) Put(name string, sum digest.Sum, data []byte) error {
	if !w.empty && w.s.holds(name, file{Sum: sum}) {
		return nil
	}
	return w.create(name, func() (file, error) {
		st, err := w.s.dir.Create(name, data)
		return file{Sum: sum, Size: st.Size, MTime: st.MTime, Ino: st.Ino}, err
	})
}

// create makes the file name by make, which must not find one there: a
// file on record is removed first (never written into: it may be a link
// to the live tree's copy), and a missing folder is made.
func (w *Writer) create(name string, make func() (file, error)) error {
	d := path.Dir(name)
	if w.empty {
		if err := w.mkdirOnce(d); err != nil {
			return err
		}
	} else if err := w.remove(name); err != nil {
		return err
	}
	f, err := make()
	if errors.Is(err, fs.ErrNotExist) {
		if err = w.s.dir.MkdirAll(d); err == nil {
			w.touchAll(d)
			f, err = make()
		}
	}
	if errors.Is(err, fs.ErrExist) { // a file off record
		if err = w.s.dir.Remove(name); err == nil {
			f, err = make()
		}
	}
	if err != nil {
		return err
	}
	return w.record(name, f)
}

// mkdirOnce makes folder d of an empty standby, unless this build did.
func (w *Writer) mkdirOnce(d string) error {
	w.s.mu.Lock()
	done := w.made[d]
	w.s.mu.Unlock()
	if done || d == "." {
		return nil
	}
	if err := w.s.dir.MkdirAll(d); err != nil {
		return err
	}
	w.s.mu.Lock()
	for ; d != "."; d = path.Dir(d) {
		w.made[d] = true
	}
	w.s.mu.Unlock()
	return nil
}

func (w *Writer) touchAll(d string) {
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	for ; ; d = path.Dir(d) {
		w.s.touch(d)
		if d == "." {
			return
		}
	}
}

// record notes that the standby holds f at name.
func (w *Writer) record(name string, f file) error {
	if w.empty {
		if _, err := w.s.rec.spilled.AddWith(func(e *wire.Encoder) { encodeFile(e, name, f) }); err != nil {
			return err
		}
		w.s.mu.Lock()
		w.s.rec.n++
		w.s.rec.sum += digest.NameSum(name, f.Sum)
		w.s.mu.Unlock()
		return nil
	}
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	w.s.rec.set(name, f)
	w.s.touch(path.Dir(name))
	w.wrote[name] = true
	return nil
}

// remove removes name from the standby, if it holds it.
func (w *Writer) remove(name string) error {
	w.s.mu.Lock()
	_, ok := w.s.rec.lookup(name)
	w.s.mu.Unlock()
	if !ok {
		return nil
	}
	if err := w.s.dir.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	w.s.mu.Lock()
	defer w.s.mu.Unlock()
	w.s.rec.delete(name)
	w.s.touch(path.Dir(name))
	w.wrote[name] = true
	return nil
}

// PutStream makes the standby hold the file name as write writes it: into
// a new file beside it, digested as it is written, which then replaces the
// standby's copy unless that holds the same bytes. Large files are made
// this way, never whole in memory.
func (w *Writer) PutStream(name string, write func(io.Writer) error) (digest.Sum, error) {
	d := path.Dir(name)
	if w.empty {
		if err := w.mkdirOnce(d); err != nil {
			return digest.Sum{}, err
		}
	}
	tmp := path.Join(d, ".new-"+strconv.FormatUint(rand.Uint64(), 36))
	f, err := os.OpenFile(filepath.Join(w.s.dir.Path(), filepath.FromSlash(tmp)), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrNotExist) {
		if err = w.s.dir.MkdirAll(d); err == nil {
			w.touchAll(d)
			f, err = os.OpenFile(filepath.Join(w.s.dir.Path(), filepath.FromSlash(tmp)), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		}
	}
	if err != nil {
		return digest.Sum{}, err
	}
	h := digest.New()
	bw := bufio.NewWriterSize(io.MultiWriter(f, h), 64<<10)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	var info fs.FileInfo
	if err == nil {
		info, err = f.Stat()
	}
	if err = errors.Join(err, f.Close()); err != nil {
		w.s.dir.Remove(tmp)
		return digest.Sum{}, err
	}
	sum := h.Sum()
	w.touchAll(d) // by the new file, at least
	if !w.empty && w.s.holds(name, file{Sum: sum}) {
		return sum, w.s.dir.Remove(tmp)
	}
	if err := w.s.dir.Rename(tmp, name); err != nil {
		w.s.dir.Remove(tmp)
		return sum, err
	}
	st := sysfs.StatOf(info)
	return sum, w.record(name, file{Sum: sum, Size: st.Size, MTime: st.MTime, Ino: st.Ino})
}

// Finish removes from the standby every file but the n that names gives,
// and the folders that leaves empty. The standby holds each of them by
// now: when it holds n files in all, there is nothing to remove.
func (w *Writer) Finish(n int, names func(yield func(string) bool)) error {
	if w.empty {
		return nil
	}
	if have, _ := w.Files(); have == n {
		return nil
	}
	want := make(map[string]bool, n)
	for name := range names {
		want[name] = true
	}
	var gone []string
	w.s.rec.eachFile(func(name string, _ file) error {
		if !want[name] {
			gone = append(gone, name)
		}
		return nil
	})
	for _, name := range gone {
		if err := w.remove(name); err != nil {
			return err
		}
	}
	w.prune(gone)
	return nil
}

// prune removes the folders that removing the files gone left empty,
// deepest first: a clean build makes no empty folder.
func (w *Writer) prune(gone []string) {
	dirs := map[string]bool{}
	for _, name := range gone {
		for _, d := range parents(name) {
			dirs[d] = true
		}
	}
	for _, d := range slices.SortedFunc(func(yield func(string) bool) {
		for d := range dirs {
			if !yield(d) {
				return
			}
		}
	}, func(a, b string) int { return len(b) - len(a) }) {
		if w.s.dir.Remove(d) == nil {
			delete(w.s.rec.dirs, d)
			w.s.touch(path.Dir(d))
		}
	}
}
