package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// stateDir is the folder beside the output folder dir in which logoindex
// build keeps its state and its lock (outtree.StateDir, which
// TestStateDirAsBuild holds this to; the uploader does not import the
// build's packages).
func stateDir(dir string) string {
	dir = filepath.Clean(dir)
	return filepath.Join(filepath.Dir(dir), "."+filepath.Base(dir)+".logoindex")
}

// lockBuild takes the lock a build of dir holds while it writes, so that
// the tree is read whole between two builds: a build exchanges the tree
// and rewrites the one it swapped out, which a read in progress may be
// in. It waits for a build that runs, calling waiting first. A folder no
// build wrote has no lock, and unlock then does nothing.
func lockBuild(dir string, waiting func()) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(stateDir(dir), "lock"), os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return func() {}, nil
	}
	if err != nil {
		return nil, err
	}
	if !tryLock(f) {
		waiting()
		if err := lock(f); err != nil {
			f.Close()
			return nil, err
		}
	}
	return func() { f.Close() }, nil
}
