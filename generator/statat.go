package generator

import (
	"io/fs"
	"os"
	"path/filepath"
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
	return fs.ReadDir(s.fsys, name)
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
	t.stats.once.Do(func() {
		if haveStatAt {
			t.stats.root = openStatRoot(os.DirFS(t.dir))
		}
	})
	if r := t.stats.root; r != nil && r.dir != nil {
		return statAt(r.fd, name)
	}
	info, err := os.Lstat(filepath.Join(t.dir, filepath.FromSlash(name)))
	if err != nil {
		return fileStat{}, err
	}
	return statOfInfo(info), nil
}

func (t *tree) closeStats() {
	t.stats.once.Do(func() {})
	t.stats.root.close()
}
