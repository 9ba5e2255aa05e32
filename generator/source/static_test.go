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
