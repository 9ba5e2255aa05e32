//go:build linux

package generator

import (
	"io/fs"
	"runtime"
	"syscall"
	"unsafe"
)

// exchange atomically swaps the directory entries a and b with
// renameat2(RENAME_EXCHANGE), so that b is never missing, even for an
// instant. ok is false where the kernel or architecture lacks it.
func exchange(a, b string) (ok bool, err error) {
	var nr uintptr
	switch runtime.GOARCH {
	case "amd64":
		nr = 316
	case "arm64", "riscv64", "loong64":
		nr = 276
	default:
		return false, nil
	}
	pa, err := syscall.BytePtrFromString(a)
	if err != nil {
		return false, err
	}
	pb, err := syscall.BytePtrFromString(b)
	if err != nil {
		return false, err
	}
	const atFDCWD = -100
	const renameExchange = 2
	fd := atFDCWD
	_, _, errno := syscall.Syscall6(nr, uintptr(fd), uintptr(unsafe.Pointer(pa)), uintptr(fd), uintptr(unsafe.Pointer(pb)), renameExchange, 0)
	switch errno {
	case 0:
		return true, nil
	case syscall.ENOSYS, syscall.EINVAL, syscall.EOPNOTSUPP:
		return false, nil
	}
	return false, &osLinkError{"renameat2", a, b, errno}
}

// lockFile takes an exclusive advisory lock on f's descriptor; it is
// released when the file is closed or the process dies.
func lockFile(fd uintptr) error { return syscall.Flock(int(fd), syscall.LOCK_EX) }

// fileID returns the inode number and change time of a file, which with
// its size and mtime tell a build whether a source may have changed.
func fileID(info fs.FileInfo) (ino uint64, ctime int64, ok bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return st.Ino, st.Ctim.Nano(), true
}

// devIno identifies a folder: its device and inode, which a rename keeps.
func devIno(info fs.FileInfo) (dev, ino uint64) {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), st.Ino
	}
	return 0, 0
}

// inodeOf returns the file's inode number, which tells a file replaced in
// place from the one a manifest recorded.
func inodeOf(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return st.Ino
	}
	return 0
}
