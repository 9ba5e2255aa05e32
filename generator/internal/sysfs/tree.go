package sysfs

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// OpenTree returns the Dir of the folder at path, for writing into. Its
// descriptor is opened on first use; Path names the folder for the calls
// and messages that take a path, and Moved updates it after a rename.
func OpenTree(path string) *Dir {
	return &Dir{path: path, lazy: true}
}

// Path is where the folder is, as OpenTree or Moved last said.
func (d *Dir) Path() string { return d.path }

// Moved tells d that its folder is now at path (the descriptor, if open,
// follows the folder by itself).
func (d *Dir) Moved(path string) { d.path = path }

// full is the path of name in d.
func (d *Dir) full(name string) string { return filepath.Join(d.path, filepath.FromSlash(name)) }

// at returns the folder and path the *at system calls take for name: the
// folder's descriptor and name itself where there is one, else the
// working folder and the whole path.
func (d *Dir) at(name string) (int, string) {
	d.open()
	if d.f != nil {
		return d.fd, name
	}
	return atCWD, d.full(name)
}

// open opens a tree's descriptor on first use, once however many
// goroutines use the tree at first.
func (d *Dir) open() {
	if !d.lazy {
		return
	}
	d.once.Do(func() {
		if haveAt {
			if f, err := os.Open(d.path); err == nil {
				d.f, d.fd = f, int(f.Fd())
			}
		}
	})
}

// StatTree is Lstat for a Dir of OpenTree.
func (d *Dir) StatTree(name string) (Stat, error) {
	if at, rel := d.at(name); at != atCWD {
		return statAt(at, rel)
	}
	info, err := os.Lstat(d.full(name))
	if err != nil {
		return Stat{}, err
	}
	return StatOf(info), nil
}

// Create makes the file name, which must not exist, holding data, with
// mode 0644 less the umask, and returns its stat as written.
func (d *Dir) Create(name string, data []byte) (Stat, error) {
	at, rel := d.at(name)
	st, err := writeNew(at, rel, d.full(name), data)
	if err != nil {
		return Stat{}, err
	}
	return *st, nil
}

// Mkdir makes the folder name, whose parent must exist.
func (d *Dir) Mkdir(name string) error {
	at, rel := d.at(name)
	return mkdirAt(at, rel, d.full(name))
}

// MkdirAll makes the folder name with its parents.
func (d *Dir) MkdirAll(name string) error {
	err := d.Mkdir(name)
	if errors.Is(err, os.ErrNotExist) || errors.Is(err, os.ErrExist) {
		err = os.MkdirAll(d.full(name), 0o755) // makes the parents, or checks name is a folder
	}
	return err
}

// Remove removes the file or empty folder name.
func (d *Dir) Remove(name string) error { return os.Remove(d.full(name)) }

// RemoveAll removes name and what it holds.
func (d *Dir) RemoveAll(name string) error { return os.RemoveAll(d.full(name)) }

// Link makes name in d a hard link to name in from.
func (d *Dir) Link(from *Dir, name string) error {
	fromAt, fromRel := from.at(name)
	at, rel := d.at(name)
	return linkAt(fromAt, fromRel, at, rel, from.full(name), d.full(name))
}

// Rename renames the file from to name in d.
func (d *Dir) Rename(from, name string) error { return os.Rename(d.full(from), d.full(name)) }

// Lock takes an exclusive advisory lock on the file at path, made when
// missing, waiting for another process to release it. The lock goes with
// the process. On file systems without locks it is no lock.
func Lock(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := lockFile(f.Fd()); err != nil && !errors.Is(err, syscall.ENOLCK) {
		f.Close()
		return nil, err
	}
	return func() { f.Close() }, nil
}
