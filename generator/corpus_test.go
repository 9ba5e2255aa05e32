package generator

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"logoindex/internal/testtree"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// TestBadInputCorpus checks every case under testdata/bad/<case>/src and
// compares the problems with testdata/bad/<case>/want.txt (-update rewrites
// them; read the diff before committing), each line "[code] " and the
// problem as check prints it, so that a change of rule or of wording both
// show. Every case must fail with errors that name a file and a code, and
// produce no output.
func TestBadInputCorpus(t *testing.T) {
	dirs, _ := filepath.Glob("testdata/bad/*")
	if len(dirs) < 60 {
		t.Fatalf("the corpus has %d cases, want at least 60", len(dirs))
	}
	for _, dir := range dirs {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			root, err := os.OpenRoot(filepath.Join(dir, "src"))
			if err != nil {
				t.Fatal(err)
			}
			defer root.Close()
			got := buildProblems(t, root.FS())
			wantFile := filepath.Join(dir, "want.txt")
			if *update {
				if err := os.WriteFile(wantFile, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(wantFile)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("problems differ from %s:\ngot:\n%s\nwant:\n%s", wantFile, got, want)
			}
			// A build into a folder finds the same and writes nothing.
			out := filepath.Join(t.TempDir(), "dist")
			_, err = Build(context.Background(), root.FS(), Options{Dir: "src", Out: out})
			if built := problemLines(t, err); built != got {
				t.Errorf("the build's problems differ from the check's:\n%s", cmp.Diff(got, built))
			}
			if _, err := os.Stat(out); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the build made %s: %v", out, err)
			}
		})
	}
}

// TestGeneratedBadInput covers the cases too large or too odd to commit:
// huge files, links out of the tree and in a loop, unreadable files.
func TestGeneratedBadInput(t *testing.T) {
	base := func(t *testing.T) string {
		dir := t.TempDir()
		for name, data := range map[string]string{
			"categories.yaml":    testtree.Categories,
			"acme/logo.yaml":     testtree.Meta("Acme", "#FC6D26"),
			"acme/icon.svg":      testtree.Icon,
			"acme/icon-mono.svg": testtree.Mono,
		} {
			p := filepath.Join(dir, filepath.FromSlash(name))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	open := func(t *testing.T, dir string) fs.FS {
		root, err := os.OpenRoot(dir)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { root.Close() })
		return root.FS()
	}
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  string
	}{
		{"100 MB SVG", func(t *testing.T, dir string) {
			// Sparse: the limit is enforced before reading, so this
			// costs no memory; a read past the limit would fail the
			// test through its time-out or the race detector's memory.
			f, err := os.Create(filepath.Join(dir, "acme/wordmark.svg"))
			if err != nil {
				t.Fatal(err)
			}
			f.Truncate(100 << 20)
			f.Close()
		}, "[file-too-large] src/acme/wordmark.svg: is 100 MiB; the limit is 512 KiB\n"},
		{"file name that forges a line", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, "acme/x\nINJECTED: checked 2 logos: no errors\x1b[2K"), nil, 0o644)
		}, `[file-unexpected] src/acme/x\nINJECTED: checked 2 logos: no errors\x1b[2K: unexpected file; a logo folder holds only logo.yaml, icon.svg, icon-mono.svg, icon-dark.svg, wordmark.svg and wordmark-dark.svg` + "\n"},
		{"10 MB YAML", func(t *testing.T, dir string) {
			line := "# " + strings.Repeat("x", 1022) + "\n"
			os.WriteFile(filepath.Join(dir, "acme/logo.yaml"), []byte(testtree.Meta("Acme", "#FC6D26")+strings.Repeat(line, 10<<10)), 0o644)
		}, "[file-too-large] src/acme/logo.yaml: is 10496100 bytes; the limit is 64 KiB\n"},
		{"20,000 nested @media blocks", func(t *testing.T, dir string) {
			// 240 KB, under the size limit: the nesting limit refuses it
			// at the ninth block, before any of it is read further.
			const n = 20000
			writeFile(t, filepath.Join(dir, "acme/wordmark.svg"), []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><style>`+
				strings.Repeat("@media all{", n)+".a{fill:red}"+strings.Repeat("}", n)+`</style><path class="a" d="M0 0h1v1z"/></svg>`))
		}, "[svg-css-too-deep] src/acme/wordmark.svg:1:166: <style>: CSS blocks are nested more than 8 levels deep (@media in @media ...); a logo's stylesheet needs two: flatten the rules\n"},
		{"3,000 nested calc(", func(t *testing.T, dir string) {
			// Deeper than the minifier's own limit, which it reports as an
			// error the build would have blamed on itself.
			const n = 3000
			writeFile(t, filepath.Join(dir, "acme/wordmark.svg"), []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><style>.a{stroke-width:`+
				strings.Repeat("calc(", n)+"1"+strings.Repeat(")", n)+`}</style><path class="a" d="M0 0h1v1z"/></svg>`))
		}, "[svg-css-too-deep] src/acme/wordmark.svg:1:164: <style>: CSS functions and parentheses are nested more than 16 levels deep; a logo's values need two or three: write the value out\n"},
		{"2,000 conditional fills inherited by 9,000 shapes", func(t *testing.T, dir string) {
			// 320 KB: resolving what each shape paints would take 18
			// million values; the budget of steps refuses it first.
			var b strings.Builder
			b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" class="r"><style>`)
			for i := range 2000 {
				fmt.Fprintf(&b, "@media all{.r{fill:#%06x}.c{fill:#%06x}}", i, i)
			}
			b.WriteString("</style>" + strings.Repeat(`<path class="c" d="M0 0"/>`, 9000) + "</svg>")
			writeFile(t, filepath.Join(dir, "acme/wordmark.svg"), []byte(b.String()))
		}, "[svg-large] src/acme/wordmark.svg: warning: is 322091 bytes, over 256 KiB; a logo rarely needs that much: it may want re-exporting with simpler paths and no embedded images or fonts\n" +
			"[svg-too-complex] src/acme/wordmark.svg:1:78: its <style> rules and references take more than 1000000 steps to resolve (a logo's take a few thousand); use fewer rules, rules that select fewer elements, or shorter chains of references\n"},
		{"symlink out of the tree", func(t *testing.T, dir string) {
			secret := filepath.Join(t.TempDir(), "secret.svg")
			os.WriteFile(secret, []byte(testtree.Icon), 0o644)
			os.Symlink(secret, filepath.Join(dir, "acme/wordmark.svg"))
		}, "[file-symlink] src/acme/wordmark.svg: is a symbolic link; links are never followed: replace it with the real file\n"},
		{"symlinked logo folder", func(t *testing.T, dir string) {
			os.Symlink(t.TempDir(), filepath.Join(dir, "outside"))
		}, "[file-symlink] src/outside: is a symbolic link; links are never followed: replace it with the real folder or file\n"},
		{"symlink loop", func(t *testing.T, dir string) {
			os.Symlink("loop-b", filepath.Join(dir, "loop-a"))
			os.Symlink("loop-a", filepath.Join(dir, "loop-b"))
		}, "[file-symlink] src/loop-a: is a symbolic link; links are never followed: replace it with the real folder or file\n" +
			"[file-symlink] src/loop-b: is a symbolic link; links are never followed: replace it with the real folder or file\n"},
		{"logo.yaml is a folder", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, "acme/logo.yaml"))
			os.MkdirAll(filepath.Join(dir, "acme/logo.yaml"), 0o755)
		}, "[file-not-regular] src/acme/logo.yaml: is a folder; logo.yaml must be a file\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := base(t)
			tc.setup(t, dir)
			if got := buildProblems(t, open(t, dir)); got != tc.want {
				t.Errorf("got:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}

	// Unreadable files: chmod 000 means nothing to root (CI runs as root),
	// so the file system itself refuses.
	t.Run("unreadable file", func(t *testing.T) {
		fsys := corpusDeniedFS{FS: testtree.Sources(), deny: "gitlab/icon-mono.svg"}
		want := "[file-unreadable] src/gitlab/icon-mono.svg: cannot read: permission denied; make it readable\n"
		if got := buildProblems(t, fsys); got != want {
			t.Errorf("got:\n%s\nwant:\n%s", got, want)
		}
	})
}

// corpusDeniedFS refuses to open one file, as a file system does for a file
// without read permission.
type corpusDeniedFS struct {
	fs.FS
	deny string
}

func (d corpusDeniedFS) Open(name string) (fs.File, error) {
	if name == d.deny {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return d.FS.Open(name)
}

var _ fs.FS = corpusDeniedFS{FS: fstest.MapFS{}}
