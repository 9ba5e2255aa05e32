package generator

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/render"
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
		got, _ := buildTree(t, os.DirFS(src), opts)
		clean := opts
		clean.Out, clean.Rebuild = "", true
		want, _ := buildTree(t, os.DirFS(src), clean)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("after an edit of _static, the rebuild differs from a clean build (-clean +rebuild):\n%s", diff)
		}
	}
}
