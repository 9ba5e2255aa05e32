// Package sysfs holds the file system calls of a build: stats, listings,
// reads and writes relative to an open folder, the atomic exchange of two
// folders, and advisory locks. On Linux the calls a build makes tens of
// thousands of times are made as raw system calls through the folder's
// descriptor; elsewhere, and for file systems that are not a folder on
// disk (fstest.MapFS), they fall back to os and io/fs.
package sysfs

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"sync"
)

// Stat is what a build needs of a file's stat to tell whether it changed.
type Stat struct {
	Mode               fs.FileMode // the type bits only
	Size, MTime, CTime int64       // times in Unix nanoseconds
	Ino                uint64      // 0 where the file system gives none
}

// StatOf is the Stat of info.
func StatOf(info fs.FileInfo) Stat {
	ino, ctime := fileID(info)
	return Stat{Mode: info.Mode().Type(), Size: info.Size(), MTime: info.ModTime().UnixNano(), CTime: ctime, Ino: ino}
}

// ErrNotRegular is ReadFile's error for a file that is not a regular file.
var ErrNotRegular = errors.New("not a regular file")

// TooLargeError is ReadFile's error for a file over its limit.
type TooLargeError struct {
	Size int64 // the file's size by its stat; -1 when it grew past the limit as it was read
}

func (e *TooLargeError) Error() string { return "over the limit" }

// Dir is a folder that files are looked up in by slash-separated paths
// relative to it. It holds the folder's descriptor where the system and
// the file system allow, which follows the folder through renames.
type Dir struct {
	fsys fs.FS
	f    *os.File // nil: every call goes through fsys, or the path
	fd   int
	path string // of a tree's folder (OpenTree)
	lazy bool   // the descriptor is opened on first use
	// opened opens the descriptor of a lazy Dir.
	opened sync.Once
}

// OpenFS returns the Dir of fsys: through its descriptor when fsys opens
// its root as an *os.File (os.DirFS, an os.Root's FS), else through fsys.
func OpenFS(fsys fs.FS) *Dir {
	d := &Dir{fsys: fsys}
	if haveAt {
		if f, err := fsys.Open("."); err == nil {
			if of, ok := f.(*os.File); ok {
				d.f, d.fd = of, int(of.Fd())
			} else {
				f.Close()
			}
		}
	}
	return d
}

// OpenPath returns the Dir of the folder at path.
func OpenPath(path string) *Dir { return OpenFS(os.DirFS(path)) }

// Close releases the descriptor.
func (d *Dir) Close() {
	if d == nil {
		return
	}
	d.opened.Do(func() {}) // a tree not opened yet is not opened after
	if d.f != nil {
		d.f.Close()
		d.f = nil
	}
}

// Lstat takes the stat of name, not following a link at its end. Through
// the descriptor, a link in the middle of name is followed: callers check
// that the folders on the way are folders.
func (d *Dir) Lstat(name string) (Stat, error) {
	if d.f != nil {
		return statAt(d.fd, name)
	}
	info, err := fs.Lstat(d.fsys, name)
	if err != nil {
		return Stat{}, err
	}
	return StatOf(info), nil
}

// ReadDir lists the folder name, sorted by name, with the names and types
// of its entries only (their Info is not kept).
func (d *Dir) ReadDir(name string) ([]fs.DirEntry, error) {
	if d.f != nil {
		return readDirAt(d.fd, name)
	}
	f, err := d.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if rd, ok := f.(fs.ReadDirFile); ok {
		return readDirBatches(rd)
	}
	return fs.ReadDir(d.fsys, name)
}

// ReadFile reads the regular file name, refusing one over limit before it
// is read whole, and returns the stat of the open file taken before the
// read. It never follows a link, and never blocks on a named pipe.
func (d *Dir) ReadFile(name string, limit int64) ([]byte, Stat, error) {
	if d.f != nil {
		if data, st, err := readAt(d.fd, name, limit); !errors.Is(err, errors.ErrUnsupported) {
			return data, st, err
		}
	}
	f, err := d.fsys.Open(name)
	if err != nil {
		return nil, Stat{}, err
	}
	defer f.Close()
	size := int64(-1)
	var st Stat
	if info, err := f.Stat(); err == nil {
		size, st = info.Size(), StatOf(info)
		if !info.Mode().IsRegular() {
			return nil, Stat{}, ErrNotRegular
		}
		if info.Size() > limit {
			return nil, Stat{}, &TooLargeError{Size: info.Size()}
		}
	}
	data, err := ReadToEnd(f, size, limit)
	if err != nil {
		return nil, Stat{}, err
	}
	if int64(len(data)) > limit {
		return nil, Stat{}, &TooLargeError{Size: -1}
	}
	return data, st, nil
}

// ReadToEnd reads r, a regular file of size bytes by its stat (-1 when
// unknown), to its end or to one byte past limit: the stat can be wrong,
// or the file grow, and the read must stay bounded anyway. A first read
// that gives exactly size bytes is taken for the whole file, which saves
// the read that would report the end.
func ReadToEnd(r io.Reader, size, limit int64) ([]byte, error) {
	r = io.LimitReader(r, limit+1)
	b := make([]byte, 0, max(min(size, limit)+1, 512))
	for {
		first := len(b) == 0
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF || first && n > 0 && int64(n) == size && n < cap(b) {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
}

// readDirBatches lists f in batches, keeping each entry's name and type
// only: an entry of os holds a whole stat where the folder gives no
// types, which adds up for a folder of many logos.
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

func sortedEntries(ds []dirent) []fs.DirEntry {
	slices.SortFunc(ds, func(a, b dirent) int { return strings.Compare(a.name, b.name) })
	entries := make([]fs.DirEntry, len(ds))
	for i := range ds {
		entries[i] = &ds[i]
	}
	return entries
}

// dirent is a listed entry: its name and type.
type dirent struct {
	name string
	typ  fs.FileMode
}

func (d *dirent) Name() string      { return d.name }
func (d *dirent) IsDir() bool       { return d.typ.IsDir() }
func (d *dirent) Type() fs.FileMode { return d.typ }

// Info is not kept: callers of ReadDir need only names and types.
func (d *dirent) Info() (fs.FileInfo, error) {
	return nil, &fs.PathError{Op: "info", Path: d.name, Err: errors.ErrUnsupported}
}
