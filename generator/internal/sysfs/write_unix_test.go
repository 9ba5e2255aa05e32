//go:build unix

package sysfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWriteNewAndMkdirAsOSDoes checks writeNew and mkdirAt, which make
// their own system calls on Linux (raw_linux.go), against os: the same
// errors for an existing name, a missing folder and a file in the way,
// and the same file. They are called with the whole path (in a) and with
// a path under the descriptor of a folder (in r), as a Dir of OpenTree
// gives.
func TestWriteNewAndMkdirAsOSDoes(t *testing.T) {
	dir := t.TempDir()
	for _, side := range []string{"a", "r", "b"} {
		for _, name := range []string{"folder", "folder-d", "file-d"} {
			if err := os.MkdirAll(filepath.Join(dir, side, name), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, side, "file"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	kind := func(err error) string {
		for _, k := range []struct {
			target error
			name   string
		}{{fs.ErrExist, "exists"}, {fs.ErrNotExist, "not found"}, {syscall.ENOTDIR, "not a folder"}} {
			if errors.Is(err, k.target) {
				return k.name
			}
		}
		if err != nil {
			return err.Error()
		}
		return "ok"
	}
	osWrite := func(name string, data []byte) error {
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		_, err = f.Write(data)
		return errors.Join(err, f.Close())
	}
	r, err := os.Open(filepath.Join(dir, "r"))
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	data := []byte(strings.Repeat("<svg/>", 20000))
	for _, name := range []string{"new", "file", "folder", "missing/new", "file/new"} {
		a, rel := filepath.Join(dir, "a", name), filepath.Join(dir, "r", name)
		want := kind(osWrite(filepath.Join(dir, "b", name), data))
		if got := kind(func() error { _, err := writeNew(atCWD, a, a, data); return err }()); got != want {
			t.Errorf("writeNew %s: %s, os: %s", name, got, want)
		}
		if got := kind(func() error { _, err := writeNew(int(r.Fd()), name, rel, data); return err }()); got != want {
			t.Errorf("writeNew %s under a folder's descriptor: %s, os: %s", name, got, want)
		}
		want = kind(os.Mkdir(filepath.Join(dir, "b", name+"-d"), 0o755))
		if got := kind(mkdirAt(atCWD, a+"-d", a+"-d")); got != want {
			t.Errorf("mkdirAt %s: %s, os: %s", name, got, want)
		}
		if got := kind(mkdirAt(int(r.Fd()), name+"-d", rel+"-d")); got != want {
			t.Errorf("mkdirAt %s under a folder's descriptor: %s, os: %s", name, got, want)
		}
	}
	for _, name := range []string{"new", "new-d"} {
		if _, err := os.Stat(filepath.Join(dir, "r", name)); err != nil {
			t.Errorf("%s: nothing made under the folder's descriptor: %v", name, err)
		}
	}
	p := filepath.Join(dir, "c")
	st, err := writeNew(atCWD, p, p, data)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Lstat(filepath.Join(dir, "c"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(StatOf(info), *st); diff != "" {
		t.Errorf("writeNew's stat differs from os.Lstat's (-os +writeNew):\n%s", diff)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "c")); err != nil || string(b) != string(data) {
		t.Errorf("writeNew wrote %d bytes (%v), want %d", len(b), err, len(data))
	}
}
