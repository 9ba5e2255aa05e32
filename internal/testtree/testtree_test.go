package testtree

import (
	"os"
	"path/filepath"
	"testing"
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
