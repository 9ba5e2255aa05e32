//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package deploystub

import (
	"errors"
	"os"
	"syscall"
)

// fileLocks tells whether lockFile can see another process's lock.
const fileLocks = true

// errLocked is lockFile's error when another process holds the lock.
var errLocked = errors.New("locked")

// lockFile takes an exclusive flock on f without waiting. A file system
// without locks gives no lock rather than no stub.
func lockFile(f *os.File) error {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	switch {
	case errors.Is(err, syscall.EWOULDBLOCK):
		return errLocked
	case errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.EOPNOTSUPP):
		return nil
	}
	return err
}
