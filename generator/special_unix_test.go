//go:build unix

package generator

import (
	"context"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/outtree"
	"logoindex/generator/render"
	"logoindex/internal/testtree"
)

// TestSpecialFilesAreNotOpened puts a named pipe, a socket and a device
// where a build reads files. Opening the pipe would wait for ever for a
// writer; the build must refuse each from its directory entry and return
// at once.
func TestSpecialFilesAreNotOpened(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"categories.yaml":    testtree.Categories,
		"acme/logo.yaml":     testtree.Meta("Acme", "#FC6D26"),
		"acme/icon-mono.svg": testtree.Mono,
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

// TestBuildModesFollowUmask builds under umask 027, into a new output
// and again after a source changed, with and without Rebuild: every file
// of the output gets mode 0644 less the umask and every folder 0755 less
// the umask, whichever way it was written (the collection's files are
// streamed into a new file, the others written whole, and the unchanged
// ones linked from the last tree). The standby tree in the state folder,
// live after the next build, is held to the same modes, and nothing in
// the state folder is more open than the umask allows.
func TestBuildModesFollowUmask(t *testing.T) {
	defer syscall.Umask(syscall.Umask(0o027))
	for _, rebuild := range []bool{false, true} {
		src := copyDir(t, "testdata/golden/src")
		out := filepath.Join(t.TempDir(), "dist")
		state := outtree.StateDir(out)
		if filepath.Base(state) != ".dist.logoindex" {
			t.Fatalf("the state folder is %s", state)
		}
		opts := Options{Out: out, Rebuild: rebuild, Render: render.Options{BaseURL: "https://logos.example"}}
		for step, edit := range []func(){
			func() {},
			func() {
				editFile(t, filepath.Join(src, "acme/logo.yaml"), "aliases: [Acme, ACME Corp]", "aliases: [Acme]")
			},
			func() { editFile(t, filepath.Join(src, "night-owl/logo.yaml"), "name: Night Owl", "name: Night Owls") },
		} {
			edit()
			res, err := Build(context.Background(), os.DirFS(src), opts)
			if err != nil {
				t.Fatal(err)
			}
			if res.UpToDate {
				t.Fatalf("rebuild %t, step %d: the edit changed nothing", rebuild, step)
			}
			modes := srcTreeModes(t, out)
			if len(modes) < 10 {
				t.Fatalf("rebuild %t, step %d: %d files and folders in the output", rebuild, step, len(modes))
			}
			if diff := cmp.Diff(srcWantModes(modes), modes); diff != "" {
				t.Errorf("rebuild %t, step %d: modes of the output (-want +got):\n%s", rebuild, step, diff)
			}
			standby := filepath.Join(state, "standby")
			if _, err := os.Lstat(standby); err == nil || step > 0 && !rebuild {
				modes := srcTreeModes(t, standby)
				if len(modes) < 10 {
					t.Errorf("rebuild %t, step %d: %d files and folders in the standby", rebuild, step, len(modes))
				}
				if diff := cmp.Diff(srcWantModes(modes), modes); diff != "" {
					t.Errorf("rebuild %t, step %d: modes of the standby (-want +got):\n%s", rebuild, step, diff)
				}
			}
			for name, mode := range srcTreeModes(t, state) {
				if mode&0o027 != 0 {
					t.Errorf("rebuild %t, step %d: %s in the state folder has mode %v, more open than umask 027 allows", rebuild, step, name, mode)
				}
			}
		}
	}
}

// srcTreeModes maps each file and folder of a tree, the tree's own folder
// as ".", to its type and permission bits.
func srcTreeModes(t *testing.T, dir string) map[string]fs.FileMode {
	t.Helper()
	infos := testtree.Infos(t, dir)
	if infos == nil {
		t.Fatalf("%s is missing", dir)
	}
	modes := map[string]fs.FileMode{}
	for name, info := range infos {
		modes[name] = info.Mode() & (fs.ModeType | fs.ModePerm)
	}
	return modes
}

// srcWantModes is what the modes of a tree written under umask 027
// should be: 0640 for each of its files and 0750 for each folder.
func srcWantModes(got map[string]fs.FileMode) map[string]fs.FileMode {
	want := map[string]fs.FileMode{}
	for name, mode := range got {
		want[name] = 0o640
		if mode.IsDir() {
			want[name] = fs.ModeDir | 0o750
		}
	}
	return want
}
