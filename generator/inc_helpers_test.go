package generator

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"logoindex/generator/buildcache"
	"logoindex/generator/internal/sysfs"
	"logoindex/generator/internal/wire"
	"logoindex/generator/outtree"
	"logoindex/internal/testtree"
)

// incDigest is a digest of a tree incTree read: two trees are the same
// when their digests are.
func incDigest(tree map[string]string) string {
	h := sha256.New()
	for _, name := range slices.Sorted(maps.Keys(tree)) {
		fmt.Fprintf(h, "%q %d\n%s", name, len(tree[name]), tree[name])
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// incStats maps every file and folder under dir, dir included, to its
// inode, size and mtime, and its ctime with ctime: what a build that
// writes nothing keeps. (A build that links a file into its standby
// changes its ctime, with its count of links.) A missing dir maps to nil.
func incStats(t testing.TB, dir string, ctime bool) map[string]string {
	t.Helper()
	infos := testtree.Infos(t, dir)
	if infos == nil {
		return nil
	}
	out := map[string]string{}
	for name, info := range infos {
		st := sysfs.StatOf(info)
		out[name] = fmt.Sprintf("ino %d size %d mtime %d", st.Ino, st.Size, st.MTime)
		if ctime {
			out[name] += fmt.Sprintf(" ctime %d", st.CTime)
		}
	}
	return out
}

// incStateFiles are the names a build may leave in the state folder: any
// other is a leftover.
var incStateFiles = []string{"cache", "cache-spare", "lock", "standby", "trees", "trees-spare"}

// incLeftovers lists what the state folder of out holds besides
// incStateFiles.
func incLeftovers(t testing.TB, out string) []string {
	t.Helper()
	entries, err := os.ReadDir(outtree.StateDir(out))
	if err != nil {
		t.Fatal(err)
	}
	var extra []string
	for _, e := range entries {
		if !slices.Contains(incStateFiles, e.Name()) {
			extra = append(extra, e.Name())
		}
	}
	return extra
}

// incCleanBuild is what a clean build (Rebuild, into a new folder) of a
// source tree writes, and its warnings.
type incCleanBuild struct {
	tree         map[string]string
	warnings     string
	logos, files int
}

// incCleans memoises clean builds by the digest of the sources and the
// options: most steps of a rebuild test leave the sources as they were.
var incCleans sync.Map // string -> *incCleanBuild

// incClean builds src anew into a new folder with opts, for the tree a
// rebuild must match byte for byte.
func incClean(t testing.TB, src string, opts Options) *incCleanBuild {
	t.Helper()
	key := fmt.Sprintf("%s %q %q %q %v", incDigest(testtree.Read(t, src)), opts.Dir, opts.Render.BaseURL, opts.Logos, opts.ReportIgnored)
	if c, ok := incCleans.Load(key); ok {
		return c.(*incCleanBuild)
	}
	opts.Out = filepath.Join(t.TempDir(), "clean")
	opts.Rebuild, opts.Strict = true, false
	res, err := Build(context.Background(), os.DirFS(src), opts)
	if err != nil {
		t.Fatalf("a clean build: %v", err)
	}
	c := &incCleanBuild{tree: testtree.Read(t, opts.Out), warnings: res.Warnings.Error(), logos: res.Logos}
	for name := range c.tree {
		if !strings.HasSuffix(name, "/") {
			c.files++
		}
	}
	if res.Files != c.files {
		t.Errorf("a clean build says it wrote %d files; its tree holds %d", res.Files, c.files)
	}
	os.RemoveAll(opts.Out)
	os.RemoveAll(outtree.StateDir(opts.Out))
	incCleans.Store(key, c)
	return c
}

// incAgeLog dates the build log of out an hour ahead, as if the build
// that wrote it had started an hour after the sources of src were last
// written: no source is then racy, and each stands for its content by
// its stat alone, as it does for a build run minutes after an edit. It
// does nothing when there is no log.
func incAgeLog(t testing.TB, src, out string) {
	t.Helper()
	path := filepath.Join(outtree.StateDir(out), "cache")
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	// The magic is the file's first line; the key comes after it.
	i := bytes.IndexByte(data, '\n')
	if i < 0 {
		t.Fatalf("%s holds no magic", path)
	}
	d, err := wire.OpenFile(data, string(data[:i+1]))
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	key := strings.Clone(d.String())
	c := buildcache.Open(path, key)
	defer c.Close()
	if _, ok := c.Get(""); !ok {
		t.Fatalf("%s holds no collection", path)
	}
	c.Keep("")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		c.Keep(e.Name())
	}
	if err := c.Save(time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
}
