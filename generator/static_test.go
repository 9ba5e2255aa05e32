package generator

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/problem"
	"logoindex/generator/render"
	"logoindex/internal/testtree"
)

// TestStaticFiles: the files of _static/ land at the root of the output
// as they are, hidden folders included; an edit or a removal there
// follows on the next build, as a clean build has it.
func TestStaticFiles(t *testing.T) {
	src := copyDir(t, "testdata/golden/src")
	files := map[string]string{
		"robots.txt":               "User-agent: *\nAllow: /\n",
		".well-known/security.txt": "Contact: mailto:security@example.com\n",
		"CNAME":                    "logos.example.com",
		"brand/kit/readme.md":      "# Kit\n",
	}
	for name, data := range files {
		writeFile(t, filepath.Join(src, "_static", name), []byte(data))
	}
	out := filepath.Join(t.TempDir(), "dist")
	opts := Options{Out: out, Render: render.Options{BaseURL: "https://cdn.example/x"}}
	got, _ := buildTree(t, os.DirFS(src), opts)
	for name, data := range files {
		if got[name] != data {
			t.Errorf("%s = %q, want %q", name, got[name], data)
		}
	}
	for _, edit := range []func(){
		func() { writeFile(t, filepath.Join(src, "_static/robots.txt"), []byte("User-agent: *\nDisallow: /\n")) },
		func() {
			if err := os.RemoveAll(filepath.Join(src, "_static/brand")); err != nil {
				t.Fatal(err)
			}
		},
	} {
		edit()
		buildTree(t, os.DirFS(src), opts)
		if diff := cmp.Diff(incClean(t, src, opts).tree, testtree.Read(t, out)); diff != "" {
			t.Errorf("after an edit of _static, the rebuild differs from a clean build (-clean +rebuild):\n%s", diff)
		}
	}
}

// TestStrictKeepsStrays: a file the user put in the output fails a
// -strict build, which then leaves the output as it was, the file
// included, rather than swap in a tree without it.
func TestStrictKeepsStrays(t *testing.T) {
	src := copyDir(t, "testdata/golden/src")
	out := filepath.Join(t.TempDir(), "dist")
	opts := Options{Out: out, Render: render.Options{BaseURL: "https://cdn.example/x"}}
	buildTree(t, os.DirFS(src), opts)
	writeFile(t, filepath.Join(out, "notes.txt"), []byte("mine"))
	writeFile(t, filepath.Join(out, "api", "logos.json.bak"), []byte("mine"))
	before := testtree.ReadFiles(t, out)
	meta := filepath.Join(src, "acme/logo.yaml")
	data, err := os.ReadFile(meta)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, meta, bytes.Replace(data, []byte("name: Acme"), []byte("name: Acme Two"), 1))
	opts.Strict = true
	_, err = Build(context.Background(), os.DirFS(src), opts)
	var probs ProblemList
	if !errors.As(err, &probs) || len(probs) != 2 || probs[0].Code != problem.OutputStray {
		t.Fatalf("Build -strict with two stray files: %v, want two output-stray warnings", err)
	}
	// Each says where such a file belongs: _static/, or, under a folder
	// the build keeps, elsewhere.
	for i, want := range []string{"the build keeps this place for its own files", "to publish it, put it in _static/notes.txt"} {
		if !strings.Contains(probs[i].Error(), want) {
			t.Errorf("%s\nwant it to say %q", probs[i].Error(), want)
		}
	}
	if diff := cmp.Diff(before, testtree.ReadFiles(t, out)); diff != "" {
		t.Errorf("a failed -strict build changed the output (-before +after):\n%s", diff)
	}
}
