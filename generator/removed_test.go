package generator

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/render"
	"logoindex/internal/testtree"
)

// removedSource is the golden sources with night-owl removed: replaced by
// acme, and a logo "old" withdrawn.
func removedSource(t *testing.T) string {
	t.Helper()
	src := copyDir(t, "testdata/golden/src")
	if err := os.RemoveAll(filepath.Join(src, "night-owl")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(src, "removed.yaml"), []byte(`- slug: night-owl
  replaced_by: acme
  removed: 2026-11-28
  reason: Renamed.
- {slug: old, removed: 2026-01-02}
`))
	return src
}

// TestRemovedLogos: a removed logo's detail URL answers with a tombstone,
// the index lists it, a replaced logo's SVG URLs serve its replacement's
// files, its page leads to the replacement's, and _redirects sends its
// URLs there; a withdrawn logo has no SVG any more.
func TestRemovedLogos(t *testing.T) {
	src := removedSource(t)
	tree, _ := buildTree(t, os.DirFS(src), Options{Render: render.Options{BaseURL: "https://cdn.example/x"}})
	var tomb render.Tombstone
	if err := json.Unmarshal([]byte(tree["api/logos/night-owl.json"]), &tomb); err != nil {
		t.Fatal(err)
	}
	want := render.Tombstone{Slug: "night-owl", Removed: "2026-11-28", ReplacedBy: "acme", Replacement: "https://cdn.example/x/api/logos/acme.json", Reason: "Renamed."}
	if diff := cmp.Diff(want, tomb); diff != "" {
		t.Errorf("tombstone (-want +got):\n%s", diff)
	}
	if got := tree["api/logos/old.json"]; got != `{"slug":"old","removed":"2026-01-02"}`+"\n" {
		t.Errorf("withdrawn tombstone: %s", got)
	}
	var idx render.Index
	if err := json.Unmarshal([]byte(tree["api/logos.json"]), &idx); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]render.Tombstone{want, {Slug: "old", Removed: "2026-01-02"}}, idx.Removed); diff != "" {
		t.Errorf("the index's removed list (-want +got):\n%s", diff)
	}
	for _, l := range idx.Logos {
		if l.Slug == "night-owl" || l.Slug == "old" {
			t.Errorf("the index lists the removed %s as a logo", l.Slug)
		}
	}
	for _, v := range []string{"icon", "icon-mono", "wordmark"} {
		old, ok := tree["logos/night-owl/"+v+".svg"]
		if !ok || old != tree["logos/acme/"+v+".svg"] {
			t.Errorf("logos/night-owl/%s.svg is not acme's (present %v)", v, ok)
		}
	}
	for name := range tree {
		if strings.HasPrefix(name, "logos/old/") && name != "logos/old/index.html" || strings.HasPrefix(name, "r/old") || strings.HasPrefix(name, "r/night-owl") {
			t.Errorf("a removed logo has %s", name)
		}
	}
	if got, want := tree["_redirects"], "/x/logos/night-owl/* /x/logos/acme/:splat 301\n"; got != want {
		t.Errorf("_redirects = %q, want %q", got, want)
	}
	page := tree["logos/night-owl/index.html"]
	for _, s := range []string{`<meta http-equiv=refresh content="0; url=../acme/">`, `<a href=../acme/>Acme & Co.</a>`, "Renamed.", "2026-11-28"} {
		if !strings.Contains(page, s) {
			t.Errorf("the removed logo's page lacks %q:\n%s", s, page)
		}
	}
	if old := tree["logos/old/index.html"]; strings.Contains(old, "refresh") || !strings.Contains(old, "no longer published") {
		t.Errorf("the withdrawn logo's page:\n%s", old)
	}
	for _, name := range []string{"index.html", "r/registry.json", "sitemap.xml"} {
		if strings.Contains(tree[name], "night-owl") || strings.Contains(tree[name], `"old"`) {
			t.Errorf("%s names a removed logo", name)
		}
	}
}

// TestRemovedRebuilds: the copies at a replaced logo's address follow the
// replacement's artwork, and removed.yaml's edits follow too, as a clean
// build has them.
func TestRemovedRebuilds(t *testing.T) {
	src := removedSource(t)
	out := filepath.Join(t.TempDir(), "dist")
	opts := Options{Out: out, Render: render.Options{BaseURL: "https://cdn.example/x"}}
	buildTree(t, os.DirFS(src), opts)
	for _, edit := range []func(){
		func() { editFile(t, filepath.Join(src, "acme/icon.svg"), `fill="#FF5500"`, `fill="#FF5501"`) },
		func() { editFile(t, filepath.Join(src, "removed.yaml"), "Renamed.", "Renamed again.") },
		func() { editFile(t, filepath.Join(src, "acme/logo.yaml"), "name: Acme & Co.", "name: Acme") },
	} {
		edit()
		got, _ := buildTree(t, os.DirFS(src), opts)
		if diff := cmp.Diff(incClean(t, src, opts).tree, testtree.Read(t, out)); diff != "" {
			t.Errorf("after an edit, the rebuild differs from a clean build (-clean +rebuild):\n%s", diff)
		}
		if got["logos/night-owl/icon.svg"] != got["logos/acme/icon.svg"] {
			t.Error("the replaced logo's icon is not its replacement's")
		}
	}
}
