package generator

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// statRoot takes the stat of files by their slash-separated path relative
// to a folder. On Linux, when the folder opens as an *os.File (os.DirFS,
// an os.Root's FS), each is one fstatat on the folder's descriptor, which
// walks only the relative path: os.Lstat walks it from / and an os.Root's
// Lstat opens each folder on the way, three system calls in place of one.
// A no-op build is mostly stats, 40,000 for 3,470 logos. Elsewhere, and
// for other file systems, it is fs.Lstat.
//
// fstatat follows a link in the middle of the path, which an os.Root
// would refuse. The sources are only stat'ed this way, never read: a logo
// folder is checked to be a folder (not a link) before its files are,
// and a link put there meanwhile at worst gives a stat that matches
// nothing the cache holds.
type statRoot struct {
	fsys fs.FS
	dir  *os.File // nil: fs.Lstat
	fd   int
}

// fileStat is what a build needs of a stat.
type fileStat struct {
	mode               fs.FileMode // the type bits
	size, mtime, ctime int64
	ino                uint64 // 0 when the file system gives none
}

func openStatRoot(fsys fs.FS) *statRoot {
	s := &statRoot{fsys: fsys}
	if haveStatAt {
		if f, err := fsys.Open("."); err == nil {
			if d, ok := f.(*os.File); ok {
				s.dir, s.fd = d, int(d.Fd())
			} else {
				f.Close()
			}
		}
	}
	return s
}

func (s *statRoot) close() {
	if s != nil && s.dir != nil {
		s.dir.Close()
		s.dir = nil
	}
}

// lstat takes the stat of name, not following a link at its end.
func (s *statRoot) lstat(name string) (fileStat, error) {
	if s.dir != nil {
		return statAt(s.fd, name)
	}
	info, err := fs.Lstat(s.fsys, name)
	if err != nil {
		return fileStat{}, err
	}
	return statOfInfo(info), nil
}

// readDir lists the folder name, sorted by name, for the names and
// types of its entries only.
func (s *statRoot) readDir(name string) ([]fs.DirEntry, error) {
	if s.dir != nil {
		return readDirAt(s.fd, name)
	}
	f, err := s.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if d, ok := f.(fs.ReadDirFile); ok {
		return readDirBatches(d)
	}
	return fs.ReadDir(s.fsys, name)
}

// readDirBatches lists the folder f, sorted by name, in batches, each
// entry kept as its name and type: where the folder gives no types, each
// of os's entries holds a whole stat, and the source folder of 104,100
// logos listed at once was 18 MB, the most a clean build of them held at
// any time (by heap profile), which put its peak RSS at 77 MB in its
// first second and at most 53 MB after.
func readDirBatches(f fs.ReadDirFile) ([]fs.DirEntry, error) {
	var ds []dirent
	for {
		batch, err := f.ReadDir(1024)
		for _, e := range batch {
			ds = append(ds, dirent{name: e.Name(), typ: e.Type()})
		}
		if err == io.EOF || err == nil && len(batch) == 0 {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	return sortedEntries(ds), nil
}

// sortedEntries sorts ds by name and gives them as a folder's entries.
func sortedEntries(ds []dirent) []fs.DirEntry {
	slices.SortFunc(ds, func(a, b dirent) int { return strings.Compare(a.name, b.name) })
	entries := make([]fs.DirEntry, len(ds))
	for i := range ds {
		entries[i] = &ds[i]
	}
	return entries
}

// dirent is an entry of a folder readDirBatches listed: its name and type.
type dirent struct {
	name string
	typ  fs.FileMode
}

func (d *dirent) Name() string      { return d.name }
func (d *dirent) IsDir() bool       { return d.typ.IsDir() }
func (d *dirent) Type() fs.FileMode { return d.typ }

// Info is not kept: the callers of readDir need only names and types.
func (d *dirent) Info() (fs.FileInfo, error) {
	return nil, &fs.PathError{Op: "info", Path: d.name, Err: errors.ErrUnsupported}
}

func statOfInfo(info fs.FileInfo) fileStat {
	ino, ctime, _ := fileID(info)
	return fileStat{mode: info.Mode().Type(), size: info.Size(), mtime: info.ModTime().UnixNano(), ctime: ctime, ino: ino}
}

// lazyStatRoot holds the descriptor of an output tree's folder, opened
// on first use, which follows the folder through the swap's rename.
type lazyStatRoot struct {
	once sync.Once
	root *statRoot // nil, or without a descriptor: stat by path
}

// lstat takes the stat of name in the tree: through the folder's
// descriptor, or else by its path under the tree's folder as it is now
// (the swap renames it).
func (t *tree) lstat(name string) (fileStat, error) {
	if r := t.root(); r != nil {
		return statAt(r.fd, name)
	}
	info, err := os.Lstat(filepath.Join(t.dir, filepath.FromSlash(name)))
	if err != nil {
		return fileStat{}, err
	}
	return statOfInfo(info), nil
}

// root returns the tree folder's descriptor, opened on first use, or nil
// where there is none.
func (t *tree) root() *statRoot {
	t.stats.once.Do(func() {
		if haveStatAt {
			t.stats.root = openStatRoot(os.DirFS(t.dir))
		}
	})
	if r := t.stats.root; r != nil && r.dir != nil {
		return r
	}
	return nil
}

// at returns the folder and path that name in the tree has for the system
// calls that take both (writeNew, mkdirAt): the tree folder's descriptor
// and name itself, which the kernel walks from there, where there is
// one; else atCWD and the whole path, which it walks from / (ten names
// deep for a bench's build, where a logo's file is three).
func (t *tree) at(name string) (int, string) {
	if r := t.root(); r != nil {
		return r.fd, name
	}
	return atCWD, filepath.Join(t.dir, filepath.FromSlash(name))
}

func (t *tree) closeStats() {
	t.stats.once.Do(func() {})
	t.stats.root.close()
}
