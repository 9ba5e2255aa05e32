package source

import (
	"context"
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/problem"
	"logoindex/internal/testtree"
)

// problemStrings is each problem as a user reads it, after its code in
// brackets.
func problemStrings(l problem.List) []string {
	var out []string
	for _, p := range l {
		out = append(out, fmt.Sprintf("[%s] %s", p.Code, p.Error()))
	}
	return out
}

// tree is what a build reads of a source folder.
type tree struct {
	cats *File
	// logos are the selected logos, read whole; others the logos a
	// selection left out, of which only logo.yaml is read.
	logos, others []*Logo
}

// read reads fsys as a build does: the top of the folder, then each
// selected logo's folder and the others' logo.yaml. It returns what it
// read and every problem, sorted.
func read(fsys fs.FS, opts Options) (*tree, problem.List) {
	r := New(fsys, opts)
	defer r.Close()
	top, probs := r.Scan(context.Background())
	tr := &tree{cats: top.Categories}
	for _, slug := range top.Slugs {
		if r.Selected(slug) {
			tr.logos = append(tr.logos, r.Logo(slug, &probs))
		} else {
			tr.others = append(tr.others, r.Meta(slug))
		}
	}
	probs.Sort()
	return tr, probs
}

func TestReadGood(t *testing.T) {
	tr, probs := read(testtree.Sources(), Options{Dir: "src"})
	if len(probs) > 0 {
		t.Fatalf("unexpected problems:\n%s", probs.Error())
	}
	var got []string
	files := map[string]string{}
	for _, l := range tr.logos {
		var vs []string
		for _, v := range Variants {
			if f := l.Variants[v]; f != nil {
				vs = append(vs, f.Path)
				files[f.Path] = string(f.Data)
			}
		}
		files[l.Meta.Path] = string(l.Meta.Data)
		got = append(got, l.Slug+" "+l.Dir+" "+l.Meta.Path+" "+strings.Join(vs, ","))
	}
	want := []string{
		"gitea src/gitea src/gitea/logo.yaml src/gitea/icon.svg",
		"gitlab src/gitlab src/gitlab/logo.yaml src/gitlab/icon.svg,src/gitlab/icon-mono.svg",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("logos mismatch (-want +got):\n%s", diff)
	}
	wantFiles := map[string]string{
		"src/gitea/logo.yaml":      testtree.Meta("Gitea", "#FC6D26"),
		"src/gitea/icon.svg":       testtree.Icon,
		"src/gitlab/logo.yaml":     testtree.Meta("GitLab", "#FC6D26"),
		"src/gitlab/icon.svg":      testtree.Icon,
		"src/gitlab/icon-mono.svg": testtree.Mono,
	}
	if diff := cmp.Diff(wantFiles, files); diff != "" {
		t.Errorf("files read (-want +got):\n%s", diff)
	}
	if tr.cats == nil || tr.cats.Path != "src/categories.yaml" || string(tr.cats.Data) != testtree.Categories {
		t.Errorf("categories not read: %+v", tr.cats)
	}
	if len(tr.others) > 0 {
		t.Errorf("logos left out with no selection: %d", len(tr.others))
	}
}

func TestReadErrors(t *testing.T) {
	const allowed = "a logo folder holds only logo.yaml, icon.svg, icon-mono.svg, icon-dark.svg, wordmark.svg and wordmark-dark.svg"
	const notSlug = "folder name is not a valid slug (lower-case letters, digits and single hyphens: ^[a-z0-9]+(-[a-z0-9]+)*$); rename it"
	for _, tc := range []struct {
		name   string
		change func(fstest.MapFS)
		want   []string
	}{
		{"unexpected files", func(m fstest.MapFS) {
			m["gitlab/icon_dark.svg"] = &fstest.MapFile{Data: []byte(testtree.Icon)}
			m["gitlab/Icon.svg"] = &fstest.MapFile{Data: []byte(testtree.Icon)}
			m["gitlab/notes.txt"] = &fstest.MapFile{Data: []byte("hi")}
			m["gitlab/logo.yml"] = &fstest.MapFile{Data: []byte("hi")}
		}, []string{
			"[file-unexpected] src/gitlab/Icon.svg: unexpected file; did you mean icon.svg? " + allowed,
			"[file-unexpected] src/gitlab/icon_dark.svg: unexpected file; did you mean icon-dark.svg? " + allowed,
			"[file-unexpected] src/gitlab/logo.yml: unexpected file; did you mean logo.yaml? " + allowed,
			"[file-unexpected] src/gitlab/notes.txt: unexpected file; " + allowed,
		}},
		{"missing icon and logo.yaml", func(m fstest.MapFS) {
			delete(m, "gitlab/icon.svg")
			delete(m, "gitlab/logo.yaml")
		}, []string{
			"[file-missing] src/gitlab/icon.svg: missing; every logo needs icon.svg",
			"[file-missing] src/gitlab/logo.yaml: missing; every logo folder needs a logo.yaml (run: logoindex new gitlab -name ... -hex ... -category ...)",
		}},
		{"bad slugs", func(m fstest.MapFS) {
			for _, dir := range []string{"GitHub", "git.hub", "..hidden", "git hub", "git--hub", "gіthub" /* Cyrillic і */, strings.Repeat("a", 65), "-x-", "__"} {
				m[dir+"/logo.yaml"] = &fstest.MapFile{Data: []byte(testtree.Meta("X", "#000000"))}
			}
		}, []string{
			`[slug-invalid] src/-x-: ` + notSlug + `, for example to "x"`,
			`[slug-invalid] src/..hidden: ` + notSlug + `, for example to "hidden"`,
			`[slug-invalid] src/GitHub: ` + notSlug + `, for example to "github"`,
			`[slug-invalid] src/__: ` + notSlug,
			"[slug-invalid] src/" + strings.Repeat("a", 65) + ": folder name is 65 characters; a slug has at most 64",
			`[slug-invalid] src/git hub: ` + notSlug + `, for example to "git-hub"`,
			`[slug-invalid] src/git--hub: ` + notSlug + `, for example to "git-hub"`,
			`[slug-invalid] src/git.hub: ` + notSlug + `, for example to "git-hub"`,
			`[slug-invalid] src/gіthub: folder name has the non-ASCII character 'і' (U+0456); slugs use only a-z, 0-9 and hyphens, and look-alike letters are refused`,
		}},
		{"symlinks are refused", func(m fstest.MapFS) {
			m["linked"] = &fstest.MapFile{Data: []byte("/etc"), Mode: fs.ModeSymlink}
			m["gitlab/wordmark.svg"] = &fstest.MapFile{Data: []byte("../../secret.svg"), Mode: fs.ModeSymlink}
		}, []string{
			"[file-symlink] src/gitlab/wordmark.svg: is a symbolic link; links are never followed: replace it with the real file",
			"[file-symlink] src/linked: is a symbolic link; links are never followed: replace it with the real folder or file",
		}},
		{"logo.yaml is a folder", func(m fstest.MapFS) {
			delete(m, "gitlab/logo.yaml")
			m["gitlab/logo.yaml/x"] = &fstest.MapFile{Data: []byte("x")}
		}, []string{"[file-not-regular] src/gitlab/logo.yaml: is a folder; logo.yaml must be a file"}},
		{"categories.yaml is a folder", func(m fstest.MapFS) {
			delete(m, "categories.yaml")
			m["categories.yaml/x"] = &fstest.MapFile{Data: []byte("x")}
		}, []string{"[file-not-regular] src/categories.yaml: is a folder; categories.yaml must be a file"}},
		{"sub-folder", func(m fstest.MapFS) {
			m["gitlab/old/icon.svg"] = &fstest.MapFile{Data: []byte(testtree.Icon)}
		}, []string{"[file-unexpected] src/gitlab/old: unexpected folder; " + allowed}},
		{"stray file at the top", func(m fstest.MapFS) {
			m["README.md"] = &fstest.MapFile{Data: []byte("x")}
		}, []string{"[file-unexpected] src/README.md: unexpected file; the source folder holds only categories.yaml, removed.yaml, .logoindexignore, _static/ and one folder per logo"}},
		{"folders differing only in case", func(m fstest.MapFS) {
			m["GitLab/logo.yaml"] = &fstest.MapFile{Data: []byte(testtree.Meta("X", "#000000"))}
		}, []string{`[slug-collision] src/GitLab: folder name differs from "gitlab" only in case; slugs are lower case: merge the two folders`}},
		{"no categories.yaml", func(m fstest.MapFS) {
			delete(m, "categories.yaml")
		}, []string{"[file-missing] src/categories.yaml: missing; create it with the list of categories (- {slug: devtools, name: Developer tools})"}},
		{"oversized files", func(m fstest.MapFS) {
			m["gitlab/wordmark.svg"] = &fstest.MapFile{Data: make([]byte, MaxSVGSize+1)}
			m["gitlab/logo.yaml"] = &fstest.MapFile{Data: make([]byte, 10<<20)}
			m["categories.yaml"] = &fstest.MapFile{Data: make([]byte, MaxCategoriesSize+1)}
		}, []string{
			"[file-too-large] src/categories.yaml: is 1048577 bytes; the limit is 1 MiB",
			"[file-too-large] src/gitlab/logo.yaml: is 10 MiB; the limit is 64 KiB",
			"[file-too-large] src/gitlab/wordmark.svg: is 524289 bytes; the limit is 512 KiB",
		}},
		{"large SVG", func(m fstest.MapFS) {
			m["gitlab/wordmark.svg"] = &fstest.MapFile{Data: make([]byte, LargeSVGSize+1)}
		}, []string{"[svg-large] src/gitlab/wordmark.svg: warning: is 262145 bytes, over 256 KiB; a logo rarely needs that much: it may want re-exporting with simpler paths and no embedded images or fonts"}},
		{"special files are never opened", func(m fstest.MapFS) {
			// noSpecialOpen fails the test if any of these is opened.
			m["gitlab/wordmark.svg"] = &fstest.MapFile{Mode: fs.ModeNamedPipe}
			m["gitlab/icon-dark.svg"] = &fstest.MapFile{Mode: fs.ModeSocket}
			m["gitea/logo.yaml"] = &fstest.MapFile{Mode: fs.ModeDevice | fs.ModeCharDevice}
			m["categories.yaml"] = &fstest.MapFile{Mode: fs.ModeIrregular}
		}, []string{
			"[file-not-regular] src/categories.yaml: is a special file, not a regular file; it was not opened: replace it with a regular file",
			"[file-not-regular] src/gitea/logo.yaml: is a device, not a regular file; it was not opened: replace it with a regular file",
			"[file-not-regular] src/gitlab/icon-dark.svg: is a socket, not a regular file; it was not opened: replace it with a regular file",
			"[file-not-regular] src/gitlab/wordmark.svg: is a named pipe (FIFO), not a regular file; it was not opened: replace it with a regular file",
		}},
		{"editor and system files are skipped unread", func(m fstest.MapFS) {
			// noSpecialOpen fails the test if the pipe is opened; the
			// dangling link of an Emacs lock is never followed.
			m[".DS_Store"] = &fstest.MapFile{Data: []byte("x")}
			m["gitlab/.DS_Store"] = &fstest.MapFile{Data: []byte("x")}
			m["gitlab/.icon.svg.swp"] = &fstest.MapFile{Data: []byte("x")}
			m["gitlab/.#logo.yaml"] = &fstest.MapFile{Data: []byte("user@host.1234"), Mode: fs.ModeSymlink}
			m["gitlab/logo.yaml~"] = &fstest.MapFile{Mode: fs.ModeNamedPipe}
		}, nil},
		{"patterns of .logoindexignore", func(m fstest.MapFS) {
			m[".logoindexignore"] = &fstest.MapFile{Data: []byte("# local clutter\n*.orig\n/notes.md\ndrafts/\n")}
			m["gitlab/icon.svg.orig"] = &fstest.MapFile{Data: []byte("x")}
			m["notes.md"] = &fstest.MapFile{Data: []byte("x")}
			m["gitlab/notes.md"] = &fstest.MapFile{Data: []byte("x")} // anchored at the top: not ignored here
			m["drafts/acme/logo.yaml"] = &fstest.MapFile{Data: []byte("x")}
		}, []string{"[file-unexpected] src/gitlab/notes.md: unexpected file; " + allowed}},
		{"a pattern that hides a source file", func(m fstest.MapFS) {
			m[".logoindexignore"] = &fstest.MapFile{Data: []byte("icon-*.svg\ncategories.*\n")}
		}, []string{
			`[ignore-pattern-invalid] src/categories.yaml: is a source file, but src/.logoindexignore:2 pattern "categories.*" ignores it; change the pattern so that it leaves categories.yaml alone`,
			`[ignore-pattern-invalid] src/gitlab/icon-mono.svg: is a source file, but src/.logoindexignore:1 pattern "icon-*.svg" ignores it; change the pattern so that it leaves icon-mono.svg alone`,
		}},
		{"a pattern that hides a logo folder", func(m fstest.MapFS) {
			m[".logoindexignore"] = &fstest.MapFile{Data: []byte("/git*\n")}
		}, []string{
			`[ignore-pattern-invalid] src/gitea: is a logo folder, but src/.logoindexignore:1 pattern "/git*" ignores it, which would drop the logo without a word; change the pattern, or remove the folder and list the logo in removed.yaml`,
			`[ignore-pattern-invalid] src/gitlab: is a logo folder, but src/.logoindexignore:1 pattern "/git*" ignores it, which would drop the logo without a word; change the pattern, or remove the folder and list the logo in removed.yaml`,
		}},
		{"an invalid pattern", func(m fstest.MapFS) {
			m[".logoindexignore"] = &fstest.MapFile{Data: []byte("*.orig\n  wip-[0-9\n")}
			m["gitlab/icon.svg.orig"] = &fstest.MapFile{Data: []byte("x")}
		}, []string{`[ignore-pattern-invalid] src/.logoindexignore:2:7: pattern "wip-[0-9" has a [ without its closing ]; close the class, or write \[ for a bracket`}},
		{"a linked ignore file", func(m fstest.MapFS) {
			m[".logoindexignore"] = &fstest.MapFile{Data: []byte("/etc/passwd"), Mode: fs.ModeSymlink}
		}, []string{"[file-symlink] src/.logoindexignore: is a symbolic link; links are never followed: replace it with the real file"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := testtree.Sources()
			tc.change(m)
			_, probs := read(noSpecialOpen{t, m}, Options{Dir: "src"})
			if diff := cmp.Diff(tc.want, problemStrings(probs)); diff != "" {
				t.Errorf("problems mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReadReportIgnored checks that ignored files become warnings when
// asked (check -strict), and are still never read.
func TestReadReportIgnored(t *testing.T) {
	m := testtree.Sources()
	m[".logoindexignore"] = &fstest.MapFile{Data: []byte("*.orig\n")}
	m[".DS_Store"] = &fstest.MapFile{Mode: fs.ModeNamedPipe}
	m["gitlab/.#logo.yaml"] = &fstest.MapFile{Data: []byte("user@host.1234"), Mode: fs.ModeSymlink}
	m["gitea/icon.svg.orig"] = &fstest.MapFile{Mode: fs.ModeNamedPipe}
	_, probs := read(noSpecialOpen{t, m}, Options{Dir: "src", ReportIgnored: true})
	want := []string{
		`[file-ignored] src/.DS_Store: warning: ignored by default pattern "**/.DS_Store"; remove it from the repository`,
		`[file-ignored] src/gitea/icon.svg.orig: warning: ignored by src/.logoindexignore:1 pattern "*.orig"; remove it from the repository`,
		`[file-ignored] src/gitlab/.#logo.yaml: warning: ignored by default pattern "**/.#*"; remove it from the repository`,
	}
	if diff := cmp.Diff(want, problemStrings(probs)); diff != "" {
		t.Errorf("problems mismatch (-want +got):\n%s", diff)
	}
}

// TestReadSelect: patterns select the logos read in full; the others give
// only their logo.yaml, and their broken SVGs are never read.
func TestReadSelect(t *testing.T) {
	m := testtree.Sources()
	m["gitea/icon.svg"] = &fstest.MapFile{Mode: fs.ModeNamedPipe}
	tr, probs := read(noSpecialOpen{t, m}, Options{Dir: "src", Logos: []string{"gitl*"}})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	var got []string
	for _, l := range tr.logos {
		got = append(got, "selected "+l.Slug+" "+l.Meta.Path+" "+strconv.Itoa(len(l.Variants)))
	}
	for _, l := range tr.others {
		got = append(got, "other "+l.Slug+" "+l.Meta.Path+" "+strconv.Itoa(len(l.Variants)))
	}
	want := []string{"selected gitlab src/gitlab/logo.yaml 2", "other gitea src/gitea/logo.yaml 0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestReadSelectPatterns: a pattern that is not one, or that selects no
// logo, is an error at the source folder; a typo must not pass for a
// clean check of nothing.
func TestReadSelectPatterns(t *testing.T) {
	_, probs := read(testtree.Sources(), Options{Dir: "src", Logos: []string{"git*", "gihtub", "git/*", "[a-"}})
	want := []string{
		`[pattern-unmatched] src: logo pattern "[a-" is not a doublestar pattern on slugs: use *, ?, [a-z] and {a,b} on folder names, as in 'git*', without /`,
		`[pattern-unmatched] src: logo pattern "gihtub" selects no logo; patterns match folder names (slugs), such as git* for github and gitlab`,
		`[pattern-unmatched] src: logo pattern "git/*" is not a doublestar pattern on slugs: use *, ?, [a-z] and {a,b} on folder names, as in 'git*', without /`,
	}
	if diff := cmp.Diff(want, problemStrings(probs)); diff != "" {
		t.Errorf("problems mismatch (-want +got):\n%s", diff)
	}
}

// noSpecialOpen is a file system that fails the test when a file that is
// not a regular file is opened: a Reader must refuse those from their
// directory entry.
type noSpecialOpen struct {
	t *testing.T
	fstest.MapFS
}

func (f noSpecialOpen) Open(name string) (fs.File, error) {
	if mf, ok := f.MapFS[name]; ok && !mf.Mode.IsRegular() && !mf.Mode.IsDir() {
		f.t.Errorf("the reader opened %s, a special file", name)
	}
	return f.MapFS.Open(name)
}

// slugRE is the grammar of a slug, which isSlug follows by hand.
var slugRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// TestIsSlug holds isSlug to slugRE on every name of up to four bytes
// from an alphabet of the edge cases, and on some longer ones.
func TestIsSlug(t *testing.T) {
	alphabet := []string{"a", "z", "0", "9", "-", "A", "_", "\xc3", "/"}
	names := []string{"", "github", "1and1", "a-b-c", "-a", "a-", "a--b", "ab-9z", "x\n"}
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		names = append(names, prefix)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			grow(prefix+c, n-1)
		}
	}
	grow("", 4)
	for _, name := range names {
		checkIsSlug(t, name)
	}
}

func FuzzIsSlug(f *testing.F) {
	for _, s := range []string{"github", "a--b", "-a", "A"} {
		f.Add(s)
	}
	f.Fuzz(checkIsSlug)
}

func checkIsSlug(t *testing.T, name string) {
	if got, want := isSlug(name), slugRE.MatchString(name); got != want {
		t.Errorf("isSlug(%q) = %t, the regexp says %t", name, got, want)
	}
}
