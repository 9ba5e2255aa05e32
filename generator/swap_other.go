//go:build !linux

package generator

import (
	"errors"
	"io/fs"
)

func exchange(a, b string) (bool, error) { return false, nil }

func lockFile(fd uintptr) error { return nil }

func inodeOf(info fs.FileInfo) uint64 { return 0 }

func fileID(info fs.FileInfo) (ino uint64, ctime int64, ok bool) { return 0, 0, false }

func devIno(info fs.FileInfo) (dev, ino uint64) { return 0, 0 }

const haveStatAt = false

func statAt(fd int, name string) (fileStat, error) { return fileStat{}, errors.ErrUnsupported }
