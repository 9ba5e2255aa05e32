package generator

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"logoindex/generator/render"
)

// TestSkeletonsAreTheTemplates builds the shipped collection and the
// golden sources with the embedded templates, whose logo pages, gallery
// cards and components are filled into skeletons, and with a copy of the
// same templates from disk, which are executed for every page: the trees
// must be the same, byte for byte.
func TestSkeletonsAreTheTemplates(t *testing.T) {
	srcs := []string{"testdata/golden/src", "../source-logos"}
	if testing.Short() {
		srcs = srcs[:1] // the shipped collection takes seconds through the templates
	}
	for _, src := range srcs {
		for _, base := range []string{"https://logos.example.com", "", "http://localhost:8080/a b"} {
			opts := Options{Render: render.Options{BaseURL: base}}
			want, _ := buildTree(t, os.DirFS(src), opts)
			opts.Render.Templates = os.DirFS("../templates")
			got, _ := buildTree(t, os.DirFS(src), opts)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s, base %q: the skeletons' tree differs from the templates' (-skeletons +templates):\n%s", src, base, diff)
			}
		}
	}
}
