//go:build linux

package sysfs

import (
	"strings"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The build's file system calls on its hot paths (creating, writing and
// closing each output, making its folders, opening and reading each
// source) are made as raw system calls, which keep the goroutine's P.
// Go's usual call gives its P up to another thread once the call has
// lasted a sysmon tick (20 µs), which creating a file or a folder often
// does, and the thread that takes it finds nothing to run, so without
// these a build makes several times the context switches. Each call
// is the kernel's work on a file the build alone touches, which keeps a
// CPU busy either way, and none waits on another process: outputs are
// created with O_EXCL, and sources opened with O_NONBLOCK, so a FIFO put
// in place of one does not block the open. What it costs: a call that
// waits on a slow disk holds its P while it waits. The pointers passed
// stay alive through each call: unix.RawSyscall and RawSyscall6 are
// assembly, for which the compiler keeps what a uintptr argument was
// converted from (unsafe.Pointer's rule 4).

// cString is name as the kernel takes a path: NUL-terminated, in buf when
// it fits there, else in a new array (unix.BytePtrFromString, which also
// refuses a name holding a NUL). A caller's buf stays on its stack:
// allocating the name would take an allocation per call, and a build
// makes one of these calls for every file it creates, opens or stats.
func cString(buf *[256]byte, name string) (*byte, error) {
	if len(name) < len(buf) && strings.IndexByte(name, 0) < 0 {
		copy(buf[:], name) // the rest is zero
		return &buf[0], nil
	}
	return unix.BytePtrFromString(name)
}

// rawOpenat is openat(2).
func rawOpenat(dirfd int, name string, flags int, mode uint32) (int, error) {
	var buf [256]byte
	p, err := cString(&buf, name)
	if err != nil {
		return -1, err
	}
	r, _, e := unix.RawSyscall6(unix.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(flags), uintptr(mode), 0, 0)
	return int(r), errnoErr(e)
}

// rawOpenat2 is openat2(2).
func rawOpenat2(dirfd int, name string, how *unix.OpenHow) (int, error) {
	var buf [256]byte
	p, err := cString(&buf, name)
	if err != nil {
		return -1, err
	}
	r, _, e := unix.RawSyscall6(unix.SYS_OPENAT2, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(unsafe.Pointer(how)), unsafe.Sizeof(*how), 0, 0)
	return int(r), errnoErr(e)
}

// rawStatx is statx(2) of name in dirfd, not following a link at its
// end, for the fields Stat keeps: unix.Fstatat allocates the name and
// the result for each call, and a no-op build stats every file it knows.
func rawStatx(dirfd int, name string, st *unix.Statx_t) error {
	var buf [256]byte
	p, err := cString(&buf, name)
	if err != nil {
		return err
	}
	const mask = unix.STATX_TYPE | unix.STATX_SIZE | unix.STATX_MTIME | unix.STATX_CTIME | unix.STATX_INO
	_, _, e := unix.RawSyscall6(unix.SYS_STATX, uintptr(dirfd), uintptr(unsafe.Pointer(p)), unix.AT_SYMLINK_NOFOLLOW, mask, uintptr(unsafe.Pointer(st)), 0)
	return errnoErr(e)
}

// rawMkdirat is mkdirat(2).
func rawMkdirat(dirfd int, name string, mode uint32) error {
	var buf [256]byte
	p, err := cString(&buf, name)
	if err != nil {
		return err
	}
	_, _, e := unix.RawSyscall(unix.SYS_MKDIRAT, uintptr(dirfd), uintptr(unsafe.Pointer(p)), uintptr(mode))
	return errnoErr(e)
}

// rawRead is read(2).
func rawRead(fd int, b []byte) (int, error) {
	r, _, e := unix.RawSyscall(unix.SYS_READ, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)))
	return int(r), errnoErr(e)
}

// rawWrite is write(2).
func rawWrite(fd int, b []byte) (int, error) {
	r, _, e := unix.RawSyscall(unix.SYS_WRITE, uintptr(fd), uintptr(unsafe.Pointer(unsafe.SliceData(b))), uintptr(len(b)))
	return int(r), errnoErr(e)
}

// rawClose is close(2).
func rawClose(fd int) error {
	_, _, e := unix.RawSyscall(unix.SYS_CLOSE, uintptr(fd), 0, 0)
	return errnoErr(e)
}

// errnoErr returns nil for 0, and e itself otherwise, which errors.Is
// matches against fs.ErrNotExist and the like.
func errnoErr(e syscall.Errno) error {
	if e == 0 {
		return nil
	}
	return e
}

// rawLinkat is linkat(2), not following a link at oldname.
func rawLinkat(olddirfd int, oldname string, newdirfd int, newname string) error {
	var oldbuf, newbuf [256]byte
	op, err := cString(&oldbuf, oldname)
	if err != nil {
		return err
	}
	np, err := cString(&newbuf, newname)
	if err != nil {
		return err
	}
	_, _, e := unix.RawSyscall6(unix.SYS_LINKAT, uintptr(olddirfd), uintptr(unsafe.Pointer(op)), uintptr(newdirfd), uintptr(unsafe.Pointer(np)), 0, 0)
	return errnoErr(e)
}
