package deploystub

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"logoindex/internal/atomicfile"
)

// ErrStateFileInUse is wrapped by the error NewServer returns when another
// process holds the state file.
var ErrStateFileInUse = errors.New("state file in use")

// errNotOwner is why a Server that was closed, or whose state file a newer
// Server of the same process took, cannot write it any more.
var errNotOwner = errors.New("deploystub: the state file belongs to a newer Server of this process, or this Server was closed")

// maxSymlinks bounds the links followed to find the state file, as the
// kernel does.
const maxSymlinks = 40

// openState resolves, checks, locks and loads the state file name: a
// read-only or odd file, or one another process holds, is refused before
// anything is read or written, and a damaged one before it is overwritten.
func (s *Server) openState(name string) error {
	target, err := resolveStateFile(name)
	if err != nil {
		return err
	}
	if err := checkStateFile(name, target); err != nil {
		return err
	}
	l, err := acquireStateLock(name, target)
	if err != nil {
		return err
	}
	s.stateName, s.stateFile, s.lock = name, target, l
	err = l.handOver(s, func() error {
		// Under the lock no other writer runs: what a killed one left goes.
		atomicfile.RemoveTemps(target)
		if err := s.loadState(); err != nil {
			return err
		}
		// Writing now finds an unwritable folder at start, not at the first
		// POST, and drops what expired.
		data, err := encodeState(s.stateLocked(nil))
		if err != nil {
			return err
		}
		return atomicfile.Write(target, data, 0o600)
	})
	if err != nil {
		l.release(s)
		return err
	}
	return nil
}

// resolveStateFile follows name while it is a symbolic link, so that the
// stub replaces the file a link points at (which need not exist yet) and
// the link stays a link. It is resolved once, at start.
func resolveStateFile(name string) (string, error) {
	p := name
	for range maxSymlinks {
		info, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) || err == nil && info.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		if err != nil {
			return "", fmt.Errorf("deploystub: state file %s: %w", name, err)
		}
		dest, err := os.Readlink(p)
		if err != nil {
			return "", fmt.Errorf("deploystub: state file %s: %w", name, err)
		}
		if !filepath.IsAbs(dest) {
			// Relative to the link's real folder, which ".." climbs out of.
			dir, err := filepath.EvalSymlinks(filepath.Dir(p))
			if err != nil {
				return "", fmt.Errorf("deploystub: state file %s: %w", name, err)
			}
			dest = filepath.Join(dir, dest)
		}
		p = dest
	}
	return "", badOption("state file %s is a loop of, or a chain of more than %d, symbolic links", name, maxSymlinks)
}

// checkStateFile refuses a state file the stub could only replace, not
// write: not a regular file, read-only (by its mode, which root ignores
// when writing, or for this process), or on a read-only file system.
func checkStateFile(name, target string) error {
	info, err := os.Stat(target)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("deploystub: state file %s: %w", name, err)
	}
	if !info.Mode().IsRegular() {
		return badOption("state file %s is not a regular file but %s", name, fileKind(info.Mode()))
	}
	readOnly := badOption("state file %s is read-only (mode %v): the stub rewrites it after every change; make it writable or choose another file", name, info.Mode().Perm())
	if info.Mode().Perm()&0o200 == 0 {
		return readOnly
	}
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.EROFS) {
		return readOnly
	}
	if err != nil {
		return fmt.Errorf("deploystub: state file %s: %w", name, err)
	}
	return f.Close()
}

// fileKind names what a file that is not a regular file is.
func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "of type " + m.Type().String()
}

// stateLock is this process's hold on a state file: an exclusive flock on
// the lock file beside it, which the system releases when the process
// dies, however it dies. In one process the newest Server of a state file
// owns it (a restart within a test); an older one's changes then fail
// rather than overwrite the newer one's.
type stateLock struct {
	info os.FileInfo // of the lock file, to find it again by any path

	mu    sync.Mutex // serialises writes and handovers; guards the fields below
	file  *os.File   // nil once released
	owner *Server
}

// stateLocks are the state files this process holds.
var stateLocks struct {
	sync.Mutex
	held []*stateLock
}

// acquireStateLock locks target's lock file, or finds this process's lock
// on it.
func acquireStateLock(name, target string) (*stateLock, error) {
	path := target + ".lock"
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err // "open <path>: ...", the path beside the state file
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("deploystub: state file %s: lock: %w", name, err)
	}
	stateLocks.Lock()
	defer stateLocks.Unlock()
	for _, l := range stateLocks.held {
		if os.SameFile(l.info, info) {
			f.Close() // closing another descriptor of it keeps the flock
			return l, nil
		}
	}
	if err := lockFile(f); err != nil {
		f.Close()
		if errors.Is(err, errLocked) {
			return nil, fmt.Errorf("deploystub: %w: %s is used by %s (lock %s); stop it or choose another file", ErrStateFileInUse, name, holder(path), path)
		}
		return nil, fmt.Errorf("deploystub: state file %s: lock: %w", name, err)
	}
	// Only for the message above: the lock is the flock, not the content.
	if f.Truncate(0) == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	l := &stateLock{info: info, file: f}
	stateLocks.held = append(stateLocks.held, l)
	return l, nil
}

// holder names the process whose id the lock file at path holds.
func holder(path string) string {
	data, _ := os.ReadFile(path)
	if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && pid > 0 {
		return "process " + strconv.Itoa(pid)
	}
	return "another process"
}

// handOver makes s the owner of l and runs load, under l's mutex so that
// no older owner writes meanwhile. If load fails the previous owner, if
// any, keeps the file.
func (l *stateLock) handOver(s *Server, load func() error) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	prev := l.owner
	l.owner = s
	if err := load(); err != nil {
		l.owner = prev
		return err
	}
	return nil
}

// write replaces the state file target with data, durably, if s still owns
// it.
func (l *stateLock) write(s *Server, target string, data []byte) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.owner != s {
		return errNotOwner
	}
	if err := l.relock(target); err != nil {
		return err
	}
	return atomicfile.Write(target, data, 0o600)
}

// relock makes sure l still holds the lock of target. A lock file removed
// (with its folder, say) is made and locked anew; but one that another
// stub now holds means that stub may be using the state file, and this
// one stops writing rather than overwrite the changes that stub
// acknowledges.
func (l *stateLock) relock(target string) error {
	path := target + ".lock"
	if info, err := os.Stat(path); err == nil && os.SameFile(info, l.info) {
		return nil
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return err
	}
	info, err := f.Stat()
	if err == nil {
		err = lockFile(f)
	}
	if err != nil {
		f.Close()
		return fmt.Errorf("%w: its lock file %s was replaced, and %s holds the new one; stop one of the two", ErrStateFileInUse, path, holder(path))
	}
	if f.Truncate(0) == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	l.file.Close()
	l.file, l.info = f, info
	return nil
}

// release gives up the lock unless a Server other than s owns it.
func (l *stateLock) release(s *Server) {
	stateLocks.Lock()
	defer stateLocks.Unlock()
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.file == nil || l.owner != nil && l.owner != s {
		return
	}
	l.owner = nil
	l.file.Close() // and with it the flock
	l.file = nil
	stateLocks.held = slices.DeleteFunc(stateLocks.held, func(x *stateLock) bool { return x == l })
}

// Close releases the state file, so that another process may use it, and
// makes this Server's later changes fail (500) rather than write a file it
// no longer holds. A Server without a state file has nothing to release;
// Close never fails and may be called more than once.
func (s *Server) Close() error {
	if s.lock != nil {
		s.lock.release(s)
	}
	return nil
}
