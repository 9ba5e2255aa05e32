package testtree

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	Write(t, dir, map[string]string{"a/b/c.txt": "one", "d.txt": "two"})
	Write(t, dir, map[string]string{"a/b/c.txt": "three"}) // replaces
	for name, want := range map[string]string{"a/b/c.txt": "three", "d.txt": "two"} {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, want)
		}
	}
}

func TestRead(t *testing.T) {
	dir := t.TempDir()
	Write(t, dir, map[string]string{"a/b/c.txt": "one", "d.txt": "two"})
	if err := os.Mkdir(filepath.Join(dir, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("d.txt", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"a", "d.txt", "empty", "link"}, Names(t, dir)); diff != "" {
		t.Errorf("Names (-want +got):\n%s", diff)
	}
	for _, tc := range []struct {
		name string
		read func(testing.TB, string) map[string]string
		dir  string
		want map[string]string
	}{
		{"Read", Read, dir, map[string]string{"a/": "", "a/b/": "", "a/b/c.txt": "one", "d.txt": "two", "empty/": "", "link": "(L---------)"}},
		{"ReadFiles", ReadFiles, dir, map[string]string{"a/b/c.txt": "one", "d.txt": "two", "link": "(L---------)"}},
		{"Read, missing", Read, filepath.Join(dir, "missing"), nil},
		{"ReadFiles, missing", ReadFiles, filepath.Join(dir, "missing"), nil},
	} {
		if diff := cmp.Diff(tc.want, tc.read(t, tc.dir)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tc.name, diff)
		}
	}
}

func TestInfos(t *testing.T) {
	dir := t.TempDir()
	Write(t, dir, map[string]string{"a/b.txt": "one"})
	got := map[string]string{}
	for name, info := range Infos(t, dir) {
		got[name] = fmt.Sprintf("dir %v, %s", info.IsDir(), info.Name())
	}
	want := map[string]string{".": "dir true, " + filepath.Base(dir), "a": "dir true, a", "a/b.txt": "dir false, b.txt"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Infos (-want +got):\n%s", diff)
	}
	if infos := Infos(t, filepath.Join(dir, "missing")); infos != nil {
		t.Errorf("Infos of a missing folder: %v, want nil", infos)
	}
}
