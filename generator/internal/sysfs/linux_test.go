//go:build linux

package sysfs

import (
	"encoding/binary"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

// TestStatAt takes the stat of a file, a folder, a link, a FIFO, a long
// name and a missing one by statx and by fstatat (the fallback where statx
// is missing): the two must agree, and with os.Lstat, as the build
// compares them with the stats it recorded.
func TestStatAt(t *testing.T) {
	dir := t.TempDir()
	long := ""
	for len(long) < 300 {
		long += "long-name/"
	}
	writeFile(t, filepath.Join(dir, "a/file.svg"), []byte("<svg/>"))
	writeFile(t, filepath.Join(dir, long, "file.svg"), []byte("<svg></svg>"))
	if err := os.Symlink("file.svg", filepath.Join(dir, "a/link")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "a/fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := OpenPath(dir)
	defer root.Close()
	if root.f == nil {
		t.Fatal("no descriptor for the folder")
	}
	names := []string{"a", "a/file.svg", "a/link", "a/fifo", long + "file.svg", "a/missing", "a/file.svg/x"}
	stat := func(fallback bool) map[string]any {
		t.Helper()
		noStatx.Store(fallback)
		defer noStatx.Store(false)
		got := map[string]any{}
		for _, name := range names {
			st, err := statAt(root.fd, name)
			if err != nil {
				got[name] = err.(*os.PathError).Err
			} else {
				got[name] = st
			}
		}
		return got
	}
	statx, fstatat := stat(false), stat(true)
	if diff := cmp.Diff(fstatat, statx, cmp.Comparer(func(a, b syscall.Errno) bool { return a == b })); diff != "" {
		t.Errorf("statx and fstatat differ (-fstatat +statx):\n%s", diff)
	}
	for _, name := range []string{"a", "a/file.svg", "a/link", long + "file.svg"} {
		info, err := os.Lstat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if want := StatOf(info); statx[name] != want {
			t.Errorf("%s: statx gives %+v, os.Lstat %+v", name, statx[name], want)
		}
	}
	if st, ok := statx["a/fifo"].(Stat); !ok || st.Mode.IsRegular() || st.Ino == 0 {
		t.Errorf("a/fifo: %+v, want an irregular file with an inode", statx["a/fifo"])
	}
}

// TestReadDirAt lists a folder by getdents64 and by os.ReadDir, which
// must agree on each entry's name and type: a file, a folder, a link, a
// FIFO, a socket, and enough long names to take several reads.
func TestReadDirAt(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	writeFile(t, filepath.Join(sub, "file.svg"), []byte("<svg/>"))
	writeFile(t, filepath.Join(sub, "folder/x"), nil)
	for i := range 300 {
		writeFile(t, filepath.Join(sub, fmt.Sprintf("%03d-%s", i, strings.Repeat("n", 60))), nil)
	}
	if err := os.Symlink("file.svg", filepath.Join(sub, "link")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(sub, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if l, err := net.Listen("unix", filepath.Join(sub, "sock")); err == nil {
		defer l.Close()
	}
	type entry struct {
		Name string
		Type fs.FileMode
	}
	list := func(entries []fs.DirEntry) (l []entry) {
		for _, e := range entries {
			l = append(l, entry{e.Name(), e.Type()})
		}
		return l
	}
	want, err := os.ReadDir(sub)
	if err != nil {
		t.Fatal(err)
	}
	root := OpenPath(dir)
	defer root.Close()
	got, err := readDirAt(root.fd, "sub")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(list(want), list(got)); diff != "" {
		t.Errorf("readDirAt and os.ReadDir differ (-os +readDirAt):\n%s", diff)
	}
	if len(want) < 300 {
		t.Errorf("%d entries", len(want))
	}
	// A file system that gives no types (DT_UNKNOWN) is asked by lstat.
	fd, err := unix.Open(sub, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	for _, e := range want {
		if mode, err := direntMode(fd, e.Name(), unix.DT_UNKNOWN); err != nil || mode != e.Type() {
			t.Errorf("%s with no d_type: %v, %v; want %v", e.Name(), mode, err, e.Type())
		}
	}
	if _, err := readDirAt(root.fd, "sub/file.svg"); err == nil {
		t.Error("a file listed as a folder")
	}
	if _, err := readDirAt(root.fd, "sub/link"); err == nil {
		t.Error("a link followed")
	}
}

// TestEachDirent refuses a record that runs past the buffer or is too
// short to hold its header, as a damaged reply would be.
func TestEachDirent(t *testing.T) {
	rec := func(ino uint64, typ byte, name string, pad int) []byte {
		b := binary.NativeEndian.AppendUint64(nil, ino)
		b = binary.NativeEndian.AppendUint64(b, 0)
		b = binary.NativeEndian.AppendUint16(b, uint16(19+len(name)+1+pad))
		b = append(b, typ)
		b = append(b, name...)
		return append(b, make([]byte, 1+pad)...)
	}
	var good []byte
	for _, r := range [][]byte{rec(1, unix.DT_DIR, ".", 4), rec(1, unix.DT_DIR, "..", 3), rec(7, unix.DT_REG, "a.svg", 0), rec(0, unix.DT_REG, "gone", 2), rec(9, unix.DT_LNK, "b", 6)} {
		good = append(good, r...)
	}
	var names []string
	if err := eachDirent(good, func(name string, typ byte) error { names = append(names, fmt.Sprint(name, typ)); return nil }); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{fmt.Sprint("a.svg", unix.DT_REG), fmt.Sprint("b", unix.DT_LNK)}, names); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	long := rec(7, unix.DT_REG, "a.svg", 0)
	binary.NativeEndian.PutUint16(long[16:], uint16(len(long)+8))
	for what, b := range map[string][]byte{"past the end": long, "short": good[:10], "no header": {1, 2, 3}} {
		if err := eachDirent(b, func(string, byte) error { return nil }); err == nil {
			t.Errorf("%s: no error", what)
		}
	}
	short := rec(7, unix.DT_REG, "a", 0)
	binary.NativeEndian.PutUint16(short[16:], 12)
	if err := eachDirent(short, func(string, byte) error { return nil }); err == nil {
		t.Error("a record shorter than its header: no error")
	}
}
