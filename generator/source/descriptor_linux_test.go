package source

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"

	"logoindex/generator/internal/sysfs"
	"logoindex/generator/problem"
	"logoindex/internal/testtree"
)

// throughFS hides that its file system opens its root as an *os.File, so
// that a Reader of it lists and reads through fs.FS (as it does an
// fstest.MapFS) and not through the folder's descriptor.
type throughFS struct{ fsys fs.FS }

func (f throughFS) Open(name string) (fs.File, error) {
	file, err := f.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	return hiddenFile{file}, nil
}

type hiddenFile struct{ fs.File }

func (f hiddenFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if d, ok := f.File.(fs.ReadDirFile); ok {
		return d.ReadDir(n)
	}
	return nil, &fs.PathError{Op: "readdir", Err: errors.ErrUnsupported}
}

// openRoot opens dir as an os.Root, whose FS gives a Reader the folder's
// descriptor.
func openRoot(t *testing.T, dir string) fs.FS {
	t.Helper()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	f, err := root.FS().Open(".")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, ok := f.(*os.File); !ok {
		t.Skip("an os.Root's FS gives no descriptor here")
	}
	return root.FS()
}

// TestScanThroughDescriptor checks the listings a Reader takes through the
// folder's descriptor (entry types from the folder, no stat) against those
// an os.Root's ReadDir gives: a link, a named pipe, a stray file, a bad
// slug and an ignored file at the top give the same problems.
func TestScanThroughDescriptor(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"categories.yaml":    testtree.Categories,
		".logoindexignore":   "*.bak\n",
		"acme/logo.yaml":     testtree.Meta("Acme", "#FC6D26"),
		"acme/icon.svg":      testtree.Mono,
		"acme/notes.txt":     "x",
		"Bad_Slug/logo.yaml": testtree.Meta("Bad", "#FC6D26"),
		"stray.txt":          "x",
		"old.bak":            "x",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("acme", filepath.Join(dir, "linked")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("icon.svg", filepath.Join(dir, "acme/wordmark.svg")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "pipe"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	fsys := openRoot(t, dir)
	problems := func(fsys fs.FS) []string {
		tr, probs := read(fsys, Options{Dir: "src", ReportIgnored: true})
		if len(tr.logos) != 1 || tr.logos[0].Variants["icon"] == nil || tr.logos[0].Meta == nil {
			t.Errorf("acme was not read: %+v", tr.logos)
		}
		return problemStrings(probs)
	}
	want := []string{
		`[slug-invalid] src/Bad_Slug: folder name is not a valid slug (lower-case letters, digits and single hyphens: ^[a-z0-9]+(-[a-z0-9]+)*$); rename it, for example to "bad-slug"`,
		"[file-unexpected] src/acme/notes.txt: unexpected file; a logo folder holds only logo.yaml, icon.svg, icon-mono.svg, icon-dark.svg, wordmark.svg and wordmark-dark.svg",
		"[file-symlink] src/acme/wordmark.svg: is a symbolic link; links are never followed: replace it with the real file",
		"[file-symlink] src/linked: is a symbolic link; links are never followed: replace it with the real folder or file",
		`[file-ignored] src/old.bak: warning: ignored by src/.logoindexignore:1 pattern "*.bak"; remove it from the repository`,
		"[file-not-regular] src/pipe: is a named pipe (FIFO), not a regular file; it was not opened: replace it with a regular file",
		"[file-unexpected] src/stray.txt: unexpected file; the source folder holds only categories.yaml, removed.yaml, .logoindexignore, _static/ and one folder per logo",
	}
	if diff := cmp.Diff(want, problems(throughFS{fsys})); diff != "" {
		t.Errorf("through the os.Root's FS (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(want, problems(fsys)); diff != "" {
		t.Errorf("through the descriptor (-want +got):\n%s", diff)
	}
}

// haveOpenat2 reports whether this kernel lets a process call openat2,
// without which a read through a descriptor is left to fs.FS.
func haveOpenat2() bool {
	fd, err := unix.Openat2(unix.AT_FDCWD, ".", &unix.OpenHow{Flags: unix.O_RDONLY | unix.O_CLOEXEC, Resolve: unix.RESOLVE_BENEATH})
	if err != nil {
		return false
	}
	unix.Close(fd)
	return true
}

// TestReadSourceBothWays reads files of every kind through the folder's
// descriptor (openat2) and through an os.Root's FS, and compares what the
// Reader makes of each: the same data or the same problem. A link and a
// pipe are the descriptor's alone: it refuses every link, where the root
// follows one that stays in, and a pipe, which the root's Open waits on.
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
	fsys := openRoot(t, dir)
	if !haveOpenat2() {
		t.Skip("this kernel has no openat2: every read goes through fs.FS")
	}
	byDescriptor, byFS := New(fsys, Options{Dir: "src"}), New(throughFS{fsys}, Options{Dir: "src"})
	defer byDescriptor.Close()
	defer byFS.Close()
	// The stat a read gives is the file's (a build records it as the
	// file's, in place of a stat by name): that of os.Lstat.
	read := func(r *Reader, name string) (string, string) {
		var probs problem.List
		done := make(chan *File, 1)
		go func() { done <- r.readFile(name, limit, &probs) }()
		select {
		case f := <-done:
			if f != nil {
				info, err := os.Lstat(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(sysfs.StatOf(info), f.Stat); diff != "" {
					t.Errorf("%s: the stat of the read (by descriptor %t) differs from os.Lstat's (-os +read):\n%s", name, r == byDescriptor, diff)
				}
				return f.Path + " " + string(f.Data), ""
			}
			if len(probs) != 1 {
				t.Fatalf("%s: %d problems, want one: %v", name, len(probs), probs)
			}
			return "", fmt.Sprintf("[%s] %s", probs[0].Code, probs[0].Error())
		case <-time.After(5 * time.Second):
			t.Fatalf("reading %s did not return", name)
			return "", ""
		}
	}
	// code is the code of a problem string: the messages of names no
	// listing gives ("../x") may differ.
	code := func(p string) string { c, _, _ := strings.Cut(p, " "); return c }
	for _, tc := range []struct{ name, data, problem string }{
		{"empty", "src/empty ", ""},
		{"small", "src/small <svg/>", ""},
		{"at-limit", "src/at-limit " + files["at-limit"], ""},
		{"over", "", "[file-too-large] src/over: is 17 bytes; the limit is 16 bytes"},
		{"folder", "", "[file-not-regular] src/folder: is not a regular file"},
		{"missing", "", "[file-unreadable] src/missing: cannot read: does not exist"},
		{"../escape", "", "[file-unreadable]"},
		{"folder/../../escape", "", "[file-unreadable]"},
		{"/etc/passwd", "", "[file-unreadable]"},
	} {
		gotData, gotProb := read(byDescriptor, tc.name)
		wantData, wantProb := read(byFS, tc.name)
		if gotData != wantData || code(gotProb) != code(wantProb) {
			t.Errorf("%s: by descriptor %q %q, by the root's FS %q %q", tc.name, gotData, gotProb, wantData, wantProb)
		}
		if strings.HasSuffix(tc.problem, "]") {
			gotProb = code(gotProb) // a code alone
		}
		if gotData != tc.data || gotProb != tc.problem {
			t.Errorf("%s: by descriptor %q %q, want %q %q", tc.name, gotData, gotProb, tc.data, tc.problem)
		}
	}
	if err := os.Symlink("../escape", filepath.Join(dir, "out-link")); err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{"link", "out-link"} {
		if data, prob := read(byDescriptor, link); data != "" || code(prob) != "[file-unreadable]" {
			t.Errorf("%s: by descriptor %q %q, want it unreadable", link, data, prob)
		}
	}
	// A pipe put where a listed file was: the root's Open would wait for
	// a writer (a Reader opens only what its listing calls a regular file).
	if data, prob := read(byDescriptor, "fifo"); data != "" || prob != "[file-not-regular] src/fifo: is not a regular file" {
		t.Errorf("fifo: by descriptor %q %q, want: not a regular file", data, prob)
	}
}
