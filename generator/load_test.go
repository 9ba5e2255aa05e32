package generator

import (
	"context"
	"io"
	"io/fs"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"
)

const (
	testCategories = "- {slug: devtools, name: Developer tools}\n- {slug: social, name: Social}\n"
	testIcon       = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="#FC6D26"><title>X</title><path d="M0 0h24v24H0z"/></svg>`
	testMono       = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="currentColor"><path d="M0 0h24v24H0z"/></svg>`
)

func testMeta(name, hex string) string {
	return "name: " + name + "\nhex: \"" + hex + "\"\ncategories: [devtools]\nsource: https://example.com/press\nlicense: CC0-1.0\n"
}

// testTree is a valid source tree with two logos, for tests to break.
func testTree() fstest.MapFS {
	return fstest.MapFS{
		"categories.yaml":      {Data: []byte(testCategories)},
		"gitlab/logo.yaml":     {Data: []byte(testMeta("GitLab", "#FC6D26"))},
		"gitlab/icon.svg":      {Data: []byte(testIcon)},
		"gitlab/icon-mono.svg": {Data: []byte(testMono)},
		"gitea/logo.yaml":      {Data: []byte(testMeta("Gitea", "#FC6D26"))},
		"gitea/icon.svg":       {Data: []byte(testIcon)},
	}
}

func TestLoadGood(t *testing.T) {
	src, probs := Load(context.Background(), testTree(), Options{Dir: "src"})
	if len(probs) > 0 {
		t.Fatalf("unexpected problems:\n%s", probs.Error())
	}
	var got []string
	for _, l := range src.Logos {
		var vs []string
		for _, v := range Variants {
			if f := l.Variants[v]; f != nil {
				vs = append(vs, f.Path)
			}
		}
		got = append(got, l.Slug+" "+l.Meta.Path+" "+strings.Join(vs, ","))
	}
	want := []string{
		"gitea src/gitea/logo.yaml src/gitea/icon.svg",
		"gitlab src/gitlab/logo.yaml src/gitlab/icon.svg,src/gitlab/icon-mono.svg",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("logos mismatch (-want +got):\n%s", diff)
	}
	if src.Categories == nil || src.Categories.Path != "src/categories.yaml" {
		t.Errorf("categories not loaded: %+v", src.Categories)
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(fstest.MapFS)
		want   []string
	}{
		{"unexpected files", func(m fstest.MapFS) {
			m["gitlab/icon_dark.svg"] = &fstest.MapFile{Data: []byte(testIcon)}
			m["gitlab/Icon.svg"] = &fstest.MapFile{Data: []byte(testIcon)}
			m["gitlab/notes.txt"] = &fstest.MapFile{Data: []byte("hi")}
			m["gitlab/logo.yml"] = &fstest.MapFile{Data: []byte("hi")}
		}, []string{
			"src/gitlab/Icon.svg: unexpected file; did you mean icon.svg? a logo folder holds only logo.yaml, icon.svg, icon-mono.svg, icon-dark.svg, wordmark.svg and wordmark-dark.svg",
			"src/gitlab/icon_dark.svg: unexpected file; did you mean icon-dark.svg? a logo folder holds only logo.yaml, icon.svg, icon-mono.svg, icon-dark.svg, wordmark.svg and wordmark-dark.svg",
			"src/gitlab/logo.yml: unexpected file; did you mean logo.yaml? a logo folder holds only logo.yaml, icon.svg, icon-mono.svg, icon-dark.svg, wordmark.svg and wordmark-dark.svg",
			"src/gitlab/notes.txt: unexpected file; a logo folder holds only logo.yaml, icon.svg, icon-mono.svg, icon-dark.svg, wordmark.svg and wordmark-dark.svg",
		}},
		{"missing icon and logo.yaml", func(m fstest.MapFS) {
			delete(m, "gitlab/icon.svg")
			delete(m, "gitlab/logo.yaml")
		}, []string{
			"src/gitlab/icon.svg: missing; every logo needs icon.svg",
			"src/gitlab/logo.yaml: missing; every logo folder needs a logo.yaml (run: logoindex new gitlab -name ... -hex ... -category ...)",
		}},
		{"bad slugs", func(m fstest.MapFS) {
			for _, dir := range []string{"GitHub", "git.hub", "..hidden", "git hub", "git--hub", "gіthub" /* Cyrillic і */, strings.Repeat("a", 65)} {
				m[dir+"/logo.yaml"] = &fstest.MapFile{Data: []byte(testMeta("X", "#000000"))}
			}
		}, []string{
			`src/..hidden: folder name is not a valid slug (lower-case letters, digits and single hyphens: ^[a-z0-9]+(-[a-z0-9]+)*$); rename it, for example to "hidden"`,
			`src/GitHub: folder name is not a valid slug (lower-case letters, digits and single hyphens: ^[a-z0-9]+(-[a-z0-9]+)*$); rename it, for example to "github"`,
			"src/" + strings.Repeat("a", 65) + ": folder name is 65 characters; a slug has at most 64",
			`src/git hub: folder name is not a valid slug (lower-case letters, digits and single hyphens: ^[a-z0-9]+(-[a-z0-9]+)*$); rename it, for example to "git-hub"`,
			`src/git--hub: folder name is not a valid slug (lower-case letters, digits and single hyphens: ^[a-z0-9]+(-[a-z0-9]+)*$); rename it, for example to "git-hub"`,
			`src/git.hub: folder name is not a valid slug (lower-case letters, digits and single hyphens: ^[a-z0-9]+(-[a-z0-9]+)*$); rename it, for example to "git-hub"`,
			`src/gіthub: folder name has the non-ASCII character 'і' (U+0456); slugs use only a-z, 0-9 and hyphens, and look-alike letters are refused`,
		}},
		{"symlinks are refused", func(m fstest.MapFS) {
			m["linked"] = &fstest.MapFile{Data: []byte("/etc"), Mode: fs.ModeSymlink}
			m["gitlab/wordmark.svg"] = &fstest.MapFile{Data: []byte("../../secret.svg"), Mode: fs.ModeSymlink}
		}, []string{
			"src/gitlab/wordmark.svg: is a symbolic link; links are never followed: replace it with the real file",
			"src/linked: is a symbolic link; links are never followed: replace it with the real folder or file",
		}},
		{"logo.yaml is a folder", func(m fstest.MapFS) {
			delete(m, "gitlab/logo.yaml")
			m["gitlab/logo.yaml/x"] = &fstest.MapFile{Data: []byte("x")}
		}, []string{"src/gitlab/logo.yaml: is a folder; logo.yaml must be a file"}},
		{"sub-folder", func(m fstest.MapFS) {
			m["gitlab/old/icon.svg"] = &fstest.MapFile{Data: []byte(testIcon)}
		}, []string{"src/gitlab/old: unexpected folder; a logo folder holds only logo.yaml, icon.svg, icon-mono.svg, icon-dark.svg, wordmark.svg and wordmark-dark.svg"}},
		{"stray file at the top", func(m fstest.MapFS) {
			m["README.md"] = &fstest.MapFile{Data: []byte("x")}
		}, []string{"src/README.md: unexpected file; the source folder holds only categories.yaml, .logoindexignore and one folder per logo"}},
		{"folders differing only in case", func(m fstest.MapFS) {
			m["GitLab/logo.yaml"] = &fstest.MapFile{Data: []byte(testMeta("X", "#000000"))}
		}, []string{`src/GitLab: folder name differs from "gitlab" only in case; slugs are lower case: merge the two folders`}},
		{"no categories.yaml", func(m fstest.MapFS) {
			delete(m, "categories.yaml")
		}, []string{"src/categories.yaml: missing; create it with the list of categories (- {slug: devtools, name: Developer tools})"}},
		{"oversized files", func(m fstest.MapFS) {
			m["gitlab/wordmark.svg"] = &fstest.MapFile{Data: make([]byte, MaxSVGSize+1)}
			m["gitlab/logo.yaml"] = &fstest.MapFile{Data: make([]byte, 10<<20)}
		}, []string{
			"src/gitlab/logo.yaml: is 10 MiB; the limit is 64 KiB",
			"src/gitlab/wordmark.svg: is 524289 bytes; the limit is 512 KiB",
		}},
		{"large SVG", func(m fstest.MapFS) {
			m["gitlab/wordmark.svg"] = &fstest.MapFile{Data: make([]byte, LargeSVGSize+1)}
		}, []string{"src/gitlab/wordmark.svg: warning: is 262145 bytes, over 256 KiB; a logo rarely needs that much: it may want re-exporting with simpler paths and no embedded images or fonts"}},
		{"special files are never opened", func(m fstest.MapFS) {
			// specialFS fails the test if any of these is opened.
			m["gitlab/wordmark.svg"] = &fstest.MapFile{Mode: fs.ModeNamedPipe}
			m["gitlab/icon-dark.svg"] = &fstest.MapFile{Mode: fs.ModeSocket}
			m["gitea/logo.yaml"] = &fstest.MapFile{Mode: fs.ModeDevice | fs.ModeCharDevice}
			m["categories.yaml"] = &fstest.MapFile{Mode: fs.ModeIrregular}
		}, []string{
			"src/categories.yaml: is a special file, not a regular file; it was not opened: replace it with a regular file",
			"src/gitea/logo.yaml: is a device, not a regular file; it was not opened: replace it with a regular file",
			"src/gitlab/icon-dark.svg: is a socket, not a regular file; it was not opened: replace it with a regular file",
			"src/gitlab/wordmark.svg: is a named pipe (FIFO), not a regular file; it was not opened: replace it with a regular file",
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
		}, []string{"src/gitlab/notes.md: unexpected file; a logo folder holds only logo.yaml, icon.svg, icon-mono.svg, icon-dark.svg, wordmark.svg and wordmark-dark.svg"}},
		{"a pattern that hides a source file", func(m fstest.MapFS) {
			m[".logoindexignore"] = &fstest.MapFile{Data: []byte("icon-*.svg\ncategories.*\n")}
		}, []string{
			`src/categories.yaml: is a source file, but src/.logoindexignore:2 pattern "categories.*" ignores it; change the pattern so that it leaves categories.yaml alone`,
			`src/gitlab/icon-mono.svg: is a source file, but src/.logoindexignore:1 pattern "icon-*.svg" ignores it; change the pattern so that it leaves icon-mono.svg alone`,
		}},
		{"an invalid pattern", func(m fstest.MapFS) {
			m[".logoindexignore"] = &fstest.MapFile{Data: []byte("*.orig\n  wip-[0-9\n")}
			m["gitlab/icon.svg.orig"] = &fstest.MapFile{Data: []byte("x")}
		}, []string{`src/.logoindexignore:2:7: pattern "wip-[0-9" has a [ without its closing ]; close the class, or write \[ for a bracket`}},
		{"a linked ignore file", func(m fstest.MapFS) {
			m[".logoindexignore"] = &fstest.MapFile{Data: []byte("/etc/passwd"), Mode: fs.ModeSymlink}
		}, []string{"src/.logoindexignore: is a symbolic link; links are never followed: replace it with the real file"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := testTree()
			tc.change(m)
			_, probs := Load(context.Background(), noSpecialOpen{t, m}, Options{Dir: "src"})
			probs.Sort()
			if diff := cmp.Diff(tc.want, problemStrings(probs)); diff != "" {
				t.Errorf("problems mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestLoadReportIgnored checks that ignored files become warnings when
// asked (check -strict), and are still never read.
func TestLoadReportIgnored(t *testing.T) {
	m := testTree()
	m[".logoindexignore"] = &fstest.MapFile{Data: []byte("*.orig\n")}
	m[".DS_Store"] = &fstest.MapFile{Mode: fs.ModeNamedPipe}
	m["gitlab/.#logo.yaml"] = &fstest.MapFile{Data: []byte("user@host.1234"), Mode: fs.ModeSymlink}
	m["gitea/icon.svg.orig"] = &fstest.MapFile{Mode: fs.ModeNamedPipe}
	_, probs := Load(context.Background(), noSpecialOpen{t, m}, Options{Dir: "src", ReportIgnored: true})
	probs.Sort()
	want := []string{
		`src/.DS_Store: warning: ignored by default pattern "**/.DS_Store"; remove it from the repository`,
		`src/gitea/icon.svg.orig: warning: ignored by src/.logoindexignore:1 pattern "*.orig"; remove it from the repository`,
		`src/gitlab/.#logo.yaml: warning: ignored by default pattern "**/.#*"; remove it from the repository`,
	}
	if diff := cmp.Diff(want, problemStrings(probs)); diff != "" {
		t.Errorf("problems mismatch (-want +got):\n%s", diff)
	}
}

// TestVariantGlobs: a files: key that is a glob gives its override to
// every variant of the logo it matches, and to no other.
func TestVariantGlobs(t *testing.T) {
	m := testTree()
	m["gitlab/wordmark.svg"] = &fstest.MapFile{Data: []byte(testIcon)}
	m["gitlab/wordmark-dark.svg"] = &fstest.MapFile{Data: []byte(testIcon)}
	m["gitlab/logo.yaml"].Data = []byte(testMeta("GitLab", "#FC6D26") + "files:\n  wordmark*: {source: https://example.com/wordmark, license: MIT}\n  \"icon-m?no\": {license: Apache-2.0}\n")
	src, probs := Load(context.Background(), m, Options{Dir: "src"})
	col, p := Validate(context.Background(), src, Options{})
	if probs = append(probs, p...); len(probs.Errors()) > 0 {
		t.Fatal(probs)
	}
	got := map[string]FileMeta{}
	for _, v := range col.Logos[1].Variants {
		got[v.Variant] = v.Meta
	}
	def := FileMeta{Source: "https://example.com/press", License: "CC0-1.0"}
	want := map[string]FileMeta{
		"icon":          def,
		"icon-mono":     {Source: "https://example.com/press", License: "Apache-2.0"},
		"wordmark":      {Source: "https://example.com/wordmark", License: "MIT"},
		"wordmark-dark": {Source: "https://example.com/wordmark", License: "MIT"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("file metadata of %s (-want +got):\n%s", col.Logos[1].Slug, diff)
	}
}

// TestLoadSelect: patterns select the logos read in full; the others give
// only their logo.yaml, and their broken SVGs are never read.
func TestLoadSelect(t *testing.T) {
	m := testTree()
	m["gitea/icon.svg"] = &fstest.MapFile{Mode: fs.ModeNamedPipe}
	src, probs := Load(context.Background(), noSpecialOpen{t, m}, Options{Dir: "src", Logos: []string{"gitl*"}})
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	var got []string
	for _, l := range src.Logos {
		got = append(got, "selected "+l.Slug+" "+l.Meta.Path+" "+strconv.Itoa(len(l.Variants)))
	}
	for _, l := range src.Others {
		got = append(got, "other "+l.Slug+" "+l.Meta.Path+" "+strconv.Itoa(len(l.Variants)))
	}
	want := []string{"selected gitlab src/gitlab/logo.yaml 2", "other gitea src/gitea/logo.yaml 0"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestValidateRules covers the checks that need the whole logo: categories,
// file overrides, components and the dark-background warnings.
func TestValidateRules(t *testing.T) {
	dark := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="#181717"><path d="M0 0h24v24H0z"/></svg>`
	light := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="#FFFFFF"><path d="M0 0h24v24H0z"/></svg>`
	wordmarkBlack := `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 24"><path fill="#FC6D26" d="M0 0h24v24H0z"/><text x="30" y="20">GitLab</text></svg>`
	for _, tc := range []struct {
		name   string
		change func(fstest.MapFS)
		want   []string
	}{
		{"valid tree", func(fstest.MapFS) {}, nil},
		{"unknown category", func(m fstest.MapFS) {
			m["gitlab/logo.yaml"].Data = []byte(strings.Replace(testMeta("GitLab", "#FC6D26"), "[devtools]", "[devtools, dev-tools]", 1))
		}, []string{`src/gitlab/logo.yaml:3:24: unknown category "dev-tools"; did you mean "devtools"? Use a slug from categories.yaml or add the category there`}},
		{"reserved slug", func(m fstest.MapFS) {
			for name, f := range m {
				if rest, ok := strings.CutPrefix(name, "gitlab/"); ok {
					m["registry/"+rest] = f
					delete(m, name)
				}
			}
		}, []string{`src/registry: slug "registry" would write r/registry.json, which collides with the collection's r/registry.json; rename the folder`}},
		{"override for a missing file", func(m fstest.MapFS) {
			m["gitlab/logo.yaml"].Data = []byte(testMeta("GitLab", "#FC6D26") + "files:\n  wordmark: {license: MIT}\n")
		}, []string{"src/gitlab/logo.yaml:7:3: files.wordmark describes wordmark.svg, which this logo does not have; add the file or remove the entry"}},
		{"a variant glob that matches none of the files", func(m fstest.MapFS) {
			m["gitlab/logo.yaml"].Data = []byte(testMeta("GitLab", "#FC6D26") + "files:\n  wordmark*: {license: MIT}\n")
		}, []string{"src/gitlab/logo.yaml:7:3: files.wordmark* matches none of this logo's files (it has icon.svg, icon-mono.svg); add the file or remove the entry"}},
		{"two keys describe one variant", func(m fstest.MapFS) {
			m["gitlab/logo.yaml"].Data = []byte(testMeta("GitLab", "#FC6D26") + "files:\n  icon*: {license: MIT}\n  icon-mono: {license: MIT}\n  \"{icon,wordmark}\": {license: MIT}\n")
		}, []string{
			"src/gitlab/logo.yaml:8:3: files.icon* and files.icon-mono both describe icon-mono.svg; keep one entry for each file",
			"src/gitlab/logo.yaml:9:3: files.icon* and files.{icon,wordmark} both describe icon.svg; keep one entry for each file",
		}},
		{"two logos with one name", func(m fstest.MapFS) {
			m["gitea/logo.yaml"].Data = []byte(testMeta("GitLab", "#FC6D26")) // GiteaIcon: the name does not spell the slug
		}, nil},
		{"component set to another's default", func(m fstest.MapFS) {
			m["gitea/logo.yaml"].Data = []byte(testMeta("Gitea", "#FC6D26") + "component: GitLabIcon\n")
		}, []string{"src/gitlab/logo.yaml: default component name GitLabIcon is also gitea's; set component: to a unique name, for example GitlabIcon"}},
		{"two defaults from slugs that differ in hyphens", func(m fstest.MapFS) {
			m["git-lab/logo.yaml"] = &fstest.MapFile{Data: []byte(testMeta("Git Lab", "#FC6D26"))}
			m["git-lab/icon.svg"] = &fstest.MapFile{Data: []byte(testIcon)}
		}, []string{"src/gitlab/logo.yaml: default component name GitLabIcon is also git-lab's; set component: to a unique name, for example GitlabIcon"}},
		{"the suggestion is free", func(m fstest.MapFS) {
			m["git-lab/logo.yaml"] = &fstest.MapFile{Data: []byte(testMeta("Git Lab", "#FC6D26"))}
			m["git-lab/icon.svg"] = &fstest.MapFile{Data: []byte(testIcon)}
			m["gitea/logo.yaml"].Data = []byte(testMeta("Gitea", "#FC6D26") + "component: GitlabIcon\n")
		}, []string{"src/gitlab/logo.yaml: default component name GitLabIcon is also git-lab's; set component: to a unique name, for example Gitlab2Icon"}},
		{"component named like the template's React", func(m fstest.MapFS) {
			m["gitlab/logo.yaml"].Data = []byte(testMeta("GitLab", "#FC6D26") + "component: React\n")
		}, []string{"src/gitlab/logo.yaml:6:12: component name React is a name the component template uses; set component: to a unique name, for example GitlabIcon"}},
		{"component named like a global the template uses", func(m fstest.MapFS) {
			m["gitlab/logo.yaml"].Data = []byte(testMeta("GitLab", "#FC6D26") + "component: Boolean\n")
		}, []string{"src/gitlab/logo.yaml:6:12: component name Boolean is a name the component template uses; set component: to a unique name, for example GitlabIcon"}},
		{"component whose Props type is the template's", func(m fstest.MapFS) {
			m["gitlab/logo.yaml"].Data = []byte(testMeta("GitLab", "#FC6D26") + "component: SVG\n")
		}, []string{"src/gitlab/logo.yaml:6:12: component name SVG declares SVGProps, which is a name the component template uses; set component: to a unique name, for example GitlabIcon"}},
		{"component whose Props type is another's component", func(m fstest.MapFS) {
			m["gitea/logo.yaml"].Data = []byte(testMeta("Gitea", "#FC6D26") + "component: GitProps\n")
			m["gitlab/logo.yaml"].Data = []byte(testMeta("GitLab", "#FC6D26") + "component: Git\n")
		}, []string{"src/gitlab/logo.yaml:6:12: component name Git declares GitProps, which is also gitea's; set component: to a unique name, for example GitlabIcon"}},
		{"dark brand colour without icon-dark", func(m fstest.MapFS) {
			m["gitlab/logo.yaml"].Data = []byte(testMeta("GitLab", "#181717"))
			m["gitlab/icon.svg"].Data = []byte(dark)
		}, []string{"src/gitlab/logo.yaml:2:6: warning: brand colour #181717 has a contrast ratio of 1.06:1 against a dark page (#0D1117), below 3:1; add icon-dark.svg, a variant that reads on dark backgrounds"}},
		{"dark brand colour with icon-dark", func(m fstest.MapFS) {
			m["gitlab/logo.yaml"].Data = []byte(testMeta("GitLab", "#181717"))
			m["gitlab/icon.svg"].Data = []byte(dark)
			m["gitlab/icon-dark.svg"] = &fstest.MapFile{Data: []byte(light)}
		}, nil},
		{"wordmark black text without wordmark-dark", func(m fstest.MapFS) {
			m["gitlab/wordmark.svg"] = &fstest.MapFile{Data: []byte(wordmarkBlack)}
		}, []string{"src/gitlab/wordmark.svg:1:102: warning: wordmark paints (default black), contrast 1.11:1 against a dark page (#0D1117), below 3:1; add wordmark-dark.svg, a variant that reads on dark backgrounds"}},
		{"wordmark with wordmark-dark", func(m fstest.MapFS) {
			m["gitlab/wordmark.svg"] = &fstest.MapFile{Data: []byte(wordmarkBlack)}
			m["gitlab/wordmark-dark.svg"] = &fstest.MapFile{Data: []byte(light)}
		}, nil},
		{"icon never paints the brand colour", func(m fstest.MapFS) {
			m["gitlab/icon.svg"].Data = []byte(light)
		}, []string{"src/gitlab/logo.yaml:2:6: warning: icon.svg never paints the brand colour #FC6D26 (it paints #FFFFFF); check hex or the artwork"}},
		{"every problem of every logo at once", func(m fstest.MapFS) {
			m["gitlab/icon.svg"].Data = []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" onload="x()"><script/></svg>`)
			m["gitlab/icon-mono.svg"].Data = []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1" fill="red"/>`)
			m["gitea/logo.yaml"].Data = []byte(strings.Replace(testMeta("Gitea", "#FC6D26"), "CC0-1.0", "Apache 2.0", 1))
		}, []string{
			`src/gitea/logo.yaml:5:10: license "Apache 2.0" is not an SPDX identifier; did you mean "Apache-2.0"?`,
			"src/gitlab/icon-mono.svg:1:59: icon-mono paints fill: red; every paint must be currentColor, none or transparent",
			"src/gitlab/icon.svg:1:59: event handler attribute onload is not allowed on <svg>; remove it",
			"src/gitlab/icon.svg:1:72: <script> is not allowed: it can run script; remove it",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := testTree()
			tc.change(m)
			_, err := Build(context.Background(), m, Options{Dir: "src"})
			var got []string
			switch e := err.(type) {
			case nil:
			case ProblemList:
				got = problemStrings(e)
			default:
				t.Fatalf("Build: %v", err)
			}
			if err == nil {
				res, _ := Build(context.Background(), m, Options{Dir: "src"})
				got = problemStrings(res.Warnings)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("problems mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// noSpecialOpen is a file system that fails the test when a file that is
// not a regular file is opened: Load must refuse those from their
// directory entry.
type noSpecialOpen struct {
	t *testing.T
	fstest.MapFS
}

func (f noSpecialOpen) Open(name string) (fs.File, error) {
	if mf, ok := f.MapFS[name]; ok && !mf.Mode.IsRegular() && !mf.Mode.IsDir() {
		f.t.Errorf("Load opened %s, a special file", name)
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
			got, err := readToEnd(wrap(strings.NewReader(tc.data)), tc.size, limit)
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
	if _, err := readToEnd(iotest.TimeoutReader(iotest.OneByteReader(strings.NewReader("<svg/>"))), 6, limit); err != iotest.ErrTimeout {
		t.Errorf("a failing read gave %v, want %v", err, iotest.ErrTimeout)
	}
}
