//go:build unix

package main

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// tryLock takes f's lock if no one holds it.
func tryLock(f *os.File) bool {
	return unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil
}

// lock waits for f's lock. A file system without locks counts as taken.
func lock(f *os.File) error {
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil && !errors.Is(err, unix.ENOLCK) {
		return err
	}
	return nil
}
