package generator

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// TestReadDirBatches lists folders of more entries than a batch, through a
// descriptor, through an os.Root and from an fstest.MapFS, as fs.ReadDir
// lists them: the same names, in order, of the same types.
func TestReadDirBatches(t *testing.T) {
	type entry struct {
		Name string
		Type fs.FileMode
	}
	list := func(entries []fs.DirEntry) []entry {
		var out []entry
		for _, e := range entries {
			if e.IsDir() != e.Type().IsDir() {
				t.Errorf("%s: IsDir %v, type %v", e.Name(), e.IsDir(), e.Type())
			}
			out = append(out, entry{e.Name(), e.Type()})
		}
		return out
	}
	dir := t.TempDir()
	mapfs := fstest.MapFS{}
	for i := 2500; i > 0; i-- { // made in reverse order
		name := fmt.Sprintf("logo-%04d", i)
		switch i % 3 {
		case 0:
			if err := os.Mkdir(filepath.Join(dir, name), 0o755); err != nil {
				t.Fatal(err)
			}
			mapfs[name+"/logo.yaml"] = &fstest.MapFile{}
		case 1:
			if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			mapfs[name] = &fstest.MapFile{}
		default:
			if err := os.Symlink("elsewhere", filepath.Join(dir, name)); err != nil {
				t.Skip("no symbolic links here:", err)
			}
			mapfs[name] = &fstest.MapFile{Mode: fs.ModeSymlink}
		}
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	for name, fsys := range map[string]fs.FS{"os.Root": root.FS(), "MapFS": mapfs} {
		want, err := fs.ReadDir(fsys, ".")
		if err != nil {
			t.Fatal(err)
		}
		for how, s := range map[string]*statRoot{"by path": {fsys: fsys}, "by descriptor": openStatRoot(fsys)} {
			got, err := s.readDir(".")
			if err != nil {
				t.Fatalf("%s, %s: %v", name, how, err)
			}
			if diff := cmp.Diff(list(want), list(got)); diff != "" {
				t.Errorf("%s, %s (-fs.ReadDir +readDir):\n%s", name, how, diff)
			}
		}
	}
}
