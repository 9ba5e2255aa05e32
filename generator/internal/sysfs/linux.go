//go:build linux

package sysfs

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// Exchange atomically swaps the directory entries a and b with
// renameat2(RENAME_EXCHANGE), so that neither is missing, even for an
// instant. ok is false where the kernel or the file system lacks it.
func Exchange(a, b string) (ok bool, err error) {
	err = unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EINVAL), errors.Is(err, unix.EOPNOTSUPP):
		return false, nil
	}
	return false, &os.LinkError{Op: "renameat2", Old: a, New: b, Err: err}
}

// BootID identifies the system's boot, or is empty when unknown.
var BootID = sync.OnceValue(func() string {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
})

// OpenOverwrite opens the file name to be written over, or a new one:
// never a file of other names (a hard link), a link, a file this process
// mapped (MapFile) or anything but a file.
func OpenOverwrite(name string) (*os.File, error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() && info.Sys().(*syscall.Stat_t).Nlink == 1 && !isMapped(info) {
		return f, nil
	}
	f.Close()
	if err := os.Remove(name); err != nil {
		return nil, err
	}
	return os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
}

// lockFile takes an exclusive advisory lock on fd; it is released when
// the file is closed or the process dies.
func lockFile(fd uintptr) error { return unix.Flock(int(fd), unix.LOCK_EX) }

// fileID returns the inode number and change time of a file, which with
// its size and mtime tell a build whether a source may have changed.
func fileID(info fs.FileInfo) (ino uint64, ctime int64) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0
	}
	return st.Ino, st.Ctim.Nano()
}

// DevIno identifies a folder: its device and inode, which a rename keeps.
func DevIno(info fs.FileInfo) (dev, ino uint64) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), st.Ino
	}
	return 0, 0
}

const haveAt = true

// readDirAt lists the folder name under the folder fd, not following a
// link, with the entries' types as the folder gives them (a lstat only
// where it gives none): an os.Root's ReadDir takes the stat of every
// entry, a system call for each logo of a source folder.
// The entries' Info would take a stat by path; the caller needs only
// their names and types. It reads the entries with getdents64 itself:
// an os.File made of the descriptor adds a fcntl and a third getdents to
// each listing, and a clean build makes one for every logo.
func readDirAt(fd int, name string) ([]fs.DirEntry, error) {
	var nfd int
	err := retry(func() (err error) {
		nfd, err = rawOpenat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer unix.Close(nfd)
	var buf [8192]byte
	var ds []dirent
	for {
		var n int
		if err := retry(func() (err error) { n, err = unix.Getdents(nfd, buf[:]); return err }); err != nil {
			return nil, &fs.PathError{Op: "readdirent", Path: name, Err: err}
		}
		if n <= 0 {
			break
		}
		err := eachDirent(buf[:n], func(entry string, typ byte) error {
			mode, err := direntMode(nfd, entry, typ)
			if err == nil {
				ds = append(ds, dirent{name: entry, typ: mode})
			} else if !errors.Is(err, unix.ENOENT) { // gone since
				return err
			}
			return nil
		})
		if err != nil {
			return nil, &fs.PathError{Op: "readdirent", Path: name, Err: err}
		}
	}
	return sortedEntries(ds), nil
}

// eachDirent calls fn with the name and type of each entry of b, as
// getdents64 fills it (struct linux_dirent64), but "." and "..". The
// name is a new string.
func eachDirent(b []byte, fn func(name string, typ byte) error) error {
	const head = 19 // d_ino 8, d_off 8, d_reclen 2, d_type 1
	for len(b) > 0 {
		if len(b) < head {
			return unix.EIO
		}
		size := int(binary.NativeEndian.Uint16(b[16:18]))
		if size < head || size > len(b) {
			return unix.EIO
		}
		ino, typ, name := binary.NativeEndian.Uint64(b), b[18], b[head:size]
		b = b[size:]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		if ino == 0 || string(name) == "." || string(name) == ".." { // a removed entry (as os skips it), or not one
			continue
		}
		if err := fn(string(name), typ); err != nil {
			return err
		}
	}
	return nil
}

// direntMode is the type of the entry name of the folder dirfd, from its
// d_type, or from a lstat where the file system gives none.
func direntMode(dirfd int, name string, typ byte) (fs.FileMode, error) {
	if typ == unix.DT_UNKNOWN {
		var st unix.Stat_t
		if err := retry(func() error { return unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) }); err != nil {
			return 0, err
		}
		typ = uint8(st.Mode & unix.S_IFMT >> 12) // DT_* is S_IF* >> 12
	}
	switch typ {
	case unix.DT_REG:
		return 0, nil
	case unix.DT_DIR:
		return fs.ModeDir, nil
	case unix.DT_LNK:
		return fs.ModeSymlink, nil
	case unix.DT_FIFO:
		return fs.ModeNamedPipe, nil
	case unix.DT_SOCK:
		return fs.ModeSocket, nil
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, nil
	case unix.DT_BLK:
		return fs.ModeDevice, nil
	}
	return fs.ModeIrregular, nil
}

// noOpenat2 is set once the kernel has refused openat2 (before Linux 5.6,
// or a seccomp filter that does not know it): readAt then leaves every
// read to fs.FS.
var noOpenat2 atomic.Bool

// readAt reads the regular file name under the folder fd, as a read
// through an os.Root does, in the five system calls a read needs: openat2
// resolves name beneath fd and refuses any link on the way. An os.Root's
// Open opens each folder on the way, follows links that stay inside and
// sets the file up for the poller, twelve calls, for each of the many
// sources a build reads.
// O_NONBLOCK keeps a FIFO put there meanwhile from blocking the open;
// fstat then refuses it. It returns the file's stat by that fstat, taken
// before the read, and errors.ErrUnsupported where openat2 cannot be used.
func readAt(fd int, name string, limit int64) ([]byte, Stat, error) {
	if noOpenat2.Load() {
		return nil, Stat{}, errors.ErrUnsupported
	}
	how := unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NOFOLLOW | unix.O_NONBLOCK,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	var nfd int
	err := retry(func() (err error) {
		nfd, err = rawOpenat2(fd, name, &how)
		return err
	})
	switch err {
	case unix.ENOSYS:
		noOpenat2.Store(true)
		return nil, Stat{}, errors.ErrUnsupported
	case unix.EPERM, unix.EINVAL:
		// A seccomp filter that does not know openat2 may answer EPERM,
		// and an older kernel EINVAL for a flag: fs.FS reads it, and
		// reports what the file itself has.
		return nil, Stat{}, errors.ErrUnsupported
	}
	if err != nil {
		return nil, Stat{}, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer rawClose(nfd)
	var st unix.Stat_t
	if err := retry(func() error { return unix.Fstat(nfd, &st) }); err != nil {
		return nil, Stat{}, &fs.PathError{Op: "fstat", Path: name, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, Stat{}, ErrNotRegular
	}
	if st.Size > limit {
		return nil, Stat{}, &TooLargeError{Size: st.Size}
	}
	b, err := ReadToEnd(fdReader(nfd), st.Size, limit)
	if err != nil {
		return nil, Stat{}, &fs.PathError{Op: "read", Path: name, Err: err}
	}
	if int64(len(b)) > limit {
		return nil, Stat{}, &TooLargeError{Size: -1}
	}
	return b, fromStat(&st), nil
}

// fdReader reads a file descriptor, with no poller.
type fdReader int

func (fd fdReader) Read(p []byte) (int, error) {
	var n int
	err := retry(func() (err error) {
		n, err = rawRead(int(fd), p)
		return err
	})
	switch {
	case err != nil:
		return 0, err
	case n == 0 && len(p) > 0:
		return 0, io.EOF
	}
	return n, nil
}

// atCWD, as the folder of a system call that takes one, makes it take the
// path relative to the working folder.
const atCWD = unix.AT_FDCWD

// mkdirAt is os.Mkdir(name, 0o755), made as a raw system call on rel under
// the folder fd (see tree.at).
func mkdirAt(fd int, rel, name string) error {
	if err := retry(func() error { return rawMkdirat(fd, rel, 0o755) }); err != nil {
		return &fs.PathError{Op: "mkdir", Path: name, Err: err}
	}
	return nil
}

// noStatx is set once statx(2) is found missing: ENOSYS on a kernel
// before 4.11, ENOSYS or EPERM from a sandbox's filter that does not pass
// it (statx gives EPERM for nothing else); statAt then uses fstatat.
var noStatx atomic.Bool

// statAt is fstatat(fd, name, AT_SYMLINK_NOFOLLOW), by statx(2) as a raw
// system call where there is one: a stat of a file on this machine's disk
// does not wait on it, and a no-op build makes one for every input.
func statAt(fd int, name string) (Stat, error) {
	if !noStatx.Load() {
		var st unix.Statx_t
		err := retry(func() error { return rawStatx(fd, name, &st) })
		switch {
		case err == nil:
			return fromStatx(&st), nil
		case err != unix.ENOSYS && err != unix.EPERM:
			return Stat{}, &fs.PathError{Op: "statx", Path: name, Err: err}
		}
		noStatx.Store(true)
	}
	var st unix.Stat_t
	err := retry(func() error { return unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) })
	if err != nil {
		return Stat{}, &fs.PathError{Op: "fstatat", Path: name, Err: err}
	}
	return fromStat(&st), nil
}

func fromStat(st *unix.Stat_t) Stat {
	return Stat{Mode: typeOf(st.Mode), Size: st.Size, MTime: st.Mtim.Nano(), CTime: st.Ctim.Nano(), Ino: st.Ino}
}

func fromStatx(st *unix.Statx_t) Stat {
	return Stat{Mode: typeOf(uint32(st.Mode)), Size: int64(st.Size), MTime: st.Mtime.Sec*1e9 + int64(st.Mtime.Nsec), CTime: st.Ctime.Sec*1e9 + int64(st.Ctime.Nsec), Ino: st.Ino}
}

// typeOf is the type bits of a stat's mode as Stat keeps them.
func typeOf(mode uint32) fs.FileMode {
	switch mode & unix.S_IFMT {
	case unix.S_IFREG:
		return 0
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	}
	return fs.ModeIrregular
}

// retry calls f until it fails with anything but EINTR.
func retry(f func() error) error {
	for {
		if err := f(); err != unix.EINTR {
			return err
		}
	}
}

// writeNew creates the file name, which must not exist, as rel under the
// folder at (see tree.at), and returns its stat as written. It makes the
// system calls itself: os.OpenFile adds five (non-blocking mode set, tried
// on epoll, and cleared again) to the four a new file needs, and a clean
// build creates several files for every logo.
func writeNew(at int, rel, name string, data []byte) (*Stat, error) {
	var fd int
	err := retry(func() (err error) {
		fd, err = rawOpenat(at, rel, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_CLOEXEC|unix.O_LARGEFILE, 0o644)
		return err
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	op := "write"
	for len(data) > 0 && err == nil {
		var n int
		n, err = rawWrite(fd, data)
		switch {
		case err == unix.EINTR:
			err = nil
		case err == nil && n == 0:
			err = io.ErrShortWrite
		case err == nil:
			data = data[n:]
		}
	}
	var st unix.Stat_t
	if err == nil {
		op, err = "fstat", retry(func() error { return unix.Fstat(fd, &st) })
	}
	// Linux closes the descriptor even when close reports EINTR: it is
	// never retried, and EINTR is no failure.
	if cerr := rawClose(fd); err == nil && cerr != nil && cerr != unix.EINTR {
		op, err = "close", cerr
	}
	if err != nil {
		return nil, &fs.PathError{Op: op, Path: name, Err: err}
	}
	s := fromStat(&st)
	return &s, nil
}

// mapped holds the device and inode of each file this process mapped
// (MapFile): strings decoded from one are its bytes, so OpenOverwrite
// never opens one.
var mapped sync.Map

// MapFile reads the file name by mapping it, read-only, so that strings
// decoded from it point into the kernel's page cache with no copy. Like
// git's index, it assumes that no program cuts the file short while it is
// used: logoindex replaces its state files by renaming another over them,
// and writes over a file only through OpenOverwrite, which refuses one
// this process mapped. A fault on a page lost all the same is the
// caller's to recover (debug.SetPanicOnFault).
func MapFile(name string) ([]byte, error) {
	fd, err := unix.Open(name, unix.O_RDONLY|unix.O_CLOEXEC|unix.O_NOFOLLOW, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG || st.Size <= 0 || st.Size != int64(int(st.Size)) {
		return os.ReadFile(name)
	}
	mapped.Store([2]uint64{uint64(st.Dev), st.Ino}, true)
	data, err := unix.Mmap(fd, 0, int(st.Size), unix.PROT_READ, unix.MAP_SHARED|unix.MAP_POPULATE)
	if err != nil {
		return os.ReadFile(name)
	}
	return data, nil
}

// isMapped reports whether the file of info is one this process mapped.
func isMapped(info fs.FileInfo) bool {
	dev, ino := DevIno(info)
	_, ok := mapped.Load([2]uint64{dev, ino})
	return ok
}

// linkAt is os.Link(from, to), made as a raw system call on the paths
// under the folders' descriptors.
func linkAt(fromFd int, fromRel string, toFd int, toRel string, from, to string) error {
	if err := retry(func() error { return rawLinkat(fromFd, fromRel, toFd, toRel) }); err != nil {
		return &os.LinkError{Op: "link", Old: from, New: to, Err: err}
	}
	return nil
}
