package source

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/problem"
)

// TestStatic: the files of StaticDir are read by their paths, and what
// would make a build copy too much, or follow a link, is a problem of the
// file that passes the limit.
func TestStatic(t *testing.T) {
	big := strings.Repeat("x", MaxStaticSize)
	many := fstest.MapFS{}
	for i := range MaxStaticFiles + 1 {
		many[fmt.Sprintf("_static/f%04d", i)] = &fstest.MapFile{Data: []byte("x")}
	}
	heavy := fstest.MapFS{}
	for i := range MaxStaticTotal/MaxStaticSize + 1 {
		heavy[fmt.Sprintf("_static/f%d", i)] = &fstest.MapFile{Data: []byte(big)}
	}
	deep := "_static/" + strings.Repeat("d/", maxStaticDepth) + "f"
	tests := []struct {
		name      string
		fsys      fstest.MapFS
		wantFiles int
		wantProbs []string
	}{
		{"files", fstest.MapFS{
			"_static/CNAME":                    {Data: []byte("logos.example.com")},
			"_static/.well-known/security.txt": {Data: []byte("Contact: x")},
		}, 2, nil},
		{"link", fstest.MapFS{
			"_static/CNAME": {Data: []byte("/etc/passwd"), Mode: fs.ModeSymlink},
		}, 0, []string{"src/_static/CNAME: is a symbolic link; links are never followed: replace it with the real folder or file"}},
		{"a file too large", fstest.MapFS{
			"_static/big": {Data: []byte(big + "x")},
		}, 0, []string{"src/_static/big: is 10485761 bytes; the limit is 10 MiB"}},
		{"too many files", many, MaxStaticFiles, []string{"src/_static/f1000: _static holds more than 1000 files; a site needs a few beside the index"}},
		{"too many bytes", heavy, MaxStaticTotal / MaxStaticSize, []string{"src/_static/f5: takes _static past 50 MiB in all; keep large downloads elsewhere"}},
		{"too deep", fstest.MapFS{deep: {Data: []byte("x")}}, 0, []string{"src/_static/d/d/d/d/d/d/d/d: is 9 folders deep in _static; at most 8 are copied"}},
		{"the places build and publish keep", fstest.MapFS{
			"_static/v/1.0.0/api/logos.json":                        {Data: []byte("{}")},
			"_static/api/README.txt":                                {Data: []byte("x")},
			"_static/.logoindex-publish.lease/00000000000000009999": {Data: []byte("{}")},
			"_static/.logoindex-publish.json":                       {Data: []byte("{}")},
			"_static/brand/api/kit.txt":                             {Data: []byte("a folder of its own may hold any name")},
			"_static/index.html/x":                                  {Data: []byte("x")},
			"_static/red\x1b[31m\rname":                             {Data: []byte("x")},
			"_static/gnp.\u202eexe":                                 {Data: []byte("x")},
		}, 1, []string{
			"src/_static/.logoindex-publish.json: names the state that build and publish keep (.logoindex-*); rename it",
			"src/_static/.logoindex-publish.lease: names the state that build and publish keep (.logoindex-*); rename it",
			"src/_static/api: the build writes api/ whole; put the host's files beside it, at the top of _static or in a folder of their own",
			`src/_static/gnp.\u202eexe: has a control, invisible or direction character in its name, which would reach terminals, logs and URLs as it is; rename it`,
			"src/_static/index.html: is a folder where the build writes the file index.html; rename it",
			`src/_static/red\x1b[31m\rname: has a control, invisible or direction character in its name, which would reach terminals, logs and URLs as it is; rename it`,
			"src/_static/v: v/ holds the pinned releases, which never change; put the host's files beside it, at the top of _static or in a folder of their own",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := New(tt.fsys, Options{Dir: "src"})
			defer r.Close()
			var list problem.List
			files := r.Static(&list)
			var probs []string
			for _, p := range list {
				probs = append(probs, p.Error())
			}
			if diff := cmp.Diff(tt.wantProbs, probs); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if len(files) != tt.wantFiles {
				t.Errorf("%d files read, want %d", len(files), tt.wantFiles)
			}
		})
	}
}

// TestStaticAllowed: the places a stray file of the output can move to in
// StaticDir, and those the build and publish keep.
func TestStaticAllowed(t *testing.T) {
	for name, want := range map[string]bool{
		"CNAME": true, ".well-known/security.txt": true, "brand/api/kit.txt": true, "index.html": true,
		"api/logos.json.bak": false, "logos/acme/notes.txt": false, "v/1.0.0/x": false,
		".logoindex-publish.json": false, "index.html/x": false, "a\x1bb": false,
	} {
		if got := StaticAllowed(name); got != want {
			t.Errorf("StaticAllowed(%q) = %v, want %v", name, got, want)
		}
	}
}
