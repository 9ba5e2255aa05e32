//go:build unix

package generator

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestSpecialFilesAreNotOpened puts a named pipe, a socket and a device
// where a build reads files. Opening the pipe would wait for ever for a
// writer; the build must refuse each from its directory entry and return
// at once.
func TestSpecialFilesAreNotOpened(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"categories.yaml":    testCategories,
		"acme/logo.yaml":     testMeta("Acme", "#FC6D26"),
		"acme/icon-mono.svg": testMono,
	} {
		writeFile(t, filepath.Join(dir, name), []byte(data))
	}
	fifo := filepath.Join(dir, "acme/icon.svg")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// Should a build open the pipe, this releases it when the test ends.
	t.Cleanup(func() {
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	want := "[file-not-regular] src/acme/icon.svg: is a named pipe (FIFO), not a regular file; it was not opened: replace it with a regular file\n"
	// A socket, bound in a short temporary folder (socket paths are short).
	sockDir, err := os.MkdirTemp("", "s")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(sockDir)
	if ln, err := net.Listen("unix", filepath.Join(sockDir, "s")); err == nil {
		defer ln.Close()
		if err := os.Rename(filepath.Join(sockDir, "s"), filepath.Join(dir, "acme/wordmark.svg")); err == nil {
			want += "[file-not-regular] src/acme/wordmark.svg: is a socket, not a regular file; it was not opened: replace it with a regular file\n"
		}
	}
	// A character device (the one of /dev/null), where mknod is allowed.
	if syscall.Mknod(filepath.Join(dir, "acme/icon-dark.svg"), syscall.S_IFCHR|0o644, 1<<8|3) == nil {
		want = "[file-not-regular] src/acme/icon-dark.svg: is a device, not a regular file; it was not opened: replace it with a regular file\n" + want
	}

	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	done := make(chan string, 1)
	go func() { done <- buildProblems(t, root.FS()) }()
	select {
	case got := <-done:
		if got != want {
			t.Errorf("got:\n%s\nwant:\n%s", got, want)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the build is still waiting on the named pipe after 20 s")
	}
}

// TestBuildTreeModesFollowUmask builds under umask 027 with the cache and
// without it: every file gets the mode WriteTree gives it (0644 less the
// umask), whichever way it was written (the collection's files are
// streamed into a new file, the others written whole).
func TestBuildTreeModesFollowUmask(t *testing.T) {
	defer syscall.Umask(syscall.Umask(0o027))
	src := "testdata/golden/src"
	opts := Options{Render: RenderOptions{BaseURL: "https://logos.example"}}
	res, err := Build(context.Background(), os.DirFS(src), opts)
	if err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join(t.TempDir(), "dist")
	if err := WriteTree(context.Background(), ref, res.Files); err != nil {
		t.Fatal(err)
	}
	want := treeModes(t, ref)
	if want["api/logos.json"] != 0o640 {
		t.Fatalf("WriteTree gave api/logos.json mode %o under umask 027", want["api/logos.json"])
	}
	for _, cached := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "dist")
		topts := TreeOptions{Options: opts}
		if cached {
			topts.CacheFile = DefaultCachePath(out)
		}
		if _, err := BuildTree(context.Background(), os.DirFS(src), out, topts); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, treeModes(t, out)); diff != "" {
			t.Errorf("cache %v: modes differ from WriteTree's (-want +got):\n%s", cached, diff)
		}
	}
}

// treeModes maps each file of a tree to its permission bits.
func treeModes(t *testing.T, dir string) map[string]fs.FileMode {
	t.Helper()
	modes := map[string]fs.FileMode{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		modes[filepath.ToSlash(rel)] = info.Mode().Perm()
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return modes
}

// TestScanThroughDescriptor checks the listing of the source folder that
// a build with a cache takes through the folder's descriptor (entry types
// from the folder, no stat) against the one an os.Root's ReadDir gives a
// build without: a link, a named pipe, a stray file, a bad slug and an
// ignored file at the top give the same problems.
func TestScanThroughDescriptor(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"categories.yaml":    testCategories,
		".logoindexignore":   "*.bak\n",
		"acme/logo.yaml":     testMeta("Acme", "#FC6D26"),
		"acme/icon.svg":      testMono,
		"Bad_Slug/logo.yaml": testMeta("Bad", "#FC6D26"),
		"stray.txt":          "x",
		"old.bak":            "x",
	} {
		writeFile(t, filepath.Join(dir, name), []byte(data))
	}
	if err := os.Symlink("acme", filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	problems := func(cache bool) string {
		opts := TreeOptions{Options: Options{Dir: "src", ReportIgnored: true}}
		out := filepath.Join(t.TempDir(), "dist")
		if cache {
			opts.CacheFile = DefaultCachePath(out)
		}
		_, err := BuildTree(context.Background(), root.FS(), out, opts)
		if err == nil {
			t.Fatal("the build succeeded; want its problems")
		}
		return err.Error()
	}
	want := problems(false)
	for _, p := range []string{"src/linked", "src/pipe", "src/stray.txt", "src/Bad_Slug", "src/old.bak"} {
		if !strings.Contains(want, p+":") {
			t.Errorf("no problem at %s in:\n%s", p, want)
		}
	}
	if diff := cmp.Diff(want, problems(true)); diff != "" {
		t.Errorf("the listing through the descriptor differs (-os.Root +descriptor):\n%s", diff)
	}
}

// TestReadSourceBothWays reads files of every kind by readAt (through the
// folder's descriptor) and through an os.Root's FS, and compares what
// readFile makes of each: the same data or the same problem. A link and a
// pipe are readAt's alone: it refuses every link, where the root follows
// one that stays in, and a pipe, which the root's Open waits on.
func TestReadSourceBothWays(t *testing.T) {
	// A file beside the folder, which no read under it may reach.
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "escape"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(outside, "src")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	const limit = 16
	files := map[string]string{"empty": "", "small": "<svg/>", "at-limit": strings.Repeat("a", limit), "over": strings.Repeat("a", limit+1)}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "folder"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("small", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	at := openStatRoot(root.FS())
	defer at.close()
	if at.dir == nil {
		t.Skip("the root's FS gives no descriptor on this system")
	}
	if _, _, err := readAt(at.fd, "small", limit); errors.Is(err, errors.ErrUnsupported) {
		t.Skip("this kernel has no openat2: readAt leaves every read to fs.FS")
	}
	// The stat a read gives is the file's (a build records it as the
	// file's, in place of a stat by name): that of os.Lstat.
	read := func(at *statRoot, name string) (string, string) {
		var probs ProblemList
		done := make(chan *SourceFile, 1)
		go func() { done <- readFile(root.FS(), at, "src", name, limit, &probs) }()
		select {
		case f := <-done:
			if f != nil {
				info, err := os.Lstat(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(statOfInfo(info), f.stat, cmp.AllowUnexported(fileStat{})); diff != "" {
					t.Errorf("%s: the stat of the read (at %t) differs from os.Lstat's (-os +read):\n%s", name, at != nil, diff)
				}
				return f.Path + " " + string(f.Data), ""
			}
			return "", fmt.Sprintf("%s %s: %s", probs[0].Code, probs[0].Path, probs[0].Msg)
		case <-time.After(5 * time.Second):
			t.Fatalf("reading %s did not return", name)
			return "", ""
		}
	}
	for _, name := range []string{"empty", "small", "at-limit", "over", "folder", "missing", "../escape", "folder/../../escape", "/etc/passwd"} {
		gotData, gotProb := read(at, name)
		wantData, wantProb := read(nil, name)
		// The messages of names no listing gives ("../x") may differ.
		code := func(p string) string { c, _, _ := strings.Cut(p, " "); return c }
		if gotData != wantData || code(gotProb) != code(wantProb) {
			t.Errorf("%s: readAt gives %q %q, the root %q %q", name, gotData, gotProb, wantData, wantProb)
		}
	}
	if err := os.Symlink("../escape", filepath.Join(dir, "out-link")); err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{"link", "out-link"} {
		if data, prob := read(at, link); data != "" || prob == "" {
			t.Errorf("%s: readAt gives %q %q, want a problem", link, data, prob)
		}
	}
	// A pipe put where a listed file was: the root's Open would wait for
	// a writer (Load opens only what its listing calls a regular file).
	if data, prob := read(at, "fifo"); data != "" || !strings.Contains(prob, "not a regular file") {
		t.Errorf("fifo: readAt gives %q %q, want: not a regular file", data, prob)
	}
}

// TestWriteNewAndMkdirAsOSDoes checks writeNew and mkdirAt, which make
// their own system calls on Linux (sysraw_linux.go), against os: the same
// errors for an existing name, a missing folder and a file in the way,
// and the same file. They are called with the whole path (in a) and with
// a path under the descriptor of a folder (in r), as a tree's root gives.
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
	if diff := cmp.Diff(statOfInfo(info), *st, cmp.AllowUnexported(fileStat{})); diff != "" {
		t.Errorf("writeNew's stat differs from os.Lstat's (-os +writeNew):\n%s", diff)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "c")); err != nil || string(b) != string(data) {
		t.Errorf("writeNew wrote %d bytes (%v), want %d", len(b), err, len(data))
	}
}
