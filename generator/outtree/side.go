package outtree

import (
	"context"
	"errors"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"
	"syscall"

	"logoindex/generator/internal/sysfs"
	"logoindex/internal/par"
)

// side is one of the two trees: the live one, at the output folder, or the
// standby, in the state folder.
type side struct {
	dir *sysfs.Dir
	rec *record // nil when unknown: nothing in the tree is trusted

	// checked: check compared every folder on record with its stat.
	// changed holds those that differ, or every folder when the record
	// is of another boot, when files written without a sync may have
	// lost their data while their folders kept their mtimes.
	checked bool
	changed map[string]bool

	mu sync.Mutex
	// touched are the folders whose entries this build changed, which
	// get a new mtime on record at the end.
	touched map[string]bool
}

// check takes the stat of every folder on record. It must run before the
// tree's files are looked up (stands).
func (s *side) check(workers int, sameBoot bool) {
	if s.checked || s.rec == nil {
		return
	}
	s.checked = true
	dirs := slices.Collect(maps.Keys(s.rec.dirs))
	changed := make([]bool, len(dirs))
	par.For(context.Background(), len(dirs), workers, func(i int) {
		st, err := s.dir.StatTree(dirs[i])
		changed[i] = !sameBoot || err != nil || !st.Mode.IsDir() || st.MTime != s.rec.dirs[dirs[i]]
	})
	s.changed = map[string]bool{}
	for i, d := range dirs {
		if changed[i] {
			s.changed[d] = true
		}
	}
}

// stands reports whether the record of the files in folder d stands for
// them with no stat of their own: d is on record and unchanged.
func (s *side) stands(d string) bool {
	if _, ok := s.rec.dirs[d]; !ok {
		return false
	}
	return s.checked && !s.changed[d]
}

// holds reports whether the tree holds the file name with digest sum: by
// its record, and by the stat of its folder or else of the file itself.
func (s *side) holds(name string, f file) bool {
	if s.rec == nil {
		return false
	}
	s.mu.Lock()
	got, ok := s.rec.lookup(name)
	s.mu.Unlock()
	if !ok || got.Sum != f.Sum {
		return false
	}
	if s.stands(path.Dir(name)) {
		return true
	}
	st, err := s.dir.StatTree(name)
	return err == nil && st.Mode.IsRegular() && st.Size == got.Size && st.MTime == got.MTime && st.Ino == got.Ino
}

// verify drops from the record every file in a changed folder whose stat
// is not the recorded one, and returns their names.
func (s *side) verify(workers int) []string {
	if len(s.changed) == 0 {
		return nil
	}
	var names []string
	var files []file
	s.rec.eachFile(func(name string, f file) error {
		if s.changed[path.Dir(name)] {
			names, files = append(names, name), append(files, f)
		}
		return nil
	})
	bad := make([]bool, len(names))
	par.For(context.Background(), len(names), workers, func(i int) {
		f := files[i]
		st, err := s.dir.StatTree(names[i])
		bad[i] = err != nil || !st.Mode.IsRegular() || st.Size != f.Size || st.MTime != f.MTime || st.Ino != f.Ino
	})
	var lost []string
	for i, name := range names {
		if bad[i] {
			s.rec.delete(name)
			lost = append(lost, name)
		}
	}
	return lost
}

// clean removes from the changed folders what the record does not name:
// files a person, or a build that stopped, left there. A folder on record
// that is now a file, and the reverse, goes too.
func (s *side) clean() error {
	for d := range s.changed {
		entries, err := s.dir.ReadDir(d)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			continue
		}
		if err != nil {
			return err
		}
		for _, e := range entries {
			rel := path.Join(d, e.Name())
			_, isDir := s.rec.dirs[rel]
			_, isFile := s.rec.lookup(rel)
			if isDir && e.IsDir() || isFile && e.Type().IsRegular() {
				continue
			}
			if err := s.dir.RemoveAll(rel); err != nil {
				return err
			}
			s.forgetUnder(rel)
			s.touch(d)
		}
	}
	return nil
}

// forgetUnder drops from the record the folder d and what is below it.
func (s *side) forgetUnder(d string) {
	if _, ok := s.rec.dirs[d]; !ok {
		return
	}
	delete(s.rec.dirs, d)
	var gone []string
	s.rec.eachFile(func(name string, _ file) error {
		if under(name, d) {
			gone = append(gone, name)
		}
		return nil
	})
	for _, name := range gone {
		s.rec.delete(name)
	}
	for sub := range s.rec.dirs {
		if under(sub, d) {
			delete(s.rec.dirs, sub)
		}
	}
}

// touch notes that the entries of folder d changed; s.mu is held, or the
// caller is alone.
func (s *side) touch(d string) {
	if s.touched == nil {
		s.touched = map[string]bool{}
	}
	s.touched[d] = true
}

// recordDirs takes the mtime of every folder this build touched, and of
// its parents up to one on record, or of every folder of the tree when its
// record has none.
func (s *side) recordDirs(workers int) error {
	dirs := map[string]bool{".": true}
	if len(s.rec.dirs) == 0 {
		err := s.rec.eachFile(func(name string, _ file) error {
			for _, d := range parents(name) {
				if dirs[d] {
					return nil
				}
				dirs[strings.Clone(d)] = true // name may be a spill's
			}
			return nil
		})
		if err != nil {
			return err
		}
	} else {
		for d := range s.touched {
			for ; ; d = path.Dir(d) {
				dirs[d] = true
				if _, ok := s.rec.dirs[d]; ok || d == "." {
					break
				}
			}
		}
	}
	names := slices.Collect(maps.Keys(dirs))
	mtimes := make([]int64, len(names))
	errs := make([]error, len(names))
	par.For(context.Background(), len(names), workers, func(i int) {
		st, err := s.dir.StatTree(names[i])
		mtimes[i], errs[i] = st.MTime, err
	})
	for i, d := range names {
		switch {
		case errs[i] == nil:
			s.rec.dirs[d] = mtimes[i]
		case errors.Is(errs[i], fs.ErrNotExist):
			delete(s.rec.dirs, d) // pruned
		default:
			return errs[i]
		}
	}
	s.touched = nil
	return nil
}

// strays lists what the changed folders of the tree hold off record:
// files a person or a program put there, which the next tree leaves out.
func (s *side) strays() []string {
	var out []string
	for d := range s.changed {
		entries, err := s.dir.ReadDir(d)
		if err != nil {
			continue // gone, or not a folder: nothing to name
		}
		for _, e := range entries {
			rel := path.Join(d, e.Name())
			_, isDir := s.rec.dirs[rel]
			_, isFile := s.rec.lookup(rel)
			if !isDir && !isFile {
				out = append(out, rel)
			}
		}
	}
	slices.Sort(out)
	return out
}
