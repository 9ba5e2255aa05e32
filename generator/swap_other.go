//go:build !linux

package generator

import (
	"errors"
	"io/fs"
	"os"
)

func exchange(a, b string) (bool, error) { return false, nil }

func mapCacheFile(name string) ([]byte, error) { return os.ReadFile(name) }

func lockFile(fd uintptr) error { return nil }

func bootID() string { return "" }

// openSpare: writeTreeCache replaces its file by a rename here.
func openSpare(string) (*os.File, error) { return nil, errors.ErrUnsupported }

func fileID(info fs.FileInfo) (ino uint64, ctime int64, ok bool) { return 0, 0, false }

func devIno(info fs.FileInfo) (dev, ino uint64) { return 0, 0 }

const haveStatAt = false

func statAt(fd int, name string) (fileStat, error) { return fileStat{}, errors.ErrUnsupported }

func readDirAt(fd int, name string) ([]fs.DirEntry, error) { return nil, errors.ErrUnsupported }

// atCWD stands for the working folder where Linux takes a folder's
// descriptor; elsewhere the calls take the whole path.
const atCWD = -100

func mkdirAt(_ int, _, name string) error { return os.Mkdir(name, 0o755) }

func readAt(fd int, name string, limit int64) ([]byte, fileStat, error) {
	return nil, fileStat{}, errors.ErrUnsupported
}

// writeNew creates the file name, which must not exist, and returns its
// stat as written.
func writeNew(_ int, _, name string, data []byte) (*fileStat, error) {
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
	st := statOfInfo(info)
	return &st, nil
}
