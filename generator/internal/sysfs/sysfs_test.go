package sysfs

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

// writeFile writes name, with its folders.
func writeFile(t *testing.T, name string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// readString reads name, failing the test when it cannot.
func readString(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReadToEnd reads through readers that stop short anywhere (as a
// network or FUSE file system may), with stats that are right, unknown,
// or wrong because the file changed after them.
func TestReadToEnd(t *testing.T) {
	const limit = 100
	readers := map[string]func(io.Reader) io.Reader{
		"whole":         func(r io.Reader) io.Reader { return r },
		"one byte":      iotest.OneByteReader,
		"half":          iotest.HalfReader,
		"EOF with data": iotest.DataErrReader,
	}
	for _, tc := range []struct {
		name string
		data string
		size int64
		want string
	}{
		{"empty", "", 0, ""},
		{"as stat'ed", "<svg/>", 6, "<svg/>"},
		{"no stat", "<svg/>", -1, "<svg/>"},
		{"grew since", "<svg></svg>", 6, "<svg></svg>"},
		{"shrank since", "<svg/>", 600, "<svg/>"},
		{"at the limit", strings.Repeat("x", limit), limit, strings.Repeat("x", limit)},
		{"grew past the limit", strings.Repeat("x", 2*limit), limit, strings.Repeat("x", limit+1)},
		{"past the limit, no stat", strings.Repeat("x", 2*limit), -1, strings.Repeat("x", limit+1)},
	} {
		for name, wrap := range readers {
			got, err := ReadToEnd(wrap(strings.NewReader(tc.data)), tc.size, limit)
			if err != nil {
				t.Errorf("%s, %s: %v", tc.name, name, err)
				continue
			}
			if diff := cmp.Diff(tc.want, string(got)); diff != "" {
				t.Errorf("%s, %s (-want +got):\n%s", tc.name, name, diff)
			}
		}
	}
	// An error that is not the end is reported.
	if _, err := ReadToEnd(iotest.TimeoutReader(iotest.OneByteReader(strings.NewReader("<svg/>"))), 6, limit); err != iotest.ErrTimeout {
		t.Errorf("a failing read gave %v, want %v", err, iotest.ErrTimeout)
	}
}

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
		byDescriptor := OpenFS(fsys)
		defer byDescriptor.Close()
		for how, d := range map[string]*Dir{"by path": {fsys: fsys}, "by descriptor": byDescriptor} {
			got, err := d.ReadDir(".")
			if err != nil {
				t.Fatalf("%s, %s: %v", name, how, err)
			}
			if diff := cmp.Diff(list(want), list(got)); diff != "" {
				t.Errorf("%s, %s (-fs.ReadDir +ReadDir):\n%s", name, how, diff)
			}
		}
	}
}

// absent stands for a file that must not exist.
const absent = "\x00absent"

// TestReplaceFile replaces a file whatever is at its name and at its
// spare's: nothing, a file, a longer file, a hard link to another file, a
// symbolic link, or a file this process mapped. The file at the name ends
// up a regular file holding what was written, and nothing is written
// through a link, into another file or into the mapped one.
func TestReplaceFile(t *testing.T) {
	const data = "new contents\n"
	write := func(w io.Writer) error { _, err := io.WriteString(w, data); return err }
	for _, tc := range []struct {
		name string
		// setup makes what is at path and path-spare, and returns the
		// files besides path that must keep what they hold.
		setup func(t *testing.T, dir, path string) map[string]string
	}{
		{"nothing there", func(*testing.T, string, string) map[string]string { return nil }},
		{"a file", func(t *testing.T, dir, path string) map[string]string {
			writeFile(t, path, []byte("old"))
			return nil
		}},
		{"a spare longer than the new file", func(t *testing.T, dir, path string) map[string]string {
			writeFile(t, path, []byte("old"))
			writeFile(t, path+"-spare", []byte(strings.Repeat("spare ", 100)))
			return nil
		}},
		{"a spare that is a hard link", func(t *testing.T, dir, path string) map[string]string {
			writeFile(t, path, []byte("old"))
			other := filepath.Join(dir, "other")
			writeFile(t, other, []byte("another file"))
			if err := os.Link(other, path+"-spare"); err != nil {
				t.Skip("no hard links here:", err)
			}
			return map[string]string{other: "another file"}
		}},
		{"a spare that is a symbolic link", func(t *testing.T, dir, path string) map[string]string {
			writeFile(t, path, []byte("old"))
			target := filepath.Join(dir, "target")
			writeFile(t, target, []byte("the link's target"))
			if err := os.Symlink(target, path+"-spare"); err != nil {
				t.Skip("no symbolic links here:", err)
			}
			return map[string]string{target: "the link's target"}
		}},
		{"a spare that is a dangling symbolic link", func(t *testing.T, dir, path string) map[string]string {
			writeFile(t, path, []byte("old"))
			if err := os.Symlink(filepath.Join(dir, "nowhere"), path+"-spare"); err != nil {
				t.Skip("no symbolic links here:", err)
			}
			return map[string]string{filepath.Join(dir, "nowhere"): absent}
		}},
		{"a file that is a symbolic link", func(t *testing.T, dir, path string) map[string]string {
			target := filepath.Join(dir, "target")
			writeFile(t, target, []byte("the link's target"))
			if err := os.Symlink(target, path); err != nil {
				t.Skip("no symbolic links here:", err)
			}
			return map[string]string{target: "the link's target"}
		}},
		{"a file that is a hard link", func(t *testing.T, dir, path string) map[string]string {
			other := filepath.Join(dir, "other")
			writeFile(t, other, []byte("another file"))
			if err := os.Link(other, path); err != nil {
				t.Skip("no hard links here:", err)
			}
			return map[string]string{other: "another file"}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "state")
			keep := tc.setup(t, dir, path)
			// A second replace writes over the spare the first one left.
			for i := range 2 {
				if err := ReplaceFile(path, write); err != nil {
					t.Fatalf("replace %d: %v", i+1, err)
				}
				info, err := os.Lstat(path)
				if err != nil {
					t.Fatal(err)
				}
				if !info.Mode().IsRegular() {
					t.Errorf("replace %d: %s is %v, want a regular file", i+1, path, info.Mode())
				}
				if got := readString(t, path); got != data {
					t.Errorf("replace %d: %s holds %q, want %q", i+1, path, got, data)
				}
				for name, want := range keep {
					got, err := os.ReadFile(name)
					if want == absent && errors.Is(err, fs.ErrNotExist) {
						continue
					}
					if string(got) != want || err != nil {
						t.Errorf("replace %d: %s holds %q (%v), want %q: written through a link", i+1, name, got, err, want)
					}
				}
			}
		})
	}
}

// TestReplaceFileMapped replaces a file that this process mapped, twice,
// so that the second replace finds the mapped file as its spare: the bytes
// mapped keep what they held.
func TestReplaceFileMapped(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state")
	old := strings.Repeat("old ", 1000)
	writeFile(t, path, []byte(old))
	mapped, err := MapFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, data := range []string{"first", "second"} {
		if err := ReplaceFile(path, func(w io.Writer) error { _, err := io.WriteString(w, data); return err }); err != nil {
			t.Fatal(err)
		}
		if got := readString(t, path); got != data {
			t.Errorf("replace %d: %q, want %q", i+1, got, data)
		}
		if string(mapped) != old {
			t.Fatalf("replace %d wrote over the mapped file: it holds %.40q", i+1, mapped)
		}
	}
}

// TestReplaceFileFails: a write that fails leaves the file as it was, and
// its error is returned.
func TestReplaceFileFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state")
	writeFile(t, path, []byte("old"))
	failed := errors.New("the disk is full")
	for i := range 2 {
		err := ReplaceFile(path, func(w io.Writer) error {
			io.WriteString(w, strings.Repeat("x", 100<<10)) // more than the buffer: some reaches the spare
			return failed
		})
		if !errors.Is(err, failed) {
			t.Errorf("replace %d gave %v, want %v", i+1, err, failed)
		}
		if got := readString(t, path); got != "old" {
			t.Errorf("replace %d: a failed write left %.40q, want %q", i+1, got, "old")
		}
	}
}

// TestReplaceFileAtomic replaces a file over and over while another
// goroutine looks it up: the name is never missing, and while the new
// file is being written the old one is there, whole, as a crash would
// leave it.
func TestReplaceFileAtomic(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state")
	versions := []string{strings.Repeat("a", 200<<10), strings.Repeat("b", 100<<10)}
	writeFile(t, path, []byte(versions[0]))
	stop := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		for {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			if _, err := os.Lstat(path); err != nil {
				done <- err
				return
			}
		}
	}()
	n := 200
	if testing.Short() {
		n = 20
	}
	for i := range n {
		old, v := versions[i%2], versions[(i+1)%2]
		err := ReplaceFile(path, func(w io.Writer) error {
			if _, err := io.WriteString(w, v[:len(v)/2]); err != nil {
				return err
			}
			if got := readString(t, path); got != old {
				t.Fatalf("replace %d: halfway through the write the file holds %d bytes, not the old version", i+1, len(got))
			}
			_, err := io.WriteString(w, v[len(v)/2:])
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if got := readString(t, path); got != v {
			t.Fatalf("replace %d: the file holds %d bytes, not the new version", i+1, len(got))
		}
	}
	close(stop)
	if err := <-done; err != nil {
		t.Errorf("the file was missing during a replace: %v", err)
	}
}

// TestLink links files of one tree into another, by folder descriptors
// and after the source folder moved: the new name is the same file. An
// existing name and a missing file are refused, and a link is linked, not
// followed.
func TestLink(t *testing.T) {
	base := t.TempDir()
	live, standby := filepath.Join(base, "live"), filepath.Join(base, "standby")
	for _, d := range []string{live, standby} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	from, to := OpenTree(live), OpenTree(standby)
	defer from.Close()
	defer to.Close()
	if err := from.MkdirAll("logos/acme"); err != nil {
		t.Fatal(err)
	}
	if _, err := from.Create("logos/acme/icon.svg", []byte("<svg/>")); err != nil {
		t.Fatal(err)
	}
	if _, err := from.Create("index.json", []byte("{}")); err != nil {
		t.Fatal(err)
	}
	if err := to.MkdirAll("logos/acme"); err != nil {
		t.Fatal(err)
	}
	same := func(name string) {
		t.Helper()
		a, err := os.Lstat(filepath.Join(from.Path(), name))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.Lstat(filepath.Join(to.Path(), name))
		if err != nil {
			t.Fatal(err)
		}
		if !os.SameFile(a, b) {
			t.Errorf("%s: the link is not the same file", name)
		}
	}
	if err := to.Link(from, "logos/acme/icon.svg"); err != nil {
		t.Fatal(err)
	}
	same("logos/acme/icon.svg")
	if err := to.Link(from, "logos/acme/icon.svg"); !errors.Is(err, fs.ErrExist) {
		t.Errorf("linking over an existing name gave %v, want it to exist", err)
	}
	if err := to.Link(from, "logos/acme/missing.svg"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("linking a missing file gave %v, want it not to exist", err)
	}
	// The live tree moves; its descriptor follows it.
	moved := filepath.Join(base, "moved")
	if err := os.Rename(live, moved); err != nil {
		t.Fatal(err)
	}
	from.Moved(moved)
	if err := to.Link(from, "index.json"); err != nil {
		t.Fatal(err)
	}
	same("index.json")
	if got := readString(t, filepath.Join(standby, "index.json")); got != "{}" {
		t.Errorf("the linked file holds %q", got)
	}
	// A link is linked as a link (linkat without AT_SYMLINK_FOLLOW).
	if runtime.GOOS != "linux" {
		return
	}
	if err := os.Symlink("index.json", filepath.Join(moved, "link")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if err := to.Link(from, "link"); err != nil {
		t.Fatal(err)
	}
	if info, err := os.Lstat(filepath.Join(standby, "link")); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("the link of a link is %v (%v), want a symbolic link", info.Mode(), err)
	}
}

// TestTreeFirstUseConcurrent writes into a Dir of OpenTree from many
// goroutines at once, as a build's logos do, before anything else has
// used it: the descriptor it opens on first use is opened once, and every
// file and folder lands in the tree.
func TestTreeFirstUseConcurrent(t *testing.T) {
	dir := t.TempDir()
	d := OpenTree(dir)
	defer d.Close()
	const n = 16
	errs := make(chan error, n)
	for i := range n {
		go func() {
			name := fmt.Sprintf("logo-%02d", i)
			err := d.Mkdir(name)
			if err == nil {
				_, err = d.Create(name+"/icon.svg", []byte(name))
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	for i := range n {
		name := fmt.Sprintf("logo-%02d", i)
		if got := readString(t, filepath.Join(dir, name, "icon.svg")); got != name {
			t.Errorf("%s/icon.svg holds %q", name, got)
		}
	}
}
