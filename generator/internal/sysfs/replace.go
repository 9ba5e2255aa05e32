package sysfs

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// ReplaceFile replaces the file at path with what write writes, so that a
// crash leaves the old file or the new one. Where the system can, it
// writes over a spare file kept beside it (path-spare) and exchanges the
// two: a rename of a new file over the old one frees the old one's blocks
// on every write, which on some file systems costs as much as the write.
// It does not sync: a state file damaged by a power loss fails its
// checksum.
func ReplaceFile(path string, write func(io.Writer) error) error {
	spare := path + "-spare"
	f, err := OpenOverwrite(spare)
	if err != nil {
		return replaceByRename(path, write)
	}
	err = writeOver(f, write)
	if err = errors.Join(err, f.Close()); err != nil {
		os.Remove(spare)
		return err
	}
	ok, err := Exchange(spare, path)
	if !ok && (err == nil || errors.Is(err, fs.ErrNotExist)) {
		err = os.Rename(spare, path) // no exchange here, or no file at path
	}
	return err
}

// writeOver writes f from its start and cuts it at the end of what was
// written.
func writeOver(f *os.File, write func(io.Writer) error) error {
	w := bufio.NewWriterSize(f, 64<<10)
	if err := errors.Join(write(w), w.Flush()); err != nil {
		return err
	}
	end, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return err
	}
	return f.Truncate(end)
}

// replaceByRename writes path anew through a temporary file renamed over it.
func replaceByRename(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+"-")
	if err != nil {
		return err
	}
	err = writeOver(f, write)
	if err = errors.Join(err, f.Close()); err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}
