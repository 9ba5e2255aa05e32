package outtree_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/internal/digest"
	"logoindex/generator/internal/sysfs"
	"logoindex/generator/outtree"
	"logoindex/internal/testtree"
)

const marker = "api/logos.json"

var opts = outtree.Options{Marker: marker, Workers: 4}

// files is a tree as a build makes it: file names to contents.
type files map[string]string

// with is a copy of f with the changes of edits: a name mapped to "" is
// removed.
func (f files) with(edits files) files {
	out := maps.Clone(f)
	for name, data := range edits {
		if data == "" {
			delete(out, name)
		} else {
			out[name] = data
		}
	}
	return out
}

// treeA, treeB and treeC are three builds of a small collection: B
// changes a, removes b and adds c; C changes the collection only.
var (
	treeA = files{
		marker:                  `["a","b"]`,
		"index.html":            "<h1>2</h1>",
		"logos/a/icon.svg":      "<svg>a</svg>",
		"logos/a/icon-mono.svg": "<svg>a mono</svg>",
		"logos/b/icon.svg":      "<svg>b</svg>",
		"logos/b/deep/x.svg":    "<svg>b x</svg>",
		"api/logos/a.json":      `{"a":1}`,
		"api/logos/b.json":      `{"b":1}`,
	}
	treeB = treeA.with(files{
		marker:               `["a","c"]`,
		"logos/a/icon.svg":   "<svg>a, edited</svg>",
		"logos/b/icon.svg":   "",
		"logos/b/deep/x.svg": "",
		"api/logos/b.json":   "",
		"logos/c/icon.svg":   "<svg>c</svg>",
		"api/logos/c.json":   `{"c":1}`,
	})
	treeC = treeB.with(files{marker: `["a","c","d"]`, "index.html": "<h1>3</h1>"})
)

// dirs names the state folder's parts of an output folder.
type dirs struct{ out, state, standby, trees string }

func newDirs(t *testing.T) dirs {
	out := filepath.Join(t.TempDir(), "dist")
	state := outtree.StateDir(out)
	return dirs{out, state, filepath.Join(state, "standby"), filepath.Join(state, "trees")}
}

func open(t *testing.T, dir string) *outtree.Tree {
	t.Helper()
	tr, err := outtree.Open(dir, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return tr
}

// put puts every file of want into w, as a build that made them all does.
func put(t *testing.T, w *outtree.Writer, want files) {
	t.Helper()
	for _, name := range slices.Sorted(maps.Keys(want)) {
		if err := w.Put(name, digest.OfString(want[name]), []byte(want[name])); err != nil {
			t.Fatalf("Put %s: %v", name, err)
		}
	}
}

// finish removes what want does not name and commits.
func finish(t *testing.T, w *outtree.Writer, want files) {
	t.Helper()
	if err := w.Finish(len(want), func(yield func(string) bool) {
		for name := range want {
			if !yield(name) {
				return
			}
		}
	}); err != nil {
		t.Fatalf("Finish: %v", err)
	}
	if err := w.Commit(); err != nil {
		t.Fatalf("Commit: %v", err)
	}
}

// build writes want to the output folder dir as a build does, and checks
// the folder holds it after.
func build(t *testing.T, dir string, want files) (lost []string) {
	t.Helper()
	tr := open(t, dir)
	defer tr.Close()
	w, err := tr.Begin()
	if err != nil {
		t.Fatalf("Begin: %v", err)
	}
	lost = w.Lost()
	put(t, w, want)
	finish(t, w, want)
	if diff := cmp.Diff(tree(want), testtree.Read(t, dir)); diff != "" {
		t.Fatalf("the output after the build (-want +got):\n%s", diff)
	}
	return lost
}

// tree is f as readDir reads it: with each folder, as "name/".
func tree(f files) map[string]string {
	out := map[string]string{}
	for name, data := range f {
		out[name] = data
		for d := filepath.ToSlash(filepath.Dir(name)); d != "."; d = filepath.ToSlash(filepath.Dir(d)) {
			out[d+"/"] = ""
		}
	}
	return out
}

// stats maps every file and folder under dir to its inode, mtime and
// size: what a build that writes nothing keeps.
func stats(t *testing.T, dir string) map[string]string {
	t.Helper()
	infos := testtree.Infos(t, dir)
	if infos == nil {
		t.Fatalf("%s is missing", dir)
	}
	out := map[string]string{}
	for name, info := range infos {
		st := sysfs.StatOf(info)
		out[name] = fmt.Sprintf("ino %d mtime %d size %d", st.Ino, st.MTime, st.Size)
	}
	return out
}

func inode(t *testing.T, name string) uint64 {
	t.Helper()
	info, err := os.Lstat(name)
	if err != nil {
		t.Fatal(err)
	}
	return sysfs.StatOf(info).Ino
}

func writeFile(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestOpenRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		dir  func(t *testing.T) string // the output folder to open
		want string                    // in the error
	}{
		{"the working folder", func(*testing.T) string { return "." }, "name a folder of its own"},
		{"the root", func(*testing.T) string { return "/" }, "name a folder of its own"},
		{"the parent", func(*testing.T) string { return ".." }, "name a folder of its own"},
		{"a folder and back", func(*testing.T) string { return "x/.." }, "name a folder of its own"},
		{"the working folder with a slash", func(*testing.T) string { return "./" }, "name a folder of its own"},
		{"a folder of other files", func(t *testing.T) string {
			dir := filepath.Join(t.TempDir(), "docs")
			writeFile(t, filepath.Join(dir, "thesis.tex"), "keep me")
			return dir
		}, "is not an earlier build"},
		{"a file", func(t *testing.T) string {
			name := filepath.Join(t.TempDir(), "dist")
			writeFile(t, name, "keep me")
			return name
		}, "not a folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.dir(t)
			var before map[string]string
			if strings.HasPrefix(dir, os.TempDir()) {
				before = testtree.Read(t, filepath.Dir(dir))
			}
			tr, err := outtree.Open(dir, opts)
			if err == nil {
				tr.Close()
				t.Fatalf("Open(%q) succeeded", dir)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Open(%q): %v; want an error saying %q", dir, err, tc.want)
			}
			if before != nil {
				// Nothing is made beside it, not even a state folder.
				after := testtree.Read(t, filepath.Dir(dir))
				if _, err := os.Lstat(outtree.StateDir(dir)); err == nil {
					t.Errorf("a refused Open left %s", outtree.StateDir(dir))
				}
				if diff := cmp.Diff(before, after); diff != "" {
					t.Errorf("a refused Open changed the folder around it (-before +after):\n%s", diff)
				}
			}
		})
	}
	// What it accepts: a missing folder, an empty one, an earlier output.
	for _, tc := range []struct {
		name string
		make func(dir string)
	}{
		{"missing", func(string) {}},
		{"empty", func(dir string) { os.Mkdir(dir, 0o755) }},
		{"an earlier output", func(dir string) { writeFile(t, filepath.Join(dir, marker), "[]") }},
	} {
		d := newDirs(t)
		tc.make(d.out)
		tr, err := outtree.Open(d.out, opts)
		if err != nil {
			t.Errorf("%s: Open: %v", tc.name, err)
			continue
		}
		tr.Close()
	}
}

// TestOpenRestoresInterruptedSwap plays a build that died between the two
// renames of a swap made without an exchange: the old tree moved to the
// state folder's "old", nothing at the output. Open puts it back. A build
// that died after the second rename left both: "old" goes.
func TestOpenRestoresInterruptedSwap(t *testing.T) {
	for _, tc := range []struct {
		name string
		want files // in the output after Open
	}{
		{"between the renames", treeA},
		{"after the second rename", treeB},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDirs(t)
			build(t, d.out, treeA)
			old := filepath.Join(d.state, "old")
			if err := os.Rename(d.out, old); err != nil {
				t.Fatal(err)
			}
			if tc.name == "after the second rename" {
				// The new tree is in place; the standby not yet moved.
				for name, data := range treeB {
					writeFile(t, filepath.Join(d.out, name), data)
				}
			}
			tr := open(t, d.out)
			tr.Close()
			if diff := cmp.Diff(tree(tc.want), testtree.Read(t, d.out)); diff != "" {
				t.Errorf("the output after Open (-want +got):\n%s", diff)
			}
			if _, err := os.Lstat(old); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("%s is still there (%v)", old, err)
			}
			build(t, d.out, treeC)
			build(t, d.out, treeA)
		})
	}
}

// TestOpenRemovesLeftovers: what a build that died left in the state
// folder (tmp-*) goes; the tool's own files and the standby stay.
func TestOpenRemovesLeftovers(t *testing.T) {
	d := newDirs(t)
	build(t, d.out, treeA)
	build(t, d.out, treeB)
	writeFile(t, filepath.Join(d.state, "tmp-spill-123"), "x")
	writeFile(t, filepath.Join(d.state, "tmp-records-9/deep/file"), "x")
	before := testtree.Read(t, d.state)
	tr := open(t, d.out)
	tr.Close()
	want := maps.Clone(before)
	delete(want, "tmp-spill-123")
	delete(want, "tmp-records-9/")
	delete(want, "tmp-records-9/deep/")
	delete(want, "tmp-records-9/deep/file")
	if diff := cmp.Diff(want, testtree.Read(t, d.state)); diff != "" {
		t.Errorf("the state folder after Open (-want +got):\n%s", diff)
	}
	build(t, d.out, treeC)
}

// TestOpenLocks: a second Open of one output waits for the first to close.
func TestOpenLocks(t *testing.T) {
	d := newDirs(t)
	first := open(t, d.out)
	opened := make(chan error, 1)
	go func() {
		tr, err := outtree.Open(d.out, opts)
		if err == nil {
			tr.Close()
		}
		opened <- err
	}()
	select {
	case err := <-opened:
		t.Fatalf("a second Open returned while the first held the lock: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	first.Close()
	if err := <-opened; err != nil {
		t.Fatal(err)
	}
}

// TestSwap writes a tree, then another: until Commit the output is the
// old tree; after it, the new one, and the old tree (the same folder) is
// the standby. Files the build did not change are the old tree's, not
// copies.
func TestSwap(t *testing.T) {
	d := newDirs(t)
	build(t, d.out, treeA)
	oldRoot := inode(t, d.out)
	oldIndex := inode(t, filepath.Join(d.out, "index.html"))

	tr := open(t, d.out)
	defer tr.Close()
	w, err := tr.Begin()
	if err != nil {
		t.Fatal(err)
	}
	put(t, w, treeB)
	if diff := cmp.Diff(tree(treeA), testtree.Read(t, d.out)); diff != "" {
		t.Errorf("before Commit, the output changed (-old +now):\n%s", diff)
	}
	finish(t, w, treeB)
	if diff := cmp.Diff(tree(treeB), testtree.Read(t, d.out)); diff != "" {
		t.Errorf("the output after Commit (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(tree(treeA), testtree.Read(t, d.standby)); diff != "" {
		t.Errorf("the standby after Commit is not the old tree (-want +got):\n%s", diff)
	}
	if got := inode(t, d.standby); got != oldRoot {
		t.Errorf("the standby is folder %d, the old output was %d", got, oldRoot)
	}
	if got := inode(t, filepath.Join(d.out, "index.html")); got != oldIndex {
		t.Errorf("an unchanged file was written anew (inode %d, was %d)", got, oldIndex)
	}
	if n, _, ok := tr.LiveFiles(); !ok || n != len(treeB) {
		t.Errorf("LiveFiles after Commit: %d, %v; want %d files", n, ok, len(treeB))
	}
}

// TestCurrent: a tree is current for the files it holds, until a file is
// added to, removed from or renamed in one of its folders.
func TestCurrent(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(t *testing.T, d dirs)
		want bool
	}{
		{"untouched", func(*testing.T, dirs) {}, true},
		{"a file removed", func(t *testing.T, d dirs) { os.Remove(filepath.Join(d.out, "logos/a/icon.svg")) }, false},
		{"a file added", func(t *testing.T, d dirs) { writeFile(t, filepath.Join(d.out, "logos/a/junk"), "x") }, false},
		{"a folder added", func(t *testing.T, d dirs) { os.Mkdir(filepath.Join(d.out, "junk"), 0o755) }, false},
		{"a file replaced by a rename", func(t *testing.T, d dirs) {
			writeFile(t, filepath.Join(d.out, "logos/c/new"), "<svg>c</svg>")
			os.Rename(filepath.Join(d.out, "logos/c/new"), filepath.Join(d.out, "logos/c/icon.svg"))
		}, false},
		{"a folder removed", func(t *testing.T, d dirs) { os.RemoveAll(filepath.Join(d.out, "logos/c")) }, false},
		{"the output removed", func(t *testing.T, d dirs) { os.RemoveAll(d.out) }, false},
		{"the records removed", func(t *testing.T, d dirs) { os.Remove(d.trees) }, false},
		{"the standby removed", func(t *testing.T, d dirs) { os.RemoveAll(d.standby) }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDirs(t)
			build(t, d.out, treeA)
			build(t, d.out, treeB)
			tr := open(t, d.out)
			n, sum, ok := tr.LiveFiles()
			tr.Close()
			if !ok || n != len(treeB) {
				t.Fatalf("LiveFiles: %d, %v; want %d files", n, ok, len(treeB))
			}
			tc.edit(t, d)
			tr = open(t, d.out)
			defer tr.Close()
			if got := tr.Current(n, sum); got != tc.want {
				t.Errorf("Current: %v, want %v", got, tc.want)
			}
			if tr.Current(n+1, sum) || tr.Current(n, sum+1) {
				t.Error("Current for another count or sum")
			}
			tr.Close()
			build(t, d.out, treeC)
		})
	}
}

// TestOtherBoot writes a live file in place, a byte longer, which keeps
// its folder's mtime: in the boot that wrote the records the folder
// stands for its files, and the tree is current; in another, when files
// written without a sync may have lost their data, every file is checked
// by its stat, and the next build writes the file again.
func TestOtherBoot(t *testing.T) {
	if sysfs.BootID() == "" {
		t.Skip("this system gives no boot ID: folders never stand for their files")
	}
	for _, boot := range []string{sysfs.BootID(), "another boot"} {
		d := newDirs(t)
		build(t, d.out, treeA)
		build(t, d.out, treeB)
		name := filepath.Join(d.out, "logos/a/icon.svg")
		folder, err := os.Stat(filepath.Dir(name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(treeB["logos/a/icon.svg"]+"!"), 0o644); err != nil {
			t.Fatal(err)
		}
		if now, err := os.Stat(filepath.Dir(name)); err != nil || !now.ModTime().Equal(folder.ModTime()) {
			t.Fatalf("writing in place changed the folder's mtime (%v)", err)
		}
		if err := outtree.SetRecordsBoot(d.state, boot); err != nil {
			t.Fatal(err)
		}
		tr := open(t, d.out)
		n, sum, _ := tr.LiveFiles()
		same := boot == sysfs.BootID()
		if got := tr.Current(n, sum); got != same {
			t.Errorf("records of boot %q: Current %v, want %v", boot, got, same)
		}
		if !same {
			w, err := tr.Begin()
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]string{"logos/a/icon.svg"}, w.Lost()); diff != "" {
				t.Errorf("records of another boot: Lost (-want +got):\n%s", diff)
			}
			put(t, w, treeC)
			finish(t, w, treeC)
			if diff := cmp.Diff(tree(treeC), testtree.Read(t, d.out)); diff != "" {
				t.Errorf("records of another boot: the output (-want +got):\n%s", diff)
			}
		}
		tr.Close()
	}
}

// TestRewriteRecords holds the tests' writer of records files to the
// package's: a file written again as read is the same bytes.
func TestRewriteRecords(t *testing.T) {
	d := newDirs(t)
	build(t, d.out, treeA)
	build(t, d.out, treeB)
	before, err := os.ReadFile(d.trees)
	if err != nil {
		t.Fatal(err)
	}
	if err := outtree.RewriteRecords(d.state); err != nil {
		t.Fatal(err)
	}
	after, err := os.ReadFile(d.trees)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Errorf("the records file written again differs:\n%q\n%q", before, after)
	}
}

// TestForgedRecords forges records that name a path outside the trees, as
// a state folder restored from an untrusted cache could: no build removes
// or links a file outside them, and every build writes the right tree.
func TestForgedRecords(t *testing.T) {
	for _, f := range []outtree.Forgery{
		{File: "../victim"},
		{File: "../../victim"},
		{File: "logos/../../victim"},
		{File: "/victim"},
		{File: "logos/a/../../../victim"},
		{Dir: ".."},
		{Dir: "../victim"},
		{Differ: "../victim"},
		{Differ: "../../victim"},
		{File: "../victim", Differ: "../victim"},
	} {
		t.Run(fmt.Sprintf("%+v", f), func(t *testing.T) {
			d := newDirs(t)
			// A victim beside the output, and one beside the standby.
			victims := []string{filepath.Join(filepath.Dir(d.out), "victim"), filepath.Join(d.state, "victim")}
			for _, v := range victims {
				writeFile(t, v, "keep me")
			}
			build(t, d.out, treeA)
			build(t, d.out, treeB)
			if err := outtree.ForgeRecords(d.state, f, digest.OfString("keep me")); err != nil {
				t.Fatal(err)
			}
			for i, want := range []files{treeC, treeA, treeB, treeB, treeA} {
				if i == 3 {
					if err := outtree.ForgeRecords(d.state, f, digest.OfString("keep me")); err != nil {
						t.Fatal(err)
					}
				}
				build(t, d.out, want)
				for _, v := range victims {
					if b, err := os.ReadFile(v); err != nil || string(b) != "keep me" {
						t.Fatalf("build %d: the victim %s holds %q (%v)", i, v, b, err)
					}
					if info, err := os.Stat(v); err == nil && info.Sys().(*syscall.Stat_t).Nlink != 1 {
						t.Fatalf("build %d: the victim %s was linked", i, v)
					}
				}
			}
		})
	}
}

// TestLost: a file removed from the live tree is Lost to the next build,
// whether the standby is made anew or caught up.
func TestLost(t *testing.T) {
	for _, builds := range [][]files{{treeA}, {treeA, treeB}, {treeB, treeA, treeB}} {
		d := newDirs(t)
		for _, f := range builds {
			build(t, d.out, f)
		}
		if err := os.Remove(filepath.Join(d.out, "logos/a/icon.svg")); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(filepath.Join(d.out, "index.html")); err != nil {
			t.Fatal(err)
		}
		lost := build(t, d.out, treeC)
		slices.Sort(lost)
		if diff := cmp.Diff([]string{"index.html", "logos/a/icon.svg"}, lost); diff != "" {
			t.Errorf("after %d builds: Lost (-want +got):\n%s", len(builds), diff)
		}
	}
}

// TestStandbyCatchesUp disturbs the standby between builds in each way a
// build that stopped, or a person, can: the next Begin brings it up to
// date with the live tree (or, with no records to go by, starts it
// empty), and the builds after it write the right trees.
func TestStandbyCatchesUp(t *testing.T) {
	for _, tc := range []struct {
		name    string
		disturb func(t *testing.T, d dirs)
		empty   bool // Begin starts the standby empty
	}{
		{"nothing", func(*testing.T, dirs) {}, false},
		{"an aborted build", func(t *testing.T, d dirs) {
			tr := open(t, d.out)
			defer tr.Close()
			w, err := tr.Begin()
			if err != nil {
				t.Fatal(err)
			}
			put(t, w, treeB.with(files{"logos/a/icon.svg": "<svg>aborted</svg>", "logos/e/icon.svg": "<svg>e</svg>", "new.txt": "new"}))
			if err := w.Abort(); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"an aborted build that began empty", func(t *testing.T, d dirs) {
			tr := open(t, d.out)
			defer tr.Close()
			w, err := tr.BeginEmpty()
			if err != nil {
				t.Fatal(err)
			}
			put(t, w, files{"logos/a/icon.svg": "<svg>aborted</svg>"})
			if err := w.Abort(); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a build that died", func(t *testing.T, d dirs) {
			tr := open(t, d.out)
			defer tr.Close()
			w, err := tr.Begin()
			if err != nil {
				t.Fatal(err)
			}
			put(t, w, files{"logos/a/icon.svg": "<svg>died</svg>", "logos/e/icon.svg": "<svg>e</svg>"})
			if _, err := w.PutStream("logos/f/half.svg", func(w io.Writer) error {
				io.WriteString(w, "<svg")
				return errors.New("stopped")
			}); err == nil {
				t.Fatal("PutStream of a write that fails succeeded")
			}
			// No Abort, no Commit: the process died here.
		}, false},
		{"files added to the standby", func(t *testing.T, d dirs) {
			writeFile(t, filepath.Join(d.standby, "junk.txt"), "junk")
			writeFile(t, filepath.Join(d.standby, "logos/a/junk.svg"), "junk")
			writeFile(t, filepath.Join(d.standby, "logos/z/deep/junk.svg"), "junk")
		}, false},
		{"files removed from the standby", func(t *testing.T, d dirs) {
			os.Remove(filepath.Join(d.standby, "index.html"))
			os.RemoveAll(filepath.Join(d.standby, "logos/a"))
		}, false},
		{"a file of the standby replaced", func(t *testing.T, d dirs) {
			writeFile(t, filepath.Join(d.standby, "logos/a/new"), "<svg>other</svg>")
			os.Rename(filepath.Join(d.standby, "logos/a/new"), filepath.Join(d.standby, "logos/a/icon-mono.svg"))
		}, false},
		{"a folder of the standby replaced by a file", func(t *testing.T, d dirs) {
			os.RemoveAll(filepath.Join(d.standby, "logos/b"))
			writeFile(t, filepath.Join(d.standby, "logos/b"), "not a folder")
		}, false},
		{"the standby removed", func(t *testing.T, d dirs) { os.RemoveAll(d.standby) }, false},
		{"the records removed", func(t *testing.T, d dirs) { os.Remove(d.trees) }, true},
		{"the records cut short", func(t *testing.T, d dirs) {
			b, err := os.ReadFile(d.trees)
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, d.trees, string(b[:len(b)/2]))
		}, true},
		{"a byte of the records changed", func(t *testing.T, d dirs) {
			b, err := os.ReadFile(d.trees)
			if err != nil {
				t.Fatal(err)
			}
			b[len(b)/2] ^= 1
			writeFile(t, d.trees, string(b))
		}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := newDirs(t)
			build(t, d.out, treeA)
			build(t, d.out, treeB) // the standby is treeA, behind by one build
			tc.disturb(t, d)
			live := stats(t, d.out)
			tr := open(t, d.out)
			defer tr.Close()
			w, err := tr.Begin()
			if err != nil {
				t.Fatal(err)
			}
			want := tree(treeB)
			if tc.empty {
				want = map[string]string{}
			}
			if diff := cmp.Diff(want, testtree.Read(t, d.standby)); diff != "" {
				t.Errorf("the standby after Begin (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(live, stats(t, d.out)); diff != "" {
				t.Errorf("Begin touched the live tree:\n%s", diff)
			}
			put(t, w, treeC)
			finish(t, w, treeC)
			tr.Close()
			if diff := cmp.Diff(tree(treeC), testtree.Read(t, d.out)); diff != "" {
				t.Errorf("the output (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tree(treeB), testtree.Read(t, d.standby)); diff != "" {
				t.Errorf("the standby after the swap is not the old tree (-want +got):\n%s", diff)
			}
			build(t, d.out, treeA)
			build(t, d.out, treeB)
			build(t, d.out, treeB)
		})
	}
}

// TestPrepareStandby: the standby, made or caught up, holds the live tree
// in links to its files; the live tree is untouched.
func TestPrepareStandby(t *testing.T) {
	for _, builds := range [][]files{{treeA}, {treeA, treeB}} {
		d := newDirs(t)
		for _, f := range builds {
			build(t, d.out, f)
		}
		live := builds[len(builds)-1]
		before := stats(t, d.out)
		tr := open(t, d.out)
		if err := tr.PrepareStandby(); err != nil {
			t.Fatal(err)
		}
		tr.Close()
		if diff := cmp.Diff(before, stats(t, d.out)); diff != "" {
			t.Errorf("after %d builds: PrepareStandby touched the live tree:\n%s", len(builds), diff)
		}
		if diff := cmp.Diff(tree(live), testtree.Read(t, d.standby)); diff != "" {
			t.Errorf("after %d builds: the standby (-want +got):\n%s", len(builds), diff)
		}
		for name := range live {
			if a, b := inode(t, filepath.Join(d.out, name)), inode(t, filepath.Join(d.standby, name)); a != b {
				t.Errorf("after %d builds: the standby's %s is not a link to the live one", len(builds), name)
			}
		}
		build(t, d.out, treeC)
	}
	// With no output, there is nothing to prepare.
	d := newDirs(t)
	tr := open(t, d.out)
	if err := tr.PrepareStandby(); err != nil {
		t.Error(err)
	}
	tr.Close()
}

// TestFinishPrunes: Finish removes the files the build does not name and
// the folders that leaves empty, and keeps the rest.
func TestFinishPrunes(t *testing.T) {
	d := newDirs(t)
	build(t, d.out, treeA)
	build(t, d.out, files{marker: "[]"})
	build(t, d.out, treeA)
	build(t, d.out, treeA.with(files{"logos/b/deep/x.svg": ""}))
	build(t, d.out, treeB)
}

// TestHas: Has makes the standby hold a file either tree holds with the
// digest asked, and no other.
func TestHas(t *testing.T) {
	d := newDirs(t)
	build(t, d.out, treeA)
	build(t, d.out, treeB) // the standby holds treeA's b, the live tree not
	tr := open(t, d.out)
	defer tr.Close()
	w, err := tr.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, data string
		want       bool
	}{
		{"logos/a/icon.svg", treeB["logos/a/icon.svg"], true},
		{"logos/a/icon.svg", treeA["logos/a/icon.svg"], false}, // the old content: the standby caught up
		{"logos/c/icon.svg", treeB["logos/c/icon.svg"], true},
		{"logos/b/icon.svg", treeA["logos/b/icon.svg"], false},
		{"logos/none.svg", "", false},
	} {
		if got := w.Has(tc.name, digest.OfString(tc.data)); got != tc.want {
			t.Errorf("Has(%s, digest of %q) = %v, want %v", tc.name, tc.data, got, tc.want)
		}
	}
	if err := w.Abort(); err != nil {
		t.Fatal(err)
	}
}

// TestPutStream writes files through PutStream, with the digest of what
// was written, leaving no temporary file; one the standby holds already
// stays as it is.
func TestPutStream(t *testing.T) {
	d := newDirs(t)
	build(t, d.out, treeA)
	build(t, d.out, treeB)
	want := treeC.with(files{"sitemap.xml": strings.Repeat("<url/>", 50000)})
	tr := open(t, d.out)
	defer tr.Close()
	w, err := tr.Begin()
	if err != nil {
		t.Fatal(err)
	}
	before := inode(t, filepath.Join(d.standby, "logos/a/icon.svg"))
	for _, name := range slices.Sorted(maps.Keys(want)) {
		sum, err := w.PutStream(name, func(w io.Writer) error {
			_, err := io.WriteString(w, want[name])
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if sum != digest.OfString(want[name]) {
			t.Errorf("PutStream(%s) gave the digest %x, want %x", name, sum, digest.OfString(want[name]))
		}
	}
	if got := inode(t, filepath.Join(d.standby, "logos/a/icon.svg")); got != before {
		t.Error("a file the standby held was written again")
	}
	finish(t, w, want)
	if diff := cmp.Diff(tree(want), testtree.Read(t, d.out)); diff != "" {
		t.Errorf("the output (-want +got):\n%s", diff)
	}
}

// TestConcurrentPuts puts many files from several goroutines, as a build
// does, into new folders and old: the race detector watches.
func TestConcurrentPuts(t *testing.T) {
	d := newDirs(t)
	want := files{marker: "[]"}
	for i := range 400 {
		want[fmt.Sprintf("logos/l%d/icon.svg", i%50)+fmt.Sprint(i)] = fmt.Sprint("<svg>", i, "</svg>")
	}
	for round := range 3 {
		if round == 2 {
			for name := range want {
				if strings.HasSuffix(name, "7") {
					want[name] += " edited"
				}
			}
		}
		tr := open(t, d.out)
		w, err := tr.Begin()
		if err != nil {
			t.Fatal(err)
		}
		names := slices.Sorted(maps.Keys(want))
		var wg sync.WaitGroup
		errs := make(chan error, len(names))
		for g := range 8 {
			wg.Go(func() {
				for i := g; i < len(names); i += 8 {
					name := names[i]
					if i%3 == 0 {
						if _, err := w.PutStream(name, func(w io.Writer) error { _, err := io.WriteString(w, want[name]); return err }); err != nil {
							errs <- err
						}
					} else if !w.Has(name, digest.OfString(want[name])) {
						errs <- w.Put(name, digest.OfString(want[name]), []byte(want[name]))
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		finish(t, w, want)
		tr.Close()
		if diff := cmp.Diff(tree(want), testtree.Read(t, d.out)); diff != "" {
			t.Fatalf("round %d: the output (-want +got):\n%s", round, diff)
		}
	}
}

// TestSymlinkedFolders replaces a folder of either tree with a link to a
// folder outside, holding files of the names the records give: the
// builds after it write the right trees, and never write, remove or link
// a file of the folder outside.
func TestSymlinkedFolders(t *testing.T) {
	for _, where := range []string{"standby", "live"} {
		for _, folder := range []string{"logos/a", "logos", "api/logos"} {
			t.Run(where+" "+folder, func(t *testing.T) {
				d := newDirs(t)
				outside := filepath.Join(t.TempDir(), "outside")
				victims := files{"icon.svg": "victim", "icon-mono.svg": "victim", "a.json": "victim"}
				for name, data := range victims {
					writeFile(t, filepath.Join(outside, name), data)
				}
				build(t, d.out, treeA)
				build(t, d.out, treeB)
				root := map[string]string{"standby": d.standby, "live": d.out}[where]
				if err := os.RemoveAll(filepath.Join(root, folder)); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(outside, filepath.Join(root, folder)); err != nil {
					t.Skipf("no symbolic links here: %v", err)
				}
				for _, want := range []files{treeC, treeA, treeB} {
					build(t, d.out, want)
					if diff := cmp.Diff(tree(victims), testtree.Read(t, outside)); diff != "" {
						t.Fatalf("the folder outside changed (-want +got):\n%s", diff)
					}
					for name := range victims {
						if info, err := os.Stat(filepath.Join(outside, name)); err != nil || info.Sys().(*syscall.Stat_t).Nlink != 1 {
							t.Fatalf("%s outside was linked (%v)", name, err)
						}
					}
				}
			})
		}
	}
}
