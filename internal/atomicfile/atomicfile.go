// Package atomicfile replaces files so that a reader, or a run that
// restarts after a crash or power loss, finds the old content or the new,
// never a mix.
package atomicfile

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Write replaces name with data, with permissions perm.
func Write(name string, data []byte, perm fs.FileMode) error {
	return WriteFunc(name, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteFunc replaces name with what write writes, with permissions perm:
// for content too large to hold in memory at once. The file is written
// under a temporary name in the same directory, synced to disk and renamed
// over name, and the directory is synced so that the rename lasts too.
// When write or any step fails, name is left as it was and the temporary
// file is removed.
func WriteFunc(name string, perm fs.FileMode, write func(io.Writer) error) error {
	return replace(name, perm, write, true)
}

// Replace is WriteFunc without the syncs: while the system runs, a reader
// finds the old content or the new, never a mix, but after a power loss
// the file may hold either, or be empty or damaged. It is for a file its
// reader checks and can do without, such as the build cache, which has a
// checksum and whose every entry is checked against the files it
// describes, where a sync would be a noticeable share of a rebuild.
func Replace(name string, perm fs.FileMode, write func(io.Writer) error) error {
	return replace(name, perm, write, false)
}

// syncFile syncs f to disk; tests count the calls.
var syncFile = (*os.File).Sync

func replace(name string, perm fs.FileMode, write func(io.Writer) error, durable bool) (err error) {
	dir := filepath.Dir(name)
	f, err := os.CreateTemp(dir, tempPrefix(name)+"*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	// Chmod, not the mode of an open: the umask does not apply.
	if err = f.Chmod(perm); err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<16)
	if err = errors.Join(write(w), w.Flush()); err != nil {
		return err
	}
	if durable {
		if err = syncFile(f); err != nil {
			return err
		}
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), name); err != nil {
		return err
	}
	// Not every system can sync a directory (Windows cannot); the file is
	// complete either way.
	if durable {
		if d, derr := os.Open(dir); derr == nil {
			syncFile(d)
			d.Close()
		}
	}
	return nil
}

// tempPrefix starts the name of every temporary file written for name.
func tempPrefix(name string) string { return "." + filepath.Base(name) + ".tmp-" }

// RemoveTemps removes the temporary files that a Write, WriteFunc or
// Replace of name left beside it when its process was killed before the
// rename, so that crashes do not fill the folder. Call it only while
// nothing else writes name, such as under a lock.
func RemoveTemps(name string) error {
	dir := filepath.Dir(name)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	var errs []error
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), tempPrefix(name)) && e.Type().IsRegular() {
			errs = append(errs, os.Remove(filepath.Join(dir, e.Name())))
		}
	}
	return errors.Join(errs...)
}
