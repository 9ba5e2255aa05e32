package generator

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/buildcache"
	"logoindex/generator/internal/digest"
	"logoindex/generator/internal/wire"
	"logoindex/generator/outtree"
	"logoindex/internal/testtree"
)

// incForgeLog rewrites the build log of out with logo slug's record made
// by forge from the one it holds, and the log dated an hour ahead, so
// that every source stands by its stat.
func incForgeLog(t *testing.T, out, slug string, forge func(rec *logoRecord) []byte) {
	t.Helper()
	path := filepath.Join(outtree.StateDir(out), "cache")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	i := bytes.IndexByte(data, '\n')
	d, err := wire.OpenFile(data, string(data[:i+1]))
	if err != nil {
		t.Fatal(err)
	}
	c := buildcache.Open(path, strings.Clone(d.String()))
	defer c.Close()
	e, ok := c.Get(slug)
	if !ok {
		t.Fatalf("the log holds no %s", slug)
	}
	rec, err := decodeRecord(e.Data, "src")
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Put(slug, buildcache.Entry{Folder: e.Folder, Inputs: e.Inputs, Data: string(forge(rec))}); err != nil {
		t.Fatal(err)
	}
	c.Keep("")
	for _, k := range []string{"acme", "night-owl"} {
		c.Keep(k)
	}
	if err := c.Save(time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
}

// TestForgedLog builds with a build log whose record of a logo, under a
// right checksum, names a file outside the tree, as a log restored from
// an untrusted cache could: the record is no entry. Every build writes a
// clean build's tree and touches nothing outside it.
func TestForgedLog(t *testing.T) {
	for _, name := range []string{"../victim", "logos/acme/../../../victim", "/victim", "", "logos/acme/./icon.svg"} {
		t.Run(name, func(t *testing.T) {
			src := copyDir(t, "testdata/golden/src")
			dir := t.TempDir()
			out := filepath.Join(dir, "dist")
			victim := filepath.Join(dir, "victim")
			writeFile(t, victim, []byte("keep me"))
			opts := Options{Dir: "src", Out: out}
			if _, err := Build(context.Background(), os.DirFS(src), opts); err != nil {
				t.Fatal(err)
			}
			incForgeLog(t, out, "acme", func(rec *logoRecord) []byte {
				rec.files = append(rec.files, fileDigest{name: name, sum: digest.OfString("keep me")})
				b, err := rec.encode("src")
				if err != nil {
					t.Fatal(err)
				}
				return b
			})
			for i := range 3 {
				if i == 1 {
					editFile(t, filepath.Join(src, "night-owl/logo.yaml"), "name: Night Owl", "name: Night Owls")
				}
				res, err := Build(context.Background(), os.DirFS(src), opts)
				if err != nil {
					t.Fatalf("build %d: %v", i, err)
				}
				clean := incClean(t, src, opts)
				if diff := cmp.Diff(clean.tree, testtree.Read(t, out)); diff != "" {
					t.Errorf("build %d: the output differs from a clean build's (-clean +got):\n%s", i, diff)
				}
				if res.Files != clean.files {
					t.Errorf("build %d: %d files, a clean build %d", i, res.Files, clean.files)
				}
				if b, err := os.ReadFile(victim); err != nil || string(b) != "keep me" {
					t.Fatalf("build %d: the victim holds %q (%v)", i, b, err)
				}
			}
		})
	}
}
