//go:build !linux

package sysfs

import (
	"errors"
	"io/fs"
	"os"
)

// Exchange is not atomic here: ok is false, and the caller renames.
func Exchange(a, b string) (ok bool, err error) { return false, nil }

// MapFile reads the file; nothing is mapped here.
func MapFile(name string) ([]byte, error) { return os.ReadFile(name) }

// OpenOverwrite has no safe form here: the caller writes a new file.
func OpenOverwrite(string) (*os.File, error) { return nil, errors.ErrUnsupported }

// BootID is unknown here.
func BootID() string { return "" }

// DevIno is unknown here.
func DevIno(info fs.FileInfo) (dev, ino uint64) { return 0, 0 }

func lockFile(fd uintptr) error { return nil }

func fileID(info fs.FileInfo) (ino uint64, ctime int64) { return 0, 0 }

const haveAt = false

// atCWD stands for the working folder where Linux takes a folder's
// descriptor; elsewhere the calls take the whole path.
const atCWD = -100

func statAt(fd int, name string) (Stat, error) { return Stat{}, errors.ErrUnsupported }

func readDirAt(fd int, name string) ([]fs.DirEntry, error) { return nil, errors.ErrUnsupported }

func readAt(fd int, name string, limit int64) ([]byte, Stat, error) {
	return nil, Stat{}, errors.ErrUnsupported
}

func mkdirAt(_ int, _, name string) error { return os.Mkdir(name, 0o755) }

// writeNew creates the file name, which must not exist, and returns its
// stat as written.
func writeNew(_ int, _, name string, data []byte) (*Stat, error) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, err
	}
	_, err = f.Write(data)
	var info fs.FileInfo
	if err == nil {
		info, err = f.Stat()
	}
	if err = errors.Join(err, f.Close()); err != nil {
		return nil, err
	}
	st := StatOf(info)
	return &st, nil
}

func linkAt(_ int, _ string, _ int, _ string, from, to string) error { return os.Link(from, to) }
