//go:build unix

package generator

import (
	"context"
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
