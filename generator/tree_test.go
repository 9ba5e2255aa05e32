package generator

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// copyDir copies the source folder src to a new temporary folder, so a
// test can edit it and BuildTree sees real inodes and mtimes.
func copyDir(t *testing.T, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "src")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// inMemory is what Build and WriteTree write for src: the reference a
// streamed build must match byte for byte.
func inMemory(t *testing.T, src string, opts Options) map[string]string {
	t.Helper()
	res, err := Build(context.Background(), os.DirFS(src), opts)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "dist")
	if err := WriteTree(context.Background(), out, res.Files); err != nil {
		t.Fatal(err)
	}
	return readTree(t, out)
}

// TestBuildTreeMatchesBuild streams the golden sources and the shipped
// collection, with and without a cache, on 1 and 8 workers, and compares
// every file with the in-memory build's.
func TestBuildTreeMatchesBuild(t *testing.T) {
	for _, src := range []string{"testdata/golden/src", "../source-logos"} {
		opts := Options{Render: RenderOptions{BaseURL: "https://logos.example"}}
		want := inMemory(t, src, opts)
		for _, workers := range []int{1, 8} {
			for _, cached := range []bool{false, true} {
				opts.Workers = workers
				dir := t.TempDir()
				out := filepath.Join(dir, "dist")
				topts := TreeOptions{Options: opts}
				if cached {
					topts.CacheFile = DefaultCachePath(out)
				}
				res, err := BuildTree(context.Background(), os.DirFS(src), out, topts)
				if err != nil {
					t.Fatalf("%s, %d workers, cache %v: %v", src, workers, cached, err)
				}
				if diff := cmp.Diff(want, readTree(t, out)); diff != "" {
					t.Errorf("%s, %d workers, cache %v: streamed tree differs from Build's (-want +got):\n%s", src, workers, cached, diff)
				}
				if res.Files != len(want) || res.Computed != res.Logos {
					t.Errorf("%s: result %+v, want %d files and every logo computed", src, res, len(want))
				}
				// Nothing is left beside the tree but the standby, the
				// cache and the lock.
				entries, _ := os.ReadDir(dir)
				for _, e := range entries {
					switch e.Name() {
					case "dist", ".dist.lock":
					case ".dist-standby", ".dist.cache":
						if !cached {
							t.Errorf("a build without a cache left %s", e.Name())
						}
					default:
						t.Errorf("left %s beside the tree", e.Name())
					}
				}
			}
		}
	}
}

// rebuildCase is one change between two cached builds.
type rebuildCase struct {
	name string
	edit func(t *testing.T, src, out string)
	// upToDate: the build should find nothing to do and touch nothing.
	upToDate bool
	// computed is the number of logos the build should compute: -1 for
	// all, 0 for any number.
	computed int
	// liveEdited: the edit changed the live tree, which becomes the
	// standby with a record that the next build that opens it corrects.
	liveEdited bool
	// reused: the collection's files should come from the last build.
	reused bool
	// held is the number of logos the standby should hold by its
	// record, whose files are not looked up (standbyHolds); 0: any.
	held int
}

func editFile(t *testing.T, name, old, new string) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s holds no %q", name, old)
	}
	writeFile(t, name, []byte(strings.Replace(string(b), old, new, 1)))
}

// TestBuildTreeRebuilds runs a sequence of changes through cached builds
// of one source and output folder. After each, the tree must be what a
// build from scratch writes, and the build must have redone only what
// the change needs.
//
// A source whose stat is within 2 s of the build that recorded it is read
// again (racy), which every file a test just wrote is. The second run
// dates the cache's build an hour ahead before each step, so that every
// stat is trusted: a logo folder whose own stat did not change is not
// listed, and its files' stats alone tell a change.
func TestBuildTreeRebuilds(t *testing.T) {
	for _, aged := range []bool{false, true} {
		t.Run(fmt.Sprintf("stats trusted %v", aged), func(t *testing.T) { testRebuilds(t, aged) })
	}
}

// TestBuildTreeAfterReboot writes a live file in place, which keeps its
// folder's mtime: a build in the boot that wrote the cache believes the
// folder (tree.holds), and one after a reboot, when the data of files
// written without a sync may be lost, takes the stat of every file.
func TestBuildTreeAfterReboot(t *testing.T) {
	if bootID() == "" {
		t.Skip("this system gives no boot ID: a tree's folders never stand for its files")
	}
	src := copyDir(t, "../source-logos")
	out := filepath.Join(t.TempDir(), "dist")
	opts := TreeOptions{CacheFile: DefaultCachePath(out)}
	if _, err := BuildTree(context.Background(), os.DirFS(src), out, opts); err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(out, "logos/github/icon.svg")
	want, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	// Written in place, a byte longer, so that its stat differs.
	if err := os.WriteFile(name, append(want, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, boot := range []string{bootID(), "another boot"} {
		c := readTreeCache(opts.CacheFile, programID(), false)
		if c == nil {
			t.Fatal("no cache file")
		}
		c.Boot = boot
		if err := writeTreeCache(opts.CacheFile, c); err != nil {
			t.Fatal(err)
		}
		res, err := BuildTree(context.Background(), os.DirFS(src), out, opts)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if fixed, same := bytes.Equal(got, want), boot == bootID(); fixed == same || res.UpToDate != same {
			t.Errorf("cache of %s: up to date %v, the file written in place fixed %v; want %v, %v", boot, res.UpToDate, fixed, same, !same)
		}
	}
}

// TestBuildTreeRecordSum gives the live tree's record in the cache
// another hash for one file: the record no longer has the sum of the
// cache's logos (filesSum), and a build must not take the tree for up to
// date, whatever the stats say.
func TestBuildTreeRecordSum(t *testing.T) {
	src := copyDir(t, "../source-logos")
	out := filepath.Join(t.TempDir(), "dist")
	opts := TreeOptions{CacheFile: DefaultCachePath(out)}
	if _, err := BuildTree(context.Background(), os.DirFS(src), out, opts); err != nil {
		t.Fatal(err)
	}
	c := readTreeCache(opts.CacheFile, programID(), false)
	info, err := os.Lstat(out)
	if c == nil || err != nil {
		t.Fatalf("no cache or no tree: %v", err)
	}
	dev, ino := devIno(info)
	tampered := false
	for _, r := range c.Trees {
		if r.Dev != dev || r.Ino != ino || r.decode() != nil {
			continue
		}
		st := r.Files["logos/github/icon.svg"]
		st.Hash[0]++
		r.setFile("logos/github/icon.svg", st)
		tampered = true
	}
	if !tampered {
		t.Fatal("no record of the live tree, or none of logos/github/icon.svg")
	}
	if err := writeTreeCache(opts.CacheFile, c); err != nil {
		t.Fatal(err)
	}
	res, err := BuildTree(context.Background(), os.DirFS(src), out, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.UpToDate {
		t.Error("a live tree whose record differs from the cache's logos was taken for up to date")
	}
	if diff := cmp.Diff(inMemory(t, src, opts.Options), readTree(t, out)); diff != "" {
		t.Errorf("tree differs from a build from scratch (-want +got):\n%s", diff)
	}
}

func testRebuilds(t *testing.T, aged bool) {
	src := copyDir(t, "../source-logos")
	out := filepath.Join(t.TempDir(), "dist")
	opts := TreeOptions{Options: Options{Render: RenderOptions{BaseURL: "https://logos.example"}}, CacheFile: DefaultCachePath(out)}
	github := filepath.Join(src, "github")
	steps := []rebuildCase{
		{name: "first build", computed: -1},
		{name: "no change", upToDate: true},
		{name: "touched, same content", edit: func(t *testing.T, src, out string) {
			now := time.Now().Add(time.Second)
			os.Chtimes(filepath.Join(github, "icon.svg"), now, now)
		}, upToDate: true},
		{name: "one icon changed", edit: func(t *testing.T, src, out string) {
			editFile(t, filepath.Join(github, "logo.yaml"), "name: GitHub", "name: GitHub Inc")
		}, computed: 1},
		{name: "changed back", edit: func(t *testing.T, src, out string) {
			editFile(t, filepath.Join(github, "logo.yaml"), "name: GitHub Inc", "name: GitHub")
		}, computed: 1},
		{name: "another logo touched while one changed", edit: func(t *testing.T, src, out string) {
			// docker comes from the cache with new stats: its entry is
			// written with them, not as it was read (checkRecords).
			later := time.Now().Add(2 * time.Second)
			os.Chtimes(filepath.Join(src, "docker", "logo.yaml"), later, later)
			editFile(t, filepath.Join(github, "logo.yaml"), "name: GitHub", "name: GitHub Inc")
		}, computed: 1},
		{name: "and back", edit: func(t *testing.T, src, out string) {
			editFile(t, filepath.Join(github, "logo.yaml"), "name: GitHub Inc", "name: GitHub")
		}, computed: 1},
		{name: "an icon's artwork changed, its summary the same", edit: func(t *testing.T, src, out string) {
			editFile(t, filepath.Join(github, "icon.svg"), "M12 ", "M12.01 ")
		}, computed: 1, reused: true},
		{name: "and back", edit: func(t *testing.T, src, out string) {
			editFile(t, filepath.Join(github, "icon.svg"), "M12.01 ", "M12 ")
		}, computed: 1, reused: true},
		{name: "another logo changed", edit: func(t *testing.T, src, out string) {
			// The standby holds the last build's files but github's,
			// which it holds as they were before the last build: of 72
			// logos, 70 are held.
			editFile(t, filepath.Join(src, "docker", "logo.yaml"), "name: Docker", "name: Docker Inc")
		}, computed: 1, held: 70},
		{name: "and back", edit: func(t *testing.T, src, out string) {
			// The standby lacks only docker, which is computed.
			editFile(t, filepath.Join(src, "docker", "logo.yaml"), "name: Docker Inc", "name: Docker")
		}, computed: 1, held: 71},
		{name: "a category renamed", edit: func(t *testing.T, src, out string) {
			editFile(t, filepath.Join(src, "categories.yaml"), "name: Developer tools", "name: Developer tooling")
		}, computed: -1},
		{name: "a live file replaced, as an editor saves", edit: func(t *testing.T, src, out string) {
			// A new file renamed over the old: its folder's mtime changes
			// (an in-place write does not, and is not seen: tree.holds).
			writeFile(t, filepath.Join(out, "logos/github/icon.svg.new"), []byte("<svg/>"))
			if err := os.Rename(filepath.Join(out, "logos/github/icon.svg.new"), filepath.Join(out, "logos/github/icon.svg")); err != nil {
				t.Fatal(err)
			}
		}, liveEdited: true, reused: true},
		{name: "a live file removed", edit: func(t *testing.T, src, out string) {
			if err := os.Remove(filepath.Join(out, "api/logos/github.json")); err != nil {
				t.Fatal(err)
			}
		}, liveEdited: true, reused: true},
		{name: "a file added to the live tree", edit: func(t *testing.T, src, out string) {
			writeFile(t, filepath.Join(out, "logos/github/extra.txt"), []byte("x"))
		}, liveEdited: true, reused: true},
		{name: "a variant removed", edit: func(t *testing.T, src, out string) {
			if err := os.Remove(filepath.Join(github, "icon-dark.svg")); err != nil {
				t.Fatal(err)
			}
		}, computed: 1},
		{name: "a variant added", edit: func(t *testing.T, src, out string) {
			data, err := os.ReadFile(filepath.Join(github, "icon.svg"))
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(github, "icon-dark.svg"), data)
		}, computed: 1},
		{name: "an ignored file added", edit: func(t *testing.T, src, out string) {
			writeFile(t, filepath.Join(github, ".DS_Store"), []byte("x"))
		}, upToDate: true},
		{name: "a source replaced by a rename, same content", edit: func(t *testing.T, src, out string) {
			name := filepath.Join(github, "logo.yaml")
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(src, "new.tmp"), data)
			if err := os.Rename(filepath.Join(src, "new.tmp"), name); err != nil {
				t.Fatal(err)
			}
		}, upToDate: true},
		{name: "a source edited in place, size and mtime kept", edit: func(t *testing.T, src, out string) {
			name := filepath.Join(github, "logo.yaml")
			info, err := os.Stat(name)
			if err != nil {
				t.Fatal(err)
			}
			editFile(t, name, "name: GitHub", "name: Github")
			if err := os.Chtimes(name, info.ModTime(), info.ModTime()); err != nil {
				t.Fatal(err)
			}
		}, computed: 1},
		{name: "and back", edit: func(t *testing.T, src, out string) {
			editFile(t, filepath.Join(github, "logo.yaml"), "name: Github", "name: GitHub")
		}, computed: 1},
		{name: "a logo removed", edit: func(t *testing.T, src, out string) {
			if err := os.Rename(filepath.Join(src, "docker"), filepath.Join(filepath.Dir(src), "docker-away")); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "a file added to logos/ after that", edit: func(t *testing.T, src, out string) {
			// logos/ changed in the last rebuild: it must be on record.
			writeFile(t, filepath.Join(out, "logos/extra.txt"), []byte("x"))
		}, liveEdited: true, reused: true},
		{name: "and back, in new folders", edit: func(t *testing.T, src, out string) {
			if err := os.Rename(filepath.Join(filepath.Dir(src), "docker-away"), filepath.Join(src, "docker")); err != nil {
				t.Fatal(err)
			}
		}, computed: 1},
		{name: "and removed again", edit: func(t *testing.T, src, out string) {
			if err := os.RemoveAll(filepath.Join(src, "docker")); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "the live tree removed", edit: func(t *testing.T, src, out string) {
			if err := os.RemoveAll(out); err != nil {
				t.Fatal(err)
			}
		}},
		{name: "the standby removed", edit: func(t *testing.T, src, out string) {
			if err := os.RemoveAll(filepath.Join(filepath.Dir(out), ".dist-standby")); err != nil {
				t.Fatal(err)
			}
		}, upToDate: true},
		{name: "the cache removed", edit: func(t *testing.T, src, out string) {
			if err := os.Remove(opts.CacheFile); err != nil {
				t.Fatal(err)
			}
		}, computed: -1},
		{name: "a file added to the standby", edit: func(t *testing.T, src, out string) {
			writeFile(t, filepath.Join(filepath.Dir(out), ".dist-standby/logos/github/extra.txt"), []byte("x"))
			writeFile(t, filepath.Join(filepath.Dir(out), ".dist-standby/logos/github/icon.svg"), []byte("<svg/>"))
		}, upToDate: true},
		{name: "then a change, which makes the standby live", edit: func(t *testing.T, src, out string) {
			editFile(t, filepath.Join(github, "logo.yaml"), "name: GitHub", "name: GitHub Inc")
		}, computed: 1},
		{name: "no change again", upToDate: true},
	}
	for _, step := range steps {
		if aged {
			if c := readTreeCache(opts.CacheFile, programID(), false); c != nil {
				c.Started = time.Now().Add(time.Hour).UnixNano()
				if err := writeTreeCache(opts.CacheFile, c); err != nil {
					t.Fatal(err)
				}
			}
		}
		if step.edit != nil {
			step.edit(t, src, out)
		}
		before := treeStats(t, out)
		res, err := BuildTree(context.Background(), os.DirFS(src), out, opts)
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if res.CacheError != nil {
			t.Errorf("%s: the cache was not written: %v", step.name, res.CacheError)
		}
		want := inMemory(t, src, opts.Options)
		if diff := cmp.Diff(want, readTree(t, out)); diff != "" {
			t.Errorf("%s: tree differs from a build from scratch (-want +got):\n%s", step.name, diff)
		}
		if res.UpToDate != step.upToDate {
			t.Errorf("%s: up to date %v, want %v (%+v)", step.name, res.UpToDate, step.upToDate, res)
		}
		if step.upToDate {
			if diff := cmp.Diff(before, treeStats(t, out)); diff != "" {
				t.Errorf("%s: an up-to-date build touched the tree:\n%s", step.name, diff)
			}
		}
		if step.computed == -1 && res.Computed != res.Logos || step.computed > 0 && res.Computed != step.computed {
			t.Errorf("%s: computed %d of %d logos, want %d", step.name, res.Computed, res.Logos, step.computed)
		}
		if step.held != 0 && res.held != step.held {
			t.Errorf("%s: the standby held %d logos by its record, want %d", step.name, res.held, step.held)
		}
		if res.collectionReused != step.reused && !res.UpToDate {
			t.Errorf("%s: the collection's files reused %v, want %v", step.name, res.collectionReused, step.reused)
		}
		if !res.UpToDate {
			// The standby is the live tree the build replaced, untouched
			// since it was recorded, unless the step edited it.
			checkRecords(t, step.name, opts.CacheFile, out, !step.liveEdited)
			checkInputs(t, step.name, opts.CacheFile, src)
		}
	}
}

// checkInputs compares the stat the cache file keeps of each logo's
// source files with their stat now: a build that wrote an entry as it
// read it, after the stats changed, would have each later build hash the
// file again.
func checkInputs(t *testing.T, step, cacheFile, src string) {
	t.Helper()
	c := readTreeCache(cacheFile, programID(), false)
	if c == nil {
		t.Fatalf("%s: no cache file", step)
	}
	stats := statRootOf(t, src)
	for slug, l := range c.Logos {
		for _, in := range append([]inputStat{l.Folder}, l.Inputs...) {
			st, err := stats.lstat(path.Join(slug, in.Name))
			if err != nil {
				t.Fatal(err)
			}
			if now := st.input(in.Name); now.Size != in.Size || now.MTime != in.MTime || now.CTime != in.CTime || now.Ino != in.Ino {
				t.Errorf("%s: the cache keeps %s/%s as %+v; it is %+v", step, slug, in.Name, in, now)
			}
		}
	}
}

// checkRecords compares what the cache file says the live tree, and the
// standby too when standby is set, holds with what they hold: every
// file's hash and stat.
func checkRecords(t *testing.T, step, cacheFile, out string, standby bool) {
	t.Helper()
	c := readTreeCache(cacheFile, programID(), false)
	if c == nil {
		t.Fatalf("%s: no cache file", step)
	}
	dirs := map[[2]uint64]string{}
	trees := []string{out}
	if standby {
		trees = append(trees, filepath.Join(filepath.Dir(out), ".dist-standby"))
	}
	for _, dir := range trees {
		if info, err := os.Lstat(dir); err == nil {
			dev, ino := devIno(info)
			dirs[[2]uint64{dev, ino}] = dir
		}
	}
	live := false
	for _, r := range c.Trees {
		dir, ok := dirs[[2]uint64{r.Dev, r.Ino}]
		if !ok {
			continue
		}
		live = live || dir == out
		if err := r.decode(); err != nil {
			t.Fatal(err)
		}
		stats := statRootOf(t, dir)
		for d, mtime := range r.Dirs {
			if st, err := stats.lstat(d); err != nil || st.mtime != mtime {
				t.Errorf("%s: the cache's record of %s has folder %s at mtime %d; it is %d (%v)", step, filepath.Base(dir), d, mtime, st.mtime, err)
			}
		}
		// Every folder is on record: a file added to one that is not
		// would go unseen.
		var folders []string
		fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				folders = append(folders, p)
			}
			return nil
		})
		if diff := cmp.Diff(folders, slices.Sorted(maps.Keys(r.Dirs))); diff != "" {
			t.Errorf("%s: the cache's record of %s names other folders than it has (-tree +record):\n%s", step, filepath.Base(dir), diff)
		}
		got := map[string]fileState{}
		for name, data := range readTree(t, dir) {
			st, err := stats.lstat(name)
			if err != nil {
				t.Fatal(err)
			}
			got[name] = st.state(hashOf([]byte(data)))
		}
		if diff := cmp.Diff(r.Files, got); diff != "" {
			t.Errorf("%s: the cache's record of %s differs from the tree (-record +tree):\n%s", step, filepath.Base(dir), diff)
		}
	}
	if !live {
		t.Errorf("%s: the cache has no record of the live tree", step)
	}
}

func statRootOf(t *testing.T, dir string) *statRoot {
	r := openStatRoot(os.DirFS(dir))
	t.Cleanup(r.close)
	return r
}

// treeStats maps each file of a tree to its inode and mtime.
func treeStats(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		ino, _, _ := fileID(info)
		out[p] = fmt.Sprint(info.ModTime().UnixNano(), " ", ino)
		return nil
	})
	return out
}

// builtGolden copies the golden sources and builds them once with a
// cache, for a test of the rebuild that follows.
func builtGolden(t *testing.T) (src, out string, opts TreeOptions) {
	t.Helper()
	src = copyDir(t, "testdata/golden/src")
	out = filepath.Join(t.TempDir(), "dist")
	opts = TreeOptions{CacheFile: DefaultCachePath(out)}
	if _, err := BuildTree(context.Background(), os.DirFS(src), out, opts); err != nil {
		t.Fatal(err)
	}
	return src, out, opts
}

// TestBuildTreeInvalidLeavesTree checks that a rebuild with an invalid
// logo fails with its problem and leaves the live tree as it was, and
// that the next good build is right again.
func TestBuildTreeInvalidLeavesTree(t *testing.T) {
	src, out, opts := builtGolden(t)
	before := readTree(t, out)
	stats := treeStats(t, out)
	editFile(t, filepath.Join(src, "acme/icon.svg"), "<svg", `<svg onload="alert(1)"`)
	writeFile(t, filepath.Join(src, "newco/logo.yaml"), []byte("name: Newco\n"))
	_, err := BuildTree(context.Background(), os.DirFS(src), out, opts)
	var probs ProblemList
	if !errors.As(err, &probs) || !strings.Contains(err.Error(), "acme/icon.svg") || !strings.Contains(err.Error(), "newco") {
		t.Fatalf("error %v, want the problems of acme and newco", err)
	}
	if diff := cmp.Diff(before, readTree(t, out)); diff != "" {
		t.Errorf("a failed build changed the tree:\n%s", diff)
	}
	if diff := cmp.Diff(stats, treeStats(t, out)); diff != "" {
		t.Errorf("a failed build touched the tree:\n%s", diff)
	}
	os.RemoveAll(filepath.Join(src, "newco"))
	editFile(t, filepath.Join(src, "acme/icon.svg"), `<svg onload="alert(1)"`, "<svg")
	if _, err := BuildTree(context.Background(), os.DirFS(src), out, opts); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(inMemory(t, src, opts.Options), readTree(t, out)); diff != "" {
		t.Errorf("the build after a failed one differs from a build from scratch:\n%s", diff)
	}
}

// TestBuildTreeStrict fails on warnings before anything is written.
func TestBuildTreeStrict(t *testing.T) {
	src := copyDir(t, "testdata/golden/src")
	out := filepath.Join(t.TempDir(), "dist")
	editFile(t, filepath.Join(src, "acme/logo.yaml"), "hex: ff5500", "hex: 123456")
	res, err := BuildTree(context.Background(), os.DirFS(src), out, TreeOptions{})
	if err != nil || len(res.Warnings) == 0 {
		t.Fatalf("want a build with warnings, got %v, %v", res, err)
	}
	os.RemoveAll(out)
	_, err = BuildTree(context.Background(), os.DirFS(src), out, TreeOptions{FailOnWarnings: true})
	var probs ProblemList
	if !errors.As(err, &probs) || len(probs) == 0 {
		t.Fatalf("error %v, want the warnings", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a build failed by its warnings wrote %s", out)
	}
}

// TestBuildTreeFillStandby fills the standby after a first build, with
// the cache file and with a memo: the live tree is untouched, the standby
// holds the same files, the cache says so, and the next change only
// writes its own files.
func TestBuildTreeFillStandby(t *testing.T) {
	for _, memo := range []bool{false, true} {
		src, out, opts := builtGolden(t)
		if memo {
			// A build that writes, so that the memo holds it and the
			// fill runs trusted, as in serve -watch.
			opts.Memo = &Memo{}
			editFile(t, filepath.Join(src, "acme/logo.yaml"), "name: Acme & Co.", "name: Acme Co.")
			if res, err := BuildTree(context.Background(), os.DirFS(src), out, opts); err != nil || res.UpToDate {
				t.Fatalf("%+v, %v; want a build", res, err)
			}
			if !opts.Memo.current(out, opts.CacheFile) {
				t.Fatal("the memo holds no build")
			}
		}
		standby := filepath.Join(filepath.Dir(out), ".dist-standby")
		before := treeStats(t, out)
		fill := opts
		fill.FillStandby = true
		res, err := BuildTree(context.Background(), os.DirFS(src), out, fill)
		if err != nil {
			t.Fatal(err)
		}
		if !res.UpToDate {
			t.Errorf("memo %v: the build was not up to date", memo)
		}
		if diff := cmp.Diff(before, treeStats(t, out)); diff != "" {
			t.Errorf("memo %v: filling the standby touched the live tree:\n%s", memo, diff)
		}
		if diff := cmp.Diff(readTree(t, out), readTree(t, standby)); diff != "" {
			t.Errorf("memo %v: the standby differs from the live tree:\n%s", memo, diff)
		}
		if memo {
			if err := opts.Memo.Save(); err != nil {
				t.Fatal(err)
			}
		}
		checkRecords(t, "filled", opts.CacheFile, out, true)

		data, err := os.ReadFile(filepath.Join(src, "acme/logo.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(src, "acme/logo.yaml"), []byte(strings.Replace(string(data), "name: Acme", "name: Acme and", 1)))
		res, err = BuildTree(context.Background(), os.DirFS(src), out, opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.Linked != 0 || res.Written == 0 {
			t.Errorf("memo %v: the change after the fill linked %d files and wrote %d, want none linked", memo, res.Linked, res.Written)
		}
		if diff := cmp.Diff(inMemory(t, src, opts.Options), readTree(t, out)); diff != "" {
			t.Errorf("memo %v: the tree differs from a build from scratch:\n%s", memo, diff)
		}
	}
}

// TestBuildTreeFillStopsOnChange runs a fill after a logo was added
// (which a memo's build, told that no folder changed, still sees): the
// fill leaves the live tree as it was, and under FailOnWarnings refuses
// the new logo's warnings as a build does. (From the second read of this
// round.)
func TestBuildTreeFillStopsOnChange(t *testing.T) {
	for _, strict := range []bool{false, true} {
		src, out, opts := builtGolden(t)
		opts.Memo = &Memo{}
		opts.FailOnWarnings = strict
		editFile(t, filepath.Join(src, "acme/logo.yaml"), "name: Acme & Co.", "name: Acme Co.")
		if _, err := BuildTree(context.Background(), os.DirFS(src), out, opts); err != nil {
			t.Fatal(err)
		}
		// A new logo, with a warning (hex 123456 is too dark).
		data, err := os.ReadFile(filepath.Join(src, "acme/logo.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		meta := strings.Replace(strings.Replace(string(data), "hex: ff5500", "hex: 123456", 1), "component: AcmeLogo", "component: NewcoLogo", 1)
		writeFile(t, filepath.Join(src, "newco/logo.yaml"), []byte(strings.Replace(meta, "files:\n  wordmark: {source: https://github.com/acme/wordmark, license: MIT}\n", "", 1)))
		icon, err := os.ReadFile(filepath.Join(src, "acme/icon.svg"))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(src, "newco/icon.svg"), icon)
		before := treeStats(t, out)
		fill := opts
		fill.FillStandby, fill.Changed = true, map[string]bool{}
		res, err := BuildTree(context.Background(), os.DirFS(src), out, fill)
		if strict {
			var probs ProblemList
			if !errors.As(err, &probs) || len(probs.Warnings()) == 0 {
				t.Errorf("strict: got %v, want the new logo's warnings", err)
			}
		} else if err != nil || res.UpToDate {
			t.Errorf("got %+v, %v; want a build that is not up to date", res, err)
		}
		if diff := cmp.Diff(before, treeStats(t, out)); diff != "" {
			t.Errorf("strict %v: a fill that found a change touched the live tree:\n%s", strict, diff)
		}
	}
}

// TestBuildTreeFillKeepsRacyWindow checks that a fill, which reads no
// source, keeps the start of the build that did as the cache's: a source
// written in that build's clock tick (same size, mtime, ctime; faked here
// by a memo that holds the new stat with the old hash) is still hashed.
// (From the second read of this round.)
func TestBuildTreeFillKeepsRacyWindow(t *testing.T) {
	for _, fill := range []bool{false, true} {
		src, out, opts := builtGolden(t)
		opts.Memo = &Memo{}
		editFile(t, filepath.Join(src, "acme/logo.yaml"), "name: Acme & Co.", "name: Acme and Co.")
		if _, err := BuildTree(context.Background(), os.DirFS(src), out, opts); err != nil {
			t.Fatal(err)
		}
		icon := filepath.Join(src, "acme/icon.svg")
		editFile(t, icon, `fill="#FF5500"`, `fill="#FF5501"`) // same size
		c := opts.Memo.cache.Logos["acme"]
		r := openStatRoot(os.DirFS(src))
		for i, in := range c.Inputs {
			if in.Name == "icon.svg" {
				st, err := r.lstat("acme/icon.svg")
				if err != nil {
					t.Fatal(err)
				}
				c.Inputs[i] = st.input("icon.svg")
				c.Inputs[i].Hash = in.Hash
			}
		}
		r.close()
		time.Sleep(racyWindow + 100*time.Millisecond)
		if fill {
			f := opts
			f.FillStandby, f.Changed = true, map[string]bool{}
			if _, err := BuildTree(context.Background(), os.DirFS(src), out, f); err != nil {
				t.Fatal(err)
			}
		}
		opts.Changed = map[string]bool{"acme": true} // the watcher's event
		if _, err := BuildTree(context.Background(), os.DirFS(src), out, opts); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(inMemory(t, src, opts.Options), readTree(t, out)); diff != "" {
			t.Errorf("fill %v: the tree differs from a build from scratch:\n%.600s", fill, diff)
		}
	}
}

// TestBuildTreeRebasesMetaPath checks the summary's path too: a component
// clash reported at a cached logo names it as the user named the folder
// this time. (From the second read of this round.)
func TestBuildTreeRebasesMetaPath(t *testing.T) {
	src := copyDir(t, "testdata/golden/src")
	out := filepath.Join(t.TempDir(), "dist")
	opts := TreeOptions{CacheFile: DefaultCachePath(out)}
	opts.Dir = "old"
	if _, err := BuildTree(context.Background(), os.DirFS(src), out, opts); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(src, "acme/logo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(src, "aaa/logo.yaml"), []byte(strings.Replace(string(data), "files:\n  wordmark: {source: https://github.com/acme/wordmark, license: MIT}\n", "", 1)))
	icon, err := os.ReadFile(filepath.Join(src, "acme/icon.svg"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(src, "aaa/icon.svg"), icon)
	opts.Dir = "new"
	_, err = BuildTree(context.Background(), os.DirFS(src), out, opts)
	if err == nil || !strings.Contains(err.Error(), "new/acme/logo.yaml") || strings.Contains(err.Error(), "old/") {
		t.Errorf("want the clash at new/acme/logo.yaml, got %v", err)
	}
}

// TestRebasePath turns every display path into every other naming of the
// folder, as displayPath makes them.
func TestRebasePath(t *testing.T) {
	dirs := []string{"", ".", "./", "src", "./src", "src/", "../x", "..", "/", "/abs/src", "a/../b", "a/..", "//x", "a//b"}
	for _, from := range dirs {
		for _, to := range dirs {
			for _, n := range []string{"acme/logo.yaml", "acme", "acme/icon.svg", "."} {
				got, ok := rebasePath(from, to, displayPath(from, n))
				if want := displayPath(to, n); !ok || got != want {
					t.Errorf("rebasePath(%q, %q, %q) = %q, %v; want %q", from, to, displayPath(from, n), got, ok, want)
				}
			}
		}
	}
	if _, ok := rebasePath("src", "new", "elsewhere/acme/logo.yaml"); ok {
		t.Error("a path outside the old folder was rebased")
	}
}

// TestBuildTreeRebasesPaths builds the same folder named three ways, as
// from three working directories: each build after the first is a no-op,
// and its warnings name the files as the user named the folder, as a
// build without the cache does.
func TestBuildTreeRebasesPaths(t *testing.T) {
	src := copyDir(t, "testdata/golden/src")
	editFile(t, filepath.Join(src, "acme/logo.yaml"), "hex: ff5500", "hex: 123456")
	out := filepath.Join(t.TempDir(), "dist")
	for i, dir := range []string{"work/src", "src", "", "/abs/src", "src"} {
		opts := TreeOptions{CacheFile: DefaultCachePath(out)}
		opts.Dir = dir
		res, err := BuildTree(context.Background(), os.DirFS(src), out, opts)
		if err != nil {
			t.Fatal(err)
		}
		if i > 0 && !res.UpToDate {
			t.Errorf("Dir %q: the build redid %d logos, want a no-op", dir, res.Computed)
		}
		fresh, err := BuildTree(context.Background(), os.DirFS(src), filepath.Join(t.TempDir(), "dist"), TreeOptions{Options: opts.Options})
		if err != nil {
			t.Fatal(err)
		}
		if len(fresh.Warnings) == 0 {
			t.Fatal("want a warning")
		}
		if diff := cmp.Diff(fresh.Warnings.Error(), res.Warnings.Error()); diff != "" {
			t.Errorf("Dir %q: warnings differ from a build without the cache:\n%s", dir, diff)
		}
	}
}

// TestBuildTreeMemo rebuilds through a Memo with the watcher's hints, as
// serve -watch does, and checks each tree against a build from scratch.
func TestBuildTreeMemo(t *testing.T) {
	src := copyDir(t, "../source-logos")
	out := filepath.Join(t.TempDir(), "dist")
	memo := &Memo{}
	opts := TreeOptions{Options: Options{Render: RenderOptions{BaseURL: "https://logos.example"}}, CacheFile: DefaultCachePath(out), Memo: memo}
	for _, step := range []struct {
		name     string
		edit     func()
		changed  map[string]bool
		computed int // -1: the build fails
	}{
		{"first build", nil, nil, 72},
		{"one logo edited", func() { editFile(t, filepath.Join(src, "github/logo.yaml"), "name: GitHub", "name: GitHub Inc") }, map[string]bool{"github": true}, 1},
		// A build that fails after writing docker's new files into the
		// standby, whose record the memo keeps: the standby no longer
		// holds docker as the cache lists it (standbyHolds), which the
		// build after the next one, which swaps, would find.
		{"another edited, a third broken", func() {
			editFile(t, filepath.Join(src, "docker/logo.yaml"), "name: Docker", "name: Docker Inc")
			editFile(t, filepath.Join(src, "gitlab/logo.yaml"), `hex: "#FC6D26"`, `hex: "#FC6D2"`)
		}, map[string]bool{"docker": true, "gitlab": true}, -1},
		{"both undone", func() {
			editFile(t, filepath.Join(src, "docker/logo.yaml"), "name: Docker Inc", "name: Docker")
			editFile(t, filepath.Join(src, "gitlab/logo.yaml"), `hex: "#FC6D2"`, `hex: "#FC6D26"`)
		}, map[string]bool{"docker": true, "gitlab": true}, 0},
		{"the first edit undone", func() { editFile(t, filepath.Join(src, "github/logo.yaml"), "name: GitHub Inc", "name: GitHub") }, map[string]bool{"github": true}, 1},
		{"a logo added", func() {
			if err := os.CopyFS(filepath.Join(src, "docker-two"), os.DirFS(filepath.Join(src, "docker"))); err != nil {
				t.Fatal(err)
			}
			editFile(t, filepath.Join(src, "docker-two/logo.yaml"), "name: Docker", "name: Docker Two\ncomponent: DockerTwoIcon")
		}, map[string]bool{"docker-two": true}, 1},
		{"a logo removed", func() { os.RemoveAll(filepath.Join(src, "docker-two")) }, map[string]bool{"docker-two": true}, 0},
		{"nothing", nil, map[string]bool{}, 0},
	} {
		if step.edit != nil {
			step.edit()
		}
		opts.Changed = step.changed
		res, err := BuildTree(context.Background(), os.DirFS(src), out, opts)
		if step.computed == -1 {
			if err == nil {
				t.Fatalf("%s: no error", step.name)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		if diff := cmp.Diff(inMemory(t, src, opts.Options), readTree(t, out)); diff != "" {
			t.Errorf("%s: tree differs from a build from scratch:\n%s", step.name, diff)
		}
		if res.Computed != step.computed {
			t.Errorf("%s: computed %d logos, want %d", step.name, res.Computed, step.computed)
		}
	}
	// The memo's cache, saved, serves the next process: nothing to do.
	if err := memo.Save(); err != nil {
		t.Fatal(err)
	}
	res, err := BuildTree(context.Background(), os.DirFS(src), out, TreeOptions{Options: opts.Options, CacheFile: opts.CacheFile})
	if err != nil || !res.UpToDate {
		t.Errorf("build after the memo was saved: %+v, %v; want up to date", res, err)
	}

	// Another process builds the same output for another address: the
	// memo no longer describes the trees, whatever the watcher says.
	other := TreeOptions{Options: opts.Options, CacheFile: opts.CacheFile}
	other.Render.BaseURL = "https://other.example"
	if _, err := BuildTree(context.Background(), os.DirFS(src), out, other); err != nil {
		t.Fatal(err)
	}
	opts.Changed = map[string]bool{}
	if _, err := BuildTree(context.Background(), os.DirFS(src), out, opts); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(inMemory(t, src, opts.Options), readTree(t, out)); diff != "" {
		t.Errorf("after another process's build, the memo's build differs from a build from scratch:\n%s", diff)
	}
}

// TestBuildTreeUnrecordedFolder makes a standby whose record names a
// logo's files in a folder that is not on record: a FillStandby build
// that stops on a change has written the logo there, and the trusted
// builds after it leave the folder alone. A check of that standby by stat
// (a FillStandby build, or a build in a new process) removes the folder
// (tree.clean); neither the record's files nor its claim on the logo
// (standbyHolds) may outlive it.
func TestBuildTreeUnrecordedFolder(t *testing.T) {
	for _, then := range []string{"fill", "new process", "fill that stops"} {
		t.Run(then, func(t *testing.T) { testUnrecordedFolder(t, then) })
	}
}

func testUnrecordedFolder(t *testing.T, then string) {
	src := copyDir(t, "../source-logos")
	out := filepath.Join(t.TempDir(), "dist")
	away := filepath.Join(t.TempDir(), "express")
	opts := TreeOptions{Options: Options{Render: RenderOptions{BaseURL: "https://logos.example"}}, CacheFile: DefaultCachePath(out), Memo: &Memo{}}
	// toggle adds " Z" to a logo's name, or takes it off.
	toggle := func(slug, name string) {
		meta := filepath.Join(src, slug, "logo.yaml")
		data, err := os.ReadFile(meta)
		if err != nil {
			t.Fatal(err)
		}
		from, to := "name: "+name+"\n", "name: "+name+" Z\n"
		if strings.Contains(string(data), to) {
			from, to = to, from
		}
		editFile(t, meta, from, to)
	}
	build := func(step string, fill bool) {
		t.Helper()
		o := opts
		o.FillStandby = fill
		if _, err := BuildTree(context.Background(), os.DirFS(src), out, o); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
	}
	move := func(from, to string) {
		t.Helper()
		if err := os.Rename(from, to); err != nil {
			t.Fatal(err)
		}
	}
	build("first build", false)
	move(filepath.Join(src, "express"), away)
	build("express removed", false)
	toggle("android", "Android")
	build("android edited", false) // neither tree holds express now
	move(away, filepath.Join(src, "express"))
	toggle("angular", "Angular")
	build("express back, a fill that stops", true) // express into the standby's new logos/express
	toggle("git", "Git")
	build("git edited", false) // the trusted standby holds express by its record
	toggle("docker", "Docker")
	build("docker edited", false) // that tree is the standby, with its claim
	switch then {
	case "fill":
		build("a fill", true)
	case "new process":
		if err := opts.Memo.Save(); err != nil {
			t.Fatal(err)
		}
		opts.Memo = nil
	case "fill that stops":
		toggle("figma", "Figma")
		build("figma edited, a fill that stops", true)
	}
	toggle("docker", "Docker")
	build("docker back", false)
	if diff := cmp.Diff(inMemory(t, src, opts.Options), readTree(t, out)); diff != "" {
		t.Errorf("tree differs from a build from scratch (-want +got):\n%s", diff)
	}
}

// TestBuildTreeSlugClash: a slug whose files land on a collection file
// (r/registry.json) fails a streamed build too, cached or not, and the
// live tree stays as it was.
func TestBuildTreeSlugClash(t *testing.T) {
	src, out, opts := builtGolden(t)
	before := readTree(t, out)
	if err := os.CopyFS(filepath.Join(src, "registry"), os.DirFS(filepath.Join(src, "acme"))); err != nil {
		t.Fatal(err)
	}
	editFile(t, filepath.Join(src, "registry/logo.yaml"), "component: AcmeLogo", "component: RegistryIcon")
	for _, cached := range []bool{true, false} {
		o := opts
		if !cached {
			o.CacheFile = ""
		}
		_, err := BuildTree(context.Background(), os.DirFS(src), out, o)
		if err == nil || !strings.Contains(err.Error(), `slug "registry" would write r/registry.json, which collides with the collection's r/registry.json`) {
			t.Errorf("cache %v: error %v, want the clash", cached, err)
		}
		if diff := cmp.Diff(before, readTree(t, out)); diff != "" {
			t.Errorf("cache %v: a failed build changed the tree:\n%s", cached, diff)
		}
	}
}

// TestBuildTreeRefusesForeignCache builds with a cache file that names a
// path outside the tree, as a cache restored from an untrusted branch
// could: the build ignores the file and removes nothing outside.
func TestBuildTreeRefusesForeignCache(t *testing.T) {
	src := copyDir(t, "testdata/golden/src")
	dir := t.TempDir()
	out := filepath.Join(dir, "dist")
	victim := filepath.Join(dir, "victim.txt")
	writeFile(t, victim, []byte("keep me"))
	opts := TreeOptions{CacheFile: DefaultCachePath(out)}
	if _, err := BuildTree(context.Background(), os.DirFS(src), out, opts); err != nil {
		t.Fatal(err)
	}
	c := readTreeCache(opts.CacheFile, programID(), false)
	if c == nil || len(c.Trees) == 0 {
		t.Fatal("the first build wrote no usable cache")
	}
	for _, tr := range c.Trees {
		if err := tr.decode(); err != nil {
			t.Fatal(err)
		}
		tr.Files["../victim.txt"] = fileState{}
		tr.encoded = "" // encode the maps, not the form it was read in
	}
	if err := writeTreeCache(opts.CacheFile, c); err != nil {
		t.Fatal(err)
	}
	// The trees' records are decoded when a build opens the tree.
	for _, tr := range readTreeCache(opts.CacheFile, programID(), false).Trees {
		if tr.decode() == nil {
			t.Error("a tree record naming ../victim.txt was accepted")
		}
	}
	editFile(t, filepath.Join(src, "acme/logo.yaml"), "name: Acme & Co.", "name: Acme and Co.")
	for range 2 { // the second build's standby is the first's live tree
		if _, err := BuildTree(context.Background(), os.DirFS(src), out, opts); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(victim); err != nil {
		t.Errorf("a build removed a file outside its trees: %v", err)
	}
	if diff := cmp.Diff(inMemory(t, src, opts.Options), readTree(t, out)); diff != "" {
		t.Errorf("tree differs from a build from scratch:\n%s", diff)
	}
}

// TestProgramID checks the cache's program identity against the go
// command's own reading of this test binary's build ID.
func TestProgramID(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("go", "tool", "buildid", exe).Output()
	if err != nil {
		t.Skipf("go tool buildid (the go command is needed to check the build ID): %v", err)
	}
	if got, want := programID(), "go:"+strings.TrimSpace(string(out)); got != want {
		t.Errorf("programID() = %q, want %q", got, want)
	}
}

func TestPackedStrings(t *testing.T) {
	for _, list := range [][]string{nil, {"a"}, {"github", "gitlab", "x", "1001tracklists"}, {"", "a", ""}} {
		p := packStrings(list)
		var got []string
		for i := range list {
			got = append(got, p.at(i))
		}
		if diff := cmp.Diff(list, got, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("packStrings(%q) (-want +got):\n%s", list, diff)
		}
	}
}
