package generator

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
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
	root := statRootOf(t, dir)
	if root.dir == nil {
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
	if diff := cmp.Diff(fstatat, statx, cmp.AllowUnexported(fileStat{}), cmp.Comparer(func(a, b syscall.Errno) bool { return a == b })); diff != "" {
		t.Errorf("statx and fstatat differ (-fstatat +statx):\n%s", diff)
	}
	for _, name := range []string{"a", "a/file.svg", "a/link", long + "file.svg"} {
		info, err := os.Lstat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if want := statOfInfo(info); statx[name] != want {
			t.Errorf("%s: statx gives %+v, os.Lstat %+v", name, statx[name], want)
		}
	}
	if st, ok := statx["a/fifo"].(fileStat); !ok || st.mode.IsRegular() || st.ino == 0 {
		t.Errorf("a/fifo: %+v, want an irregular file with an inode", statx["a/fifo"])
	}
}
